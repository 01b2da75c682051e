// Longer and larger inputs for the end-to-end bench: a golden pair's frames repeated to
// N frames, optionally upscaled (nearest neighbour: 1080p x2 or 540p x4 → 4K). Written once to the
// temp folder and reused; benchmark input only, never a parity reference.
import { closeSync, existsSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface Y4mLayout {
  header: string;
  width: number;
  height: number;
  colour: string;
  bytesPerSample: number;
}

function layoutOf(header: string): Y4mLayout {
  const colour = / C(\S+)/.exec(header)?.[1] ?? "420jpeg";
  return { header, width: Number(/ W(\d+)/.exec(header)![1]), height: Number(/ H(\d+)/.exec(header)![1]), colour, bytesPerSample: /p(9|1\d)/.test(colour) ? 2 : 1 };
}

/** The frames of a Y4M file (each FRAME line may carry parameters: skip to its newline). */
function framesOf(y4m: Uint8Array): { layout: Y4mLayout; frames: Uint8Array[] } {
  const eol = y4m.indexOf(10);
  const layout = layoutOf(new TextDecoder("latin1").decode(y4m.subarray(0, eol)));
  const { width: w, height: h, colour: c, bytesPerSample: bps } = layout;
  const chroma = c.startsWith("444") ? w * h : c.startsWith("422") ? ((w + 1) >> 1) * h : c.startsWith("mono") ? 0 : ((w + 1) >> 1) * ((h + 1) >> 1);
  const size = (w * h + 2 * chroma) * bps;
  const frames: Uint8Array[] = [];
  for (let p = y4m.indexOf(10, eol + 1) + 1; p > 0 && p + size <= y4m.length; p = y4m.indexOf(10, p + size) + 1) {
    frames.push(y4m.subarray(p, p + size));
  }
  return { layout, frames };
}

function upscale(frame: Uint8Array, factor: number, w: number, h: number, bps: number, chromaW: number, chromaH: number): Uint8Array {
  const planes: [number, number][] = [[w, h], [chromaW, chromaH], [chromaW, chromaH]];
  const out = new Uint8Array(frame.length * factor * factor);
  let src = 0;
  let dst = 0;
  for (const [pw, ph] of planes) {
    for (let y = 0; y < ph * factor; y++) {
      const row = src + Math.floor(y / factor) * pw * bps;
      for (let x = 0; x < pw * factor; x++) for (let b = 0; b < bps; b++) out[dst++] = frame[row + Math.floor(x / factor) * bps + b]!;
    }
    src += pw * ph * bps;
  }
  return out;
}

/** Path of `source` (a Y4M file) repeated to `count` frames, upscaled `scale` times in each direction. */
export function benchInput(source: string, count: number, scale: number): string {
  const name = source.split("/").pop()!.replace(/\.y4m$/, "");
  const path = join(tmpdir(), `vq-bench.${name}.${count}f.x${scale}.y4m`);
  if (existsSync(path)) return path;
  const { layout, frames: list } = framesOf(readFileSync(source));
  const { header, width: w, height: h, colour: c, bytesPerSample: bps } = layout;
  if (scale > 1 && (!c.startsWith("420") || w % 2 || h % 2)) throw new Error(`${source}: --upscale needs 4:2:0 input of even size`);
  const outHeader = scale === 1 ? header : header.replace(/ W\d+/, ` W${w * scale}`).replace(/ H\d+/, ` H${h * scale}`);
  const tmp = `${path}.partial`;
  const fd = openSync(tmp, "w");
  writeSync(fd, `${outHeader}\n`);
  const scaled = list.map((f) => (scale === 1 ? f : upscale(f, scale, w, h, bps, w >> 1, h >> 1)));
  for (let i = 0; i < count; i++) {
    writeSync(fd, "FRAME\n");
    writeSync(fd, scaled[i % scaled.length]!);
  }
  closeSync(fd);
  renameSync(tmp, path);
  return path;
}
