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
