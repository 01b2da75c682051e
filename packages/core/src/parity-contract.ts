/**
 * The parity contract's tolerance classes (adr/0003-parity-contract.md) as data: every bound
 * a value may be held to, defined here and nowhere else. The parity harness (@vq/parity)
 * names them in its tables; the GPU self-test (@vq/score) holds a GPU to the same bounds.
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
