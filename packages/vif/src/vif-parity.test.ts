import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { FeatureCollector, Y4mReader } from "@vq/core";
import { compareWithGolden, goldenOutput, goldenPairs, goldenPath, goldenRun, type GoldenPair, type GoldenRun, type ParityReport } from "@vq/core/golden";
import { vifDefinition, vifOptions, type VifOptions } from "./definition.ts";
import { VifCpu } from "./vif-cpu.ts";

/** Integer vif keys in libvmaf's output, with or without option suffixes (float_vif writes vif_*). */
const INTEGER_VIF_KEY = /^integer_vif/;

/** The vif options a model run uses: the feature_opts_dicts entry of its first integer vif feature. */
function modelVifOptions(run: GoldenRun): VifOptions {
  const model = run.vmaf_args[run.vmaf_args.indexOf("--model") + 1]!;
  const path = model.split(":").find((kv) => kv.startsWith("path="))!.slice("path=".length);
  const dict = JSON.parse(readFileSync(goldenPath(path), "utf8")).model_dict;
  const at = (dict.feature_names as string[]).findIndex((n) => n.startsWith("VMAF_integer_feature_vif"));
  const opts: Record<string, unknown> = dict.feature_opts_dicts?.[at] ?? {};
  return vifOptions.parseStrings(Object.fromEntries(Object.entries(opts).map(([k, v]) => [k, String(v)])));
}

interface Check {
  run: GoldenRun;
  extractor: VifCpu;
  collector: FeatureCollector;
}

/** Reads the pair once and feeds every check's extractor, each with its own collector. */
async function scorePair(pair: GoldenPair, checks: Check[]): Promise<number> {
  const ref = await Y4mReader.open(goldenPath(pair.reference));
  const dist = await Y4mReader.open(goldenPath(pair.distorted));
  for (const c of checks) c.extractor.init(ref.format);
  let frames = 0;
  for (;;) {
    const [r, d] = await Promise.all([ref.read(), dist.read()]);
    if (!r || !d) break;
    for (const c of checks) c.extractor.extract({ ref: r, dist: d }, frames, c.collector);
    ref.release(r);
    dist.release(d);
    frames++;
  }
  await ref.close();
  await dist.close();
  return frames;
}

function describeReport(report: ParityReport): string {
  return report.keys
    .filter((k) => k.differing)
    .map((k) => `${k.key}: ${k.differing}/${k.compared} differ (max abs ${k.maxAbs}, rel ${k.maxRel})`)
    .join("; ");
}

describe("integer vif matches libvmaf bit for bit (out_full)", () => {
  for (const pair of goldenPairs()) {
    test(
      pair.pair,
      async () => {
        // `debug` (vif=debug=true): every integer_vif* key; `all` (vif, defaults): the four
        // scale scores; `vmaf_v0.6.1neg`: its model's vif_enhn_gain_limit=1 (egl_1 keys).
        const debug = new VifCpu(vifOptions.parseStrings({ debug: "true" }));
        const neg = goldenRun(pair, "vmaf_v0.6.1neg");
        const checks: Check[] = [
          { run: goldenRun(pair, "debug"), extractor: debug, collector: new FeatureCollector() },
          { run: goldenRun(pair, "all"), extractor: new VifCpu(vifOptions.resolve()), collector: new FeatureCollector() },
          { run: neg, extractor: new VifCpu(modelVifOptions(neg)), collector: new FeatureCollector() },
        ];
        const frames = await scorePair(pair, checks);
        expect(frames).toBe(pair.frame_count);
        for (const { run, extractor, collector } of checks) {
          const golden = goldenOutput(run, true);
          const goldenKeys = Object.keys(golden.frames[0]!.metrics).filter((k) => INTEGER_VIF_KEY.test(k));
          const names = vifDefinition.providedFeatures(extractor.options);
          // same names, in libvmaf's order
          expect(names, `${run.run}: feature names`).toEqual(goldenKeys);
          const report = compareWithGolden(collector, golden, (k) => names.includes(k), frames);
          expect(report.missing, `${run.run}: missing`).toEqual([]);
          for (const name of names) {
            expect(report.keys.find((k) => k.key === name)?.compared, `${run.run}: ${name} frames compared`).toBe(frames);
            for (const pool of ["min", "max", "mean", "harmonic_mean"]) {
              expect(report.keys.find((k) => k.key === `${name}.${pool}`)?.compared, `${run.run}: ${name}.${pool} compared`).toBe(1);
            }
          }
          expect(report.keys.filter((k) => k.differing), `${run.run}: ${describeReport(report)}`).toEqual([]);
        }
      },
      120_000,
    );
  }
});
