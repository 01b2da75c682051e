import type { ScoreRequest } from "@vq/score";
import { rawFormatFor, type CliSettings } from "./args.ts";

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Progress is drawn only on a terminal. */
  stderrIsTty: boolean;
  /** Throws when standard output cannot take the output (closed when vq started). */
  checkStdout?: () => void;
}

/** The library's request for what the command line asks, with the distorted input(s) left to the caller. */
export function scoreRequestFor(s: CliSettings): Omit<ScoreRequest, "distorted"> {
  return {
    reference: s.reference!,
    raw: [s.reference!, ...s.distorted].map((p) => rawFormatFor(s, p)).find((f) => f),
    features: s.features,
    models: s.models,
    noPrediction: s.noPrediction,
    backend: s.backend,
    threads: s.threads,
    subsample: s.subsample,
    frameCount: s.frameCount,
    skipRef: s.skipRef,
    skipDist: s.skipDist,
    ffmpeg: s.ffmpeg,
    hwaccel: s.hwaccel,
    decoderThreads: s.decoderThreads,
    scaleDistorted: s.scale,
    conform: s.conform,
    scaler: s.scaler,
    strictLength: s.strictLength,
    // thresholds may test median, stdev or percentiles; the outputs still follow --pool
    pool: s.thresholds.length ? "extended" : s.pool,
  };
}

/** A run's notes and progress line on stderr: notes unless -q, progress only on a terminal. */
export function runEvents(s: CliSettings, io: CliIo, t0: number, onFrames?: (n: number) => void) {
  const progress = io.stderrIsTty && !s.quiet;
  return {
    progress,
    events: {
      onNote: (m: string) => {
        if (!s.quiet) io.stderr(`vq: ${m}\n`); // -q: errors only
      },
      onProgress: (n: number, total?: number) => {
        onFrames?.(n);
        if (progress) io.stderr(`\r${progressLine(n, total, (performance.now() - t0) / 1000)}\x1b[K`);
      },
    },
  };
}

/** `123/480 frames  41.2 fps  ETA 9s` (no total or ETA when the input length is unknown). */
export function progressLine(done: number, total: number | undefined, seconds: number): string {
  const fps = seconds > 0 ? done / seconds : 0;
  const count = total ? `${done}/${total} frames` : `${done} frame${done === 1 ? "" : "s"}`;
  const eta = total && fps > 0 ? `  ETA ${Math.max(0, Math.ceil((total - done) / fps))}s` : "";
  return `${count}  ${fps.toFixed(1)} fps${eta}`;
}
