import type { PictureFormat } from "@vq/core";
import { modelScoreKeys } from "@vq/model";
import { parseRequest, planRun, scoreRequestSchema, type ScoreRequest } from "./score.ts";

const plannedSchema = scoreRequestSchema.pick({ features: true, models: true, noPrediction: true });

/**
 * The score keys a run of `request` writes (features' names as printed, then the models'
 * scores, `name=` included), known before any input is opened, so that a caller can refuse
 * a key the run will not have before scoring. Without `format`, keys that depend on the
 * input are listed as for a colour input (psnr's chroma keys, which a 4:0:0 run lacks).
 */
export async function plannedScoreKeys(request: Pick<ScoreRequest, "features" | "models" | "noPrediction">, format?: PictureFormat): Promise<string[]> {
  const plan = await planRun(parseRequest(plannedSchema, request));
  return [...plan.features.flatMap((f) => f.entry.definition.providedFeatures(f.options, format)), ...modelScoreKeys(plan.models)];
}
