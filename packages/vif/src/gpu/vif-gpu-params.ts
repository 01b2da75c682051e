import { VIF_FILTER_HALF, VIF_FILTERS } from "../numerics/vif-filters.ts";

/** The epsilon libvmaf adds to sigma1_sq before dividing: 65536 * 1.0e-10, folded in double. */
const GAIN_EPSILON = 65536 * 1.0e-10;

/** Words of the kernels' parameter blocks (shaders/vif/statistic.wgsl, decimate.wgsl). */
export const STATISTIC_PARAM_WORDS = 64;
export const DECIMATE_PARAM_WORDS = 28;
/** Words of one scale's sums in the results: num_log, den_log, non_log Σ (u64 each), non_log count. */
export const SCALE_RESULT_WORDS = 7;

/**
 * A positive normal double as the kernels' F64 (shaders/common/f64.wgsl): its 53-bit
 * mantissa m (low word, high word) and exponent e, x = m * 2^e.
 */
export function f64Words(x: number): [number, number, number] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const high = view.getUint32(0);
  const biased = (high >>> 20) & 0x7ff;
  if (!(x > 0) || biased === 0 || biased === 0x7ff) throw new RangeError(`f64Words: ${x} is not a positive normal double`);
  return [view.getUint32(4), (high & 0xfffff) | 0x100000, biased - 1075];
}

/**
 * fl(s + eps) - s in units of the last place of s, for integers s in [2^E, 2^(E+1)):
 * the same for every such s (s is even in those units, so ties round alike), which turns
 * libvmaf's double `sigma1_sq + eps` into a mantissa addition. Index E; 0 where E < 17
 * (sigma1_sq is at least 2^17 where it is used).
 */
export function epsilonSteps(): Uint32Array<ArrayBuffer> {
  const steps = new Uint32Array(32);
  for (let e = 17; e < 32; e++) steps[e] = (2 ** e + GAIN_EPSILON - 2 ** e) * 2 ** (52 - e); // exact (Sterbenz)
  return steps;
}

function setTaps(params: Uint32Array, at: number, scale: number): void {
  params.set(VIF_FILTERS[scale]!, at);
}

/**
 * Parameters of one scale's statistic kernel. The vertical pass rounds like libvmaf's:
 * at scale 0 samples of bitDepth bits come down to 16-bit means and (above 8 bits) their
 * squares to 32 bits; later scales take 16-bit means and round off 16 bits.
 */
export function statisticParams(scale: number, width: number, height: number, bitDepth: number, gainLimit: number): Uint32Array<ArrayBuffer> {
  const p = new Uint32Array(STATISTIC_PARAM_WORDS);
  const sqShift = scale === 0 ? 2 * (bitDepth - 8) : 16;
  p.set([width, height, scale === 0 ? 2 ** (bitDepth - 1) : 32768, scale === 0 ? bitDepth : 16, sqShift === 0 ? 0 : 2 ** (sqShift - 1), sqShift, scale * SCALE_RESULT_WORDS, VIF_FILTER_HALF[scale]!]);
  const [lo, hi, e] = f64Words(gainLimit);
  p.set([lo, hi, e >>> 0, 0], 8);
  setTaps(p, 12, scale);
  p.set(epsilonSteps(), 32);
  return p;
}

/** Parameters of the decimation from scale `scale` (width x height) to scale + 1. */
export function decimateParams(scale: number, width: number, height: number, bitDepth: number): Uint32Array<ArrayBuffer> {
  const p = new Uint32Array(DECIMATE_PARAM_WORDS);
  p.set([width, height, width >> 1, height >> 1, scale === 0 ? 2 ** (bitDepth - 1) : 32768, scale === 0 ? bitDepth : 16, VIF_FILTER_HALF[scale + 1]!, 0]);
  setTaps(p, 8, scale + 1);
  return p;
}

/** libvmaf's log2 table entries for 16-bit mantissas 32768..65535, two to a word (shaders/vif/log2.wgsl). */
export function packedLog2Table(table: Uint16Array): Uint32Array<ArrayBuffer> {
  return new Uint32Array(table.buffer, table.byteOffset + 32768 * 2, 16384).slice();
}
