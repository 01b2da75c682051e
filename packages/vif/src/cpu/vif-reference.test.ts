import { describe, expect, test } from "bun:test";
import { FeatureCollector, Picture, type PictureFormat } from "@vq/core";
import { vifOptions } from "../definition.ts";
import { createLog2Table } from "../numerics/log2-table.ts";
import { VifCpu } from "./vif-cpu.ts";
import { VIF_FILTERS } from "../numerics/vif-filters.ts";

/**
 * libvmaf's integer VIF written the plain way, in BigInt with C's types: every filter
 * tap in order, mirrored indexes, the full blur before decimation, 64-bit products. The
 * golden data covers 8 and 10 bits; this checks the fast code's double arithmetic at
 * every depth up to 16 bits and on content that reaches the fixed point's limits.
 */
function referenceNumDen(ref: number[][], dis: number[][], bitDepth: number, gainLimit: number): number[] {
  const table = createLog2Table();
  const mirror = (i: number, n: number) => (i < 0 ? -i : i >= n ? 2 * n - i - 2 : i);
  const taps = VIF_FILTERS.map((f) => Array.from(f, BigInt));
  const log2 = (x: bigint) => {
    const k = x.toString(2).length - 16;
    return BigInt(table[Number(x >> BigInt(k))]!) + 2048n * BigInt(k);
  };
  const out: number[] = [];
  let planes = [ref.map((row) => row.map(BigInt)), dis.map((row) => row.map(BigInt))];
  for (let scale = 0; scale < 4; scale++) {
    if (scale > 0) {
      const f = taps[scale]!;
      const [round, shift] = scale === 1 ? [1n << BigInt(bitDepth - 1), BigInt(bitDepth)] : [32768n, 16n];
      planes = planes.map((p) => {
        const h = p.length;
        const w = p[0]!.length;
        const blur = (i: number, j: number) => {
          let row = 0n;
          for (let l = 0; l < f.length; l++) {
            const jj = mirror(j - (f.length >> 1) + l, w);
            let col = 0n;
            for (let k = 0; k < f.length; k++) col += f[k]! * p[mirror(i - (f.length >> 1) + k, h)]![jj]!;
            row += f[l]! * (((col + round) >> shift) & 0xffffn);
          }
          return ((row + 32768n) >> 16n) & 0xffffn;
        };
        return Array.from({ length: h >> 1 }, (_, r) => Array.from({ length: w >> 1 }, (_, c) => blur(2 * r, 2 * c)));
      });
    }
    const [x, y] = planes as [bigint[][], bigint[][]];
    const h = x.length;
    const w = x[0]!.length;
    const f = taps[scale]!;
    const half = f.length >> 1;
    const muRound = scale === 0 ? 1n << BigInt(bitDepth - 1) : 32768n;
    const muShift = scale === 0 ? BigInt(bitDepth) : 16n;
    const sqShift = scale === 0 ? BigInt(2 * (bitDepth - 8)) : 16n;
    const sqRound = sqShift === 0n ? 0n : 1n << (sqShift - 1n);
    const vertical = (i: number, j: number) => {
      const s = [0n, 0n, 0n, 0n, 0n];
      for (let k = 0; k < f.length; k++) {
        const a = x[mirror(i - half + k, h)]![j]!;
        const b = y[mirror(i - half + k, h)]![j]!;
        s[0]! += f[k]! * a;
        s[1]! += f[k]! * b;
        s[2]! += f[k]! * a * a;
        s[3]! += f[k]! * b * b;
        s[4]! += f[k]! * a * b;
      }
      const mu = (v: bigint) => ((v + muRound) >> muShift) & 0xffffffffn;
      const sq = (v: bigint) => ((v + sqRound) >> sqShift) & 0xffffffffn;
      return [mu(s[0]!), mu(s[1]!), sq(s[2]!), sq(s[3]!), sq(s[4]!)];
    };
    const int32 = (v: bigint) => Number(BigInt.asIntN(32, v));
    let numLog = 0n;
    let denLog = 0n;
    let numNonLog = 0n;
    let denNonLog = 0n;
    for (let i = 0; i < h; i++) {
      const rows = Array.from({ length: w }, (_, j) => vertical(i, j));
      for (let j = 0; j < w; j++) {
        const s = [0n, 0n, 0n, 0n, 0n];
        for (let k = 0; k < f.length; k++) {
          const v = rows[mirror(j - half + k, w)]!;
          for (let t = 0; t < 5; t++) s[t]! += f[k]! * v[t]!;
        }
        const [mu1, mu2] = [s[0]! & 0xffffffffn, s[1]! & 0xffffffffn];
        const high = (a: bigint, b: bigint) => (a * b + 2147483648n) >> 32n;
        const filt = (v: bigint) => ((v + 32768n) >> 16n) & 0xffffffffn;
        const sigma1Sq = int32(filt(s[2]!) - high(mu1, mu1));
        const sigma2Sq = Math.max(int32(filt(s[3]!) - high(mu2, mu2)), 0);
        const sigma12 = int32(filt(s[4]!) - high(mu1, mu2));
        if (sigma1Sq >= 131072) {
          denLog += log2(BigInt(131072 + sigma1Sq)) - 2048n * 17n;
          if (sigma12 > 0 && sigma2Sq > 0) {
            let g = sigma12 / (sigma1Sq + 65536 * 1.0e-10);
            const svSq = sigma2Sq - g * sigma12;
            const sv = svSq > 0 ? Math.trunc(svSq) : 0; // (int32_t), then MAX(sv_sq, 0)
            g = Math.min(g, gainLimit);
            const numer1 = BigInt(sv + 131072);
            numLog += log2(BigInt(Math.trunc(g * g * sigma1Sq)) + numer1) - log2(numer1);
          }
        } else {
          numNonLog += BigInt(sigma2Sq);
          denNonLog++;
        }
      }
    }
    out.push(Math.fround(Number(numLog) / 2048.0 + (Number(denNonLog) - Number(numNonLog) / 16384.0 / 65025.0)));
    out.push(Math.fround(Number(denLog) / 2048.0 + Number(denNonLog)));
  }
  return out;
}

