import { uint64ToNumber } from "@vq/core";

/**
 * libvmaf's integer accumulators of one vif scale (vif_statistic's accum_num_log,
 * accum_den_log, accum_num_non_log and accum_den_non_log), as unsigned 64-bit halves:
 * what the GPU kernels read back. Every term libvmaf adds to them is non-negative.
 */
export interface VifScaleSums {
  numLogHi: number;
  numLogLo: number;
  denLogHi: number;
  denLogLo: number;
  /** Σ sigma2_sq where sigma1_sq < sigma_nsq. */
  nonLogHi: number;
  nonLogLo: number;
  /** How many samples took that linear branch (below 2^32). */
  nonLogCount: number;
}

/**
 * The scale's numerator and denominator as libvmaf's vif_statistic computes them from the
 * sums (int64 converted to double, then its expression in its order) and stores them
 * (as floats): out[2 * scale] and out[2 * scale + 1].
 */
export function writeScaleNumDen(sums: VifScaleSums, scale: number, out: Float32Array): void {
  const numLog = uint64ToNumber(sums.numLogHi, sums.numLogLo);
  const denLog = uint64ToNumber(sums.denLogHi, sums.denLogLo);
  const nonLog = uint64ToNumber(sums.nonLogHi, sums.nonLogLo);
  out[2 * scale] = numLog / 2048.0 + (sums.nonLogCount - nonLog / 16384.0 / 65025.0);
  out[2 * scale + 1] = denLog / 2048.0 + sums.nonLogCount;
}
