import { afterAll, describe, expect, test } from "bun:test";
import { scoreVideos, Y4mReader, type FeatureCollector } from "@vq/core";
import { compareWithGolden, goldenOutput, goldenPairs, goldenPath, type GoldenPair, type GoldenRun } from "@vq/core/golden";
import { GpuBackend } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { CambiGpu } from "./cambi-gpu.ts";
import { cambiDefinition, cambiOptions } from "./definition.ts";
import { cambiOptionSets } from "./golden-option-sets.ts";

/**
 * cambi on the GPU against libvmaf 3.2, as cambi.parity.test.ts does on the CPU: every
 * golden pair, every run with cambi keys (`all`, `cambi_fullref`, `cambi_topk0.2_tvi0.012`,
 * the VMAF v1 runs); every per-frame and pooled value must be the identical double to out_full.
 */
const gpu = await gpuForTests();
const isCambiKey = (k: string) => k === "cambi" || k.startsWith("cambi_");

interface Check {
  run: GoldenRun;
  stage: CambiGpu;
}

async function scoreOnGpu(pair: GoldenPair, stages: CambiGpu[]): Promise<{ collector: FeatureCollector; frames: number }> {
  return scoreVideos(await Y4mReader.open(goldenPath(pair.reference)), await Y4mReader.open(goldenPath(pair.distorted)), new GpuBackend(gpu!, stages));
}

const tally = { pairs: 0, runs: 0, values: 0, differing: 0, maxAbs: 0, replayed: 0, gpuReplayed: 0 };

describe.skipIf(!gpu)("cambi on the GPU matches libvmaf bit for bit (out_full)", () => {
  for (const pair of goldenPairs()) {
    const runs = pair.runs.filter((run) => Object.keys(goldenOutput(run, true).frames[0]?.metrics ?? {}).some(isCambiKey));
    test(
      pair.pair,
      async () => {
        // runs with the same cambi options (the VMAF v1 models') share one stage
        const stages = new Map<string, CambiGpu>();
        const checks: Check[] = runs.map((run) => {
          const sets = cambiOptionSets(run);
          expect(sets.length, `${run.run}: cambi registered once`).toBe(1);
          const key = JSON.stringify(Object.entries(sets[0]!).sort());
          if (!stages.has(key)) stages.set(key, new CambiGpu(cambiOptions.parseStrings(sets[0]!)));
          return { run, stage: stages.get(key)! };
        });
        // stages that write the same keys cannot share a collector (full_ref writes `cambi` as `all` does)
        const batches: CambiGpu[][] = [];
        for (const stage of stages.values()) {
          const names = cambiDefinition.providedFeatures(stage.options);
          const batch = batches.find((b) => b.every((o) => !cambiDefinition.providedFeatures(o.options).some((n) => names.includes(n))));
          if (batch) batch.push(stage);
          else batches.push([stage]);
        }
        for (const batch of batches) {
          const { collector, frames } = await scoreOnGpu(pair, batch);
          expect(frames).toBe(pair.frame_count);
          for (const { run, stage } of checks.filter((c) => batch.includes(c.stage))) {
            tally.runs++;
            const golden = goldenOutput(run, true);
            const names = cambiDefinition.providedFeatures(stage.options);
            expect([...names].sort(), `${run.run}: names`).toEqual(Object.keys(golden.frames[0]!.metrics).filter(isCambiKey).sort());
            const report = compareWithGolden(collector, golden, (k) => names.includes(k), frames);
            expect(report.missing, `${run.run}: missing`).toEqual([]);
            for (const name of names) expect(report.keys.find((k) => k.key === name)?.compared, `${run.run}: ${name}`).toBe(frames);
            for (const k of report.keys) {
              tally.values += k.compared;
              tally.differing += k.differing;
              tally.maxAbs = Math.max(tally.maxAbs, k.maxAbs);
            }
            const differing = report.keys.filter((k) => k.differing).map((k) => `${k.key}: ${k.differing}/${k.compared} differ (max abs ${k.maxAbs})`);
            expect(differing, run.run).toEqual([]);
          }
        }
        for (const stage of stages.values()) (tally.replayed += stage.replayedFrames), (tally.gpuReplayed += stage.gpuReplayedScales);
        tally.pairs++;
      },
      900_000,
    );
  }
});

afterAll(() => {
  if (!gpu) return;
  console.log(
    `cambi GPU parity: ${tally.pairs} pairs, ${tally.runs} runs, ${tally.values} values (per frame + pooled) compared with out_full, ` +
      `${tally.differing} differ (max |Δ| ${tally.maxAbs}); frames replayed on the CPU: ${tally.replayed}, scales replayed on the GPU: ${tally.gpuReplayed}`,
  );
});
