import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FeatureCollector } from "@vq/core";
import { scoreModels, type LoadedModel } from "@vq/model";
import { loadModels, modelFeatureRequests, resolveFeatures, score } from "@vq/score";
import { mutateModelJson, modelText } from "./model-mutations.ts";
import type { Prng } from "../prng.ts";
import type { FuzzContext, FuzzTarget } from "../target.ts";

const MODELS = join(import.meta.dir, "../../../model/models");
const SAMPLES = join(import.meta.dir, "../../../../samples");
/** Frames of real features each loaded model predicts on. */
const FRAMES = 3;

/** Seeds: an integer and a float model, a v1 model (chroma correction, knots), a small bootstrap collection. */
let seeds: unknown[] = [];
/** Real per-frame features of the sample pair, for the models that load. */
let features: FeatureCollector | undefined;

async function setup(): Promise<void> {
  if (features) return;
  const read = (name: string) => JSON.parse(readFileSync(join(MODELS, name), "utf8")) as Record<string, unknown>;
  const bootstrap = read("vmaf_b_v0.6.3.json");
  seeds = [read("vmaf_v0.6.1.json"), read("vmaf_float_v0.6.1neg.json"), read("vmaf_v1.0.16_3d0h.json"), { 0: bootstrap["0"], 1: bootstrap["1"], 2: bootstrap["2"] }];
  const run = score({
    reference: join(SAMPLES, "sample.ref.y4m"),
    distorted: join(SAMPLES, "sample.dist.y4m"),
    backend: "cpu",
    frameCount: FRAMES,
    // (v1 models need cambi, which needs 216 rows or columns: their predictions stop at the missing feature)
    models: ["version=vmaf_v0.6.1", "version=vmaf_float_v0.6.1:name=float"],
  });
  features = (await run.result).collector;
}

export function generateModel(rng: Prng): string {
  let model = structuredClone(rng.pick(seeds));
  for (let n = 1 + rng.int(3); n > 0; n--) model = mutateModelJson(rng, model);
  return modelText(rng, model);
}

/** The models' scores on the real features (keys the model reads, nothing else), as the CLI scores them after extraction. */
function predict(models: LoadedModel[]): Record<string, number[]> {
  const c = new FeatureCollector();
  for (const { model, bootstrap } of models) {
    for (const m of [model, ...(bootstrap?.models ?? [])]) {
      for (const f of m.features) {
        for (let i = 0; i < FRAMES; i++) {
          const v = features!.get(f.key, i);
          if (v !== undefined && !c.has(f.key, i)) c.append(f.key, i, v);
        }
      }
    }
  }
  const before = new Set(c.names());
  scoreModels(models, c, { frameCount: FRAMES });
  const out: Record<string, number[]> = {};
  for (const key of c.names()) if (!before.has(key)) out[key] = Array.from({ length: FRAMES }, (_, i) => c.get(key, i)!);
  return out;
}

/** Loaded through @vq/score's model path (`path=FILE`, as --model takes it), its extractors resolved, then scored on real features. */
export async function loadAndPredict(text: string, ctx: FuzzContext): Promise<unknown> {
  await setup();
  const path = join(ctx.caseDir, "model.json");
  writeFileSync(path, text);
  try {
    const out: Record<string, unknown> = {};
    for (const options of ["", ":enable_transform:disable_clip"]) {
      const models = await loadModels([`path=${path}${options}`]);
      await resolveFeatures(modelFeatureRequests(models));
      out[options || "plain"] = predict(models);
    }
    return out;
  } finally {
    rmSync(path, { force: true });
  }
}

export const modelTarget: FuzzTarget<string> = {
  name: "model",
  description: "model files: libvmaf's JSON (numbers made NaN/Inf/1e999/-1e308/huge, fields dropped or repeated, wrong types, knots, chroma correction, bootstrap collections) and the libsvm text inside (lines, numbers, total_sv); loaded as --model path= does, then scored on real features",
  weight: 12,
  setup,
  generate: generateModel,
  run: loadAndPredict,
  save: (text) => ({ extension: "json", bytes: new TextEncoder().encode(text) }),
  load: (file) => new TextDecoder().decode(file.bytes),
};
