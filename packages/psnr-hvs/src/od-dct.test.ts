import { expect, test } from "bun:test";
import { fdct8x8 } from "./od-dct.ts";

test("the 8x8 integer DCT is Daala's orthonormal DCT-II up to its rounding", () => {
  const block = new Int32Array(64);
  const scratch = new Int32Array(64);
  let seed = 5;
  for (let trial = 0; trial < 200; trial++) {
    const x = new Float64Array(64);
    for (let k = 0; k < 64; k++) {
      seed = (Math.imul(seed, 1103515245) + 12345) | 0;
      x[k] = block[k] = trial === 0 ? 4095 : (seed >>> 8) % 4096; // 12-bit samples, a flat block first
    }
    fdct8x8(block, block, scratch);
    let worst = 0;
    for (let u = 0; u < 8; u++) {
      for (let v = 0; v < 8; v++) {
        let sum = 0;
        for (let i = 0; i < 8; i++) {
          for (let j = 0; j < 8; j++) sum += x[i * 8 + j]! * Math.cos(((2 * i + 1) * u * Math.PI) / 16) * Math.cos(((2 * j + 1) * v * Math.PI) / 16);
        }
        const orthonormal = sum * (u ? 0.5 : Math.SQRT1_2 / 2) * (v ? 0.5 : Math.SQRT1_2 / 2);
        worst = Math.max(worst, Math.abs(block[u * 8 + v]! - orthonormal));
      }
    }
    if (trial === 0) expect(Array.from(block.subarray(1))).toEqual(new Array(63).fill(0)); // flat: DC only
    expect(worst).toBeLessThan(4); // lifting rounds at each step
  }
});
