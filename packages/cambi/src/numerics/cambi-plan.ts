import { describeFormat, VqError, type PictureFormat } from "@vq/core";
import type { CambiOptions } from "../definition.ts";
import { DEFAULT_EOTF, DEFAULT_TOPK } from "../definition.ts";
import { eotfNamed } from "./luminance.ts";
import { tviForDiff, visibleLumaFloor } from "./visibility.ts";

/** libvmaf refuses pictures whose width and height are both below this. */
export const CAMBI_MIN_WIDTH_HEIGHT = 216;
export const NUM_SCALES = 5;
/** Scale weights of the final inner product, scale 0 (full size) first. */
export const SCALE_WEIGHTS = [16, 8, 4, 2, 1] as const;
/** Suprathreshold contrast response: weight of a step of d + 1 codes. */
const CONTRAST_WEIGHTS = [1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9];
/** Size of libvmaf's reciprocal table: a window may hold at most this many pixels minus one. */
export const RECIPROCAL_LUT_SIZE = 4226;

const PIXELS_1080P = 1920 * 1080;
const PIXELS_1440P = 2560 * 1440;
const PIXELS_2160P = 3840 * 2160;

/** One picture's geometry: the size it is scored at and the c-value window there. */
export interface CambiGeometry {
  readonly width: number;
  readonly height: number;
  readonly windowSize: number;
}

/**
 * Everything cambi derives from its options and the input format before the first frame,
 * as libvmaf's init does: the encoding and source sizes, window sizes, the visibility
 * thresholds per contrast step, and the band of luma codes that can produce a c-value.
 */
export interface CambiPlan {
  readonly input: PictureFormat;
  /** The distorted picture is scored at the encoding size. */
  readonly enc: CambiGeometry;
  /** The reference (full_ref) is scored at the source size. */
  readonly src: CambiGeometry;
  readonly encBitDepth: number;
  readonly highResSpeedup: boolean;
  readonly topk: number;
  readonly maxVal: number;
  readonly fullRef: boolean;
  /** Contrast steps considered: 1 to numDiffs codes. */
  readonly numDiffs: number;
  readonly diffWeights: Int32Array;
  /** Per step d (of d + 1 codes): the largest code (+ numDiffs) at which it is visible. */
  readonly tviForDiff: Uint16Array;
  /** Codes at or below this (minus the step) are too dark to matter; 0 = no floor. */
  readonly vltLuma: number;
  /** Codes that can contribute to a c-value: [bandBase, bandBase + bandSize). */
  readonly bandBase: number;
  readonly bandSize: number;
  /** Size of the working pictures (the larger of the two geometries with full_ref). */
  readonly allocWidth: number;
  readonly allocHeight: number;
  readonly heatmapsPath: string;
}

/** libvmaf's window scaling: 65 at 4K, proportional to width + height, always odd. */
export function adjustWindowSize(windowSize: number, width: number, height: number, highResSpeedup: boolean): number {
  let w = Math.floor((windowSize * (width + height)) / 375) >> 4;
  if (highResSpeedup) w = (w + 1) >> 1;
  return w | 1;
}

/** The 5 scale sizes a picture of `width`×`height` is scored at. */
export function scaleSizes(width: number, height: number, highResSpeedup: boolean): { width: number; height: number }[] {
  const out: { width: number; height: number }[] = [];
  let w = width;
  let h = height;
  for (let scale = 0; scale < NUM_SCALES; scale++) {
    if (scale > 0 || highResSpeedup) {
      w = (w + 1) >> 1;
      h = (h + 1) >> 1;
    }
    out.push({ width: w, height: h });
  }
  return out;
}

function speedupApplies(requested: number, encPixels: number): boolean {
  switch (requested) {
    case 1080:
      return encPixels >= PIXELS_1080P;
    case 1440:
      return encPixels >= PIXELS_1440P;
    case 2160:
      return encPixels >= PIXELS_2160P;
    default:
      return false;
  }
}

