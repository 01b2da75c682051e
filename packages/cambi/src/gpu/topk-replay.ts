import { alignUp } from "@vq/core";
import { stageKernel, type StageKernel } from "@vq/gpu-core";
import { CAMBI_KERNELS } from "./cambi-gpu-kernels.ts";
import { topkCount } from "../numerics/topk-pooling.ts";

/**
 * libvmaf's top-k pooling replayed on the GPU (shaders/cambi/topk-replay.wgsl) for the
 * pictures and scales whose pooled sum can round in double: its quickselect on the
 * c-values in place, then the double sum in that order. Every job (picture and scale)
 * goes through the same dispatches (workgroup y = job); jobs whose sum is exact do nothing.
 */

/** Values per block of the round and sum kernels (256 threads x 16). */
export const REPLAY_BLOCK = 4096;
/** Result words per job: flag (1 replayed, 2 left to the CPU), sum in units of 2^-24 (low, high), rounds. */
export const REPLAY_WORDS = 4;
const STATE_WORDS = 20;
const FN_WORDS = 44;
const JOB_WORDS = 8;

export interface ReplayJob {
  /** First word of the job's c-values in the c-value buffer (a multiple of 64). */
  offset: number;
  n: number;
  k: number;
  /** Its pooling words (topk-pooling.wgsl) in the results binding. */
  resultBase: number;
  /** Its REPLAY_WORDS in the results binding. */
  out: number;
  /** Replay even when the sum is exact (tests). */
  force?: boolean;
}

export interface ReplayDispatch {
  kernel: StageKernel;
  /** By WGSL name; "results": the frame's results binding (as the pooling kernels get it). */
  bindings: Record<string, GPUBufferBinding | "results">;
  workgroups: [number, number];
}

/** Where a pooled sum (in value) can start to round in double. */
const EXACT_SUM_LIMIT = 2 ** 29;

/**
 * An upper bound of a picture's c-values: each is the largest weight · p0 · pm / (p0 + pm)
 * with p0 + pm at most the window's pixels, so at most weight · window² / 4 (plus float
 * roundings, far below 2^-20).
 */
export function maxCValue(weights: ArrayLike<number>, windowSize: number): number {
  return Math.max(...Array.from(weights)) * ((windowSize * windowSize) / 4) * (1 + 2 ** -20);
}

export interface ReplayLayout {
  /** Words of the c-value buffer. */
  words: number;
  /** Per picture and scale, the first word of its c-values. */
  offsets: number[][];
  /** The pictures and scales whose pooled sum can reach 2^29. */
  jobs: ReplayJob[];
}

/**
 * Where each picture's and scale's c-values go (`pixels[p][s]` values): side by side when
 * the buffer fits `maxBytes`, so that the top-k pooling and the replay serve them all at
 * once; the replay jobs are those whose pooled sum can reach 2^29 (k values up to
 * `maxValue[p]`). Else all in one region, reused by every scale, and no replay (the CPU
 * pools what would need it).
 */
export function replayJobs(
  pixels: readonly (readonly number[])[],
  maxValue: readonly number[],
  topk: number,
  words: { resultBase(p: number, s: number): number; out(p: number, s: number): number; maxBytes: number },
): ReplayLayout {
  const offsets: number[][] = [];
  const jobs: ReplayJob[] = [];
  let total = 0;
  pixels.forEach((scales, p) => {
    offsets.push(
      scales.map((n, s) => {
        const k = topkCount(topk, n);
        const offset = total;
        if (k * maxValue[p]! >= EXACT_SUM_LIMIT) jobs.push({ offset, n, k, resultBase: words.resultBase(p, s), out: words.out(p, s) });
        total += alignUp(n, 64);
        return offset;
      }),
    );
  });
  if (total * 4 <= words.maxBytes) return { words: total, offsets, jobs };
  return { words: Math.max(...pixels.flat()), offsets: offsets.map((o) => o.map(() => 0)), jobs: [] };
}

/**
 * Round dispatches (split_stops, swap) before the one-workgroup finish: enough for the
 * interval to reach one block if every round halves it (4K upscaled content halves it
 * every round: ADR 0009).
 */
