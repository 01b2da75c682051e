import { describe, expect, test } from "bun:test";
import { seededRandom } from "@vq/core/testing";
import { filterRegion, scoreRegion } from "../numerics/band-region.ts";
import { contrastMaskingInt32, contrastMaskingScale0, int32Numerator, maskingShifts, scale0Numerator, walkRange, type MaskerSums } from "../numerics/contrast-masking.ts";
import { csfMaskerInt32, csfMaskerScale0 } from "../numerics/csf-bands.ts";
import { csfDenominatorInt32, csfDenominatorScale0, DEN_SQUARE_SHIFT, int32Denominator, scale0Denominator, scale0RowShift } from "../numerics/csf-den.ts";
import { COS_1DEG_SQ, decoupleInt32, decoupleScale0, DivisionTable, type Orientations } from "../numerics/decouple.ts";
import { ceilLog2, DwtIndices } from "../numerics/dwt-indices.ts";
import { dwt2Scale123, DWT123_ROUNDING, type Bands32 } from "../numerics/dwt2.ts";
import type { AdmKernels } from "./adm-wasm.ts";
import { ADM_KERNELS_WASM } from "./wasm/adm-kernels.wasm.ts";

/**
 * Each kernel against its TypeScript reference function on crafted bands: coefficients
 * pictures never produce (INT_MIN, INT_MAX, -2^15 pairs, every bit length, Q32 weights past
 * 2^31), where the kernels' int32/int64 lanes must still wrap, round and convert as the
 * reference's doubles and BigInt do. The reference functions work on views of the same
 * WebAssembly memory.
 */
const module = new WebAssembly.Module(Buffer.from(ADM_KERNELS_WASM, "base64"));
const random = seededRandom(0x5eed);
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** Memory with a bump allocator; every buffer zeroed, 64 bytes of slack after each. */
function kernels(bytes = 1 << 22) {
  const k = new WebAssembly.Instance(module).exports as unknown as AdmKernels;
  let end = (k.heapBase() + 15) & ~15;
  k.memory.grow(Math.ceil((end + bytes) / 65536) - k.memory.buffer.byteLength / 65536);
  const take = (n: number) => {
    const at = end;
    end = (end + n + 64 + 15) & ~15;
    return at;
  };
  return { k, take, buffer: k.memory.buffer };
}

/** A value of every bit length, signed, with the extremes mixed in. */
function int32Value(bits = 31): number {
  const r = random();
  if (r < 0.03) return INT32_MIN;
  if (r < 0.06) return INT32_MAX;
  if (r < 0.1) return 0;
  const length = Math.floor(random() * (bits + 1));
  return Math.trunc((random() * 2 - 1) * 2 ** length) | 0;
}

function int16Value(): number {
  const r = random();
  if (r < 0.05) return -32768;
  if (r < 0.08) return 32767;
  if (r < 0.12) return 0;
  return Math.trunc((random() * 2 - 1) * 2 ** Math.floor(random() * 16));
}

/** n bands of `count` samples at one address, `bandBytes` apart, as typed views. */
function bands<T extends Int16Array | Int32Array>(make: (buffer: ArrayBuffer, at: number, n: number) => T, buffer: ArrayBuffer, at: number, bandBytes: number, count: number, n: number): T[] {
  return Array.from({ length: n }, (_, i) => make(buffer, at + i * bandBytes, count));
}
const i16 = (b: ArrayBuffer, at: number, n: number) => new Int16Array(b, at, n);
const i32 = (b: ArrayBuffer, at: number, n: number) => new Int32Array(b, at, n);
const orientations = <T>([h, v, d]: T[]): Orientations<T> => ({ h: h!, v: v!, d: d! });

