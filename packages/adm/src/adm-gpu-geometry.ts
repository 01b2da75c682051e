/**
 * Sizes of the four DWT scales and where the GPU twin keeps their bands. The a bands of
 * every scale stay in one buffer (`pyr`, reference then distorted per scale), each with
 * its own width as stride, and so do libvmaf's temporary DWT rows (`tmp`: what its
 * vector kernels read past a row must still be there); the detail and decoupled bands of
 * the scale being computed reuse buffers sized for scale 0 (`bandCap` elements per band).
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
  /** offset of this scale's temporary rows in `tmp`: [lo ref | hi ref | lo dis | hi dis], h rows of inW each */
  tmp: number;
}

export interface AdmGeometry {
  readonly scales: readonly ScaleGeometry[];
  readonly bandCap: number;
  /** elements of `pyr` */
  readonly pyrLength: number;
  /** elements of `tmp` */
  readonly tmpLength: number;
}

export function admGeometry(width: number, height: number): AdmGeometry {
  const scales: ScaleGeometry[] = [];
  let inW = width;
  let inH = height;
  let offset = 0;
  let tmp = 0;
  for (let s = 0; s < 4; s++) {
    const w = (inW + 1) >> 1;
    const h = (inH + 1) >> 1;
    scales.push({ inW, inH, w, h, aRef: offset, aDis: offset + w * h, tmp });
    offset += 2 * w * h;
    tmp += 4 * h * inW;
    inW = w;
    inH = h;
  }
  return { scales, bandCap: scales[0]!.w * scales[0]!.h, pyrLength: offset, tmpLength: tmp };
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
