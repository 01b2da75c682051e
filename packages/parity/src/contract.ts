/**
 * The parity contract (adr/0003-parity-contract.md) as data: every bound a parity test may
 * hold a value to, defined here and nowhere else. A test names the classes it needs;
 * it cannot write a number of its own.
 */
export interface ToleranceClass {
  /** The golden output the bound is against: out_full (%.17g, exact doubles) or out (libvmaf's printed 6 decimals). */
  readonly against: "out_full" | "out";
  /** identical doubles, or |Δ| (absolute) or |Δ| / |golden| (relative) at most `bound`. */
  readonly measure: "identical" | "absolute" | "relative";
  readonly bound: number;
  readonly why: string;
}

export const TOLERANCE_CLASSES = {
  identical: {
    against: "out_full",
    measure: "identical",
    bound: 0,
    why: "ADR 0003: integer features and vmaf* are libvmaf's doubles",
  },
  libm: {
    against: "out_full",
    measure: "relative",
    bound: 1e-12,
    why: "ADR 0003: only where JavaScript's exp/log10/pow may round unlike glibc's",
  },
  float: {
    against: "out",
    measure: "absolute",
    bound: 5e-5,
    why: "ADR 0003: float features, against libvmaf's printed output",
  },
  // Exceptions the contract's tests have used since they were written (never looser than these):
  ciedePow: {
    against: "out_full",
    measure: "relative",
    bound: 1e-10,
    why: "ciede2000 chains pow() calls, so a last-bit libm difference grows (CPU; Bun matches exactly)",
  },
  gpuF32Windows: {
    against: "out_full",
    measure: "absolute",
    bound: 1e-6,
    why: "the GPU computes SSIM's per-window l and c in f32 where libvmaf uses double",
  },
  floatFull: {
    against: "out_full",
    measure: "absolute",
    bound: 5e-5,
    why: "ADR 0003's float bound, held against the full-precision output too",
  },
} as const satisfies Record<string, ToleranceClass>;

export type ToleranceName = keyof typeof TOLERANCE_CLASSES;

/** A class for every key, or only for the keys (names without `.min` etc.) that `keys` matches. */
export type Bound = ToleranceName | { readonly keys: RegExp; readonly class: ToleranceName };

/** Every bound a value must meet. */
export type Tolerance = readonly Bound[];

/** The bounds of `tolerance` that apply to `key` (a feature name, or name.min/.max/.mean/.harmonic_mean). */
export function boundsFor(tolerance: Tolerance, key: string): ToleranceName[] {
  const name = key.replace(/\.(min|max|mean|harmonic_mean)$/, "");
  return tolerance.flatMap((b) => (typeof b === "string" ? [b] : b.keys.test(name) ? [b.class] : []));
}
