import { describeFormat, formatDifferences, VqError, type PictureFormat, type VideoReader } from "@vq/core";

/** ffmpeg's swscale algorithms offered for --scale and --conform (its `flags=` names). */
export const SCALERS = ["bicubic", "lanczos", "bilinear", "neighbor"] as const;
export type Scaler = (typeof SCALERS)[number];

export interface FrameRate {
  num: number;
  den: number;
}

export function sameRate(a: FrameRate, b: FrameRate): boolean {
  return a.num * b.den === b.num * a.den;
}

/** `24 fps`, `24000/1001 fps (23.976)`. */
export function describeRate(r: FrameRate): string {
  if (r.num % r.den === 0) return `${r.num / r.den} fps`;
  return `${r.num}/${r.den} fps (${(r.num / r.den).toFixed(3)})`;
}

function describeInput(reader: VideoReader): string {
  const format = reader.sourceFormat ?? reader.format;
  return reader.frameRate ? `${describeFormat(format)}, ${describeRate(reader.frameRate)}` : describeFormat(format);
}

/**
 * What differs between the inputs that scoring needs equal: size (unless the distorted
 * input is already scaled), bit depth, chroma subsampling, and frame rate where both
 * inputs state one (raw YUV and a Y4M without F do not).
 */
export function formatMismatches(ref: VideoReader, dist: VideoReader): string[] {
  // the inputs' own formats: a luma-only decode's pictures are 4:0:0 whatever the file's chroma
  const problems = formatDifferences(ref.sourceFormat ?? ref.format, dist.sourceFormat ?? dist.format);
  if (ref.frameRate && dist.frameRate && !sameRate(ref.frameRate, dist.frameRate)) {
    problems.push(`frame rates differ: ${describeRate(ref.frameRate)} vs ${describeRate(dist.frameRate)}`);
  }
  return problems;
}

/** ffmpeg's name of a vq picture format (yuv420p, yuv420p10le, gray12le, ...). */
export function ffmpegPixelFormat(f: PictureFormat): string {
  const base = f.pixelFormat === "400" ? "gray" : `yuv${f.pixelFormat}p`;
  return f.bitDepth === 8 ? base : `${base}${f.bitDepth}le`;
}

/**
 * The ffmpeg filters (one -vf chain, in this order) that turn the distorted input into the
 * reference's format: `fps=N/D` when the rates differ (drops or repeats frames), then
 * `scale=W:H:flags=SCALER,format=PIXFMT` when size, bit depth or subsampling differ. Empty
 * when nothing differs.
 */
export function conformFilters(ref: VideoReader, dist: VideoReader, scaler: Scaler): string[] {
  const filters: string[] = [];
  if (ref.frameRate && dist.frameRate && !sameRate(ref.frameRate, dist.frameRate)) filters.push(`fps=${ref.frameRate.num}/${ref.frameRate.den}`);
  const a = ref.format;
  const b = dist.format;
  if (a.width !== b.width || a.height !== b.height || a.bitDepth !== b.bitDepth || a.pixelFormat !== b.pixelFormat) {
    filters.push(`scale=${a.width}:${a.height}:flags=${scaler}`, `format=${ffmpegPixelFormat(a)}`);
  }
  return filters;
}

/** Whether the filters change the frame rate (the container's frame count no longer holds; repeated frames are by design). */
export function changesRate(filters: readonly string[]): boolean {
  return filters.some((f) => f.startsWith("fps="));
}

/**
 * Why the inputs cannot be scored as they are: both files with their formats, what
 * differs, and the option that converts the distorted one.
 */
export function mismatchError(ref: VideoReader, dist: VideoReader, problems: readonly string[]): VqError {
  return new VqError(
    `reference ${ref.name} (${describeInput(ref)}) and distorted ${dist.name} (${describeInput(dist)}) do not match: ${problems.join("; ")}; --conform converts the distorted video to the reference's format`,
  );
}

/**
 * The filters to read the distorted input through: none when it matches the reference;
 * with `conform`, those of conformFilters; without, a mismatch is an error naming --conform.
 */
export function planConform(ref: VideoReader, dist: VideoReader, conform: { scaler: Scaler } | undefined): string[] {
  const problems = formatMismatches(ref, dist);
  if (!problems.length) return [];
  if (!conform) throw mismatchError(ref, dist, problems);
  if (/\.yuv$/i.test(dist.name)) throw new VqError(`${dist.name}: --conform reads the distorted video through ffmpeg, which cannot read raw YUV without its format: convert it to Y4M first`);
  return conformFilters(ref, dist, conform.scaler);
}
