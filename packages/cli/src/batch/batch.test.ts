import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPairs, goldenPath } from "@vq/core/golden";
import { gpuForTests } from "@vq/gpu-core/testing";
import { loggingFfmpeg } from "@vq/core/testing";
import { runVq } from "../testing/cli-run.ts";
import { spawnSync } from "node:child_process";
import { defaultConcurrency, defaultDecoderThreads } from "./batch-command.ts";

const rungs = goldenPairs().filter((p) => p.reference.endsWith("nat_576x324.ref.y4m"));
const REF = goldenPath(rungs[0]!.reference);
const DISTS = rungs.map((p) => goldenPath(p.distorted));
const dir = mkdtempSync(join(tmpdir(), "vq-batch-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const gpu = await gpuForTests();

/** A result without its fps, the one thing a batch job's file may differ in from a single run's. */
const withoutFps = (path: string) => readFileSync(path, "utf8").replace(/ fps="[^"]*"|"fps": [^,\n]*,?/g, "");

function jobFile(name: string, jobs: readonly object[]): string {
  const path = join(dir, name);
  writeFileSync(path, jobs.map((j) => JSON.stringify(j)).join("\n") + "\n");
  return path;
}

describe.each(gpu ? ["cpu", "gpu"] : ["cpu"])("vq batch on the %s", (backend) => {
  test("each job's output is what vq with its arguments writes, two jobs in flight at once", async () => {
    const args = ["--backend", backend, "--frame_cnt", "6", "--precision", "max"];
    const jobs = [
      { reference: REF, distorted: DISTS[0], output: join(dir, `${backend}-a.json`), args: [...args, "--json", "--feature", "psnr"] },
      { reference: REF, distorted: DISTS[1], output: join(dir, `${backend}-b.xml`), args: [...args, "--feature", "float_ssim", "--model", "version=vmaf_v0.6.1neg"] },
      { reference: REF, distorted: [DISTS[1], DISTS[2]], output: join(dir, `${backend}-{name}.csv`), args: [...args, "--csv"] },
      { reference: REF, distorted: DISTS[2], output: join(dir, `${backend}-d.xml`), args: [...args, "--subsample", "2"] },
    ];
    const r = await runVq(["batch", jobFile(`${backend}.jsonl`, jobs), "--concurrency", "2"]);
    expect(r.stderr).toBe(`vq: batch ${join(dir, `${backend}.jsonl`)}: 4 jobs: 4 scored, 0 already done, 0 failed\n`);
    expect(r.code).toBe(0);
    for (const [i, job] of jobs.entries()) {
      const distorted = Array.isArray(job.distorted) ? job.distorted : [job.distorted!];
      for (const [k, d] of distorted.entries()) {
        const name = d!.replace(/^.*\//, "").replace(/\.y4m$/, "");
        const written = job.output.replace("{name}", name);
        const single = join(dir, `single-${backend}-${i}-${k}-${written.replace(/^.*\//, "")}`);
        const alone = await runVq([...job.args, "-r", REF, "-d", d!, "-o", single]);
        expect(alone.code).toBe(0);
        expect(withoutFps(written)).toBe(withoutFps(single));
      }
    }
  }, 240_000);
});

describe("vq batch", () => {
  test("resumes: jobs whose outputs exist are skipped, a deleted output is scored again", async () => {
    const outputs = [0, 1, 2].map((i) => join(dir, `resume-${i}.json`));
    const jobs = outputs.map((output, i) => ({ reference: REF, distorted: DISTS[i], output, args: ["--backend", "cpu", "--frame_cnt", "2", "--json"] }));
    const file = jobFile("resume.jsonl", jobs);
    expect((await runVq(["batch", file])).code).toBe(0);
    const before = outputs.map((p) => statSync(p).mtimeMs);
    rmSync(outputs[1]!);
    const again = await runVq(["batch", file]);
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(`vq: batch ${file}: 3 jobs: 1 scored, 2 already done, 0 failed\n`);
    expect(statSync(outputs[0]!).mtimeMs).toBe(before[0]!);
    expect(statSync(outputs[2]!).mtimeMs).toBe(before[2]!);
    expect(JSON.parse(readFileSync(outputs[1]!, "utf8")).frames).toHaveLength(2);
  }, 60_000);

  test("a failing job is one line naming FILE:LINE, the others are written, exit 1", async () => {
    const missing = join(dir, "missing.y4m");
    const file = jobFile("failing.jsonl", [
      { reference: REF, distorted: DISTS[0], output: join(dir, "ok-1.json"), args: ["--backend", "cpu", "--frame_cnt", "2", "--json"] },
      { reference: missing, distorted: DISTS[0], output: join(dir, "never.json"), args: ["--backend", "cpu"] },
      { reference: REF, distorted: DISTS[0], output: join(dir, "never2.json"), args: ["-o", "elsewhere.json"] },
      { reference: REF, distorted: DISTS[0], output: join(dir, "never3.json"), args: ["--frame_cnt", "zero"] },
      { reference: REF, distorted: [DISTS[0], DISTS[1]], output: join(dir, "one-file.json") },
      { reference: REF, distorted: DISTS[1], output: join(dir, "ok-2.json"), args: ["--backend", "cpu", "--frame_cnt", "2", "--json"] },
    ]);
    writeFileSync(file, readFileSync(file, "utf8") + "{not json\n");
    const r = await runVq(["batch", file]);
    expect(r.code).toBe(1);
    // the lines that are not jobs first, in file order; then the jobs that ran and failed; then the summary
    expect(r.stderr.trim().split("\n")).toEqual([
      `vq: ${file}:3: args: give the output in "output", not as -o`,
      `vq: ${file}:4: invalid argument "zero" for --frame_cnt: expected a positive integer`,
      `vq: ${file}:5: -o/--output "${join(dir, "one-file.json")}" names one file for 2 distorted inputs: put {name} (the distorted file's name) or {n} (its number) in it`,
      expect.stringMatching(new RegExp(`^vq: ${file}:7: not a JSON object: [^\n]+$`)),
      `vq: ${file}:2: ${missing}: no such file`,
      `vq: batch ${file}: 7 jobs: 2 scored, 0 already done, 5 failed`,
    ]);
    for (const name of ["ok-1.json", "ok-2.json"]) expect(JSON.parse(readFileSync(join(dir, name), "utf8")).frames).toHaveLength(2);
    for (const name of ["never.json", "never2.json", "never3.json", "one-file.json"]) expect(existsSync(join(dir, name))).toBe(false);
  }, 60_000);

  test("a --threshold that fails in a job: exit 3 with the job's line named, the output written", async () => {
    const file = jobFile("gate.jsonl", [{ reference: REF, distorted: DISTS[1], output: join(dir, "gate.json"), args: ["--backend", "cpu", "--frame_cnt", "2", "--json", "--threshold", "vmaf.mean>=99"] }]);
    const r = await runVq(["batch", file, "-q"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`^vq: ${file}:1: threshold failed: vmaf\\.mean>=99 \\(measured \\d+\\.\\d{6}\\)\\n$`));
    expect(existsSync(join(dir, "gate.json"))).toBe(true);
  }, 60_000);

  test("the batch's own arguments and file: one-line errors", async () => {
    for (const [args, message] of [
      [["batch"], "vq: vq batch needs a jobs file: vq batch JOBS.jsonl (see vq batch --help)\n"],
      [["batch", join(dir, "absent.jsonl")], `vq: ${join(dir, "absent.jsonl")}: cannot read the jobs: ENOENT: no such file or directory, open '${join(dir, "absent.jsonl")}'\n`],
      [["batch", jobFile("x.jsonl", []), "--concurrency", "0"], `vq: invalid argument "0" for --concurrency: expected an integer from 1 to 64\n`],
      [["batch", jobFile("x.jsonl", []), "--decoder-threads", "-1"], `vq: invalid argument "-1" for --decoder-threads: expected an integer from 0 to 256\n`],
      [["batch", jobFile("x.jsonl", []), "--decoder-threads=999"], `vq: invalid argument "999" for --decoder-threads: expected an integer from 0 to 256\n`],
      [["batch", jobFile("empty.jsonl", [])], `vq: ${join(dir, "empty.jsonl")}: no jobs (one JSON object per line: {"reference": ..., "distorted": ..., "output": ...})\n`],
    ] as const) {
      const r = await runVq(args);
      expect(r.stderr).toBe(message);
      expect(r.code).toBe(1);
    }
  });
});

test("jobs in flight by default: half the CPUs (two decoders a job), shared among the GPUs' processes, 2 to 8", () => {
  expect(defaultConcurrency(1, 16)).toBe(8);
  expect(defaultConcurrency(1, 8)).toBe(4);
  expect(defaultConcurrency(2, 16)).toBe(4);
  expect(defaultConcurrency(4, 64)).toBe(8);
  expect(defaultConcurrency(1, 2)).toBe(2);
  expect(defaultConcurrency(1, 1)).toBe(2);
  expect(defaultConcurrency(1, 128)).toBe(8);
});

test("ffmpeg's decoding threads by default: the CPUs over the decoders in flight, at least 2", () => {
  expect(defaultDecoderThreads(8, 1, 16)).toBe(2);
  expect(defaultDecoderThreads(2, 1, 16)).toBe(4);
  expect(defaultDecoderThreads(2, 1, 2)).toBe(2);
  expect(defaultDecoderThreads(4, 4, 64)).toBe(2);
  expect(defaultDecoderThreads(2, 1, 64)).toBe(16);
});

const ffmpegOnPath = spawnSync("sh", ["-c", "command -v ffmpeg"]).stdout.toString().trim();

describe.skipIf(!ffmpegOnPath)("vq batch and ffmpeg's decoding threads", () => {
  test("inputs ffmpeg decodes get the batch's -threads; a job's own --decoder-threads wins; 0 leaves ffmpeg's own", async () => {
    // an ffmpeg that notes its arguments, then decodes as ffmpeg does
    const logging = await loggingFfmpeg(dir);
    const wrapper = logging.path;
    const mkv = join(dir, "dist.mkv");
    spawnSync(ffmpegOnPath, ["-v", "error", "-i", DISTS[0]!, "-frames:v", "3", "-c:v", "ffv1", "-y", mkv]);
    const args = ["--backend", "cpu", "--ffmpeg", wrapper, "--feature", "psnr", "-n", "--json"];
    const threadsOf = async (batchArgs: string[], jobArgs: string[]) => {
      logging.clear();
      const out = join(dir, `threads-${batchArgs.join("")}-${jobArgs.join("")}.json`);
      const r = await runVq(["batch", jobFile("threads.jsonl", [{ reference: REF, distorted: mkv, output: out, args: [...args, ...jobArgs] }]), "-q", ...batchArgs]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      const decodes = logging.decodes();
      expect(decodes.length).toBe(1);
      return /-threads (\d+) .*-i /.exec(decodes[0]!)?.[1];
    };
    expect(await threadsOf(["--concurrency", "2"], [])).toBe(String(defaultDecoderThreads(2)));
    expect(await threadsOf(["--decoder-threads", "3"], [])).toBe("3");
    expect(await threadsOf(["--decoder-threads", "3"], ["--decoder-threads", "5"])).toBe("5");
    expect(await threadsOf(["--decoder-threads", "0"], [])).toBeUndefined();
  }, 60_000);
});
