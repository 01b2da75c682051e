import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { plannedScoreKeys, scoreRequestSchema } from "@vq/score";
import { parseArgs, parseReportArgs, type CliSettings } from "../../../cli/src/args.ts";
import { parseBatchArgs } from "../../../cli/src/batch/batch-command.ts";
import { parseGpus } from "../../../cli/src/gpus/gpu-devices.ts";
import { redisConnection } from "../../../cli/src/queue/redis-connection.ts";
import { parseSubmitArgs } from "../../../cli/src/queue/submit-command.ts";
import { parseWorkerArgs } from "../../../cli/src/queue/worker-command.ts";
import { checkLadderSettings } from "../../../cli/src/ladder-command.ts";
import { scoreRequestFor } from "../../../cli/src/run-setup.ts";
import { checkThresholdMetrics } from "../../../cli/src/thresholds/threshold-expression.ts";
import { ladderRequestSchema } from "../../../score/src/ladder.ts";
import { parseRequest } from "../../../score/src/score.ts";
import { jsonCase } from "../json-case.ts";
import type { Prng } from "../prng.ts";
import { shrinkList } from "../shrink.ts";
import type { FuzzContext, FuzzTarget } from "../target.ts";
import { mutateCommandLine, validCommandLines, type CommandFiles } from "./command-lines.ts";

const SAMPLES = join(import.meta.dir, "../../../../samples");
const TWO_GPUS = [
  { busId: "0000:00:07.0", vendor: "0x10de" },
  { busId: "0000:00:08.0", vendor: "0x10de" },
];

/** The command lines' files: the sample pair and a model file in the run's temp dir, outputs in the case dir. */
export function commandFiles(ctx: FuzzContext): CommandFiles {
  return { ref: join(SAMPLES, "sample.ref.y4m"), dist: join(SAMPLES, "sample.dist.y4m"), model: join(ctx.dir, "model.json"), out: ctx.caseDir };
}

async function setup(ctx: FuzzContext): Promise<void> {
  copyFileSync(join(import.meta.dir, "../../../model/models/vmaf_v0.6.1.json"), join(ctx.dir, "model.json"));
}

export function generateArgs(rng: Prng, ctx: FuzzContext): string[] {
  const valid = rng.pick(validCommandLines(commandFiles(ctx)));
  return rng.chance(0.05) ? valid : mutateCommandLine(rng, valid);
}

/**
 * What `vq` does with a command line before it opens an input, in process: the parse, the
 * planned keys (models loaded, extractors resolved), the thresholds checked against them, the
 * raw format and the request as score() and scoreLadder() validate it, a ladder's outputs;
 * `vq report`, `vq batch`, `vq worker` and `vq submit` up to their first file or connection.
 * main.ts runs these same functions in this order (src/main.ts, ladder-command.ts).
 */
export async function planCommand(argv: readonly string[]): Promise<unknown> {
  if (argv[0] === "report") return parseReportArgs(argv.slice(1)).inputs.length;
  if (argv[0] === "batch") return parseBatchArgs(argv.slice(1)).concurrency;
  // the queue's commands up to their first connection: the arguments, the Redis URL, --gpus on a two-GPU host
  if (argv[0] === "worker") {
    const w = parseWorkerArgs(argv.slice(1));
    if (w.gpus) parseGpus(w.gpus, TWO_GPUS);
    return w.redis ? redisConnection(w.redis).port : 0;
  }
  if (argv[0] === "submit") {
    const s = parseSubmitArgs(argv.slice(1));
    return s.redis ? redisConnection(s.redis).port : 0;
  }
  return planSettings(parseArgs(argv));
}

/** The checks before scoring of one run's settings (a command line's, or a batch job's). */
export async function planSettings(s: CliSettings): Promise<unknown> {
  if (s.help || s.version) return 0;
  const keys = await plannedScoreKeys({ features: s.features, models: s.models, noPrediction: s.noPrediction });
  if (s.thresholds.length) checkThresholdMetrics(s.thresholds, keys);
  const request = scoreRequestFor(s);
  if (s.distorted.length > 1) {
    checkLadderSettings(s);
    parseRequest(ladderRequestSchema, { ...request, distorted: s.distorted });
  } else parseRequest(scoreRequestSchema, { ...request, distorted: s.distorted[0]!, align: s.align === undefined ? undefined : { search: s.align }, profileGpu: s.gpuProfile });
  return { keys: keys.length, threads: s.threads, subsample: s.subsample, frameCount: s.frameCount ?? 1, precision: s.precision === "max" ? 17 : s.precision };
}

export const argsTarget: FuzzTarget<string[]> = {
  name: "args",
  description: "command lines mutated from valid ones (unknown options, missing values, odd numbers, repeated flags, odd --model/--feature/--threshold strings), parsed and planned in process as vq does before opening an input",
  weight: 30,
  setup,
  generate: generateArgs,
  run: planCommand,
  save: jsonCase.save,
  load: (f) => jsonCase.load<string[]>(f),
  shrink: shrinkList,
};
