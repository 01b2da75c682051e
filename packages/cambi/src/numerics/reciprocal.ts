import { RECIPROCAL_LUT_SIZE } from "./cambi-plan.ts";

/**
 * libvmaf's float table of 1/n (n = 0 gives 0): its entries are 1/n printed to 9
 * significant digits and read back as float, which differs from the float nearest 1/n for
 * 42 of the 4226 entries (n = 82, 83, 244, ...). Rebuilt the same way; checked against
 * libvmaf's table entry for entry.
 */
export const RECIPROCAL: Float32Array = (() => {
  const t = new Float32Array(RECIPROCAL_LUT_SIZE);
  for (let n = 1; n < RECIPROCAL_LUT_SIZE; n++) t[n] = Number((1 / n).toPrecision(9));
  return t;
})();
