/**
 * Sizes of the four DWT scales and where the GPU twin keeps their bands. The a bands of
 * every scale stay in one buffer (`pyr`, reference then distorted per scale), each with
 * its own width as stride (libvmaf's temporary DWT rows are computed again where read,
 * see dwt.wgsl); the detail and decoupled bands of the scale being computed reuse buffers
 * sized for scale 0 (`bandCap` elements per band). Every frame of a group has its own.
 */
export interface ScaleGeometry {
  /** size of the DWT input (the picture, or the previous scale's a band) */
  inW: number;
  inH: number;
  /** size of this scale's bands */
  w: number;
  h: number;
  /** offsets of this scale's reference and distorted a bands in `pyr` */
  aRef: number;
  aDis: number;
}

export interface AdmGeometry {
  readonly scales: readonly ScaleGeometry[];
  readonly bandCap: number;
  /** elements of `pyr` */
  readonly pyrLength: number;
}

export function admGeometry(width: number, height: number): AdmGeometry {
  const scales: ScaleGeometry[] = [];
  let inW = width;
  let inH = height;
  let offset = 0;
  for (let s = 0; s < 4; s++) {
    const w = (inW + 1) >> 1;
    const h = (inH + 1) >> 1;
    scales.push({ inW, inH, w, h, aRef: offset, aDis: offset + w * h });
    offset += 2 * w * h;
    inW = w;
    inH = h;
  }
  return { scales, bandCap: scales[0]!.w * scales[0]!.h, pyrLength: offset };
}

/** Words of shaders/adm/params.wgsl's AdmFrames (the batch layout uniform). */
export const FRAMES_WORDS = 8;

/** Bands of the scale being computed (det): reference and distorted h, v, d, then decoupled in place. */
const BANDS_PER_BUFFER = 6;

/**
 * GPU memory the intermediates of a batch may take (every frame of a group has its own):
 * 1080p fits 8 frames, 4K fewer, so that every metric's kernels stay within 1 GiB.
 */
export const ADM_GROUP_BUDGET_BYTES = 256 * 2 ** 20;

/** 32-bit words per frame of each intermediate buffer. */
export interface AdmFrameLayout {
  pyrWords: number;
  bandWords: number;
  /** the denominator's uint64 row sums (h, v, d) of the scale being computed */
  rowsWords: number;
}

export function admFrameLayout(geometry: AdmGeometry): AdmFrameLayout {
  return { pyrWords: geometry.pyrLength, bandWords: BANDS_PER_BUFFER * geometry.bandCap, rowsWords: 6 * geometry.scales[0]!.h };
}

/** Frames whose intermediates fit the budget and one GPU buffer at once: at least 1, at most `maxBatch`. */
export function admGroupFrames(layout: AdmFrameLayout, maxBatch: number, bufferLimit: number, budget = ADM_GROUP_BUDGET_BYTES): number {
  // pyr, den rows and the bands
  const frameBytes = 4 * (layout.pyrWords + layout.rowsWords + layout.bandWords);
  const largest = 4 * Math.max(layout.pyrWords, layout.bandWords);
  return Math.max(1, Math.min(maxBatch, Math.floor(budget / frameBytes), Math.floor(bufferLimit / largest)));
}

/**
 * Where libvmaf's temporary DWT rows hold what the next frame's scale 0 reads past its hi
 * row (int32 index `width` of the shared buffer, see dwt2.ts): the last scale 1..3 whose
 * four rows [lo ref | hi ref | lo dis | hi dis] reach that far, its row segment and column.
 */
export function staleSource(geometry: AdmGeometry, width: number): { scale: number; segment: number; column: number } {
  for (let s = 3; s >= 1; s--) {
    const rowWidth = geometry.scales[s]!.inW;
    if (4 * rowWidth > width) return { scale: s, segment: Math.floor(width / rowWidth), column: width % rowWidth };
  }
  throw new Error("adm: scale 1 always covers the frame width"); // 4 * ceil(width / 2) > width
}

/**
 * What the distorted hi row of scale s >= 2 reads past its end (int32 index 4 * inW of the
 * shared buffer): the previous scale's last temporary rows, segment and column.
 */
export function previousRowSource(geometry: AdmGeometry, scale: number): { segment: number; column: number } {
  const index = 4 * geometry.scales[scale]!.inW;
  const rowWidth = geometry.scales[scale - 1]!.inW;
  return { segment: Math.floor(index / rowWidth), column: index % rowWidth };
}
