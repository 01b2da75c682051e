import { describe, expect, test } from "bun:test";
import { deltaE2000, pow7 } from "./delta-e-2000.ts";
import { powf } from "@vq/core/libm";
import { LabConverter } from "./lab-color.ts";

const f32 = Math.fround;

/**
 * The oracle for the fast path: libvmaf's ciede2000() step by step with every libm call
 * made through Math.* (glibc under Bun), no approximations and no rounding checks.
 */
function reference(l1: number, a1: number, b1: number, l2: number, a2: number, b2: number): number {
  const hue = (b: number, ap: number) => {
    if (b === 0 && ap === 0) return 0;
    const h = f32(Math.atan2(b, ap));
    return h < 0 ? f32(h + 2 * Math.PI) : h;
  };
  const dl = f32(l2 - l1);
  const lBar = f32(f32(l1 + l2) / 2);
  const c1 = f32(Math.sqrt(a1 * a1 + b1 * b1));
  const c2 = f32(Math.sqrt(a2 * a2 + b2 * b2));
  const cBar = f32(f32(c1 + c2) / 2);
  const g = 1 - Math.sqrt(pow7(cBar) / (pow7(cBar) + 6103515625));
  const ap1 = f32(a1 + (a1 / 2) * g);
  const ap2 = f32(a2 + (a2 / 2) * g);
  const cp1 = f32(Math.sqrt(ap1 * ap1 + b1 * b1));
  const cp2 = f32(Math.sqrt(ap2 * ap2 + b2 * b2));
  const cbp = f32(f32(cp1 + cp2) / 2);
  const dc = f32(cp2 - cp1);
  const l50 = f32(lBar - 50);
  const sl = f32(1 + (0.015 * l50 * l50) / Math.sqrt(20 + l50 * l50));
  const sc = f32(1 + 0.045 * cbp);
  const h1 = hue(b1, ap1);
  const h2 = hue(b2, ap2);
  let dh = 0;
  if (c1 !== 0 && c2 !== 0) {
    const d = f32(h2 - h1);
    dh = Math.abs(d) <= Math.PI ? d : h2 <= h1 ? f32(d + 2 * Math.PI) : f32(d - 2 * Math.PI);
  }
  const dH = f32(2.0 * Math.sqrt(f32(cp1 * cp2)) * Math.sin(dh / 2.0));
  const hb = Math.abs(f32(h1 - h2)) > Math.PI ? f32((f32(h1 + h2) + 2 * Math.PI) / 2) : f32(f32(h1 + h2) / 2);
  const t = f32(1.0 - 0.17 * Math.cos(hb - Math.PI / 6) + 0.24 * Math.cos(2 * hb) + 0.32 * Math.cos(3 * hb + Math.PI / 30) - 0.2 * Math.cos(4 * hb - (7 * Math.PI) / 20));
  const sh = f32(1.0 + 0.015 * cbp * t);
  const deg = f32((f32(hb * (180 / Math.PI)) - 275) * (1 / 25));
  const p7 = powf(cbp, 7, true);
  const rot = f32(f32(60 * Math.exp(-f32(deg * deg))) * (Math.PI / 180));
  const rt = f32(-2 * Math.sqrt(f32(p7 / f32(p7 + f32(6103515625)))) * Math.sin(rot));
  const L = f32(dl / f32(f32(0.65) * sl));
  const C = f32(dc / sc);
  const H = f32(dH / f32(4 * sh));
  return f32(Math.sqrt(L * L + C * C + H * H + f32(f32(rt * C) * H)));
}

let seed = 2024;
const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) | 0) >>> 0) / 4294967296;

describe("deltaE2000", () => {
  test("equals libvmaf's steps with glibc's libm on 300k colour pairs (fast paths and fallbacks)", () => {
    const conv = new LabConverter(8);
    const lab = new Float32Array(6);
    let differing = 0;
    for (let i = 0; i < 300000; i++) {
      const y = Math.floor(random() * 256), u = Math.floor(random() * 256), v = Math.floor(random() * 256);
      // mostly small distortions, some large, some neutral (a = b = 0 hits the zero-chroma branches)
      const spread = i % 10 === 0 ? 255 : 8;
      const near = (x: number) => Math.min(255, Math.max(0, x + Math.round((random() - 0.5) * spread)));
      conv.convert(y, i % 50 === 0 ? 128 : u, i % 50 === 0 ? 128 : v, lab, 0);
      conv.convert(near(y), i % 50 === 0 ? 128 : near(u), i % 50 === 0 ? 128 : near(v), lab, 3);
      const ours = deltaE2000(lab[0]!, lab[1]!, lab[2]!, lab[3]!, lab[4]!, lab[5]!);
      if (ours !== reference(lab[0]!, lab[1]!, lab[2]!, lab[3]!, lab[4]!, lab[5]!)) differing++;
    }
    expect(differing).toBe(0);
  });

  test("is 0 for equal colours and finite for neutral ones", () => {
    expect(deltaE2000(50, 10, -20, 50, 10, -20)).toBe(0);
    expect(deltaE2000(50, 0, 0, 60, 0, 0)).toBeGreaterThan(0);
    expect(Number.isFinite(deltaE2000(0, 0, 0, 100, 0, 0))).toBe(true);
  });

  test("pow7 is x^7 rounded once", () => {
    for (const x of [0, 1, 2, 25, Math.fround(0.1), Math.fround(123.456), Math.fround(3.3)]) {
      // x is a float: x = m·2^e with m < 2^24; x^7 = m^7·2^(7e) exactly in BigInt
      if (x === 0) {
        expect(pow7(x)).toBe(0);
        continue;
      }
      let e = 0;
      let m = x;
      while (!Number.isInteger(m)) {
        m *= 2;
        e--;
      }
      const m7 = BigInt(m) ** 7n;
      // Number() of a BigInt rounds to nearest, ties to even
      expect(pow7(x)).toBe(Number(m7) * 2 ** (7 * e));
    }
  });
});
