import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, rmSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CpuBackend, FeatureCollector, isVqError, ThreadedCpuBackend, scoreVideos, Y4mReader, type ScoreOptions } from "@vq/core";
import { compareWithGolden, goldenOutput, goldenPairs, goldenPath, goldenRun } from "@vq/core/golden";
import { parseFeatureString } from "./feature-request.ts";
import { resolveFeatures, type ResolvedFeature } from "./features.ts";
import { score } from "./score.ts";

// --threads with inputs that are files: each worker reads its own spans of frames
// (adr/0041-threads-read-their-frames.md). What it writes must be what one thread writes.
const pair = goldenPairs().find((p) => p.pair === "nat_576x324.x264crf30")!;
const worker = new URL("./extraction-worker.ts", import.meta.url);
const dir = mkdtempSync(join(tmpdir(), "vq-spans-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FEATURES = [
  "motion",
  "motion=motion_five_frame_window=true:motion_moving_average=true:debug=true",
  "float_motion",
  "speed_temporal",
  "psnr",
  "vif",
];

async function features(specs: readonly string[]): Promise<ResolvedFeature[]> {
  return resolveFeatures(specs.map((s) => parseFeatureString(s)));
}

async function run(backend: CpuBackend | ThreadedCpuBackend, options: ScoreOptions = {}, order: readonly string[] = [], paths = [pair.reference, pair.distorted].map(goldenPath)) {
  const collector = new FeatureCollector();
  for (const name of order) collector.reserve(name);
  const result = await scoreVideos(await Y4mReader.open(paths[0]!), await Y4mReader.open(paths[1]!), backend, { ...options, collector });
  // a run started mid-way (a resumed one) keeps the frames from its start on
  const first = options.firstFrame ?? 0;
  return { names: collector.names(), frames: Array.from({ length: result.frames - first }, (_, i) => collector.frame(first + i)), aggregates: collector.aggregateEntries() };
}

const threaded = (f: readonly ResolvedFeature[], threads: number, subsample: number, span?: number) =>
  new ThreadedCpuBackend(
    f.map((x) => ({ extractor: x.entry.cpu(x.options), spec: { name: x.entry.definition.name, options: x.options } })),
    worker,
    threads,
    subsample,
    span,
  );

describe("threads reading their own spans write what one thread writes", () => {
  const cases: [string, number, number, number | undefined, ScoreOptions][] = [
    ["spans of 1 frame, 2 threads", 2, 1, 1, {}],
    ["spans of 2 frames, 3 threads, subsampled by 3", 3, 3, 2, {}],
    ["spans of 5 frames, 2 threads, skips and a frame count", 2, 1, 5, { skipRef: 2, skipDist: 1, frameCount: 17 }],
    ["the default spans, 4 threads, resumed from frame 9", 4, 1, undefined, { firstFrame: 9 }],
  ];
  for (const [name, threads, subsample, span, options] of cases) {
    test(name, async () => {
      const f = await features(FEATURES);
      const single = () => new CpuBackend(f.map((x) => x.entry.cpu(x.options)), subsample);
      // a resumed run's collector has its features in the order of the frames before (ResumedCollector)
      const order = options.firstFrame ? (await run(single())).names : [];
      const one = await run(single(), options, order);
      const backend = threaded(f, threads, subsample, span);
      const many = await run(backend, options, order);
      expect(backend.readsOwnFrames).toBe(true);
      expect(many).toEqual(one);
      expect(one.names).toContain("integer_motion3");
    }, 120_000);
  }
});

test("VMAF v0.6.1 with --threads 3 from files: every integer feature and vmaf identical to libvmaf's out_full", async () => {
  for (const p of goldenPairs().filter((x) => ["nat_576x324.x264crf30", "odd_321x241_444.x264crf32"].includes(x.pair))) {
    const summary = await score({ reference: goldenPath(p.reference), distorted: goldenPath(p.distorted), backend: "cpu", threads: 3 }).result;
    expect(summary.backend).toBe("cpu×3");
    // libvmaf's run with every feature: the model's features and its score among them
    const ours = new Set(summary.collector.names());
    const report = compareWithGolden(summary.collector, goldenOutput(goldenRun(p, "all"), true), (k) => ours.has(k) && (k.startsWith("integer_") || k === "vmaf"), summary.frames);
    expect(report.missing).toEqual([]);
    expect(report.keys.map((k) => k.key)).toContain("integer_motion2");
    expect(report.keys.map((k) => k.key)).toContain("vmaf");
    for (const k of report.keys) expect({ key: k.key, differing: k.differing }).toEqual({ key: k.key, differing: 0 });
  }
}, 120_000);

test("a file cut short while the workers read it: a one-line error naming the file and the frame", async () => {
  const ref = join(dir, "ref.y4m");
  const dist = join(dir, "dist.y4m");
  copyFileSync(goldenPath(pair.reference), ref);
  copyFileSync(goldenPath(pair.distorted), dist);
  const f = await features(["psnr", "motion"]);
  const readers = [await Y4mReader.open(ref), await Y4mReader.open(dist)] as const;
  // opened whole (24 frames); half of it gone before the workers read
  truncateSync(dist, Math.floor(Bun.file(dist).size / 2));
  const backend = threaded(f, 2, 1, 3);
  const error = await scoreVideos(readers[0], readers[1], backend).then(
    () => undefined,
    (e: unknown) => e,
  );
  await Promise.all(readers.map((r) => r.close()));
  expect(backend.readsOwnFrames).toBe(true);
  expect(isVqError(error)).toBe(true);
  expect((error as Error).message).toMatch(new RegExp(`^${dist.replaceAll("/", "\\/")}: frame 1\\d is truncated: \\d+ of 279936 bytes$`));
}, 60_000);
