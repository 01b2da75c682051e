import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { trackChildProcess } from "@vq/core";
import type { ChunkScores, FrameRange } from "@vq/score";
import type { JobLineFields } from "../batch/job-file.ts";

/** A job handed to a child process: its line and FILE:LINE, and for a chunk of it (--chunk-frames) the frames. */
export interface ChildJob {
  where: string;
  line: JobLineFields;
  range?: FrameRange;
}

/**
 * What a child process says of a finished job: the exit code a run of it alone would have,
 * and its lines; for a chunk (code 0), its scores, which the parent merges.
 */
export interface ChildResult {
  where: string;
  range?: FrameRange;
  code: number;
  lines: string[];
  chunk?: ChunkScores;
}

/** A job's or chunk's key among those handed out. */
const childJobKey = (j: { where: string; range?: FrameRange }) => (j.range ? `${j.where}#${j.range.start}` : j.where);

/** One process to start: a name for messages and the environment that pins it to its GPU. */
export interface ChildSlot {
  label: string;
  env: Record<string, string>;
}

interface Running {
  slot: ChildSlot;
  child: ChildProcess;
  outstanding: Map<string, ChildJob>;
  stdinOpen: boolean;
}

/**
 * Scores jobs on several child processes (`vq batch --child`, one per GPU): each is sent
 * up to `concurrency` jobs and one more each time it finishes one, so a fast GPU takes more.
 * A child that dies hands its unfinished jobs to the others (a job is rewritten whole, or
 * not at all); when none is left they are reported failed. Resolves when every job is done.
 */
export async function scoreOnProcesses(
  jobs: readonly ChildJob[],
  slots: readonly ChildSlot[],
  command: readonly string[],
  concurrency: number,
  onResult: (r: ChildResult) => void,
  /** Each child process as it starts (to watch or stop it). */
  onStart?: (child: ChildProcess, slot: ChildSlot) => void,
): Promise<void> {
  const waiting = [...jobs];
  const running = new Set<Running>();
  let settle!: () => void;
  const allDone = new Promise<void>((resolve) => (settle = resolve));
  let unfinished = jobs.length;
  if (!unfinished) return;

  const finish = (r: ChildResult) => {
    onResult(r);
    if (--unfinished === 0) {
      for (const p of running) endInput(p);
      settle();
    }
  };
  const endInput = (p: Running) => {
    if (p.stdinOpen) p.child.stdin!.end();
    p.stdinOpen = false;
  };
  const feed = (p: Running) => {
    while (p.stdinOpen && p.outstanding.size < concurrency && waiting.length) {
      const job = waiting.shift()!;
      p.outstanding.set(childJobKey(job), job);
      p.child.stdin!.write(`${JSON.stringify(job)}\n`);
    }
  };
  const start = (slot: ChildSlot) => {
    const child = spawn(command[0]!, [...command.slice(1)], { env: { ...process.env, ...slot.env }, stdio: ["pipe", "pipe", "inherit"] });
    trackChildProcess(child);
    onStart?.(child, slot);
    const p: Running = { slot, child, outstanding: new Map(), stdinOpen: true };
    running.add(p);
    child.stdin!.on("error", () => {}); // a dead child's pipe: its jobs move on below
    createInterface({ input: child.stdout! }).on("line", (text) => {
      const r = JSON.parse(text) as ChildResult;
      p.outstanding.delete(childJobKey(r));
      feed(p);
      finish(r);
    });
    child.once("close", (code, signal) => {
      running.delete(p);
      p.stdinOpen = false;
      const lost = [...p.outstanding.values()];
      if (!lost.length) return;
      // its unfinished jobs go to the processes left, or fail when there are none
      waiting.unshift(...lost);
      const others = [...running].filter((o) => o.stdinOpen);
      if (others.length) for (const o of others) feed(o);
      else for (const job of waiting.splice(0)) finish({ where: job.where, range: job.range, code: 1, lines: [`${job.where}: the process for ${slot.label} ended (${signal ?? `exit code ${code}`}) before scoring it, and no other was left`] });
    });
    feed(p);
  };
  for (const slot of slots) start(slot);
  await allDone;
  await Promise.all([...running].map((p) => new Promise((resolve) => (p.child.exitCode !== null ? resolve(null) : p.child.once("close", resolve)))));
}
