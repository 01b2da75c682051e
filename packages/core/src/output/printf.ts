/**
 * C printf number formatting, as libvmaf's writers use it. JavaScript's toFixed rounds
 * exact ties away from zero where glibc rounds them to even, so ties are settled exactly.
 */

/** `%.<digits>f` */
export function formatFixed(x: number, digits: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
  if (Math.abs(x) >= 1e21) return BigInt(Math.round(x)).toString() + (digits > 0 ? "." + "0".repeat(digits) : "");
  let s = Math.abs(x).toFixed(digits);
  if (isExactTie(Math.abs(x), digits)) s = roundTieToEven(Math.abs(x), digits);
  const negative = x < 0 || Object.is(x, -0);
  return negative ? "-" + s : s;
}

/**
 * True when |x| * 10^digits lies exactly halfway between two integers: x * 10^digits * 2 is
 * then odd, which (x being a dyadic rational) holds exactly when x * 2^(digits+1) is an odd
 * integer. Scaling by a power of two is exact, so no BigInt is needed (writers call this for
 * every number they print).
 */
function isExactTie(x: number, digits: number): boolean {
  const y = x * 2 ** (digits + 1);
  return Number.isInteger(y) && y % 2 === 1;
}

function roundTieToEven(x: number, digits: number): string {
  const { mantissa, exponent } = decompose(x);
  const scaled = mantissa * 10n ** BigInt(digits);
  let q = scaled >> BigInt(-exponent);
  if (q % 2n === 1n) q += 1n;
  const s = q.toString().padStart(digits + 1, "0");
  return digits > 0 ? `${s.slice(0, -digits)}.${s.slice(-digits)}` : s;
}

/** x = mantissa * 2^exponent exactly, for finite non-negative x. */
function decompose(x: number): { mantissa: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  const frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (biased === 0) return { mantissa: frac, exponent: -1074 };
  return { mantissa: frac | (1n << 52n), exponent: biased - 1075 };
}

/** `%g`: 6 significant digits, trailing zeros removed, exponent form outside [1e-4, 1e6). */
export function formatG(x: number, precision = 6): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const p = precision === 0 ? 1 : precision;
  const exp = Number(x.toExponential(p - 1).split("e")[1]);
  if (exp < -4 || exp >= p) {
    const [m, e] = x.toExponential(p - 1).split("e") as [string, string];
    const n = Number(e);
    return `${stripZeros(m)}e${n < 0 ? "-" : "+"}${String(Math.abs(n)).padStart(2, "0")}`;
  }
  return stripZeros(x.toFixed(Math.max(0, p - 1 - exp)));
}

function stripZeros(s: string): string {
  return s.includes(".") ? s.replace(/\.?0+$/, "") : s;
}

/** Shortest text that reads back as the same double (what `--precision max` prints). */
export function formatRoundTrip(x: number): string {
  return String(x);
}

/** Zeros right after the point, counted as libvmaf's writers count them (same double steps). */
export function leadingFractionZeros(x: number): number {
  const a = Math.abs(x);
  // C's (int) cast; x86 turns out-of-range values into INT_MIN
  const intPart = a < 2147483648 ? Math.trunc(a) : -2147483648;
  let frac = a - intPart;
  let count = 0;
  while (frac < 1.0 && frac !== 0) {
    frac *= 10;
    count++;
  }
  return count;
}

/** libvmaf's number format: `%.6f`, or `%.16f` when more than 6 zeros follow the point. */
export function formatLibvmaf(x: number): string {
  return formatFixed(x, leadingFractionZeros(x) <= 6 ? 6 : 16);
}
