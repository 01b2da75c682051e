import { packedLayout, RawYuvReader, type PictureFormat } from "@vq/core";
import { parseArgs, rawFormatFor } from "../../../cli/src/args.ts";
import { jsonCase } from "../json-case.ts";
import { memorySource } from "../memory-source.ts";
import { ODD_NUMBERS, ODD_VALUES } from "../mutators.ts";
import type { Prng } from "../prng.ts";
import type { FuzzTarget } from "../target.ts";

/** Raw YUV options as the command line gives them (strings) or as a library caller does (any value), and the file's size. */
export interface YuvCase {
  /** `-w W -h H -p P -b B` through the CLI's parser, or the format object given to the reader as it is. */
  cli?: string[];
  format?: Record<string, unknown>;
  size: number;
  pipe: boolean;
}

/** Files larger than this are not made: a case's bytes are in memory. */
const MAX_BYTES = 4 << 20;

function validFormat(rng: Prng): PictureFormat {
  return { width: rng.range(1, 64), height: rng.range(1, 64), pixelFormat: rng.pick(["420", "422", "444", "400"] as const), bitDepth: rng.pick([8, 10, 12, 16, 9, 14]) };
}

export function generateYuv(rng: Prng): YuvCase {
  const f: Record<string, unknown> = { ...validFormat(rng) };
  const frame = packedLayout(f as unknown as PictureFormat).byteLength;
  let size = frame * rng.pick([0, 1, 2, 3]);
  if (rng.chance(0.3)) size = Math.max(0, size + rng.range(-frame, frame));
  const keys = ["width", "height", "pixelFormat", "bitDepth"];
  const edits = rng.chance(0.4) ? 0 : 1 + rng.int(2);
  if (rng.chance(0.5)) {
    const cli: Record<string, string> = { width: String(f.width), height: String(f.height), pixelFormat: String(f.pixelFormat), bitDepth: String(f.bitDepth) };
    for (let n = 0; n < edits; n++) cli[rng.pick(keys)] = rng.pick([...ODD_NUMBERS, "411", "420p", "yuv420p", "16384", "65536"]);
    return { cli: ["-w", cli.width!, "-h", cli.height!, "-p", cli.pixelFormat!, "-b", cli.bitDepth!], size, pipe: rng.chance(0.2) };
  }
  for (let n = 0; n < edits; n++) {
    const k = rng.pick(keys);
    f[k] = rng.chance(0.3) ? rng.pick([16384, 16385, 65536, 65537, 2 ** 32, 1e9, Infinity, -Infinity, NaN, 1.5]) : rng.pick(ODD_VALUES);
    if (rng.chance(0.1)) delete f[k];
  }
  return { format: f, size, pipe: rng.chance(0.2) };
}

/** The reader over `size` bytes in memory, every frame read; a command line's options through the CLI's own parser first. */
export async function readYuv(c: YuvCase): Promise<unknown> {
  const format = c.cli ? rawFormatFor(parseArgs(["-r", "ref.yuv", "-d", "dist.yuv", ...c.cli]), "ref.yuv")! : (c.format as unknown as PictureFormat);
  const bytes = new Uint8Array(Math.min(c.size, MAX_BYTES));
  const reader = await RawYuvReader.fromSource("fuzz.yuv", memorySource(bytes, c.pipe ? "pipe" : "file", 4093), format);
  try {
    let frames = 0;
    while (await reader.read().then((p) => p && (reader.release(p), true))) frames++;
    if (reader.frameCount !== undefined && reader.frameCount !== frames) throw new Error(`read ${frames} frames, the reader promised ${reader.frameCount}`);
    return { frames, frameCount: reader.frameCount ?? frames };
  } finally {
    await reader.close();
  }
}

export const yuvTarget: FuzzTarget<YuvCase> = {
  name: "yuv",
  description: "raw YUV: width, height, pixel format and bit depth as CLI strings and as library values (odd, non-finite, huge), file sizes that are not whole frames, files and pipes",
  weight: 12,
  generate: generateYuv,
  run: readYuv,
  save: jsonCase.save,
  load: (f) => jsonCase.load<YuvCase>(f),
};
