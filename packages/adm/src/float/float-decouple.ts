import { filterRegion } from "../numerics/band-region.ts";
import type { Orientations } from "../numerics/decouple.ts";

/**
 * float_adm's decoupling (adm_decouple_s): k = clamp(t / (o + 1e-30), 0, 1), restored
 * r = k * o (boosted up to the gain limit where the angle changed by less than 1
 * degree), additive a = t - r, in float.
 *
 * libvmaf divides with SSE's approximate reciprocal plus one Newton step
 * (x * rcp(d)); rcpss differs between CPU makers, so the exact reciprocal stands in
 * for it here (the Newton step brings both within an ULP or so).
 */

const f = Math.fround;
const EPS = f(1e-30);
const COS_1DEG_SQ = f(Math.cos(Math.PI / 180) * Math.cos(Math.PI / 180));

function divide(n: number, d: number): number {
  const xi = f(1 / d);
  return f(n * f(xi + f(xi * f(1 - f(d * xi)))));
}

function ratio(o: number, t: number): number {
  const k = divide(t, f(o + EPS));
  return k < 0 ? 0 : k > 1 ? 1 : k;
}

function restore(rst: number, t: number, angle: boolean, gain: number): number {
  if (!angle) return rst;
  if (rst > 0) return f(Math.min(rst * gain, t)); // double product, (float) store
  if (rst < 0) return f(Math.max(rst * gain, t));
  return rst;
}

export function floatDecouple(
  ref: Orientations<Float32Array>,
  dis: Orientations<Float32Array>,
  restored: Orientations<Float32Array>,
  additive: Orientations<Float32Array>,
  w: number,
  h: number,
  stride: number,
  gain: number,
): void {
  const { left, top, right, bottom } = filterRegion(w, h);
  for (let i = top; i < bottom; i++) {
    for (let x = i * stride + left, end = i * stride + right; x < end; x++) {
      const oh = ref.h[x]!;
      const ov = ref.v[x]!;
      const od = ref.d[x]!;
      const th = dis.h[x]!;
      const tv = dis.v[x]!;
      const td = dis.d[x]!;
      const dot = f(f(oh * th) + f(ov * tv));
      const oMag = f(f(oh * oh) + f(ov * ov));
      const tMag = f(f(th * th) + f(tv * tv));
      const angle = dot >= 0 && f(dot * dot) >= f(f(COS_1DEG_SQ * oMag) * tMag);
      const rh = restore(f(ratio(oh, th) * oh), th, angle, gain);
      const rv = restore(f(ratio(ov, tv) * ov), tv, angle, gain);
      const rd = restore(f(ratio(od, td) * od), td, angle, gain);
      restored.h[x] = rh;
      restored.v[x] = rv;
      restored.d[x] = rd;
      additive.h[x] = th - rh;
      additive.v[x] = tv - rv;
      additive.d[x] = td - rd;
    }
  }
}
