// Writes the small synthetic sample pair in samples/ (committed, so the README's first
// command works without any other data): a drifting pattern as the reference and a
// noisier, slightly shifted copy as the distorted video. Deterministic.
import { writeFileSync } from "node:fs";

const W = 160;
const H = 90;
const FRAMES = 5;

function frame(t: number, distorted: boolean): Uint8Array {
  const out = new Uint8Array(W * H * 1.5);
  let seed = 12345 + t;
  const noise = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return ((seed >>> 16) % 9) - 4;
  };
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const xs = x + t * 2 + (distorted ? 1 : 0);
      const v = 128 + 60 * Math.sin(xs / 9) * Math.cos(y / 7) + 30 * Math.sin((xs + y) / 23);
      out[y * W + x] = Math.max(16, Math.min(235, Math.round(v + (distorted ? noise() : 0))));
    }
  }
  for (let i = W * H; i < out.length; i++) out[i] = 128 + (((i * 7) >> 5) % 16) - 8;
  return out;
}

for (const [name, distorted] of [["sample.ref.y4m", false], ["sample.dist.y4m", true]] as const) {
  const parts: Uint8Array[] = [new TextEncoder().encode(`YUV4MPEG2 W${W} H${H} F25:1 Ip A1:1 C420jpeg\n`)];
  for (let t = 0; t < FRAMES; t++) parts.push(new TextEncoder().encode("FRAME\n"), frame(t, distorted));
  writeFileSync(new URL(`../samples/${name}`, import.meta.url), Buffer.concat(parts));
}
