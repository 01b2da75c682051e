import type { FeatureCollector } from "@vq/core";
import { PSNR_HVS_NAME, PSNR_HVS_PLANE_NAMES } from "./definition.ts";

/** libvmaf's convert_score_db: 10·(−log10(error)); an error of 0 (identical planes) is +Infinity. */
export function errorToDb(error: number): number {
  return 10 * (-1 * Math.log10(1.0 * error));
}

/** Writes the three plane scores and their combination 0.8·Y + 0.1·(Cb + Cr) (combined before the dB). */
export function writePsnrHvs(errors: readonly [number, number, number], index: number, collector: FeatureCollector): void {
  for (let p = 0; p < 3; p++) collector.append(PSNR_HVS_PLANE_NAMES[p]!, index, errorToDb(errors[p]!));
  collector.append(PSNR_HVS_NAME, index, errorToDb(errors[0] * 0.8 + 0.1 * (errors[1] + errors[2])));
}
