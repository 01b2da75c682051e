import type { Plane } from "@vq/core";
import { fdct8x8 } from "./od-dct.ts";

const f32 = Math.fround;
const STEP = 7; // blocks overlap by one sample
/** C's `1 / 63.f * 64` and `1 / 15.f * 16` (the GPU kernel gets these floats from here). */
export const GLOBAL_VAR_SCALE = f32(f32(1 / 63) * 64);
export const QUADRANT_VAR_SCALE = f32(f32(1 / 15) * 16);

/** 8x8 blocks along a side of `size` samples, every 7 samples while a whole block fits. */
export function blocksAlong(size: number): number {
  return size < 8 ? 0 : Math.floor((size - 8) / STEP) + 1;
}

/** libvmaf's normalisation of a plane's float sum: by the coefficient count, then the squared peak, in float. */
export function normalisedError(sum: number, coefficients: number, bitDepth: number): number {
  const mean = f32(sum / f32(coefficients));
  const peak = (1 << bitDepth) - 1;
  return f32(mean / f32(peak * peak));
}

/** Reusable buffers for one plane's blocks. */
export class BlockScratch {
  readonly ref = new Int32Array(64);
  readonly dist = new Int32Array(64);
  readonly transform = new Int32Array(64);
  readonly refMeans = new Float32Array(4);
  readonly distMeans = new Float32Array(4);
  readonly refVars = new Float32Array(4);
  readonly distVars = new Float32Array(4);
}

/** Quadrant (4x4 sub-block) of coefficient/sample (i, j) of an 8x8 block. */
function quadrant(i: number, j: number): number {
  return ((i & 12) >> 2) + ((j & 12) >> 1);
}

/**
 * The masking strength of one block: sqrt(Σ AC² · mask · variance ratio) / 32, where the
 * variance ratio compares the block's quadrant variances with its whole variance.
 * `block` holds samples on entry and DCT coefficients on return. float steps as in C.
 */
function blockMasking(block: Int32Array, mask: Float32Array, means: Float32Array, vars: Float32Array, s: BlockScratch): number {
  let mean = 0; // sums of at most 64 12-bit samples: exact
  means.fill(0);
  vars.fill(0);
  for (let i = 0; i < 8; i++) {
    for (let j = 0; j < 8; j++) {
      const v = block[i * 8 + j]!;
      mean += v;
      const q = quadrant(i, j);
      means[q] = means[q]! + v;
    }
  }
  mean /= 64;
  for (let q = 0; q < 4; q++) means[q] = means[q]! / 16;
  let variance = 0;
  for (let i = 0; i < 8; i++) {
    for (let j = 0; j < 8; j++) {
      const v = block[i * 8 + j]!;
      const d = v - mean; // exact: an 18-bit multiple of 1/64
      variance = f32(variance + f32(d * d));
      const q = quadrant(i, j);
      const dq = v - means[q]!;
      vars[q] = vars[q]! + f32(dq * dq); // Float32Array rounds the sum
    }
  }
  variance = f32(variance * GLOBAL_VAR_SCALE);
  for (let q = 0; q < 4; q++) vars[q] = vars[q]! * QUADRANT_VAR_SCALE;
  if (variance > 0) variance = f32(f32(f32(f32(vars[0]! + vars[1]!) + vars[2]!) + vars[3]!) / variance);
  fdct8x8(block, block, s.transform);
  let energy = 0;
  for (let k = 1; k < 64; k++) {
    const c = block[k]!;
    energy = f32(energy + f32(f32(Math.imul(c, c)) * mask[k]!));
  }
  return f32(Math.sqrt(f32(energy * variance)) / 32);
}

/**
 * libvmaf's calc_psnrhvs for one plane: the masked, CSF-weighted squared DCT error of
 * every 8x8 block (step 7), summed in float in raster order and normalised by the
 * coefficient count and the squared peak. Returns that mean error (0 = identical).
 * With `terms`, also stores every summed term there, in summation order (for tests).
 */
export function planeError(
  ref: Plane,
  dist: Plane,
  width: number,
  height: number,
  bitDepth: number,
  csf: Float32Array,
  mask: Float32Array,
  s: BlockScratch,
  terms?: Float32Array,
): number {
  const r = ref.data;
  const d = dist.data;
  const rb = s.ref;
  const db = s.dist;
  let sum = 0;
  let coefficients = 0;
  for (let y = 0; y < height - 7; y += STEP) {
    for (let x = 0; x < width - 7; x += STEP) {
      for (let i = 0; i < 8; i++) {
        const ro = (y + i) * ref.stride + x;
        const dO = (y + i) * dist.stride + x;
        for (let j = 0; j < 8; j++) {
          rb[i * 8 + j] = r[ro + j]!;
          db[i * 8 + j] = d[dO + j]!;
        }
      }
      const refMask = blockMasking(rb, mask, s.refMeans, s.refVars, s);
      const distMask = blockMasking(db, mask, s.distMeans, s.distVars, s);
      const masking = distMask > refMask ? distMask : refMask;
      for (let k = 0; k < 64; k++) {
        let err = Math.abs(rb[k]! - db[k]!);
        if (k !== 0) {
          const threshold = f32(masking / mask[k]!);
          err = err < threshold ? 0 : f32(err - threshold);
        }
        const w = f32(err * csf[k]!);
        const term = f32(w * w);
        if (terms) terms[coefficients + k] = term;
        sum = f32(sum + term);
      }
      coefficients += 64;
    }
  }
  return normalisedError(sum, coefficients, bitDepth);
}
