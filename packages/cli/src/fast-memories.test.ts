import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPath } from "@vq/core/golden";
// @ts-expect-error: a plain JavaScript module of the bin wrapper, without types
import { FAST_MEMORIES, FAST_MEMORIES_VARIABLE, mayUseThreads, withFastMemories } from "../bin/fast-memories.js";

const dir = mkdtempSync(join(tmpdir(), "vq-fast-memories-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bin = join(import.meta.dir, "../bin/vq.js");

test("runs that may start extraction threads are told apart from the rest", () => {
  expect(mayUseThreads(["-r", "a.y4m", "-d", "b.y4m", "--threads", "4"])).toBe(true);
  expect(mayUseThreads(["-r", "a.y4m", "-d", "b.y4m", "--threads=16"])).toBe(true);
  expect(mayUseThreads(["batch", "jobs.jsonl"])).toBe(true);
  expect(mayUseThreads(["worker", "--redis", "redis://127.0.0.1:1"])).toBe(true);
  expect(mayUseThreads(["-r", "a.y4m", "-d", "b.y4m", "--threads", "1"])).toBe(false);
  expect(mayUseThreads(["-r", "a.y4m", "-d", "b.y4m"])).toBe(false);
  expect(mayUseThreads(["doctor"])).toBe(false);
});

test("a user's own value of the option wins", () => {
  expect(withFastMemories({ PATH: "/bin" })).toEqual({ PATH: "/bin", [FAST_MEMORIES_VARIABLE]: String(FAST_MEMORIES) });
  expect(withFastMemories({ [FAST_MEMORIES_VARIABLE]: "64" })[FAST_MEMORIES_VARIABLE]).toBe("64");
});

// JSC's crashIfWasmCantFastMemory aborts the process at the first memory that is not fast:
// with 4 threads (3 memories each for VMAF) Bun's default 8 runs out, the launcher's does not.
const score = (threads: number, env: Record<string, string>) => {
  const out = join(dir, `${threads}-${Object.keys(env).length}.json`);
  const args = ["-r", goldenPath("vectors/odd_321x241_444.ref.y4m"), "-d", goldenPath("vectors/odd_321x241_444.x264crf32.y4m"), "--backend", "cpu", "--json", "--precision", "max", "--threads", String(threads), "-o", out];
  const { [FAST_MEMORIES_VARIABLE]: _, ...inherited } = process.env;
  const run = Bun.spawnSync([process.execPath, bin, ...args], { env: { ...inherited, BUN_JSC_crashIfWasmCantFastMemory: "1", ...env }, stdout: "pipe", stderr: "pipe" });
  return { code: run.exitCode, out };
};

test("under Bun, vq --threads 4 runs every kernel memory fast, and scores what one thread scores", () => {
  const four = score(4, {});
  expect(four.code).toBe(0);
  const one = score(1, {});
  expect(one.code).toBe(0);
  const withoutFps = (path: string) => readFileSync(path, "utf8").replace(/^ {2}"fps": .*\n/m, "");
  expect(withoutFps(four.out)).toContain('"vmaf"');
  expect(withoutFps(four.out)).toBe(withoutFps(one.out));
  // the control: with Bun's default count, the same run meets a slow memory
  expect(score(4, { [FAST_MEMORIES_VARIABLE]: "8" }).code).not.toBe(0);
}, 120_000);
