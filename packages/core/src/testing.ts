/** Test support shared by the packages' tests (`@vq/core/testing`). */

import { FeatureCollector } from "./extraction/feature-collector.ts";
import type { FeatureExtractor, PicturePair } from "./extraction/extractor.ts";
import { Picture, type PictureFormat } from "./picture.ts";
import type { VideoReader } from "./readers/video-reader.ts";
import { Y4mReader } from "./readers/y4m-reader.ts";

/** Every frame of an 8-bit 4:2:0 Y4M file as packed planes (for memoryReader in tests). */
export async function y4mFrameBytes(path: string): Promise<Uint8Array[]> {
  const r = await Y4mReader.open(path);
  const out: Uint8Array[] = [];
  for (let p = await r.read(); p; p = await r.read()) out.push(p.buffer.slice(0, (p.width * p.height * 3) / 2));
  await r.close();
  return out;
}

/** Deterministic pseudo-random numbers in [0, 1) (xorshift32), so that a failing test reproduces. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/** `frames` synthetic pictures for tests the golden set cannot cover: `fill` writes frame i's samples. */
export function syntheticReader(name: string, format: PictureFormat, frames: number, fill: (picture: Picture, frame: number) => void): VideoReader {
  let i = 0;
  return {
    name,
    format,
    async read() {
      if (i >= frames) return null;
      const p = Picture.allocate(format);
      fill(p, i++);
      return p;
    },
    release() {},
    async close() {},
  };
}

/** A reader over pictures already made (each handed out once, as a decoder would). */
export function pictureReader(name: string, format: PictureFormat, pictures: readonly Picture[]): VideoReader {
  let i = 0;
  return {
    name,
    format,
    async read() {
      return pictures[i++] ?? null;
    },
    release() {},
    async close() {},
  };
}

/**
 * What numpy computes for `--pool extended`, written out independently of vq's pooling, to
 * recompute a written file's statistics from its per-frame values: numpy.median,
 * numpy.std (population) and numpy.percentile's default (virtual index (n − 1)·q/100
 * between the closest ranks, numpy's _lerp).
 */
export function numpyStatistics(values: readonly number[]): { median: number; stdev: number; p1: number; p5: number; p95: number } {
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  const percentile = (q: number) => {
    const h = (n - 1) * (q / 100);
    const lo = Math.floor(h);
    const hi = Math.min(lo + 1, n - 1);
    const t = h - lo;
    const diff = s[hi]! - s[lo]!;
    return t >= 0.5 ? s[hi]! - diff * (1 - t) : s[lo]! + diff * t;
  };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  return {
    median: n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2,
    stdev: Math.sqrt(values.reduce((a, x) => a + (x - mean) ** 2, 0) / n),
    p1: percentile(1),
    p5: percentile(5),
    p95: percentile(95),
  };
}

/** Each key's score per frame that `extractor` writes for `pairs` (init, every frame, flush, close): a kernel and its reference compared. */
export function extractedScores(extractor: FeatureExtractor<PicturePair>, pairs: readonly PicturePair[]): Record<string, number[]> {
  const collector = new FeatureCollector();
  const synchronous = (r: unknown) => {
    if (r instanceof Promise) throw new Error("extractedScores: the extractor's init or flush is asynchronous");
  };
  synchronous(extractor.init(pairs[0]!.ref.format));
  pairs.forEach((pair, i) => extractor.extract(pair, i, collector));
  synchronous(extractor.flush(collector));
  extractor.close();
  const out: Record<string, number[]> = {};
  for (const name of collector.names()) out[name] = pairs.map((_, i) => collector.get(name, i)!);
  return out;
}

/** A picture whose luma is `fill(x, y)`, rounded and clamped to its bit depth (chroma zero). */
export function lumaPicture(format: PictureFormat, fill: (x: number, y: number) => number): Picture {
  const p = Picture.allocate(format);
  const plane = p.planes[0]!;
  const max = 2 ** format.bitDepth - 1;
  for (let y = 0; y < plane.height; y++) for (let x = 0; x < plane.width; x++) plane.data[y * plane.stride + x] = Math.min(max, Math.max(0, Math.round(fill(x, y))));
  return p;
}

/** The same picture's luma with its rows `stride` samples apart (a decoder's padded rows), at any depth; chroma is not kept. */
export function stridedLuma(p: Picture, stride: number): Picture {
  const plane = p.planes[0]!;
  const bytes = new Uint8Array((plane.height * stride + 64) * (p.bitDepth > 8 ? 2 : 1));
  const samples = p.bitDepth > 8 ? new Uint16Array(bytes.buffer) : bytes;
  for (let y = 0; y < plane.height; y++) samples.set(plane.data.subarray(y * plane.stride, y * plane.stride + plane.width), y * stride);
  return new Picture(p.format, bytes, [{ width: plane.width, height: plane.height, offset: 0, stride }, ...p.planes.slice(1).map((q) => ({ width: q.width, height: q.height, offset: 0, stride: q.stride }))]);
}

/**
 * An ffmpeg that notes its arguments in a log and then runs the ffmpeg on PATH, with the
 * ffprobe on PATH beside it (as vq looks for it): for tests of what vq asks ffmpeg for.
 * `decodes()`: the argument lines of its decodes to Y4M so far; `clear()` forgets them.
 */
export async function loggingFfmpeg(dir: string): Promise<{ path: string; decodes(): string[]; clear(): void }> {
  const { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } = await import("node:fs");
  const { execFileSync } = await import("node:child_process");
  const bin = `${dir}/logging-ffmpeg`;
  const log = `${bin}/args.log`;
  const onPath = (name: string) => execFileSync("sh", ["-c", `command -v ${name}`]).toString().trim();
  mkdirSync(bin, { recursive: true });
  writeFileSync(`${bin}/ffmpeg`, `#!/bin/sh\necho "$*" >> '${log}'\nexec '${onPath("ffmpeg")}' "$@"\n`);
  chmodSync(`${bin}/ffmpeg`, 0o755);
  if (!existsSync(`${bin}/ffprobe`)) symlinkSync(onPath("ffprobe"), `${bin}/ffprobe`);
  return {
    path: `${bin}/ffmpeg`,
    decodes: () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").filter((l) => l.includes("yuv4mpegpipe")) : []),
    clear: () => rmSync(log, { force: true }),
  };
}
