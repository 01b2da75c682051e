import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openWithFfmpeg } from "@vq/core";
import { mutateBytes } from "../mutators.ts";
import type { Prng } from "../prng.ts";
import type { CaseFile, FuzzContext, FuzzTarget } from "../target.ts";

export interface EncodedCase {
  extension: string;
  bytes: Uint8Array;
}

const SAMPLE = join(import.meta.dir, "../../../../samples/sample.ref.y4m");
/** One small encode per container, made once per run (3 frames of the sample, 160x90). */
const ENCODES: Record<string, string[]> = {
  mp4: ["-c:v", "libx264", "-preset", "ultrafast"],
  mkv: ["-c:v", "ffv1"],
  ivf: ["-c:v", "libvpx", "-b:v", "200k"],
};
let seeds: EncodedCase[] = [];

async function setup(ctx: FuzzContext): Promise<void> {
  if (seeds.length) return;
  for (const [extension, codec] of Object.entries(ENCODES)) {
    const out = join(ctx.dir, `seed.${extension}`);
    const r = spawnSync("ffmpeg", ["-v", "error", "-y", "-i", SAMPLE, "-frames:v", "3", ...codec, out]);
    if (r.status !== 0) throw new Error(`ffmpeg could not make the ${extension} seed: ${r.stderr?.toString().trim() || r.error?.message}`);
    // a plain copy: a Buffer's slice() shares its memory, and the mutators must not edit the seed
    seeds.push({ extension, bytes: new Uint8Array(readFileSync(out)) });
  }
}

export function generateEncoded(rng: Prng): EncodedCase {
  const seed = rng.pick(seeds);
  let bytes = seed.bytes;
  if (rng.chance(0.3)) bytes = bytes.subarray(0, rng.int(bytes.length));
  else bytes = mutateBytes(rng, bytes, 1 + rng.int(16));
  return { extension: seed.extension, bytes };
}

/** Written to the case dir and decoded through ffmpeg as vq opens any non-Y4M input; every frame read. */
export async function decodeEncoded(c: EncodedCase, ctx: FuzzContext): Promise<unknown> {
  const path = join(ctx.caseDir, `input.${c.extension}`);
  writeFileSync(path, c.bytes);
  try {
    const reader = await openWithFfmpeg(path);
    try {
      let frames = 0;
      for (let p = await reader.read(); p; p = await reader.read()) {
        reader.release(p);
        frames++;
      }
      return { frames, width: reader.format.width, height: reader.format.height };
    } finally {
      await reader.close();
    }
  } finally {
    rmSync(path, { force: true });
  }
}

export const ffmpegTarget: FuzzTarget<EncodedCase> = {
  name: "ffmpeg",
  description: "encoded files through ffmpeg: a small mp4 (H.264), mkv (FFV1) and ivf (VP8) made once per run, truncated or with bytes flipped, cut and inserted; decoded as vq reads any non-Y4M input (few cases: each runs ffmpeg)",
  weight: 0,
  perHundredThousand: 40,
  setup,
  generate: generateEncoded,
  run: decodeEncoded,
  save: (c): CaseFile => c,
  load: (f) => ({ extension: f.extension, bytes: f.bytes }),
};
