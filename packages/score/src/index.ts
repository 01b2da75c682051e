export { score, scoreRequestSchema } from "./score.ts";
export type { FrameScores, PooledStatistics, ScoreEvents, ScoreRequest, ScoreRun, ScoreSummary } from "./score.ts";
export { plannedScoreKeys } from "./score-keys.ts";
export { parseFeatureString } from "./feature-request.ts";
export type { FeatureRequest } from "./feature-request.ts";
export { catalogueEntry, EXTRACTORS } from "./catalogue.ts";
export { allFeatures, featureEntry, FEATURE_NAMES, resolveFeatures } from "./features.ts";
export type { ResolvedFeature } from "./features.ts";
export { chooseBackend, chooseLadderBackend, cpuBackend } from "./backend.ts";
export type { Backend, BackendChoice, BackendOptions } from "./backend.ts";
export { loadModels, modelFeatureRequests, parseModelArgument } from "./models.ts";
export type { ModelArgument } from "./models.ts";
// Frames from memory or WebCodecs, as score() takes them.
export { memoryReader, videoFrameReader } from "@vq/core";
export { ladderRequestSchema, scoreLadder } from "./ladder.ts";
export type { LadderOutcome, LadderRequest, LadderRun } from "./ladder.ts";
