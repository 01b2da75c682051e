import { describe, expect, test } from "bun:test";
import { gpuForTests } from "@vq/gpu-core/testing";
import { POOL_WORDS, pooledFromWords } from "../numerics/exact-pooling.ts";
import { quickSelect, topkCount } from "../numerics/topk-pooling.ts";
import { REPLAY_WORDS, replayRounds, topkReplay, type ReplayJob } from "./topk-replay.ts";
import { seededRandom as rng } from "@vq/core/testing";

const gpu = await gpuForTests();

const bitsOf = (v: number) => new Uint32Array(Float32Array.of(v).buffer)[0]!;
const units = (v: number) => BigInt(v * 2 ** 24); // exact: non-zero c-values are multiples of 2^-24

/** The pooling words topk-pooling.wgsl leaves for `values` (see its header). */
function poolingWords(values: Float32Array, k: number): Uint32Array {
  const words = new Uint32Array(POOL_WORDS);
  let count = 0;
  let sum = 0n;
  for (const v of values) if (v > 0) (count++, (sum += units(v)));
  words[0] = count;
  words[1] = Number(sum & 0xffffffffn);
  words[2] = Number(sum >> 32n);
  if (count > k) {
    const t = Float32Array.from(values).sort().reverse()[k - 1]!;
    let above = 0;
    let s = 0n;
    for (const v of values) if (v > t) (above++, (s += units(v)));
    words[3] = above;
    words[4] = Number(s & 0xffffffffn);
    words[5] = Number(s >> 32n);
    words[6] = bitsOf(t);
  }
  return words;
}

/** libvmaf's pooling on the CPU: the array after its quickselect and the double sum of the first k. */
function cpuReplay(values: Float32Array, k: number): { arranged: Float32Array; sum: number } {
  const arranged = values.slice();
  quickSelect(arranged, arranged.length, k);
  let sum = 0;
  for (let i = 0; i < k; i++) sum += arranged[i]!;
  return { arranged, sum };
}

interface Case {
  values: Float32Array;
  k: number;
  force?: boolean;
  topk?: number;
}

/** Runs the replay on the GPU over every case at once (one job each). */
async function gpuReplay(cases: Case[], rounds?: number): Promise<{ flag: number; sum: number; rounds: number; arranged: Float32Array }[]> {
  const device = gpu!.device;
  const offsets: number[] = [];
  let words = 0;
  for (const c of cases) {
    offsets.push(words);
    words += Math.ceil(c.values.length / 64) * 64;
  }
  const resultWords = cases.length * (POOL_WORDS + REPLAY_WORDS);
  const owned: GPUBuffer[] = [];
  const make = (label: string, size: number, usage: number) => {
    const b = device.createBuffer({ label, size, usage });
    owned.push(b);
    return b;
  };
  const cValues = make("test c-values", words * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC);
  const results = make("test results", resultWords * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC);
  const init = new Uint32Array(resultWords);
  const jobs: ReplayJob[] = cases.map((c, y) => {
    device.queue.writeBuffer(cValues, offsets[y]! * 4, c.values as Float32Array<ArrayBuffer>);
    init.set(poolingWords(c.values, c.k), y * POOL_WORDS);
    return { offset: offsets[y]!, n: c.values.length, k: c.k, resultBase: y * POOL_WORDS, out: cases.length * POOL_WORDS + y * REPLAY_WORDS, force: c.force };
  });
  device.queue.writeBuffer(results, 0, init);
  const dispatches = topkReplay(device, jobs, cValues, owned, rounds);
  const encoder = device.createCommandEncoder();
  for (const d of dispatches) {
    const bindings = Object.fromEntries(Object.entries(d.bindings).map(([name, b]) => [name, b === "results" ? results : b]));
    const pass = encoder.beginComputePass();
    d.kernel.dispatchIn(pass, bindings, d.workgroups);
    pass.end();
  }
  const readC = make("test read c", words * 4, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST);
  const readR = make("test read results", resultWords * 4, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST);
  encoder.copyBufferToBuffer(cValues, 0, readC, 0, words * 4);
  encoder.copyBufferToBuffer(results, 0, readR, 0, resultWords * 4);
  device.queue.submit([encoder.finish()]);
  await Promise.all([readC.mapAsync(GPUMapMode.READ), readR.mapAsync(GPUMapMode.READ)]);
  const c = new Float32Array(readC.getMappedRange().slice(0));
  const r = new Uint32Array(readR.getMappedRange().slice(0));
  for (const b of owned) b.destroy();
  return cases.map((cs, y) => {
    const at = jobs[y]!.out;
    return {
      flag: r[at]!,
      sum: Number((BigInt(r[at + 2]!) << 32n) | BigInt(r[at + 1]!)) * 2 ** -24,
      rounds: r[at + 3]!,
      arranged: c.slice(offsets[y]!, offsets[y]! + cs.values.length),
    };
  });
}

