import { describe, expect, test } from "bun:test";
import { CpuBackend, FeatureCollector, ResumedCollector, scoreVideos, warmUpStart, Y4mReader } from "@vq/core";
import { goldenPairs, goldenPath } from "@vq/core/golden";
import { parseFeatureString } from "./feature-request.ts";
import { resolveFeatures, type ResolvedFeature } from "./features.ts";

const pair = goldenPairs().find((p) => p.pair === "nat_576x324.x264crf30")!;
const FRAMES = 14;
const RESUME_AT = 8;

async function run(feature: ResolvedFeature, first = 0, collector = new FeatureCollector()): Promise<FeatureCollector> {
  const backend = new CpuBackend([feature.entry.cpu(feature.options)]);
  await scoreVideos(await Y4mReader.open(goldenPath(pair.reference)), await Y4mReader.open(goldenPath(pair.distorted)), backend, { frameCount: FRAMES, firstFrame: first, collector });
  return collector;
}

/**
 * Frames from RESUME_AT on, and the aggregates, of a run started at `first`, as a resumed
 * run keeps them: in a collector that has the features in their order (from the frames before).
 */
async function resumed(feature: ResolvedFeature, first: number, order: readonly string[]) {
  const kept = new FeatureCollector();
  for (const name of order) kept.reserve(name);
  await run(feature, first, new ResumedCollector(kept, RESUME_AT));
  return written(kept);
}

function written(c: FeatureCollector) {
  return { frames: Array.from({ length: FRAMES - RESUME_AT }, (_, i) => c.frame(RESUME_AT + i)), aggregates: c.aggregateEntries() };
}

/**
 * ExtractorDefinition.warmUpFrames is exact: an extractor started that many frames before
 * frame N writes, from frame N on, what a run from frame 0 writes; one frame fewer does not.
 */
describe("warm-up frames of the temporal extractors", () => {
  const cases: [string, number][] = [
    ["motion", 1],
    ["motion=motion_moving_average=true", 2],
    ["motion=motion_five_frame_window=true", 3],
    ["motion=motion_five_frame_window=true:motion_moving_average=true:debug=true", 4],
    ["float_motion", 1],
    ["speed_temporal", 1],
    ["psnr", 0],
  ];
  for (const [spec, warmUp] of cases) {
    test(`${spec}: ${warmUp} frames, no fewer`, async () => {
      const [feature] = await resolveFeatures([parseFeatureString(spec)]);
      expect(warmUpStart(RESUME_AT, [{ definition: feature!.entry.definition, options: feature!.options }])).toBe(RESUME_AT - warmUp);
      const clean = await run(feature!);
      const full = written(clean);
      expect(await resumed(feature!, RESUME_AT - warmUp, clean.names())).toEqual(full);
      if (warmUp > 0) expect(await resumed(feature!, RESUME_AT - warmUp + 1, clean.names())).not.toEqual(full);
    }, 60_000);
  }

  test("psnr with APSNR: only a run from frame 0 (its aggregate sums every frame)", async () => {
    const [feature] = await resolveFeatures([parseFeatureString("psnr=enable_apsnr=true")]);
    expect(warmUpStart(RESUME_AT, [{ definition: feature!.entry.definition, options: feature!.options }])).toBe(0);
    const clean = await run(feature!);
    const full = written(clean);
    expect(await resumed(feature!, 0, clean.names())).toEqual(full);
    expect(await resumed(feature!, 1, clean.names())).not.toEqual(full);
  });
});
