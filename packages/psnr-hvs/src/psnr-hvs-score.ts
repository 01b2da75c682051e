import { VqError, type FeatureCollector } from "@vq/core";
import { PSNR_HVS_NAME, PSNR_HVS_PLANE_NAMES } from "./definition.ts";

/** libvmaf's convert_score_db: 10·(−log10(error)); an error of 0 (identical planes) is +Infinity. */
export function errorToDb(error: number): number {
  return 10 * (-1 * Math.log10(1.0 * error));
}

/**
 * Writes the three plane scores and their combination 0.8·Y + 0.1·(Cb + Cr) (combined before the dB).
 * A plane error that is NaN has no libvmaf number to match: only samples beyond the bit depth's
 * range give one (a 12-bit block's squared DCT coefficients fit in 32 bits; larger samples wrap
 * libvmaf's int products negative, and the masking's sqrt of that is NaN, written as null).
 * That is an error naming the frame and the range; `largest` finds the offending sample when
 * the caller still has the pictures.
 */
export function writePsnrHvs(errors: readonly [number, number, number], index: number, collector: FeatureCollector, bitDepth: number, largest?: (plane: number) => number): void {
  const bad = errors.findIndex(Number.isNaN);
  if (bad >= 0) {
    const found = largest ? ` (sample ${largest(bad)} found)` : "";
    throw new VqError(
      `feature psnr_hvs: invalid input: frame ${index}: ${PSNR_HVS_PLANE_NAMES[bad]} has samples beyond 0..${(1 << bitDepth) - 1}, the ${bitDepth}-bit range${found}, where libvmaf's psnr_hvs overflows and gives no number`,
    );
  }
  for (let p = 0; p < 3; p++) collector.append(PSNR_HVS_PLANE_NAMES[p]!, index, errorToDb(errors[p]!));
  collector.append(PSNR_HVS_NAME, index, errorToDb(errors[0] * 0.8 + 0.1 * (errors[1] + errors[2])));
}

/** The largest sample of plane `p` of either picture (for the message above). */
export function largestSample(frame: { ref: { planes: readonly { data: ArrayLike<number> }[] }; dist: { planes: readonly { data: ArrayLike<number> }[] } }, p: number): number {
  let max = 0;
  for (const picture of [frame.ref, frame.dist]) {
    const data = picture.planes[p]!.data;
    for (let i = 0; i < data.length; i++) if (data[i]! > max) max = data[i]!;
  }
  return max;
}
