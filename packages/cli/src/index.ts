export { main } from "./main.ts";
export type { CliIo } from "./main.ts";
export { parseArgs, parseFeatureArgument, USAGE } from "./args.ts";
export type { CliSettings, FeatureRequest, Backend, OutputFormat } from "./args.ts";
export { FEATURES, resolveFeatures } from "./features.ts";
export { chooseBackend } from "./backend.ts";
export { score, scoreRequestSchema } from "./score.ts";
export type { FrameScores, ScoreEvents, ScoreRequest, ScoreSummary } from "./score.ts";
export { memoryReader } from "@vq/core";