describe("decoupling", () => {
  const w = 45;
  const h = 23;
  const stride = 52;
  const count = stride * h;

  /** Distorted coefficients near the reference (angle matches, ratios near 1) or anything. */
  const twin = (o: number, value: () => number, limit: number) => {
    const r = random();
    if (r < 0.3) return Math.max(-limit - 1, Math.min(limit, Math.round(o * (0.5 + random()))));
    if (r < 0.4) return o;
    return value();
  };

  /** A decoupling kernel against its reference on bands of T, `extreme` in two bands every `every` columns. */
  function expectDecouplingAsReference<T extends Int16Array | Int32Array>(
    c: {
      bytes: number;
      view: (b: ArrayBuffer, at: number, n: number) => T;
      value: () => number;
      limit: number;
      extreme: number;
      every: number;
      kernel: (k: AdmKernels) => AdmKernels["decoupleInt32"];
      reference: (ref: Orientations<T>, dis: Orientations<T>, restored: Orientations<T>, additive: Orientations<T>, w: number, h: number, stride: number, gain: number, table: DivisionTable) => void;
    },
    gain: number,
  ): void {
    const { k, take, buffer } = kernels();
    const bandBytes = (count * c.bytes + 127) & ~15;
    const ref = take(4 * bandBytes);
    const dis = take(4 * bandBytes);
    const [resW, addW, resT, addT] = [take(3 * bandBytes), take(3 * bandBytes), take(3 * bandBytes), take(3 * bandBytes)];
    const div = take(65537 * 4);
    const table = new DivisionTable();
    new Int32Array(buffer, div, 65537).set(table.full);
    const refBands = bands(c.view, buffer, ref, bandBytes, count, 4);
    const disBands = bands(c.view, buffer, dis, bandBytes, count, 4);
    for (let x = 0; x < count; x++) {
      for (let b = 1; b < 4; b++) {
        refBands[b]![x] = c.value();
        disBands[b]![x] = twin(refBands[b]![x]!, c.value, c.limit);
      }
      if (x % c.every === 0) for (const bs of [refBands, disBands]) bs[1]![x] = bs[2]![x] = c.extreme;
    }
    const region = filterRegion(w, h);
    c.kernel(k)(ref, dis, resW, addW, bandBytes, stride, region.left, region.top, region.right, region.bottom, gain, Number.isInteger(gain) ? 1 : 0, div, COS_1DEG_SQ);
    const restored = orientations(bands(c.view, buffer, resT, bandBytes, count, 3));
    const additive = orientations(bands(c.view, buffer, addT, bandBytes, count, 3));
    c.reference(orientations(refBands.slice(1)), orientations(disBands.slice(1)), restored, additive, w, h, stride, gain, table);
    expect(bands(c.view, buffer, resW, bandBytes, count, 3)).toEqual(bands(c.view, buffer, resT, bandBytes, count, 3));
    expect(bands(c.view, buffer, addW, bandBytes, count, 3)).toEqual(bands(c.view, buffer, addT, bandBytes, count, 3));
  }

  for (const gain of [100, 1, 1.2]) {
    test(`scale 0 (int16, every -2^15 pair: a dot product of 2^31), gain ${gain}`, () => {
      expectDecouplingAsReference({ bytes: 2, view: i16, value: int16Value, limit: 32767, extreme: -32768, every: 7, kernel: (k) => k.decoupleScale0, reference: decoupleScale0 }, gain);
    });

    test(`scales 1..3 (int32, INT_MIN and every bit length: int64 sums that wrap), gain ${gain}`, () => {
      expectDecouplingAsReference({ bytes: 4, view: i32, value: int32Value, limit: INT32_MAX, extreme: INT32_MIN, every: 11, kernel: (k) => k.decoupleInt32, reference: decoupleInt32 }, gain);
    });
  }
});

