import { describe, expect, test } from "bun:test";
import { FeatureCollector, poolFeature, POOL_METHODS, Y4mReader } from "@vq/core";
import { compareWithGolden, goldenOutput, goldenPairs, goldenPath, goldenRun, type GoldenPair, type LibvmafJson, type ParityReport } from "@vq/core/golden";
import { floatVifDefinition, floatVifOptions } from "./float-vif-definition.ts";
import { FloatVifCpu } from "./float-vif-cpu.ts";

/** float_vif keys in libvmaf's output (integer vif writes integer_vif*). */
const FLOAT_VIF_KEY = /^vif(_|$)/;
/** The contract for float features: within 5e-5 of libvmaf's printed (6-decimal) output. */
const TOLERANCE = 5e-5;

async function scorePair(pair: GoldenPair, extractor: FloatVifCpu, collector: FeatureCollector): Promise<number> {
  const ref = await Y4mReader.open(goldenPath(pair.reference));
  const dist = await Y4mReader.open(goldenPath(pair.distorted));
  extractor.init(ref.format);
  let frames = 0;
  for (;;) {
    const [r, d] = await Promise.all([ref.read(), dist.read()]);
    if (!r || !d) break;
    extractor.extract({ ref: r, dist: d }, frames, collector);
    ref.release(r);
    dist.release(d);
    frames++;
  }
  await ref.close();
  await dist.close();
  return frames;
}

/** Largest |ours - libvmaf| over every frame and pooled value of `names`, against the stock 6-decimal output. */
function maxPrintedError(collector: FeatureCollector, golden: LibvmafJson, names: string[], frames: number): number {
  let worst = 0;
  for (const f of golden.frames) for (const name of names) worst = Math.max(worst, Math.abs(collector.get(name, f.frameNum)! - f.metrics[name]!));
  for (const name of names) {
    const ours = poolFeature(collector, name, frames)!;
    for (const m of POOL_METHODS) worst = Math.max(worst, Math.abs(ours[m] - golden.pooled_metrics[name]![m]!));
  }
  return worst;
}

function describeReport(report: ParityReport): string {
  return report.keys
    .filter((k) => k.differing)
    .map((k) => `${k.key}: ${k.differing}/${k.compared} differ (max abs ${k.maxAbs})`)
    .join("; ");
}

describe("float_vif matches libvmaf", () => {
  for (const pair of goldenPairs()) {
    test(
      pair.pair,
      async () => {
        // `debug` (float_vif=debug=true): every vif* key; `all` (float_vif, defaults):
        // vif_scale0..3, which debug does not change (not a feature parameter), so one
        // debug extractor is checked against both runs
        const runs = [goldenRun(pair, "debug"), goldenRun(pair, "all")];
        const extractor = new FloatVifCpu(floatVifOptions.parseStrings({ debug: "true" }));
        const collector = new FeatureCollector();
        const frames = await scorePair(pair, extractor, collector);
        expect(frames).toBe(pair.frame_count);
        const defaults = floatVifOptions.resolve();
        runs.forEach((run, i) => {
          const names = floatVifDefinition.providedFeatures(i === 0 ? extractor.options : defaults);
          const printed = goldenOutput(run, false);
          expect(names, `${run.run}: feature names`).toEqual(Object.keys(printed.frames[0]!.metrics).filter((k) => FLOAT_VIF_KEY.test(k)));
          // the contract: within 5e-5 of the stock output
          expect(maxPrintedError(collector, printed, names, frames), `${run.run}: max error vs out/`).toBeLessThanOrEqual(TOLERANCE);
          // what the float emulation achieves: the same doubles as libvmaf (out_full)
          const report = compareWithGolden(collector, goldenOutput(run, true), (k) => names.includes(k), frames);
          expect(report.missing, `${run.run}: missing`).toEqual([]);
          expect(report.keys.length, `${run.run}: keys compared`).toBe(names.length * (1 + POOL_METHODS.length));
          expect(report.keys.filter((k) => k.differing), `${run.run}: ${describeReport(report)}`).toEqual([]);
        });
      },
      120_000,
    );
  }
});
