import { spawnSync } from "node:child_process";
import { main } from "../main.ts";

/** What a vq run printed and its exit code. */
export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs vq in this process, its output captured (stderr not a terminal), as the tests read it. */
export async function runVq(args: readonly string[]): Promise<CliOutcome> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), stderrIsTty: false });
  return { code, stdout, stderr };
}

/** Whether Debian's ffmpeg is here (`npm test` installs it): without it, tests that need it fail one named test and skip the rest. */
export const ffmpegInstalled = spawnSync("ffmpeg", ["-version"]).status === 0;

/** Runs ffmpeg quietly to make a test input; throws with what it said if it fails. */
export function ffmpegOrThrow(...args: string[]): void {
  const r = spawnSync("ffmpeg", ["-v", "error", "-y", "-nostdin", ...args]);
  if (r.status !== 0) throw new Error(`ffmpeg ${args.join(" ")}: ${r.stderr}`);
}
