import type { AdmScores } from "./adm-pipeline.ts";

/** libvmaf's numden_limit: num and den below it count as 0 (scaled from 1e-10 at 1080p). */
export function numDenLimit(width: number, height: number): number {
  return (1e-10 * (width * height)) / (1920.0 * 1080.0);
}

/**
 * The end of libvmaf's integer_compute_adm: the per-scale floats summed in double, scale 0
 * first, then num / den and aim / den. `out.scales` already holds [num0, den0, num1, ...].
 * Shared by the CPU pipeline and the GPU twin.
 */
export function admFrameTotals(out: AdmScores, aimScales: ArrayLike<number>, limit: number): AdmScores {
  let num = 0;
  let den = 0;
  let aimNum = 0;
  for (let scale = 0; scale < 4; scale++) {
    num += out.scales[2 * scale]!;
    den += out.scales[2 * scale + 1]!;
    aimNum += aimScales[scale]!;
  }
  if (num < limit) num = 0;
  if (den < limit) den = 0;
  if (den === 0) {
    out.score = 1.0;
    out.aim = 0; // libvmaf leaves it uninitialised
  } else {
    out.score = num / den;
    out.aim = aimNum / den;
  }
  out.num = num;
  out.den = den;
  return out;
}
