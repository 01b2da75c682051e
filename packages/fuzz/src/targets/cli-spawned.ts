import { spawnSync } from "node:child_process";
import { copyFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { jsonCase } from "../json-case.ts";
import { judgeMessage } from "../outcome.ts";
import type { Prng } from "../prng.ts";
import { shrinkList } from "../shrink.ts";
import type { FuzzContext, FuzzTarget } from "../target.ts";
import { mutateCommandLine, validCommandLines } from "./command-lines.ts";

const CLI = join(import.meta.dir, "../../../cli/src/cli.ts");
const SAMPLES = join(import.meta.dir, "../../../../samples");
const TIME_LIMIT_MS = 5000;

async function setup(ctx: FuzzContext): Promise<void> {
  // Copies: a mutated command line may name an input as its output.
  copyFileSync(join(SAMPLES, "sample.ref.y4m"), join(ctx.dir, "ref.y4m"));
  copyFileSync(join(SAMPLES, "sample.dist.y4m"), join(ctx.dir, "dist.y4m"));
  copyFileSync(join(import.meta.dir, "../../../model/models/vmaf_v0.6.1.json"), join(ctx.dir, "model.json"));
}

/**
 * A mutated command line with paths relative to the case dir (the run's cwd), so whatever a
 * mutation makes of a path stays in the run's temp dir; CPU only (the GPU here is software).
 */
export function generateSpawned(rng: Prng): string[] {
  const files = { ref: "../ref.y4m", dist: "../dist.y4m", model: "../model.json", out: "." };
  // Lightly mutated (a third valid): most runs get past the parse and score, which is what a process adds.
  // not the queue's commands: they wait for Redis, which the fuzz run does not start
  const valid = rng.pick(validCommandLines(files).filter((a) => a[0] !== "worker" && a[0] !== "submit"));
  const args = (rng.chance(0.3) ? valid : mutateCommandLine(rng, valid, 1)).map((a) => (a.startsWith("/") ? `.${a}` : a).replaceAll("\0", "\\0")); // a process's arguments cannot hold NUL
  return args[0] === "report" ? args : [...args, "--backend", "cpu"];
}

/** `vq ARGS` as a process: exit 0, 1 or 3, every stderr line one clean `vq:` line, no temporaries, no output after an error. */
export function runSpawned(args: string[], ctx: FuzzContext): unknown {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ctx.caseDir, timeout: TIME_LIMIT_MS, killSignal: "SIGKILL", encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  const left = readdirSync(ctx.caseDir);
  try {
    if (r.error) throw new Error(`vq ${r.error.message.includes("ETIMEDOUT") ? `ran over ${TIME_LIMIT_MS / 1000} s` : `did not run: ${r.error.message}`}`);
    if (![0, 1, 3].includes(r.status ?? -1)) throw new Error(`exit ${r.status ?? r.signal}: ${r.stderr.slice(0, 300)}`);
    for (const line of r.stderr.split("\n").filter(Boolean)) {
      const odd = line.startsWith("vq: ") ? judgeMessage(line.slice(4)) : `stderr line not from vq: ${line.slice(0, 200)}`;
      if (odd) throw new Error(`exit ${r.status}: ${odd}`);
    }
    const temporary = left.find((f) => f.endsWith(".tmp"));
    if (temporary) throw new Error(`exit ${r.status}: left ${temporary}`);
    const ladder = args.filter((a) => a === "-d" || a === "--distorted").length > 1;
    if (r.status === 1 && !ladder && left.length) throw new Error(`exit 1 left an output behind: ${left.join(", ")}`);
    return { status: r.status ?? 0 };
  } finally {
    // what a successful run wrote is its output, not a leftover
    for (const f of left) rmSync(join(ctx.caseDir, f), { recursive: true, force: true });
  }
}

export const cliSpawnedTarget: FuzzTarget<string[]> = {
  name: "cli",
  description: "a sample of the args target's command lines run as vq processes on the sample pair (CPU): exit code 0, 1 or 3, one-line stderr, no temporaries or partial outputs",
  weight: 0,
  perHundredThousand: 30,
  setup,
  generate: generateSpawned,
  run: async (args, ctx) => runSpawned(args, ctx),
  save: jsonCase.save,
  load: (f) => jsonCase.load<string[]>(f),
  shrink: shrinkList,
};
