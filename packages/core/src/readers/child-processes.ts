/**
 * What this module needs of a child process (node:child_process's ChildProcess has it):
 * structural, so that @vq/core's published declarations need no Node typings.
 */
export interface ChildProcess {
  readonly exitCode: number | null;
  readonly signalCode: string | null;
  kill(signal?: "SIGTERM" | "SIGKILL"): boolean;
  once(event: "exit" | "error", listener: () => void): unknown;
}

/** How long a child asked to stop (SIGTERM) has before it is killed: ffmpeg blocked opening a FIFO ignores SIGTERM. */
export const STOP_GRACE_MS = 2000;

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * Keeps `child` on the list of processes that must not outlive vq: every one still running
 * when the process exits (a normal end, an error, a signal handled by process.exit) is
 * killed then, synchronously in the exit hook.
 */
export function trackChildProcess(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  live.add(child);
  child.once("exit", () => live.delete(child));
  child.once("error", () => live.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    globalThis.process?.on("exit", killChildProcesses);
  }
}

/** Asks `child` to stop, and kills it if it has not after the grace period. */
export function stopChildProcess(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }, STOP_GRACE_MS);
  // the wait must not keep vq running; vq's exit kills it anyway
  timer.unref?.();
  child.once("exit", () => clearTimeout(timer));
}

/** Kills every child process still running (SIGKILL: vq is going away and reads nothing more from them). */
export function killChildProcesses(): void {
  for (const child of live) {
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }
  live.clear();
}
