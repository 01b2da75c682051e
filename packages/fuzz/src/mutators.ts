import type { Prng } from "./prng.ts";

/**
 * Numbers as text that break parsers: signs, zero, the 32/53-bit edges, vq's own limits
 * (65536 a side, 16384² samples), non-finite spellings, radix and exponent forms, padding.
 */
export const ODD_NUMBERS: readonly string[] = [
  "0", "-0", "-1", "1", "2", "3", "7", "8", "9", "15", "16", "17", "255", "256", "1023", "1024", "65535", "65536", "65537", "16384", "16385",
  "2147483647", "2147483648", "4294967295", "4294967296", "9007199254740991", "9007199254740993", "1e3", "1e21", "1e308", "-1e308", "1e999", "-1e999",
  "1.5", "0.5", "-0.5", ".5", "5.", "NaN", "Infinity", "-Infinity", "nan", "inf", "0x10", "0b11", "010", "+5", " 5", "5 ", "5x", "", "٣", "00000000000000000000001",
  "99999999999999999999999999999999",
];

/** Numbers as JSON values: the non-finite ones come in as what JSON.parse of 1e999 gives, or as strings. */
export const ODD_VALUES: readonly unknown[] = [0, -0, -1, 1, 1e-320, 5e-324, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 2 ** 31, 2 ** 32, 2e9, 1e6, 1e7, 0.5, -0.5, "1", "NaN", null, true, false, [], {}, [1], "", "x"];

/** Characters that break line- and token-based formats. */
const ODD_CHARS = ["\0", "\n", "\r", "\t", " ", "\x1b", "\x7f", "\x85", "\u2028", "\ufeff", ":", "=", ",", ".", "-", "{", "}", "[", "]", '"', "\\", "é", "😀"];

/** A few byte-level mutations of `input` (flips, interesting bytes, cut, repeated or inserted runs, truncation). */
export function mutateBytes(rng: Prng, input: Uint8Array, operations = 1 + rng.int(4)): Uint8Array {
  let b = input;
  for (let n = 0; n < operations; n++) {
    const at = rng.int(b.length + 1);
    switch (rng.int(8)) {
      case 0: // flip one bit
        if (b.length) {
          b = new Uint8Array(b); // a copy (a Buffer's slice() would share the input's memory)
          b[Math.min(at, b.length - 1)]! ^= 1 << rng.int(8);
        }
        break;
      case 1: // an interesting byte
        if (b.length) {
          b = new Uint8Array(b); // a copy (a Buffer's slice() would share the input's memory)
          b[Math.min(at, b.length - 1)] = rng.pick([0, 0xff, 0x0a, 0x0d, 0x20, 0x7f, 0x80, 0x30, 0x39]);
        }
        break;
      case 2: {
        // cut a run
        const len = rng.int(Math.min(64, b.length - at) + 1);
        b = concat(b.subarray(0, at), b.subarray(at + len));
        break;
      }
      case 3: {
        // repeat a run
        const len = rng.int(Math.min(64, b.length - at) + 1);
        b = concat(b.subarray(0, at + len), b.subarray(at, at + len), b.subarray(at + len));
        break;
      }
      case 4: // insert random bytes
        b = concat(b.subarray(0, at), rng.bytes(1 + rng.int(16)), b.subarray(at));
        break;
      case 5: // truncate
        b = b.subarray(0, at);
        break;
      case 6: // append random bytes
        b = concat(b, rng.bytes(1 + rng.int(32)));
        break;
      default: // overwrite a run with one byte
        if (b.length) {
          b = new Uint8Array(b); // a copy (a Buffer's slice() would share the input's memory)
          b.fill(rng.int(256), at, at + rng.int(16));
        }
    }
  }
  return b;
}

/** A few text mutations: odd characters, cuts, repeats, and numbers replaced by odd ones. */
export function mutateText(rng: Prng, text: string, operations = 1 + rng.int(3)): string {
  let s = text;
  for (let n = 0; n < operations; n++) {
    const at = rng.int(s.length + 1);
    switch (rng.int(6)) {
      case 0:
        s = s.slice(0, at) + rng.pick(ODD_CHARS) + s.slice(at);
        break;
      case 1:
        s = s.slice(0, at) + s.slice(at + 1 + rng.int(8));
        break;
      case 2: {
        const len = rng.int(12);
        s = s.slice(0, at + len) + s.slice(at, at + len) + s.slice(at + len);
        break;
      }
      case 3:
        s = s.slice(0, at);
        break;
      default:
        s = replaceNumber(rng, s);
    }
  }
  return s;
}

/** One number in `text` replaced by an odd one (or the text unchanged when it has none). */
export function replaceNumber(rng: Prng, text: string): string {
  const numbers = [...text.matchAll(/-?\d+(\.\d+)?(e[-+]?\d+)?/gi)];
  if (!numbers.length) return text;
  const m = rng.pick(numbers);
  return text.slice(0, m.index) + rng.pick(ODD_NUMBERS) + text.slice(m.index! + m[0].length);
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