describe("CSF maskers, denominators and contrast masking", () => {
  const w = 41;
  const h = 27;
  const stride = 48;
  const count = stride * h;

  test("scale 0 (int16 bands, uint16 weights)", () => {
    const { k, take, buffer } = kernels();
    const bandBytes = (count * 2 + 127) & ~15;
    const src = take(4 * bandBytes);
    const srcBands = bands(i16, buffer, src, bandBytes, count, 4);
    for (const band of srcBands) for (let x = 0; x < count; x++) band[x] = int16Value();
    const [fltW, centreW, fltT, centreT] = [take(count * 4), take(count * 4), take(count * 4), take(count * 4)];
    const out = new Float64Array(buffer, take(48), 6);
    const filter = filterRegion(w, h);
    const score = scoreRegion(w, h);
    for (const weights of [[36453, 36453, 49417], [65535, 1, 40000]] as [number, number, number][]) {
      k.csfMaskerScale0(src + bandBytes, bandBytes, ...weights, stride, filter.left, filter.top, filter.right, filter.bottom, fltW, centreW);
      const masker: MaskerSums = { flt: i32(buffer, fltT, count), centre: i32(buffer, centreT, count) };
      const x = orientations(srcBands.slice(1));
      csfMaskerScale0(x, weights, w, h, stride, masker);
      expect(i32(buffer, fltW, count)).toEqual(i32(buffer, fltT, count));
      expect(i32(buffer, centreW, count)).toEqual(i32(buffer, centreT, count));

      const walk = walkRange(w, h);
      const m = maskingShifts(0, w);
      k.maskingSums(src + bandBytes, bandBytes, 1, fltW, centreW, w, h, stride, walk.rowStart, walk.rowEnd, walk.colStart, walk.colEnd, ...weights, m.subHv, m.subD, m.squareHv, m.cubeHv, m.squareD, m.cubeD, ceilLog2(h), out.byteOffset);
      expect(scale0Numerator(out, w, h, 0.03125)).toBe(contrastMaskingScale0(x, masker, weights, { w, h, stride, noiseWeight: 0.03125 }));
    }
    const area = (score.bottom - score.top) * (score.right - score.left);
    k.denominatorScale0(src, bandBytes, stride, score.left, score.top, score.right, score.bottom, scale0RowShift(area), out.byteOffset);
    const weights = [0.02, 0.02, 0.01];
    expect(scale0Denominator(out, w, h, weights, 0.03125)).toBe(csfDenominatorScale0(orientations(srcBands.slice(1)), w, h, stride, weights, 0.03125));
  });

  test("scales 1..3 (int32 bands, Q32 weights below and past 2^31)", () => {
    const { k, take, buffer } = kernels();
    const bandBytes = (count * 4 + 127) & ~15;
    const src = take(4 * bandBytes);
    const srcBands = bands(i32, buffer, src, bandBytes, count, 4);
    for (const band of srcBands) for (let x = 0; x < count; x++) band[x] = int32Value();
    const [csfW, csfT] = [take(3 * bandBytes), take(3 * bandBytes)];
    const [fltW, centreW, fltT, centreT] = [take(count * 4), take(count * 4), take(count * 4), take(count * 4)];
    const out = new Float64Array(buffer, take(48), 6);
    const filter = filterRegion(w, h);
    const score = scoreRegion(w, h);
    for (const weights of [[1_000_000_000, 1_000_000_000, 400_000_000], [4_294_967_295, 2 ** 31, 3_000_000_000], [1, 0, 2 ** 31 - 1]] as [number, number, number][]) {
      k.csfMaskerInt32(src + bandBytes, bandBytes, ...weights, stride, filter.left, filter.top, filter.right, filter.bottom, csfW, fltW, centreW);
      const csf = orientations(bands(i32, buffer, csfT, bandBytes, count, 3));
      const masker: MaskerSums = { flt: i32(buffer, fltT, count), centre: i32(buffer, centreT, count) };
      csfMaskerInt32(orientations(srcBands.slice(1)), weights, w, h, stride, csf, masker);
      expect(bands(i32, buffer, csfW, bandBytes, count, 3)).toEqual(bands(i32, buffer, csfT, bandBytes, count, 3));
      expect(i32(buffer, fltW, count)).toEqual(i32(buffer, fltT, count));
      expect(i32(buffer, centreW, count)).toEqual(i32(buffer, centreT, count));

      const walk = walkRange(w, h);
      for (const scale of [1, 2, 3]) {
        const m = maskingShifts(scale, w);
        k.maskingSums(csfW, bandBytes, 0, fltW, centreW, w, h, stride, walk.rowStart, walk.rowEnd, walk.colStart, walk.colEnd, 1, 1, 1, m.subHv, m.subD, m.squareHv, m.cubeHv, m.squareD, m.cubeD, ceilLog2(h), out.byteOffset);
        expect(int32Numerator(out.subarray(3), scale, w, h, 0.03125)).toBe(contrastMaskingInt32(csf, masker, scale, { w, h, stride, noiseWeight: 0.03125 }));
      }
    }
    for (const scale of [1, 2, 3]) {
      k.denominatorInt32(src, bandBytes, stride, score.left, score.top, score.right, score.bottom, DEN_SQUARE_SHIFT[scale - 1]!, ceilLog2(score.right - score.left), ceilLog2(score.bottom - score.top), out.byteOffset);
      const weights = [0.05, 0.05, 0.03];
      expect(int32Denominator(out, scale, w, h, weights, 0.03125)).toBe(csfDenominatorInt32(orientations(srcBands.slice(1)), scale, w, h, stride, weights, 0.03125));
    }
  });
});

test("the DWT of scales 2 and 3 on int32 bands of every bit length (int64 sums, wrapped stores)", () => {
  const w = 37;
  const h = 29;
  const stride = 40;
  const count = stride * h;
  for (const scale of [2, 3]) {
    const { k, take, buffer } = kernels();
    const bandBytes = (count * 4 + 127) & ~15;
    const [srcRef, srcDis] = [take(bandBytes), take(bandBytes)];
    for (const at of [srcRef, srcDis]) {
      const band = i32(buffer, at, count);
      for (let x = 0; x < count; x++) band[x] = int32Value();
    }
    const [outRefW, outDisW, outRefT, outDisT] = [take(4 * bandBytes), take(4 * bandBytes), take(4 * bandBytes), take(4 * bandBytes)];
    const [tmpW, tmpT] = [take(w * 16 + 64), take(w * 16 + 64)];
    const { vRound, vShift, hRound, hShift } = DWT123_ROUNDING[scale - 1]!;
    k.dwtScale123(srcRef, srcDis, 0, w, h, stride, vRound, vShift, hRound, hShift, outRefW, outDisW, bandBytes, tmpW, 0);
    const bands32 = (at: number): Bands32 => {
      const [a, hh, v, d] = bands(i32, buffer, at, bandBytes, count, 4);
      return { a: a!, h: hh!, v: v!, d: d! };
    };
    const rows = new DwtIndices((h + 1) >> 1);
    const cols = new DwtIndices((w + 1) >> 1);
    rows.fill(h);
    cols.fill(w);
    dwt2Scale123(i32(buffer, srcRef, count), i32(buffer, srcDis, count), w, h, stride, scale, bands32(outRefT), bands32(outDisT), i32(buffer, tmpT, w * 4 + 16), rows, cols, 0);
    expect(bands32(outRefW)).toEqual(bands32(outRefT));
    expect(bands32(outDisW)).toEqual(bands32(outDisT));
  }
});
