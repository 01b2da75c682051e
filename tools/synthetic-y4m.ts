// A synthetic 1080p Y4M pair for the multi-process benches (no ffmpeg needed, so it runs on
// the device machines as they are): a 48-frame clip of a drifting pattern, the distorted one
// with deterministic noise, repeated to any length. Benchmark input only, never a parity reference.
import { closeSync, existsSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";

const W = 1920;
const H = 1080;
const CLIP = 48;

/** A clip of CLIP frames: a pattern drifting 2 pixels a frame; distorted, with noise added. Deterministic. */
function clip(distorted: boolean): Uint8Array[] {
  const span = W + 2 * CLIP;
  const base = new Uint8Array(span * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < span; x++) base[y * span + x] = Math.round(128 + 60 * Math.sin(x / 9) * Math.cos(y / 7) + 30 * Math.sin((x + y) / 23));
  let seed = 12345;
  const noise = new Int8Array(W * H + 61 * CLIP).map(() => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), ((seed >>> 16) % 25) - 12));
  return Array.from({ length: CLIP }, (_, t) => {
    const f = new Uint8Array(W * H * 1.5).fill(128);
    for (let y = 0; y < H; y++) {
      const row = base.subarray(y * span + 2 * t, y * span + 2 * t + W);
      if (!distorted) f.set(row, y * W);
      else for (let x = 0; x < W; x++) f[y * W + x] = Math.max(0, Math.min(255, row[x]! + noise[y * W + x + t * 61]!));
    }
    return f;
  });
}

/** A Y4M file of `count` frames: the clip over and over (seekable: a chunk reads only its own frames). */
function repeatedY4m(frames: Uint8Array[], count: number, path: string): void {
  const fd = openSync(path, "w");
  writeSync(fd, `YUV4MPEG2 W${W} H${H} F24:1 Ip A1:1 C420jpeg\n`);
  for (let i = 0; i < count; i++) {
    writeSync(fd, "FRAME\n");
    writeSync(fd, frames[i % frames.length]!);
  }
  closeSync(fd);
}

/** `ref-N.y4m` and `dist-N.y4m` of `frames` frames in `dir` (written once, then reused). */
export function syntheticPair(dir: string, frames: number): { reference: string; distorted: string } {
  const reference = join(dir, `ref-${frames}.y4m`);
  const distorted = join(dir, `dist-${frames}.y4m`);
  if (!existsSync(reference) || !existsSync(distorted)) {
    repeatedY4m(clip(false), frames, reference);
    repeatedY4m(clip(true), frames, distorted);
  }
  return { reference, distorted };
}
