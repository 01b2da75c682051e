// Test support: the pooling tests' reference, libvmaf's top-k mean as it computes it.
import { quickSelect } from "./topk-pooling.ts";

/** libvmaf's pooling of `values` (left untouched): quickselect, then the first k summed in double in that order. */
export function quickSelectMean(values: Float32Array, k: number): number {
  const a = values.slice();
  quickSelect(a, a.length, k);
  let s = 0;
  for (let i = 0; i < k; i++) s += a[i]!;
  return s / k;
}
