import { expect, test } from "bun:test";
import { formatFixed, formatLibvmaf } from "./printf.ts";

/**
 * glibc's `%.Nf` is the exact decimal value of the double rounded half to even: computed
 * here in BigInt from the double's bits, as the specification formatFixed must meet.
 */
function exactFixed(x: number, digits: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const hi = view.getUint32(0);
  const biased = (hi >>> 20) & 0x7ff;
  const frac = (BigInt(hi & 0xfffff) << 32n) | BigInt(view.getUint32(4));
  const mantissa = biased === 0 ? frac : frac | (1n << 52n);
  const exponent = biased === 0 ? -1074 : biased - 1075;
  let q: bigint;
  if (exponent >= 0) q = (mantissa << BigInt(exponent)) * 10n ** BigInt(digits);
  else {
    const scaled = mantissa * 10n ** BigInt(digits);
    const den = 1n << BigInt(-exponent);
    q = scaled / den;
    const rem = (scaled % den) * 2n;
    if (rem > den || (rem === den && q % 2n === 1n)) q += 1n;
  }
  const s = q.toString().padStart(digits + 1, "0");
  const body = digits > 0 ? `${s.slice(0, -digits)}.${s.slice(-digits)}` : s;
  return x < 0 || Object.is(x, -0) ? `-${body}` : body;
}

let seed = 2026;
const random = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);

test("exact ties round to even, as glibc does (toFixed would round them away from zero)", () => {
  for (const digits of [0, 1, 2, 6, 16]) {
    for (let i = 0; i < 2000; i++) {
      // x = odd / 2^(digits+1): x * 10^digits ends in exactly .5
      const odd = 2 * Math.floor(random() * 2 ** 20) + 1;
      const x = (odd / 2 ** (digits + 1)) * (random() < 0.5 ? -1 : 1);
      expect(formatFixed(x, digits)).toBe(exactFixed(x, digits));
    }
  }
  expect(formatFixed(0.5, 0)).toBe("0");
  expect(formatFixed(2.5, 0)).toBe("2");
  expect(formatFixed(0.125, 2)).toBe("0.12");
});

test("any double: the exact decimal value, correctly rounded", () => {
  const view = new DataView(new ArrayBuffer(8));
  for (let i = 0; i < 20000; i++) {
    view.setUint32(0, Math.floor(random() * 2 ** 32));
    view.setUint32(4, Math.floor(random() * 2 ** 32));
    const x = view.getFloat64(0);
    if (!Number.isFinite(x) || Math.abs(x) >= 1e21) continue;
    for (const digits of [6, 16]) expect(formatFixed(x, digits)).toBe(exactFixed(x, digits));
  }
  for (const x of [0, -0, 5e-324, 2 ** -1022, 1 - 2 ** -53, 0.1, 99.99999949999999, 1e20 + 0.5, 2 ** 52 + 0.5]) {
    for (const digits of [0, 6, 16]) expect(formatFixed(x, digits)).toBe(exactFixed(x, digits));
  }
  expect(formatLibvmaf(0.0000001234)).toBe(exactFixed(0.0000001234, 16));
});