export function planCambi(options: CambiOptions, input: PictureFormat): CambiPlan {
  const { width: w, height: h } = input;
  const fail = (why: string) => new VqError(`feature cambi: ${describeFormat(input)}: ${why}`);

  const encBitDepth = options.enc_bitdepth || input.bitDepth;
  let encWidth = options.enc_width;
  let encHeight = options.enc_height;
  if (encWidth === 0 || encHeight === 0) [encWidth, encHeight] = [w, h];
  let srcWidth = options.src_width;
  let srcHeight = options.src_height;
  if (srcWidth === 0 || srcHeight === 0) [srcWidth, srcHeight] = [w, h];
  // an encode that was downscaled is not upscaled back to its encoding size
  if (encHeight > h || encWidth > w) [encWidth, encHeight] = [w, h];

  if (encWidth < CAMBI_MIN_WIDTH_HEIGHT && encHeight < CAMBI_MIN_WIDTH_HEIGHT) {
    throw fail(`scored at ${encWidth}x${encHeight}, below cambi's minimum size: the width or the height must be at least ${CAMBI_MIN_WIDTH_HEIGHT} (libvmaf fails with "problem reading pictures")`);
  }
  if (srcWidth < CAMBI_MIN_WIDTH_HEIGHT && srcHeight < CAMBI_MIN_WIDTH_HEIGHT) {
    throw fail(`source size ${srcWidth}x${srcHeight} is below cambi's minimum: the width or the height must be at least ${CAMBI_MIN_WIDTH_HEIGHT}`);
  }
  if ((srcWidth > encWidth && srcHeight < encHeight) || (srcWidth < encWidth && srcHeight > encHeight)) {
    throw fail(`source size ${srcWidth}x${srcHeight} and encoding size ${encWidth}x${encHeight} must not be larger in one dimension and smaller in the other`);
  }

  const highResSpeedup = speedupApplies(options.cambi_high_res_speedup, encWidth * encHeight);
  const numDiffs = 1 << options.max_log_contrast;
  const eotf = eotfNamed(options.cambi_eotf !== DEFAULT_EOTF ? options.cambi_eotf : options.eotf);

  const tvi = new Uint16Array(numDiffs);
  const diffWeights = new Int32Array(numDiffs);
  for (let d = 0; d < numDiffs; d++) {
    tvi[d] = tviForDiff(d + 1, options.tvi_threshold, eotf) + numDiffs;
    diffWeights[d] = CONTRAST_WEIGHTS[d]!;
  }
  const vltLuma = visibleLumaFloor(options.cambi_vis_lum_threshold, eotf);

  const enc = { width: encWidth, height: encHeight, windowSize: adjustWindowSize(options.window_size, encWidth, encHeight, highResSpeedup) };
  const src = { width: srcWidth, height: srcHeight, windowSize: adjustWindowSize(options.window_size, srcWidth, srcHeight, highResSpeedup) };
  const maxWindow = Math.max(enc.windowSize, src.windowSize);
  if (maxWindow * maxWindow >= RECIPROCAL_LUT_SIZE) {
    throw fail(`window_size=${options.window_size} scales to ${maxWindow} at this size, too large for cambi (at most ${Math.floor(Math.sqrt(RECIPROCAL_LUT_SIZE - 1))})`);
  }
  // libvmaf's histograms read outside the picture when a scale is narrower than half a window.
  for (const [what, g] of [["encoding", enc], ...(options.full_ref ? [["source", src] as const] : [])] as const) {
    const pad = g.windowSize >> 1;
    for (const s of scaleSizes(g.width, g.height, highResSpeedup)) {
      if (s.width < pad || s.height < pad) {
        throw fail(`at the ${what} size ${g.width}x${g.height} the smallest scale ${s.width}x${s.height} is narrower than half cambi's ${g.windowSize}-pixel window: at least ${pad} pixels are needed in both dimensions (libvmaf reads outside the picture there)`);
      }
    }
  }

  // codes outside [vlt - 3·numDiffs + 1, tvi of the largest step] never reach a c-value
  const bandBase = Math.max(0, vltLuma - 3 * numDiffs + 1);
  const bandSize = Math.max(0, tvi[numDiffs - 1]! + 1 - bandBase);

  return {
    input,
    enc,
    src,
    encBitDepth,
    highResSpeedup,
    topk: options.topk !== DEFAULT_TOPK ? options.topk : options.cambi_topk,
    maxVal: options.cambi_max_val,
    fullRef: options.full_ref,
    numDiffs,
    diffWeights,
    tviForDiff: tvi,
    vltLuma,
    bandBase,
    bandSize,
    allocWidth: options.full_ref ? Math.max(srcWidth, encWidth) : encWidth,
    allocHeight: options.full_ref ? Math.max(srcHeight, encHeight) : encHeight,
    heatmapsPath: options.heatmaps_path,
  };
}
