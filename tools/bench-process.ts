import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

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
