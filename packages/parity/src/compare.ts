import { expect } from "bun:test";
import { POOL_METHODS, type FeatureCollector } from "@vq/core";
import { compareWithGolden, goldenOutput, type GoldenRun, type KeyParity } from "@vq/core/golden";
import { boundsFor, TOLERANCE_CLASSES, type Tolerance, type ToleranceClass } from "./contract.ts";

export interface ParityCheck {
  readonly collector: FeatureCollector;
  readonly run: GoldenRun;
  /** Our output names for this run: each must be in libvmaf's output, compared on every frame and pooled. */
  readonly names: readonly string[];
  readonly frames: number;
  readonly tolerance: Tolerance;
  /** Where the values came from (backend, pair), for the failure messages. */
  readonly label: string;
}

/** What one or more checks compared: series (key or pooled key), values, how many differ from out_full, the worst |Δ| against each output. */
export interface ParityTally {
  series: number;
  values: number;
  differing: number;
  maxAbsFull: number;
  maxAbsPrinted: number;
}

export const emptyTally = (): ParityTally => ({ series: 0, values: 0, differing: 0, maxAbsFull: 0, maxAbsPrinted: 0 });

export function addTally(into: ParityTally, t: ParityTally): void {
  into.series += t.series;
  into.values += t.values;
  into.differing += t.differing;
  into.maxAbsFull = Math.max(into.maxAbsFull, t.maxAbsFull);
  into.maxAbsPrinted = Math.max(into.maxAbsPrinted, t.maxAbsPrinted);
}

const e = (x: number) => (Number.isFinite(x) ? x.toExponential(2) : String(x));

function within(c: ToleranceClass, k: KeyParity): boolean {
  if (c.measure === "identical") return k.differing === 0;
  return (c.measure === "absolute" ? k.maxAbs : k.maxRel) <= c.bound;
}

function allows(c: ToleranceClass): string {
  return c.measure === "identical" ? `identical to ${c.against}` : `${c.measure} |Δ| ≤ ${c.bound} to ${c.against}`;
}

/**
 * Compares `names` in the collector with libvmaf's output of `run`, per frame and pooled:
 * every name must be there on every frame and in every pool, and every value within each
 * bound its tolerance gives it. Failures name each key out of bounds with its worst |Δ|.
 */
export function expectParity(check: ParityCheck): ParityTally {
  const { collector, run, names, frames, tolerance, label } = check;
  const selected = new Set(names);
  const select = (k: string) => selected.has(k);
  const full = compareWithGolden(collector, goldenOutput(run, true), select, frames);
  const at = `${label} ${run.run}`;
  expect(full.missing, `${at}: libvmaf's values we did not write`).toEqual([]);

  const compared = new Map(full.keys.map((k) => [k.key, k.compared]));
  const uncovered: string[] = [];
  for (const name of names) {
    if (compared.get(name) !== frames) uncovered.push(`${name}: ${compared.get(name) ?? 0} of ${frames} frames`);
    for (const m of POOL_METHODS) if (compared.get(`${name}.${m}`) !== 1) uncovered.push(`${name}.${m}: not in libvmaf's pooled output`);
  }
  expect(uncovered, `${at}: every name compared on every frame and pooled`).toEqual([]);

  const printed = new Map(compareWithGolden(collector, goldenOutput(run, false), select, frames).keys.map((k) => [k.key, k]));

  const tally = emptyTally();
  const violations: string[] = [];
  for (const k of full.keys) {
    const p = printed.get(k.key);
    tally.series++;
    tally.values += k.compared;
    tally.differing += k.differing;
    tally.maxAbsFull = Math.max(tally.maxAbsFull, k.maxAbs);
    if (p) tally.maxAbsPrinted = Math.max(tally.maxAbsPrinted, p.maxAbs);
    const bounds = boundsFor(tolerance, k.key);
    if (!bounds.length) violations.push(`${k.key}: no tolerance class applies`);
    for (const name of bounds) {
      const c: ToleranceClass = TOLERANCE_CLASSES[name];
      const r = c.against === "out_full" ? k : p;
      if (!r) {
        violations.push(`${k.key}: not compared with ${c.against}`);
        continue;
      }
      if (!within(c, r)) violations.push(`${k.key}: ${r.differing}/${r.compared} differ from ${c.against}, worst |Δ| ${e(r.maxAbs)} (relative ${e(r.maxRel)}); ${name} allows ${allows(c)}`);
    }
  }
  expect(violations, `${at}: values out of bounds`).toEqual([]);
  return tally;
}
