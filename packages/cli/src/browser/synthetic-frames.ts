/**
 * Deterministic 8-bit 4:2:0 frames for the browser test: a moving gradient with texture
 * (reference) and the same with blocky noise (distorted), so every metric has work to do.
 */
export function syntheticFrames(width: number, height: number, count: number, distorted: boolean): Uint8Array[] {
  const cw = (width + 1) >> 1;
  const ch = (height + 1) >> 1;
  const frames: Uint8Array[] = [];
  for (let n = 0; n < count; n++) {
    const f = new Uint8Array(width * height + 2 * cw * ch);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let v = (x * 3 + y * 2 + n * 5 + ((x * y) % 23)) & 255;
        if (distorted) v = Math.min(255, Math.max(0, v + ((((x >> 3) * 7 + (y >> 3) * 13 + n) % 9) - 4)));
        f[y * width + x] = v;
      }
    }
    for (let i = 0; i < cw * ch; i++) {
      f[width * height + i] = (128 + ((i + n) % 17)) & 255;
      f[width * height + cw * ch + i] = (120 + ((i * 3 + (distorted ? 1 : 0)) % 11)) & 255;
    }
    frames.push(f);
  }
  return frames;
}
