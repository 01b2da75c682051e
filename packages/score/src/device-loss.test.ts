import { afterAll, describe, expect, test } from "bun:test";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { memoryReader, VqError } from "@vq/core";
import { y4mFrameBytes } from "@vq/core/testing";
import { goldenOutput, goldenPairs, goldenPath, goldenRun } from "@vq/core/golden";
import { sharedGpu } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { scoreLadder, type LadderRequest } from "./ladder.ts";
import { score, type FrameScores, type ScoreRequest } from "./score.ts";

const gpu = await gpuForTests();
const ffmpegInstalled = spawnSync("ffmpeg", ["-version"]).status === 0;
const pair = goldenPairs().find((p) => p.pair === "nat_576x324.x264crf30")!;
const inputs = { reference: goldenPath(pair.reference), distorted: goldenPath(pair.distorted) };

/**
 * The pair played twice (48 frames): the GPU runner keeps 3 batches in flight (one frame,
 * then 8 a batch at this size), so frame 25 is scheduled only once frames 1-8 are scored:
 * a loss there comes with frames 0-7 done, whatever the GPU's speed.
 */
const dir = mkdtempSync(join(tmpdir(), "vq-device-loss-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function twice(path: string): string {
  const bytes = readFileSync(path);
  const body = bytes.indexOf(0x0a) + 1; // the frames follow the header line
  const out = join(dir, basename(path));
  writeFileSync(out, Buffer.concat([bytes, bytes.subarray(body)]));
  return out;
}
const long = { reference: twice(inputs.reference), distorted: twice(inputs.distorted) };

/**
 * Everything libvmaf's writers take from a run (fps aside): the frames handed out, in order,
 * and the summary. `lossAt`: the device is destroyed once `lossAt` frames are scheduled.
 */
async function outcome(request: ScoreRequest, lossAt?: number) {
  const notes: string[] = [];
  // score() takes the process's shared device: the same one, as long as it is not lost
  const device = request.backend === "gpu" ? (await sharedGpu()).device : undefined;
  const run = score(request, {
    onNote: (m) => notes.push(m),
    onProgress: (n) => {
      if (n === lossAt) device!.destroy();
    },
  });
  const frames: FrameScores[] = [];
  for await (const f of run) frames.push(f);
  const s = await run.result;
  const perFrame = Array.from({ length: s.frames }, (_, i) => s.collector.frame(i));
  return { notes, backend: s.backend, written: { frames, perFrame, names: s.collector.names(), pooled: s.pooled, aggregate: s.aggregate, count: s.frames } };
}

const LOST = /^GPU device lost \(destroyed[^)]*\) at frame (\d+); continuing on the CPU$/;

