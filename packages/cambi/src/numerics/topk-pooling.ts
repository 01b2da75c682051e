/** A scale's non-zero c-values as pooling reads them (c-values.ts's CValues, or the WebAssembly kernels' list). */
export interface CValueList {
  /** How many are non-zero, and their sum in double in row-major order. */
  readonly count: number;
  readonly sum: number;
  /** Spreads them into a full picture of `n` values (zero where none). */
  writeDense(out: Float32Array, n: number): void;
}

/**
 * libvmaf's spatial pooling: the mean of the k = topk · n largest c-values (k clipped to
 * [1, n]), summed in double in the order its quickselect leaves them.
 *
 * Every non-zero c-value is a float ≥ 0.5, so a multiple of 2^-24: while a sum of them
 * stays below 2^29 every partial sum is exact in double, and the order cannot matter.
 * Then, when at most k values are non-zero, the top k are all of them plus zeros, and
 * the sum gathered while writing them is libvmaf's. Otherwise the quickselect is
 * replayed on the values and they are summed in its order.
 */
const EXACT_SUM_LIMIT = 2 ** 29;

export function topkCount(topk: number, n: number): number {
  // C converts topk · n to int by truncation, then clips it
  const k = Math.trunc(topk * n);
  return k < 1 ? 1 : k > n ? n : k;
}

/** Pools the c-values of an n-pixel picture; `scratch` gives room for all n when the quickselect is needed. */
export function spatialPooling(cValues: CValueList, n: number, topk: number, scratch: () => Float32Array): number {
  const k = topkCount(topk, n);
  if (cValues.count <= k && cValues.sum < EXACT_SUM_LIMIT) return cValues.sum / k;
  const values = scratch();
  cValues.writeDense(values, n);
  quickSelect(values, n, k);
  let sum = 0;
  for (let i = 0; i < k; i++) sum += values[i]!;
  return sum / k;
}

/**
 * libvmaf's quickselect (Hoare partition around arr[k], descending): afterwards the k
 * largest values are in arr[0..k), in the order the partitioning leaves them.
 */
export function quickSelect(arr: Float32Array, n: number, k: number): void {
  if (n === k) return;
  let left = 0;
  let right = n - 1;
  while (left < right) {
    const pivot = arr[k]!;
    let i = left;
    let j = right;
    do {
      while (arr[i]! > pivot) i++;
      while (arr[j]! < pivot) j--;
      if (i <= j) {
        const t = arr[i]!;
        arr[i] = arr[j]!;
        arr[j] = t;
        i++;
        j--;
      }
    } while (i <= j);
    if (j < k) left = i;
    if (k < i) right = j;
  }
}
