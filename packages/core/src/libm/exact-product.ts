const SPLIT = 134217729; // 2^27 + 1: Veltkamp's splitter for 53-bit doubles

/**
 * The rounding error of the double product p = a·b: a·b = p + productError(a, b, p)
 * exactly (Dekker's algorithm; no overflow). JavaScript has no fma to get it directly.
 */
export function productError(a: number, b: number, p: number): number {
  let t = SPLIT * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLIT * b;
  const bh = t - (t - b);
  const bl = b - bh;
  return al * bl - (((p - ah * bh) - al * bh) - ah * bl);
}
