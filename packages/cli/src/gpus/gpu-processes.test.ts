import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPairs, goldenPath } from "@vq/core/golden";
import { runVq } from "../testing/cli-run.ts";
import { scoreOnProcesses, type ChildResult } from "./gpu-processes.ts";

const rungs = goldenPairs().filter((p) => p.reference.endsWith("nat_576x324.ref.y4m"));
const REF = goldenPath(rungs[0]!.reference);
const DISTS = rungs.map((p) => goldenPath(p.distorted));
const dir = mkdtempSync(join(tmpdir(), "vq-gpu-processes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const command = [process.execPath, new URL("../cli.ts", import.meta.url).pathname, "batch", "--child", "--concurrency", "1"];
const withoutFps = (path: string) => readFileSync(path, "utf8").replace(/^ {2}"fps": .*\n/m, "");

test("jobs spread over one process per slot; a process killed mid-batch hands its jobs to the others; outputs are single runs'", async () => {
  const args = ["--backend", "cpu", "--frame_cnt", "3", "--json", "--precision", "max"];
  const jobs = Array.from({ length: 6 }, (_, i) => ({ where: `jobs.jsonl:${i + 1}`, line: { reference: REF, distorted: DISTS[i % 3]!, output: join(dir, `p-${i}.json`), args } }));
  const results: ChildResult[] = [];
  const pids = new Map<string, number>();
  let killed = false;
  await scoreOnProcesses(
    jobs,
    [
      { label: "slot a", env: { VQ_SLOT: "a" } },
      { label: "slot b", env: { VQ_SLOT: "b" } },
    ],
    command,
    1,
    (r) => {
      results.push(r);
      // after the first result, slot b's process dies with its job unfinished
      if (!killed) {
        killed = true;
        process.kill(pids.get("slot b")!, "SIGKILL");
      }
    },
    (child, slot) => pids.set(slot.label, child.pid!),
  );
  expect(results.map((r) => r.where).sort()).toEqual(jobs.map((j) => j.where).sort());
  expect(results.every((r) => r.code === 0 && r.lines.length === 0)).toBe(true);
  for (const [i, job] of jobs.entries()) {
    const single = join(dir, `single-${i}.json`);
    expect((await runVq([...args, "-r", REF, "-d", job.line.distorted, "-o", single])).code).toBe(0);
    expect(withoutFps(job.line.output)).toBe(withoutFps(single));
  }
}, 120_000);

test("when every process has died, their jobs fail with one line naming the process", async () => {
  const output = join(dir, "never.json");
  const results: ChildResult[] = [];
  await scoreOnProcesses(
    [{ where: "jobs.jsonl:1", line: { reference: REF, distorted: DISTS[0]!, output, args: ["--backend", "cpu"] } }],
    [{ label: "GPU 0000:00:07.0", env: {} }],
    command,
    1,
    (r) => results.push(r),
    (child) => child.kill("SIGKILL"),
  );
  expect(results).toEqual([{ where: "jobs.jsonl:1", code: 1, lines: ["jobs.jsonl:1: the process for GPU 0000:00:07.0 ended (SIGKILL) before scoring it, and no other was left"] }]);
  expect(existsSync(output)).toBe(false);
}, 60_000);
