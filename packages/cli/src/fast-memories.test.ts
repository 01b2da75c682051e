import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fastMemoriesNote } from "@vq/core";
import { goldenPath } from "@vq/core/golden";
// @ts-expect-error: a plain JavaScript module of the bin wrapper, without types
import { FAST_MEMORIES, FAST_MEMORIES_VARIABLE, mayHoldManyExtractors, withFastMemories } from "../bin/fast-memories.js";

const dir = mkdtempSync(join(tmpdir(), "vq-fast-memories-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bin = join(import.meta.dir, "../bin/vq.js");

test("runs that may hold several sets of CPU extractors are told apart from the rest", () => {
  expect(mayHoldManyExtractors(["-r", "a.y4m", "-d", "b.y4m", "--threads", "4"])).toBe(true);
  expect(mayHoldManyExtractors(["-r", "a.y4m", "-d", "b.y4m", "--threads=16"])).toBe(true);
  expect(mayHoldManyExtractors(["batch", "jobs.jsonl"])).toBe(true);
  expect(mayHoldManyExtractors(["worker", "--redis", "redis://127.0.0.1:1"])).toBe(true);
  expect(mayHoldManyExtractors(["-r", "a.y4m", "-d", "b.y4m", "-dc.y4m"])).toBe(true); // a ladder: a set of extractors a rung
  expect(mayHoldManyExtractors(["-r", "a.y4m", "--distorted=b.y4m", "--distorted", "c.y4m"])).toBe(true);
  expect(mayHoldManyExtractors(["-r", "a.y4m", "-d", "b.y4m", "--threads", "1"])).toBe(false);
  expect(mayHoldManyExtractors(["-r", "a.y4m", "-d", "b.y4m"])).toBe(false);
  expect(mayHoldManyExtractors(["doctor"])).toBe(false);
});

test("a user's own value of the option wins", () => {
  expect(withFastMemories({ PATH: "/bin" })).toEqual({ PATH: "/bin", [FAST_MEMORIES_VARIABLE]: String(FAST_MEMORIES) });
  expect(withFastMemories({ [FAST_MEMORIES_VARIABLE]: "64" })[FAST_MEMORIES_VARIABLE]).toBe("64");
});

test("the library's note asks for what the launcher sets: one fact in two places that cannot drift apart", () => {
  const own = process.env[FAST_MEMORIES_VARIABLE];
  try {
    delete process.env[FAST_MEMORIES_VARIABLE];
    expect(fastMemoriesNote(3, 3)).toContain(`start Bun with ${FAST_MEMORIES_VARIABLE}=${FAST_MEMORIES} `);
  } finally {
    if (own !== undefined) process.env[FAST_MEMORIES_VARIABLE] = own;
  }
});

// JSC's crashIfWasmCantFastMemory aborts the process at the first memory that is not fast:
// VMAF's three CPU extractors a set, so 4 threads or 3 rungs pass Bun's default 8; the launcher's do not.
const ref = goldenPath("vectors/odd_321x241_444.ref.y4m");
const dist = goldenPath("vectors/odd_321x241_444.x264crf32.y4m");
const withoutFps = (path: string) => readFileSync(path, "utf8").replace(/^ {2}"fps": .*\n/m, "");
const run = (args: string[], env: Record<string, string> = {}) => {
  const { [FAST_MEMORIES_VARIABLE]: _, ...inherited } = process.env;
  const common = ["-r", ref, "--backend", "cpu", "--json", "--precision", "max"];
  return Bun.spawnSync([process.execPath, bin, ...common, ...args], { env: { ...inherited, BUN_JSC_crashIfWasmCantFastMemory: "1", ...env }, stdout: "pipe", stderr: "pipe" }).exitCode;
};

test("under Bun, vq --threads 4 runs every kernel memory fast, and scores what one thread scores", () => {
  const [four, one] = [join(dir, "four.json"), join(dir, "one.json")];
  expect(run(["-d", dist, "--threads", "4", "-o", four])).toBe(0);
  expect(run(["-d", dist, "--threads", "1", "-o", one])).toBe(0);
  expect(withoutFps(four)).toContain('"vmaf"');
  expect(withoutFps(four)).toBe(withoutFps(one));
  // the control: with Bun's default count, the same run meets a slow memory
  expect(run(["-d", dist, "--threads", "4", "-o", join(dir, "control.json")], { [FAST_MEMORIES_VARIABLE]: "8" })).not.toBe(0);
}, 120_000);

test("under Bun, a ladder of 3 rungs on the CPU runs every kernel memory fast", () => {
  // three names for one file: a ladder's rungs need names of their own
  const rungs = [1, 2, 3].map((n) => join(dir, `rung${n}.y4m`));
  for (const r of rungs) symlinkSync(dist, r);
  const ladder = rungs.flatMap((r) => ["-d", r]);
  expect(run([...ladder, "-o", join(dir, "ladder-{n}.json")])).toBe(0);
  expect(withoutFps(join(dir, "ladder-3.json"))).toBe(withoutFps(join(dir, "ladder-1.json")));
  expect(run([...ladder, "-o", join(dir, "control-{n}.json")], { [FAST_MEMORIES_VARIABLE]: "8" })).not.toBe(0);
}, 120_000);
