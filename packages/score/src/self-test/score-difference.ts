import { TOLERANCE_CLASSES, type FeatureCollector } from "@vq/core";

/**
 * How close a GPU value must be to its CPU twin's: identical doubles for the extractors
 * whose GPU twin computes libvmaf's integer arithmetic (their parity tables hold the GPU to
 * `identical`), else the parity contract's float bound, as an absolute or a relative |Δ|.
 */
export type Agreement = "identical" | "float";

const FLOAT_BOUND = TOLERANCE_CLASSES.float.bound;

function agrees(gpu: number, cpu: number, agreement: Agreement): boolean {
  if (Object.is(gpu, cpu)) return true;
  if (agreement === "identical") return false;
  const delta = Math.abs(gpu - cpu);
  return delta <= FLOAT_BOUND || delta <= FLOAT_BOUND * Math.abs(cpu);
}

const shown = (v: number | undefined) => (v === undefined ? "nothing" : String(v));

/**
 * The first value (in the CPU's feature order, frame by frame, then the run-level
 * aggregates) where the GPU's scores disagree with the CPU's, as a phrase such as
 * `integer_adm2 at frame 1 is 0.93 on the GPU, 0.95 on the CPU`; undefined when they agree.
 */
export function firstDifference(gpu: FeatureCollector, cpu: FeatureCollector, frames: number, agreement: Agreement): string | undefined {
  const names = cpu.names();
  const extra = gpu.names().find((n) => !names.includes(n));
  if (extra) return `${extra} is written on the GPU, not on the CPU`;
  for (let i = 0; i < frames; i++) {
    for (const name of names) {
      const c = cpu.get(name, i);
      const g = gpu.get(name, i);
      if (c === undefined && g === undefined) continue;
      if (c === undefined || g === undefined || !agrees(g, c, agreement)) return `${name} at frame ${i} is ${shown(g)} on the GPU, ${shown(c)} on the CPU`;
    }
  }
  const gpuAggregates = new Map(gpu.aggregateEntries());
  for (const [name, c] of cpu.aggregateEntries()) {
    const g = gpuAggregates.get(name);
    if (g === undefined || !agrees(g, c, agreement)) return `${name} is ${shown(g)} on the GPU, ${shown(c)} on the CPU`;
  }
  return undefined;
}
