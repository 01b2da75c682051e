// The page's scoring worker: opens the files (Y4M, or demuxed and decoded with WebCodecs),
// scores each distorted file against the reference with @vq/score on WebGPU or the CPU,
// and posts frames, progress and the finished results back. The page's thread stays free.
import { isVqError, printableLine, writeCsv, writeJson, writeXml, type VideoReader } from "@vq/core";
import { BUILT_IN_MODELS } from "@vq/model";
import { FEATURE_NAMES, score } from "@vq/score";
import { VERSION } from "@vq/cli/report";
import type { ContainerReader } from "../inputs/container-reader.ts";
import { openVideo } from "../inputs/open-video.ts";
import type { ScoredFile, ScoreJob, ThumbnailJob, WorkerMessage } from "./protocol.ts";
import { thumbnailPairs } from "./thumbnails.ts";

const post = (m: WorkerMessage) => postMessage(m);

async function scoreOne(job: ScoreJob, index: number): Promise<ScoredFile> {
  const file = job.distorted[index]!;
  const readers: VideoReader[] = [];
  try {
    // Each file opened here is closed here, whatever score() did with it.
    readers.push(await openVideo(job.reference));
    readers.push(await openVideo(file));
    const [reference, distorted] = readers as [VideoReader, VideoReader];
    const total = reference.frameCount !== undefined && distorted.frameCount !== undefined ? Math.min(reference.frameCount, distorted.frameCount) : undefined;
    post({ type: "start", index, name: file.name, total });
    const started = performance.now();
    const run = score(
      { reference, distorted, backend: job.backend, models: job.models, noPrediction: job.noPrediction, features: job.features },
      { onProgress: (done, t) => post({ type: "progress", index, done, total: t }), onNote: (message) => post({ type: "note", message }) },
    );
    for await (const f of run) post({ type: "frame", index, frameNum: f.frameNum, metrics: f.metrics });
    const summary = await run.result;
    const seconds = (performance.now() - started) / 1000;
    const fps = summary.frames / seconds;
    const options = { subsample: 1, frameCount: summary.frames, version: VERSION, fps };
    return {
      name: file.name,
      exactJson: writeJson(summary.collector, { ...options, precision: "max" }),
      json: writeJson(summary.collector, { ...options, precision: 6 }),
      csv: writeCsv(summary.collector, { ...options, precision: 6 }),
      xml: writeXml(summary.collector, { ...options, precision: 6, width: summary.width, height: summary.height }),
      backend: summary.backend,
      width: summary.width,
      height: summary.height,
      frames: summary.frames,
      fps,
      bytes: file.size,
      frameCount: distorted.frameCount,
      frameRate: distorted.frameRate ?? (distorted as ContainerReader).rateEstimate ?? reference.frameRate,
    };
  } finally {
    for (const r of readers) await r.close().catch(() => {});
  }
}

/** One line for the page: vq's own messages as they are, anything else marked internal. */
function message(e: unknown): string {
  // the command line's remedy, named as such: the page has no such option
  if (isVqError(e)) return e.message.replace("; --conform converts", "; the vq command's --conform converts");
  return printableLine(`internal error: ${e instanceof Error ? e.message : String(e)}`);
}

onmessage = async (ev: MessageEvent<ScoreJob | ThumbnailJob>) => {
  const job = ev.data;
  try {
    if (job.type === "thumbnails") {
      const pairs = [];
      for (let i = 0; i < job.distorted.length; i++) pairs.push(await thumbnailPairs(job.reference, job.distorted[i]!, job.frames[i] ?? []));
      post({ type: "thumbnails", pairs });
      return;
    }
    const results: ScoredFile[] = [];
    for (let i = 0; i < job.distorted.length; i++) results.push(await scoreOne(job, i));
    post({ type: "done", results });
  } catch (e) {
    post({ type: "error", message: message(e) });
  }
};

post({ type: "ready", models: [...BUILT_IN_MODELS], features: [...FEATURE_NAMES] });
