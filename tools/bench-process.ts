import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

/** Runs a whole process to its end and returns its wall time in ms; throws with its stderr if it fails. */
export function timedRun(cmd: string, args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status}): ${r.stderr}`);
  return performance.now() - t0;
}

/** A JSON result without its fps line, the one thing that differs between two ways of scoring the same job. */
export function jsonWithoutFps(path: string): string {
  return readFileSync(path, "utf8").replace(/^ {2}"fps": .*\n/m, "");
}

/**
 * CPU seconds the main thread itself has used (Linux: its /proc task entry; user + system
 * clock ticks, 100 a second): what it costs per frame bounds the run at 1 / that, whatever
 * the threads.
 */
export function mainThreadCpu(): number | undefined {
  const stat = `/proc/self/task/${process.pid}/stat`;
  if (!existsSync(stat)) return undefined;
  const fields = readFileSync(stat, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
