/**
 * Test hook: when set, the denominator and masking sums skip their double fast paths
 * and take the BigInt recomputation, so tests can hold that path to the golden data too.
 */
export const exactness = { forceBigInt: false, /** rows of a scale summed in BigInt alone (a row past 2^52) */ rowsInBigInt: 0 };
