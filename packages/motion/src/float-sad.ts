const fround = Math.fround;

/**
 * libvmaf's vmaf_image_sad_c, scale 0: mean |a − b| with float sums, one per row, then
 * over rows, divided by the (float) sample count. Symmetric in a and b.
 */
export function floatSad(a: Float32Array, b: Float32Array, width: number, height: number, stride: number): number {
  let sum = 0;
  for (let i = 0; i < height; i++) {
    const ra = a.subarray(i * stride, i * stride + width);
    const rb = b.subarray(i * stride, i * stride + width);
    let line = 0;
    for (let j = 0; j < width; j++) line = fround(line + Math.abs(fround(ra[j]! - rb[j]!)));
    sum = fround(sum + line);
  }
  return fround(sum / fround(width * height));
}

/** The size motion_add_scale1 scales to: (int)(n * 0.5 + 0.5). */
export function halfSize(n: number): number {
  return Math.trunc(n * 0.5 + 0.5);
}

/** vif_tools' mirror on floats: reflect about 0 and `right` (no -1 offset, unlike the blur's). */
function mirrorFloat(i: number, right: number): number {
  return i < 0 ? -i : i > right ? 2 * right - i : i;
}

/**
 * libvmaf's vif_scale_frame_s(bilinear) from width x height to halfSize of each, in its
 * float arithmetic: sample positions (x + 0.5) · ratio − 0.5 in double rounded to float,
 * weights (1 − dy)(1 − dx) ... multiplied and summed left to right in float.
 */
export function halfScaleBilinear(src: Float32Array, width: number, height: number, dst: Float32Array): void {
  const dw = halfSize(width);
  const dh = halfSize(height);
  if (dw === width && dh === height) {
    dst.set(src.subarray(0, width * height));
    return;
  }
  const ratioX = fround(width / dw);
  const ratioY = fround(height / dh);
  for (let y = 0; y < dh; y++) {
    const yy = fround((y + 0.5) * ratioY - 0.5);
    const y1 = Math.trunc(mirrorFloat(Math.floor(yy), height - 1));
    const y2 = Math.trunc(mirrorFloat(Math.ceil(yy), height - 1));
    const dy = fround(yy - y1);
    const wy1 = fround(1 - dy);
    for (let x = 0; x < dw; x++) {
      const xx = fround((x + 0.5) * ratioX - 0.5);
      const x1 = Math.trunc(mirrorFloat(Math.floor(xx), width - 1));
      const x2 = Math.trunc(mirrorFloat(Math.ceil(xx), width - 1));
      const dx = fround(xx - x1);
      const wx1 = fround(1 - dx);
      const p11 = fround(fround(wy1 * wx1) * src[y1 * width + x1]!);
      const p12 = fround(fround(wy1 * dx) * src[y1 * width + x2]!);
      const p21 = fround(fround(dy * wx1) * src[y2 * width + x1]!);
      const p22 = fround(fround(dy * dx) * src[y2 * width + x2]!);
      dst[y * dw + x] = fround(fround(p11 + p12) + p21) + p22;
    }
  }
}

/** vmaf_image_sad_c with motion_add_scale1: the scale-0 SAD plus that of both pictures halved (bilinear). */
export function floatSadWithScale1(a: Float32Array, b: Float32Array, width: number, height: number, scaledA: Float32Array, scaledB: Float32Array): number {
  const scale0 = floatSad(a, b, width, height, width);
  halfScaleBilinear(a, width, height, scaledA);
  halfScaleBilinear(b, width, height, scaledB);
  const scale1 = floatSad(scaledA, scaledB, halfSize(width), halfSize(height), halfSize(width));
  return fround(scale0 + scale1);
}