export function replayRounds(maxN: number): number {
  return Math.max(0, Math.ceil(Math.log2(Math.max(1, maxN) / REPLAY_BLOCK)));
}

/** The replay's buffers and dispatches for `jobs` whose c-values live in `cValues`. */
export function topkReplay(device: GPUDevice, jobs: readonly ReplayJob[], cValues: GPUBuffer, owned: GPUBuffer[], rounds = replayRounds(Math.max(...jobs.map((j) => j.n)))): ReplayDispatch[] {
  const buffer = (label: string, words: number): GPUBuffer => {
    const b = device.createBuffer({ label, size: Math.max(16, words * 4), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    owned.push(b);
    return b;
  };
  const jobWords = new Uint32Array(jobs.length * JOB_WORDS);
  let scratch = 0;
  let sync = 0;
  jobs.forEach((j, y) => {
    jobWords.set([j.offset, j.n, j.k, j.resultBase, scratch, j.out, j.force ? 1 : 0, sync], y * JOB_WORDS);
    const blocks = Math.ceil(j.n / REPLAY_BLOCK);
    scratch += alignUp(blocks * FN_WORDS, 64);
    // two tickets, then per slot two descriptor words per block
    sync += alignUp(2 + 4 * blocks, 64);
  });
  const jobBuffer = buffer("cambi replay jobs", jobWords.length);
  device.queue.writeBuffer(jobBuffer, 0, jobWords);
  const words = cValues.size / 4;
  const bind = (b: GPUBuffer): GPUBufferBinding => ({ buffer: b });
  const all: ReplayDispatch["bindings"] = {
    jobs: bind(jobBuffer),
    c_values: bind(cValues),
    results: "results",
    state: bind(buffer("cambi replay state", jobs.length * STATE_WORDS)),
    lpos: bind(buffer("cambi replay left stops", words)),
    rpos: bind(buffer("cambi replay right stops", words)),
    blocks: bind(buffer("cambi replay block sums", scratch)),
    sync: bind(buffer("cambi replay block scan", sync)),
  };
  // every entry point declares only what it uses: bind just those
  const uses: Record<string, string[]> = {
    start: ["jobs", "results", "state", "sync"],
    split_stops: ["jobs", "c_values", "state", "lpos", "rpos", "sync"],
    swap: ["jobs", "c_values", "state", "lpos", "rpos"],
    finish: ["jobs", "c_values", "state", "lpos", "rpos"],
    sum_blocks: ["jobs", "c_values", "state", "blocks"],
    sum_walk: ["jobs", "c_values", "results", "state", "blocks"],
  };
  const dispatch = (entry: string, x: number, PARITY = 0): ReplayDispatch => ({
    kernel: stageKernel(device, { ...CAMBI_KERNELS.replay, entryPoint: entry, constants: { PARITY } }),
    bindings: Object.fromEntries(uses[entry]!.map((name) => [name, all[name]!])),
    workgroups: [x, jobs.length],
  });
  const maxN = Math.max(...jobs.map((j) => j.n));
  const maxK = Math.max(...jobs.map((j) => j.k));
  // start also clears the block scan's words (grid-stride)
  const out: ReplayDispatch[] = [dispatch("start", Math.min(64, Math.ceil((2 + 4 * Math.ceil(maxN / REPLAY_BLOCK)) / 256)))];
  for (let r = 0; r < rounds; r++) {
    // grids for an interval halved every round (the kernels stride over what is more)
    const expected = Math.ceil(maxN / 2 ** r);
    const parity = r & 1;
    const blocks = Math.ceil(expected / REPLAY_BLOCK);
    out.push(dispatch("split_stops", blocks, parity), dispatch("swap", Math.min(1024, Math.ceil((expected + 1) / 1024)), parity));
  }
  const last = rounds & 1;
  out.push(dispatch("finish", 1, last), dispatch("sum_blocks", Math.ceil(maxK / REPLAY_BLOCK)), dispatch("sum_walk", 1, last));
  return out;
}
