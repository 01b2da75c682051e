import { renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, basename } from "node:path";
import { CompositeBackend, isVqError, RawYuvReader, scoreVideos, VqError, writeCsv, writeJson, writeSub, writeXml, Y4mReader, type VideoReader } from "@vq/core";
import { parseArgs, rawFormatFor, USAGE, type CliSettings } from "./args.ts";
import { chooseBackend } from "./backend.ts";
import { resolveFeatures } from "./features.ts";
import { loadModels, modelFeatureRequests } from "./models.ts";
import { scoreModels } from "@vq/model";
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

async function openVideo(s: CliSettings, path: string): Promise<VideoReader> {
  const raw = rawFormatFor(s, path);
  return raw ? RawYuvReader.open(path, raw) : Y4mReader.open(path);
}

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
  const models = s.noPrediction ? [] : await loadModels(s.models);
  const features = resolveFeatures([...modelFeatureRequests(models), ...s.features]);
  if (!features.length) throw new VqError("nothing to compute: give at least one --feature (e.g. --feature psnr) or a model");
  const readers: VideoReader[] = [];
  try {
    readers.push(await openVideo(s, s.reference!));
    readers.push(await openVideo(s, s.distorted!));
    const [ref, dist] = readers as [VideoReader, VideoReader];
    for (const f of features) f.entry.definition.checkFormat?.(f.options, ref.format);
    const { backend, notes } = await chooseBackend(s.backend, features, s.subsample, undefined, s.threads);
    for (const n of notes) io.stderr(`vq: ${n}\n`);
    const progress = io.stderrIsTty && !s.quiet;
    const t0 = performance.now();
    const result = await scoreVideos(ref, dist, backend, {
      frameCount: s.frameCount,
      skipRef: s.skipRef,
      skipDist: s.skipDist,
      // Only when backends finish at different times: otherwise features keep libvmaf's first-written order.
      featureOrder: backend instanceof CompositeBackend ? features.flatMap((f) => f.entry.definition.providedFeatures(f.options, ref.format)) : undefined,
      onWarning: (m) => io.stderr(`vq: ${m}\n`),
      onFrame: progress
        ? (n) => {
            const fps = n / ((performance.now() - t0) / 1000);
            io.stderr(`\r${n} frame${n > 1 ? "s" : " "} ${fps.toFixed(2)} FPS\x1b[K`);
          }
        : undefined,
    });
    if (progress) io.stderr("\n");
    scoreModels(models, result.collector, { frameCount: result.frames, subsample: s.subsample });
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
        text = writeXml(result.collector, { ...options, width: result.format.width, height: result.format.height });
        break;
    }
    if (s.output) writeAtomically(s.output, text);
    else io.stdout(text);
  } finally {
    for (const r of readers) await r.close();
  }
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
