import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";

/**
 * A worker that fails while starting must end the run with its error, and the process
 * must exit: workers left running would keep it alive forever. Run in a child process,
 * so a hang shows as a timeout instead of stalling the test runner.
 */
test("a worker that fails to start ends the run with its error and lets the process exit", () => {
  const script = `
    import { memoryReader, scoreVideos, ThreadedCpuBackend } from "../index.ts";
    const format = { width: 16, height: 16, bitDepth: 8, pixelFormat: "420" };
    const frame = () => new Uint8Array(16 * 16 * 3 / 2);
    const extractor = { definition: { name: "probe" }, init: async () => {}, extract: async () => {}, flush: async () => {}, close: async () => {} };
    const backend = new ThreadedCpuBackend([{ extractor, spec: { name: "probe", options: {} } }], new URL("./refusing-worker.fixture.ts", import.meta.url), 2);
    try {
      await scoreVideos(memoryReader("ref", format, [frame()]), memoryReader("dist", format, [frame()]), backend);
      console.log("no error");
    } catch (e) {
      console.log("error: " + e.message);
    }`;
  const r = spawnSync(process.execPath, ["--eval", script], { cwd: import.meta.dir, encoding: "utf8", timeout: 60_000 });
  expect(r.signal).toBeNull(); // not killed by the timeout: the process exited by itself
  expect(r.stdout.trim()).toBe("error: feature probe: refused in the worker");
}, 90_000);

test("--threads beyond the frame count starts one worker per frame, not one per thread", async () => {
  const { FeatureCollector, memoryReader, ThreadedCpuBackend } = await import("../index.ts");
  const format = { width: 16, height: 16, bitDepth: 8, pixelFormat: "420" } as const;
  const extractor = { definition: { name: "frame_number" }, init() {}, extract() {}, flush() {}, close() {} } as never;
  const backend = new ThreadedCpuBackend([{ extractor, spec: { name: "frame_number", options: {} } }], new URL("./frame-number-worker.fixture.ts", import.meta.url), 64);
  const reader = memoryReader("clip", format, [new Uint8Array(384), new Uint8Array(384)]);
  const collector = new FeatureCollector();
  try {
    await backend.init(format);
    for (let i = 0; ; i++) {
      const p = await reader.read();
      if (!p) break;
      await backend.extract({ ref: p, dist: p }, i, collector);
    }
    await backend.flush(collector);
    expect(backend.workerCount).toBe(2);
    expect([0, 1].map((i) => collector.get("frame_number", i))).toEqual([0, 1]);
  } finally {
    await backend.close();
  }
  // the frame count known up front (files): that many start together, no more
  const known = new ThreadedCpuBackend([{ extractor, spec: { name: "frame_number", options: {} } }], new URL("./frame-number-worker.fixture.ts", import.meta.url), 64);
  try {
    await known.init(format, 3);
    expect(known.workerCount).toBe(3);
  } finally {
    await known.close();
  }
}, 60_000);

/**
 * Workers that read their own frames from files (spans): one that dies mid-run ends the run
 * with an error naming it, and the process exits. In a child process, so a hang shows as a timeout.
 */
test("a worker that dies while reading its own spans ends the run with a clean error", () => {
  const script = `
    import { rmSync, writeFileSync } from "node:fs";
    import { tmpdir } from "node:os";
    import { join } from "node:path";
    import { scoreVideos, ThreadedCpuBackend, Y4mReader } from "../index.ts";
    const path = join(tmpdir(), "vq-exiting-worker-" + process.pid + ".y4m");
    const frame = "FRAME\\n" + "\\x10".repeat(16 * 16 * 3 / 2);
    writeFileSync(path, "YUV4MPEG2 W16 H16 F25:1 C420\\n" + frame.repeat(8), "latin1");
    const extractor = { definition: { name: "frame_number", temporal: false }, init() {}, extract() {}, flush() {}, close() {} };
    const backend = new ThreadedCpuBackend([{ extractor, spec: { name: "frame_number", options: {} } }], new URL("./exiting-worker.fixture.ts", import.meta.url), 2, 1, 2);
    try {
      await scoreVideos(await Y4mReader.open(path), await Y4mReader.open(path), backend);
      console.log("no error");
    } catch (e) {
      console.log((backend.readsOwnFrames ? "spans " : "frames ") + (e.constructor.name) + ": " + e.message);
    } finally {
      rmSync(path, { force: true });
    }`;
  const r = spawnSync(process.execPath, ["--eval", script], { cwd: import.meta.dir, encoding: "utf8", timeout: 60_000 });
  expect(r.signal).toBeNull();
  expect(r.stdout.trim()).toBe("spans Error: extraction worker exited with code 7");
}, 90_000);

test("guided spans cover the run in order and shrink toward its end", async () => {
  const { guidedSpans } = await import("./threaded-backend.ts");
  for (const [first, frames, threads] of [[0, 1920, 16], [9, 240, 16], [0, 3, 2], [5, 6, 4], [0, 100_000, 2]] as const) {
    const spans = guidedSpans(first, frames, threads);
    expect(spans[0]!.start).toBe(first);
    spans.forEach((s, i) => {
      expect(s.end).toBeGreaterThan(s.start);
      expect(s.end).toBe(i + 1 < spans.length ? spans[i + 1]!.start : frames);
      expect(s.last).toBe(i === spans.length - 1);
      expect(s.end - s.start).toBeLessThanOrEqual(i > 0 ? spans[i - 1]!.end - spans[i - 1]!.start : 16);
    });
  }
  // a long run: 16-frame spans first, 2-frame spans at the end
  const long = guidedSpans(0, 1920, 16).map((s) => s.end - s.start);
  expect(long[0]).toBe(16);
  expect(long.slice(-8)).toEqual([2, 2, 2, 2, 2, 2, 2, 2]);
});