/** The interval sizes libvmaf's quickselect partitions, round by round. */
function intervalSizes(values: Float32Array, k: number): number[] {
  const a = values.slice();
  const sizes: number[] = [];
  let left = 0;
  let right = a.length - 1;
  while (left < right && a.length !== k) {
    sizes.push(right - left + 1);
    quickSelectRound(a, k, left, right);
    ({ left, right } = lastRound);
  }
  return sizes;
}

let lastRound = { left: 0, right: 0 };
function quickSelectRound(a: Float32Array, k: number, left: number, right: number): void {
  const pivot = a[k]!;
  let i = left;
  let j = right;
  do {
    while (a[i]! > pivot) i++;
    while (a[j]! < pivot) j--;
    if (i <= j) {
      [a[i], a[j]] = [a[j]!, a[i]!];
      i++;
      j--;
    }
  } while (i <= j);
  lastRound = { left: j < k ? i : left, right: k < i ? j : right };
}

/** c-values with heavy duplicates: zeros, a few repeated values, fine-grained small values (ties) and large ones. */
function synthetic(n: number, seed: number, mix: { zeros: number; large: number; repeats: number }): Float32Array {
  const r = rng(seed);
  const repeated = [0.5, 0.75, 1.5, 3, 1000.5, 8191.75];
  return Float32Array.from({ length: n }, () => {
    const u = r();
    if (u < mix.zeros) return 0;
    if (u < mix.zeros + mix.repeats) return repeated[Math.floor(r() * repeated.length)]!;
    if (u < mix.zeros + mix.repeats + mix.large) return Math.fround(4096 + r() * 12000);
    return Math.fround(0.5 + r() * 0.5); // odd multiples of 2^-24 half the time: ties from the first binade
  });
}

describe.skipIf(!gpu)("top-k pooling replayed on the GPU", () => {
  test("the partition rounds leave libvmaf's arrangement, small arrays with heavy duplicates", async () => {
    const cases: Case[] = [];
    for (let seed = 1; seed <= 24; seed++) {
      const r = rng(seed * 31);
      const n = 1 + Math.floor(r() * 20000);
      const values = synthetic(n, seed, { zeros: r() * 0.8, large: r() * 0.2, repeats: r() * 0.5 });
      cases.push({ values, k: topkCount([0.01, 0.3, 0.6, 0.9, 1][seed % 5]!, n), force: true });
    }
    for (const rounds of [0, 3]) {
      const got = await gpuReplay(cases, rounds);
      cases.forEach((c, y) => {
        const want = cpuReplay(c.values, c.k);
        expect(got[y]!.flag, `case ${y}`).toBe(1);
        expect(got[y]!.arranged, `case ${y} arrangement (${rounds} round dispatches)`).toEqual(want.arranged);
        expect(got[y]!.sum, `case ${y} sum`).toBe(want.sum);
      });
    }
  }, 300_000);

  test("sums past 2^29 and 2^30 (ties, binade crossings): libvmaf's double, with and without round dispatches", async () => {
    const cases: Case[] = [
      [synthetic(600_000, 7, { zeros: 0.3, large: 0.2, repeats: 0.1 }), 0.6],
      [synthetic(300_000, 8, { zeros: 0.1, large: 0.4, repeats: 0.2 }), 1],
      [synthetic(2_000_000, 9, { zeros: 0.7, large: 0.06, repeats: 0.05 }), 0.6],
      [synthetic(2_000_000, 10, { zeros: 0.5, large: 0.03, repeats: 0.3 }), 0.3],
    ].map(([values, topk]) => ({ values: values as Float32Array, k: topkCount(topk as number, (values as Float32Array).length), topk: topk as number }));
    const wants = cases.map((c) => cpuReplay(c.values, c.k));
    expect(wants.map((w) => w.sum > 2 ** 30)).toEqual([true, true, true, true]);
    // the round grids assume halving intervals: here some shrink slower, so workgroups stride
    expect(cases.some((c) => intervalSizes(c.values, c.k).some((size, r) => size > 2_000_000 / 2 ** r))).toBe(true);
    // the order matters: the same values summed largest first give other doubles
    const sortedSum = (w: { arranged: Float32Array }, k: number) => Array.from(w.arranged.subarray(0, k)).sort((a, b) => b - a).reduce((a, v) => a + v, 0);
    expect(cases.filter((c, y) => sortedSum(wants[y]!, c.k) !== wants[y]!.sum).length).toBeGreaterThan(1);
    for (const rounds of [0, replayRounds(2_000_000)]) {
      const got = await gpuReplay(cases, rounds);
      cases.forEach((c, y) => {
        expect(pooledFromWords(poolingWords(c.values, c.k), 0, c.values.length, c.topk!)).toBeNull();
        expect(got[y]!.flag).toBe(1);
        expect(got[y]!.sum, `case ${y}`).toBe(wants[y]!.sum);
        expect(got[y]!.arranged).toEqual(wants[y]!.arranged);
      });
    }
  }, 600_000);
});