describe.skipIf(!gpu)("a GPU device lost mid-run: the run goes on on the CPU, its output that of a clean run", () => {
  const vmaf = { ...inputs } satisfies ScoreRequest;

  test("lost at the first frame, before any score came back: every frame from the CPU, libvmaf's scores", async () => {
    const clean = await outcome({ ...vmaf, backend: "cpu" });
    const lost = await outcome({ ...vmaf, backend: "gpu" }, 1);
    expect(lost.notes).toHaveLength(1);
    expect(lost.notes[0]).toMatch(LOST);
    expect(Number(LOST.exec(lost.notes[0]!)![1])).toBeLessThanOrEqual(1);
    expect(lost.backend).toMatch(/^gpu, then cpu from frame [01] \(GPU device lost\)$/);
    expect(lost.written).toEqual(clean.written);
    const golden = goldenOutput(goldenRun(pair, "all"), true);
    expect(lost.written.frames).toHaveLength(pair.frame_count);
    for (const f of lost.written.frames) {
      for (const key of ["vmaf", "integer_motion2", "integer_motion", "integer_adm2", "integer_vif_scale0"]) expect([key, f.metrics[key]]).toEqual([key, golden.frames[f.frameNum]!.metrics[key]!]);
    }
  }, 120_000);

  test("lost late: the frames done on the GPU kept, the rest from the CPU, the same scores as a run on the GPU alone", async () => {
    const clean = await outcome({ ...long, backend: "gpu" });
    const lost = await outcome({ ...long, backend: "gpu" }, 26);
    expect(lost.notes).toHaveLength(1);
    const at = Number(LOST.exec(lost.notes[0]!)![1]);
    expect(at).toBeGreaterThanOrEqual(8); // the frames done on the GPU were kept
    expect(at).toBeLessThanOrEqual(26);
    expect(lost.written).toEqual(clean.written);
    expect(clean.notes).toEqual([]);
  }, 120_000);

  test("GPU and CPU features together (a temporal CPU-only one, APSNR over the whole run): the same as a clean run", async () => {
    const request = { ...long, features: ["float_motion", "psnr=enable_apsnr=true"], threads: 2 } satisfies ScoreRequest;
    // a clean run on both: only one that mixes them fixes the order of features to the extractors'
    const clean = await outcome({ ...request, backend: "gpu" });
    const lost = await outcome({ ...request, backend: "gpu" }, 26);
    const [note, ...others] = lost.notes.filter((n) => LOST.test(n)).concat(lost.notes.filter((n) => !LOST.test(n)));
    expect(Number(LOST.exec(note!)![1])).toBeGreaterThanOrEqual(8);
    expect(others).toEqual(clean.notes); // float_motion computed on the CPU
    expect(clean.notes).toHaveLength(1);
    expect(lost.written).toEqual(clean.written);
    expect(Object.keys(lost.written.aggregate)).toContain("apsnr_y");
  }, 120_000);

  test("subsampled, with a frame count: the same as a clean run", async () => {
    const request = { ...inputs, subsample: 3, frameCount: 17, features: ["psnr"] } satisfies ScoreRequest;
    const clean = await outcome({ ...request, backend: "cpu" });
    const lost = await outcome({ ...request, backend: "gpu" }, 11);
    expect(lost.notes.filter((n) => LOST.test(n))).toHaveLength(1);
    expect(lost.written).toEqual(clean.written);
  }, 120_000);

  test.skipIf(!ffmpegInstalled)("an input ffmpeg decodes is decoded again up to where the GPU stopped: the same as a clean run", async () => {
    const mkv = join(dir, "dist.mkv");
    execFileSync("ffmpeg", ["-v", "error", "-i", long.distorted, "-c:v", "ffv1", mkv]);
    const request = { reference: long.reference, distorted: mkv, features: ["psnr"] } satisfies ScoreRequest;
    const clean = await outcome({ ...request, backend: "gpu" });
    const lost = await outcome({ ...request, backend: "gpu" }, 26);
    expect(lost.notes).toHaveLength(1);
    expect(Number(LOST.exec(lost.notes[0]!)![1])).toBeGreaterThanOrEqual(8);
    expect(lost.written).toEqual(clean.written);
  }, 120_000);

  test("frames given by the caller cannot be read again: a clear error naming the frame", async () => {
    const format = { width: pair.width, height: pair.height, bitDepth: 8, pixelFormat: "420" as const };
    const request = { reference: memoryReader("ref", format, await y4mFrameBytes(inputs.reference)), distorted: inputs.distorted, backend: "gpu", noPrediction: true, features: ["psnr"] } satisfies ScoreRequest;
    const err = await outcome(request, 3).catch((e) => e);
    expect(err).toBeInstanceOf(VqError);
    expect(err.message).toMatch(/^GPU device lost \(destroyed[^)]*\) at frame \d+; ref was given as frames \(a VideoReader\) and cannot be re-read; rerun with backend "cpu"$/);
  }, 120_000);
  test("a stream cannot be read again: a clear error naming the frame and the stream", async () => {
    const fifo = join(dir, "ref-fifo");
    execFileSync("mkfifo", [fifo]);
    const writer = spawn("sh", ["-c", 'cat "$1" > "$2"', "sh", inputs.reference, fifo], { stdio: "ignore" });
    try {
      const err = await outcome({ reference: fifo, distorted: inputs.distorted, backend: "gpu", noPrediction: true, features: ["psnr"] }, 3).catch((e) => e);
      expect(err).toBeInstanceOf(VqError);
      expect(err.message).toBe(`GPU device lost (destroyed) at frame ${/at frame (\d+)/.exec(err.message)?.[1]}; ${fifo} is a stream and cannot be re-read; rerun with --backend cpu`);
    } finally {
      writer.kill();
    }
  }, 120_000);
});


describe.skipIf(!gpu)("a GPU device lost in a ladder run", () => {
  /** Each rendition's frames handed out and summary (as outcome() for one run), and the notes. */
  async function ladderOutcome(request: LadderRequest, lossAt?: number) {
    const notes: string[] = [];
    const device = (await sharedGpu()).device;
    const ladder = scoreLadder(request, { onNote: (m) => notes.push(m), onProgress: (n) => n === lossAt && device.destroy() });
    const lanes = await Promise.all(
      ladder.runs.map(async (run) => {
        const frames: FrameScores[] = [];
        for await (const f of run) frames.push(f);
        const s = await run.result;
        const perFrame = Array.from({ length: s.frames }, (_, i) => s.collector.frame(i));
        return { frames, perFrame, names: s.collector.names(), pooled: s.pooled, aggregate: s.aggregate, count: s.frames };
      }),
    );
    return { notes, lanes, backends: (await ladder.result).map((o) => o.summary?.backend) };
  }

  test("goes on on the CPU: every rendition's output that of a clean run, a rendition that ended early included", async () => {
    const shorter = goldenPath(goldenPairs().find((p) => p.pair === "nat_576x324.x264crf45")!.distorted); // 24 frames of 48
    const request = { reference: long.reference, distorted: [long.distorted, shorter], backend: "gpu", features: ["float_motion"] } satisfies LadderRequest;
    const clean = await ladderOutcome(request);
    const lost = await ladderOutcome(request, 30);
    const note = lost.notes.find((n) => LOST.test(n));
    expect(Number(LOST.exec(note ?? "")?.[1])).toBeGreaterThanOrEqual(8); // frames 0-7 were done (see `long`)
    expect(lost.notes.filter((n) => n !== note)).toEqual(clean.notes); // the shorter rendition's warning once
    expect(clean.notes.some((n) => n.includes("ended before"))).toBe(true);
    expect(lost.lanes).toEqual(clean.lanes);
    expect(lost.lanes[1]!.count).toBe(24);
    expect(lost.backends[0]).toMatch(/^gpu\+cpu, then cpu from frame \d+ \(GPU device lost\)$/);
  }, 180_000);
});