/** A deterministic picture of `bitDepth` bits from a sample function of (x, y, noise in [0, 1)). */
function picture(format: PictureFormat, seed: number, sample: (x: number, y: number, noise: number) => number): { picture: Picture; rows: number[][] } {
  const p = Picture.allocate(format);
  const plane = p.planes[0]!;
  const max = 2 ** format.bitDepth - 1;
  let s = seed;
  const rows: number[][] = [];
  for (let y = 0; y < plane.height; y++) {
    const row: number[] = [];
    for (let x = 0; x < plane.width; x++) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      const v = Math.min(max, Math.max(0, Math.round(sample(x, y, (s >>> 8) / 16777216) * max)));
      plane.data[y * plane.stride + x] = v;
      row.push(v);
    }
    rows.push(row);
  }
  return { picture: p, rows };
}

describe("integer vif equals a plain BigInt port of libvmaf at every bit depth", () => {
  const contents: [string, (x: number, y: number, n: number) => number, (x: number, y: number, n: number) => number][] = [
    // full-range noise: the largest variances and products the fixed point holds
    ["noise", (_x, _y, n) => n, (x, y, n) => 0.7 * n + 0.3 * (((x + y) & 1) ^ 1)],
    // hard black/white edges against a distorted, brighter copy (gains above 1)
    ["edges", (x, y) => ((x >> 1) + (y >> 2)) & 1, (x, y, n) => 0.05 + 0.9 * (((x >> 1) + (y >> 2)) & 1) + 0.04 * n],
    // smooth, nearly flat content: most samples take the linear (non-log) branch
    ["flat", (x, y) => 0.5 + 0.002 * Math.sin(x / 9 + y / 7), (x, y, n) => 0.5 + 0.002 * Math.sin(x / 9 + y / 7) + 0.001 * n],
  ];
  for (const bitDepth of [8, 9, 10, 12, 16]) {
    test(`${bitDepth}-bit`, () => {
      const format: PictureFormat = { width: 37, height: 34, bitDepth, pixelFormat: "400" };
      for (const [name, refSample, disSample] of contents) {
        const ref = picture(format, 7, refSample);
        const dis = picture(format, 11, disSample);
        for (const gainLimit of [100, 1]) {
          const vif = new VifCpu(vifOptions.resolve({ debug: true, vif_enhn_gain_limit: gainLimit }));
          const collector = new FeatureCollector();
          vif.init(format);
          vif.extract({ ref: ref.picture, dist: dis.picture }, 0, collector);
          const got = [0, 1, 2, 3].flatMap((s) => [collector.get(vif.names.numScale[s]!, 0), collector.get(vif.names.denScale[s]!, 0)]);
          expect(got, `${name}, gain limit ${gainLimit}`).toEqual(referenceNumDen(ref.rows, dis.rows, bitDepth, gainLimit));
        }
      }
    });
  }
});
