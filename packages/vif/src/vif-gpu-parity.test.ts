import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { scoreVideos, Y4mReader, type FeatureCollector } from "@vq/core";
import { compareWithGolden, goldenOutput, goldenPairs, goldenPath, goldenRun, type GoldenPair, type GoldenRun } from "@vq/core/golden";
import { GpuBackend } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { vifDefinition, vifOptions, type VifOptions } from "./definition.ts";
import { VifGpu } from "./vif-gpu.ts";

const gpu = await gpuForTests();

/** Integer vif keys in libvmaf's output, with or without option suffixes (float_vif writes vif_*). */
const INTEGER_VIF_KEY = /^integer_vif/;

/** The vif options a model run uses: the feature_opts_dicts entry of its integer vif feature. */
function modelVifOptions(run: GoldenRun): VifOptions {
  const model = run.vmaf_args[run.vmaf_args.indexOf("--model") + 1]!;
  const path = model.split(":").find((kv) => kv.startsWith("path="))!.slice("path=".length);
  const dict = JSON.parse(readFileSync(goldenPath(path), "utf8")).model_dict;
  const at = (dict.feature_names as string[]).findIndex((n) => n.startsWith("VMAF_integer_feature_vif"));
  const opts: Record<string, unknown> = dict.feature_opts_dicts?.[at] ?? {};
  return vifOptions.parseStrings(Object.fromEntries(Object.entries(opts).map(([k, v]) => [k, String(v)])));
}

async function scoreOnGpu(pair: GoldenPair, stages: VifGpu[]): Promise<{ collector: FeatureCollector; frames: number }> {
  return scoreVideos(await Y4mReader.open(goldenPath(pair.reference)), await Y4mReader.open(goldenPath(pair.distorted)), new GpuBackend(gpu!, stages));
}

const tally = { pairs: 0, series: 0, values: 0, differing: 0, maxAbs: 0 };

describe.skipIf(!gpu)("integer vif on the GPU matches libvmaf bit for bit (out_full)", () => {
  for (const pair of goldenPairs()) {
    test(
      pair.pair,
      async () => {
        // `debug` (vif=debug=true): every integer_vif* key; `all` (defaults): the four scale
        // scores; `vmaf_v0.6.1neg`: its model's vif_enhn_gain_limit=1 (egl_1 keys). debug and
        // neg write different keys, so they share a run; `all` writes debug's scale keys.
        const neg = goldenRun(pair, "vmaf_v0.6.1neg");
        const debug = { run: goldenRun(pair, "debug"), stage: new VifGpu(vifOptions.parseStrings({ debug: "true" })) };
        const negative = { run: neg, stage: new VifGpu(modelVifOptions(neg)) };
        const all = { run: goldenRun(pair, "all"), stage: new VifGpu(vifOptions.resolve()) };
        expect(negative.stage.options.vif_enhn_gain_limit).toBe(1);
        for (const checks of [[debug, negative], [all]]) {
          const { collector, frames } = await scoreOnGpu(
            pair,
            checks.map((c) => c.stage),
          );
          expect(frames).toBe(pair.frame_count);
          for (const { run, stage } of checks) {
            const golden = goldenOutput(run, true);
            const names = vifDefinition.providedFeatures(stage.options);
            expect(names, `${run.run}: feature names`).toEqual(Object.keys(golden.frames[0]!.metrics).filter((k) => INTEGER_VIF_KEY.test(k)));
            const report = compareWithGolden(collector, golden, (k) => names.includes(k), frames);
            expect(report.missing, `${run.run}: missing`).toEqual([]);
            for (const name of names) {
              expect(report.keys.find((k) => k.key === name)?.compared, `${run.run}: ${name} frames compared`).toBe(frames);
              for (const pool of ["min", "max", "mean", "harmonic_mean"]) {
                expect(report.keys.find((k) => k.key === `${name}.${pool}`)?.compared, `${run.run}: ${name}.${pool} compared`).toBe(1);
              }
            }
            for (const k of report.keys) {
              tally.values += k.compared;
              tally.differing += k.differing;
              tally.maxAbs = Math.max(tally.maxAbs, k.maxAbs);
            }
            tally.series += names.length;
            const differing = report.keys.filter((k) => k.differing).map((k) => `${k.key}: ${k.differing}/${k.compared} differ (max abs ${k.maxAbs})`);
            expect(differing, run.run).toEqual([]);
          }
        }
        tally.pairs++;
      },
      900_000,
    );
  }

  test("tally", () => {
    console.log(
      `vif GPU parity: ${tally.pairs} pairs, ${tally.series} (run, key) series, ${tally.values} values (per frame + pooled) compared, ${tally.differing} differ, max |Δ| ${tally.maxAbs}`,
    );
    expect(tally.pairs).toBe(goldenPairs().length);
  });
});
