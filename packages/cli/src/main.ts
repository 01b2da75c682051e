import { renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, basename } from "node:path";
import { isVqError, VqError, writeCsv, writeJson, writeSub, writeXml } from "@vq/core";
import { parseArgs, rawFormatFor, USAGE } from "./args.ts";
import { score } from "./score.ts";
import { VERSION } from "./version.ts";

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Progress is drawn only on a terminal. */
  stderrIsTty: boolean;
}

const processIo: CliIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  stderrIsTty: Boolean(process.stderr.isTTY),
};

/** Runs vq with libvmaf's `vmaf` arguments; returns the exit code. Errors are one line, no stack. */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  try {
    await run(argv, io);
    return 0;
  } catch (e) {
    if (isVqError(e)) {
      io.stderr(`vq: ${e.message}\n`);
      return 1;
    }
    io.stderr(`vq: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 2;
  }
}

async function run(argv: readonly string[], io: CliIo): Promise<void> {
  const s = parseArgs(argv);
  if (s.help) return io.stdout(USAGE);
  if (s.version) return io.stdout(`vq ${VERSION}\n`);
  const progress = io.stderrIsTty && !s.quiet;
  const t0 = performance.now();
  const frames = score(
    {
      reference: s.reference!,
      distorted: s.distorted!,
      raw: rawFormatFor(s, s.reference!) ?? rawFormatFor(s, s.distorted!),
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
      scaleDistorted: s.scale,
    },
    {
      onNote: (m) => io.stderr(`vq: ${m}\n`),
      onProgress: progress ? (n, total) => io.stderr(`\r${progressLine(n, total, (performance.now() - t0) / 1000)}\x1b[K`) : undefined,
    },
  );
  let next = await frames.next();
  while (!next.done) next = await frames.next();
  const result = next.value;
  if (progress) io.stderr("\n");
  const fps = result.frames / ((performance.now() - t0) / 1000);
  const options = { precision: s.precision, subsample: s.subsample, frameCount: result.frames, version: VERSION, fps };
  let text: string;
  switch (s.outputFormat ?? "xml") {
    case "json":
      text = writeJson(result.collector, options);
      break;
    case "csv":
      text = writeCsv(result.collector, options);
      break;
    case "sub":
      text = writeSub(result.collector, options);
      break;
    case "xml":
      text = writeXml(result.collector, { ...options, width: result.width, height: result.height });
      break;
  }
  if (s.output) writeAtomically(s.output, text);
  else io.stdout(text);
}

/** `123/480 frames  41.2 fps  ETA 9s` (no total or ETA when the input length is unknown). */
export function progressLine(done: number, total: number | undefined, seconds: number): string {
  const fps = seconds > 0 ? done / seconds : 0;
  const count = total ? `${done}/${total} frames` : `${done} frame${done === 1 ? "" : "s"}`;
  const eta = total && fps > 0 ? `  ETA ${Math.max(0, Math.ceil((total - done) / fps))}s` : "";
  return `${count}  ${fps.toFixed(1)} fps${eta}`;
}

/** Writes through a temporary file, so a failed run leaves no half-written output. */
function writeAtomically(path: string, text: string): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new VqError(`${path}: cannot write the output: ${(e as Error).message}`, { cause: e });
  }
}
