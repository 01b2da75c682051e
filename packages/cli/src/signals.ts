import { killChildProcesses } from "@vq/core";

/** The signals that stop a run, with their numbers (exit code 128 + n, as a shell reports a death by signal). */
export const STOP_SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;

/**
 * Makes SIGINT, SIGTERM and SIGHUP stop the whole run at once: ffmpeg and ffprobe children
 * killed, worker threads ended with the process, and exit code 128 + n. Outputs are written
 * synchronously through a temporary file (output/atomic-write.ts), which no handler can
 * interrupt, so a stopped run leaves either nothing or a whole file written before the signal.
 */
export function stopOnSignals(): void {
  for (const [name, number] of Object.entries(STOP_SIGNALS)) {
    process.on(name, () => {
      killChildProcesses();
      process.exit(128 + number);
    });
  }
}
