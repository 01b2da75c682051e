/**
 * The parity contract (adr/0003-parity-contract.md): which tolerance classes a test names for
 * which keys. The classes themselves (every bound, defined once) live in @vq/core.
 */
import type { ToleranceName } from "@vq/core";

export { TOLERANCE_CLASSES, type ToleranceClass, type ToleranceName } from "@vq/core";

/** A class for every key, or only for the keys (names without `.min` etc.) that `keys` matches. */
export type Bound = ToleranceName | { readonly keys: RegExp; readonly class: ToleranceName };

/** Every bound a value must meet. */
export type Tolerance = readonly Bound[];

/** The bounds of `tolerance` that apply to `key` (a feature name, or name.min/.max/.mean/.harmonic_mean). */
export function boundsFor(tolerance: Tolerance, key: string): ToleranceName[] {
  const name = key.replace(/\.(min|max|mean|harmonic_mean)$/, "");
  return tolerance.flatMap((b) => (typeof b === "string" ? [b] : b.keys.test(name) ? [b.class] : []));
}
