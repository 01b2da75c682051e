import { memoryReader, type PictureFormat } from "@vq/core";
import { score, type ScoreRequest } from "./score.ts";

/*
 * A soak: one long scoring run of small synthetic pictures with the process's memory
 * sampled as it goes, to show that memory stays flat apart from the stored scores
 * (issue 20; tools/soak.ts runs it long, memory-soak.test.ts short).
 */

export interface SoakOptions {
  frames: number;
  width: number;
  height: number;
  backend: "cpu" | "gpu";
  /** Memory is sampled every this many frames. */
  every: number;
  /** More of score's request (features, models, threads). */
  request?: Omit<ScoreRequest, "reference" | "distorted" | "backend">;
  /** GPU memory in use, in bytes, when the machine can tell (nvidia-smi); sampled with the rest. */
  gpuMemory?: () => number | undefined;
}

export interface MemorySample {
  frame: number;
  /** Resident set size, bytes. */
  rss: number;
  /** JavaScript heap in use after a full collection, bytes. */
  heap: number;
  gpu?: number;
}

/** Frame `t` of a moving pattern, 8-bit 4:2:0: every frame differs, so motion and VIF have work. */
function syntheticFrame(width: number, height: number, t: number, noise: number): Uint8Array {
  const luma = width * height;
  const frame = new Uint8Array(luma + 2 * (width / 2) * (height / 2));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) frame[y * width + x] = (((x + t) * 7) ^ (y * 3) ^ ((x * y + noise) & 31)) & 255;
  }
  frame.fill(128, luma);
  return frame;
}

function* frames(width: number, height: number, count: number, noise: number): Generator<Uint8Array> {
  for (let t = 0; t < count; t++) yield syntheticFrame(width, height, t, noise);
}

/** Full collection where the runtime offers one (Bun), so the heap figure is what is still reachable. */
function collect(): void {
  (globalThis as { Bun?: { gc(sync: boolean): void } }).Bun?.gc(true);
}

/** Scores `frames` synthetic frames, sampling memory every `every` frames (and at the end). */
export async function soak(options: SoakOptions): Promise<{ samples: MemorySample[]; scoredFrames: number; keys: number }> {
  const format: PictureFormat = { width: options.width, height: options.height, bitDepth: 8, pixelFormat: "420" };
  const samples: MemorySample[] = [];
  const sample = (frame: number) => {
    collect();
    const m = process.memoryUsage();
    samples.push({ frame, rss: m.rss, heap: m.heapUsed, gpu: options.gpuMemory?.() });
  };
  const run = score(
    {
      ...options.request,
      reference: memoryReader("soak reference", format, frames(options.width, options.height, options.frames, 0)),
      distorted: memoryReader("soak distorted", format, frames(options.width, options.height, options.frames, 5)),
      backend: options.backend,
    },
    {
      onProgress: (n) => {
        if (n % options.every === 0) sample(n);
      },
    },
  );
  // Read as the vq command reads it: a run whose frames nobody reads keeps them (ScoreRun).
  for await (const _ of run);
  const summary = await run.result;
  if (samples[samples.length - 1]?.frame !== summary.frames) sample(summary.frames);
  return { samples, scoredFrames: summary.frames, keys: summary.collector.names().length };
}
