import { VqError } from "@vq/core";

export interface PlaneSize {
  readonly width: number;
  readonly height: number;
}

/** SpEED works on 5x5 blocks of the picture decimated four times by 2 (speed.c). */
export const SPEED_BLOCK = 5;
export const SPEED_SCALES = 4;
export const SPEED_BLOCK_ELEMENTS = SPEED_BLOCK * SPEED_BLOCK;
/** The smallest decimated size with one block: 5 << 4 samples after prescaling. */
export const SPEED_MIN_SIZE = SPEED_BLOCK << SPEED_SCALES;

/** Every size speed_init_dimensions derives from a plane's size and the prescale. */
export interface SpeedGeometry {
  readonly original: PlaneSize;
  /** (int)(size * prescale + 0.5): the size the picture is filtered at. */
  readonly scaled: PlaneSize;
  /** Whether the plane is resampled: libvmaf skips it when the prescale is within 1e-3 of 1. */
  readonly resampled: boolean;
  /** scaled >> 4: the decimated picture. */
  readonly decimated: PlaneSize;
  /** The decimated picture cut to whole blocks. */
  readonly truncated: PlaneSize;
  readonly blocksX: number;
  readonly blocksY: number;
  readonly blocks: number;
  /** The region each of the 25 shifted copies covers in the covariance (truncated - 4). */
  readonly sub: PlaneSize;
}

function scaledLength(n: number, prescale: number): number {
  return Math.trunc(n * prescale + 0.5);
}

/**
 * speed_init_dimensions, with libvmaf's "image too small" as a VqError that names the
 * minimum size (libvmaf logs it and carries on with empty buffers).
 */
export function speedGeometry(original: PlaneSize, prescale: number, what: string): SpeedGeometry {
  const scaled = { width: scaledLength(original.width, prescale), height: scaledLength(original.height, prescale) };
  const decimated = { width: scaled.width >> SPEED_SCALES, height: scaled.height >> SPEED_SCALES };
  const truncated = {
    width: Math.floor(decimated.width / SPEED_BLOCK) * SPEED_BLOCK,
    height: Math.floor(decimated.height / SPEED_BLOCK) * SPEED_BLOCK,
  };
  if (truncated.width === 0 || truncated.height === 0) {
    let min = 1;
    while (scaledLength(min, prescale) < SPEED_MIN_SIZE) min++;
    const after = prescale === 1 ? "" : ` at speed_prescale=${prescale} (${SPEED_MIN_SIZE}x${SPEED_MIN_SIZE} after prescaling)`;
    throw new VqError(`${what}: ${original.width}x${original.height} is too small for SpEED, which needs at least ${min}x${min} samples${after} (libvmaf: "image too small")`);
  }
  const resampled = Math.abs(prescale - 1) >= 1e-3;
  if (!resampled && (scaled.width !== original.width || scaled.height !== original.height)) {
    // libvmaf skips resampling yet filters the larger size, reading samples nobody wrote.
    throw new VqError(`${what}: speed_prescale=${prescale} is within 1e-3 of 1, so libvmaf does not resample, yet it changes ${original.width}x${original.height} to ${scaled.width}x${scaled.height}; use 1 or a prescale further from 1`);
  }
  const blocksX = truncated.width / SPEED_BLOCK;
  const blocksY = truncated.height / SPEED_BLOCK;
  return {
    original: { width: original.width, height: original.height },
    scaled,
    resampled,
    decimated,
    truncated,
    blocksX,
    blocksY,
    blocks: blocksX * blocksY,
    sub: { width: truncated.width - SPEED_BLOCK + 1, height: truncated.height - SPEED_BLOCK + 1 },
  };
}
