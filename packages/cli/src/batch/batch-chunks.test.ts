import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPairs, goldenPath } from "@vq/core/golden";
import { runVq } from "../testing/cli-run.ts";
import { runOnProcesses } from "./batch-command.ts";
import { BatchProgress } from "./batch-progress.ts";
import { jobFromObject } from "./job-file.ts";

/**
 * `vq batch --gpus --chunk-frames`: long jobs in frame ranges over several processes (here
 * two CPU processes stand for two GPUs, as the slots differ only in their environment).
 */
const pair = goldenPairs().find((p) => p.reference.endsWith("nat_576x324.ref.y4m"))!;
const REF = goldenPath(pair.reference);
const DIST = goldenPath(pair.distorted);
const dir = mkdtempSync(join(tmpdir(), "vq-batch-chunks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const command = [process.execPath, new URL("../cli.ts", import.meta.url).pathname, "batch", "--child", "--concurrency", "2"];
const withoutFps = (path: string) => readFileSync(path, "utf8").replace(/"fps": [^,\n]*,?/g, "");
const silent = { stdout: () => {}, stderr: () => {}, stderrIsTty: false };
const slots = [
  { label: "slot a", env: { VQ_SLOT: "a" } },
  { label: "slot b", env: { VQ_SLOT: "b" } },
];

test("a job in chunks over two processes writes exactly the single run's output (motion2/3, vmaf, pooling)", async () => {
  const args = ["--backend", "cpu", "--json", "--precision", "max", "--feature", "psnr", "--pool", "extended", "--feature", "float_motion"];
  const single = join(dir, "single.json");
  expect((await runVq([...args, "-r", REF, "-d", DIST, "-o", single])).code).toBe(0);
  const jobs = [jobFromObject({ reference: REF, distorted: DIST, output: join(dir, "chunked.json"), args }, "jobs.jsonl:1"), jobFromObject({ reference: REF, distorted: DIST, output: join(dir, "short.json"), args: [...args, "--frame_cnt", "5"] }, "jobs.jsonl:2")];
  const codes: number[] = [];
  await runOnProcesses(jobs, slots, { concurrency: 2, chunkFrames: 7, command }, silent, new BatchProgress(2, silent, false), (i, code) => (codes[i] = code));
  expect(codes).toEqual([0, 0]);
  expect(withoutFps(join(dir, "chunked.json"))).toBe(withoutFps(single));
  const short = join(dir, "short-single.json");
  expect((await runVq([...args, "--frame_cnt", "5", "-r", REF, "-d", DIST, "-o", short])).code).toBe(0);
  expect(withoutFps(join(dir, "short.json"))).toBe(withoutFps(short));
}, 240_000);

test("a chunk that fails fails its job once, with the frames named; nothing is written", async () => {
  const jobs = [jobFromObject({ reference: REF, distorted: DIST, output: join(dir, "bad.json"), args: ["--backend", "cpu", "--model", `path=${join(dir, "missing.json")}`] }, "jobs.jsonl:3")];
  const said: string[] = [];
  const io = { ...silent, stderr: (t: string) => void said.push(t) };
  const codes: number[] = [];
  await runOnProcesses(jobs, slots, { concurrency: 2, chunkFrames: 10, command }, io, new BatchProgress(1, io, false), (i, code) => codes.push(code));
  expect(codes).toEqual([1]);
  expect(said).toHaveLength(1);
  expect(said[0]).toMatch(/^vq: jobs\.jsonl:3: frames \d+ to \d+: .*missing\.json/);
}, 120_000);
