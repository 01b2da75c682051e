import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { CpuBackend, scoreVideos, Y4mReader, type ExtractionBackend, type FeatureExtractor } from "@vq/core";
import { compareWithGolden, goldenOutput, goldenPairs, goldenPath, goldenRun, type GoldenPair, type GoldenRun } from "@vq/core/golden";
import { GpuBackend, type GpuStage } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { speedChromaOptions, speedTemporalOptions } from "./definition.ts";
import { SpeedChromaCpu } from "./speed-chroma-cpu.ts";
import { SpeedChromaGpu } from "./speed-chroma-gpu.ts";
import { SpeedTemporalCpu } from "./speed-temporal-cpu.ts";
import { SpeedTemporalGpu } from "./speed-temporal-gpu.ts";

/**
 * SpEED against libvmaf 3.2 on every golden pair, CPU and GPU: run `all` (speed_chroma and
 * speed_temporal with default options) and the four VMAF v1.0.16 runs (speed_chroma with
 * the options each model file gives it). The bar for a float extractor is 5e-5 of the
 * stock output on every frame and pooled value; distances to the full-precision output
 * are reported.
 */
const gpu = await gpuForTests();
const TOLERANCE = 5e-5;
const CHROMA_FEATURE = "Speed_chroma_feature_speed_chroma_uv_score";

/** speed_chroma's options in the model a run used (its feature_opts_dicts entry), as strings. */
function modelSpeedOptions(run: GoldenRun): Record<string, string> {
  const arg = run.vmaf_args[run.vmaf_args.indexOf("--model") + 1]!;
  const path = /path=([^:]+)/.exec(arg)![1]!;
  const model = JSON.parse(readFileSync(goldenPath(path), "utf8")).model_dict;
  const opts: Record<string, unknown> = model.feature_opts_dicts[model.feature_names.indexOf(CHROMA_FEATURE)];
  return Object.fromEntries(Object.entries(opts).map(([k, v]) => [k, String(v)]));
}

interface Case {
  runs: string[];
  chroma: Record<string, string>;
  /** speed_temporal too (run `all`) */
  temporal: boolean;
}

/** Runs grouped by the options they score with (three v1 models share speed_chroma's), so each is scored once. */
function cases(pair: GoldenPair): Case[] {
  const out: Case[] = [{ runs: ["all"], chroma: {}, temporal: true }];
  for (const run of pair.runs.filter((r) => r.run.startsWith("vmaf_v1_"))) {
    const chroma = modelSpeedOptions(run);
    const same = out.find((c) => !c.temporal && JSON.stringify(speedChromaOptions.parseStrings(c.chroma)) === JSON.stringify(speedChromaOptions.parseStrings(chroma)));
    if (same) same.runs.push(run.run);
    else out.push({ runs: [run.run], chroma, temporal: false });
  }
  return out;
}

async function score(pair: GoldenPair, backend: ExtractionBackend) {
  const ref = await Y4mReader.open(goldenPath(pair.reference));
  const dist = await Y4mReader.open(goldenPath(pair.distorted));
  try {
    return await scoreVideos(ref, dist, backend);
  } finally {
    await ref.close();
    await dist.close();
  }
}

function backend(kind: "cpu" | "gpu", c: Case): ExtractionBackend {
  const chroma = speedChromaOptions.parseStrings(c.chroma);
  const temporal = speedTemporalOptions.defaults;
  if (kind === "cpu") {
    const extractors: FeatureExtractor[] = [new SpeedChromaCpu(chroma)];
    if (c.temporal) extractors.push(new SpeedTemporalCpu(temporal));
    return new CpuBackend(extractors);
  }
  const stages: GpuStage[] = [new SpeedChromaGpu(chroma)];
  if (c.temporal) stages.push(new SpeedTemporalGpu(temporal));
  // batches of 5: the golden videos (24, 8, 6 or 5 frames) end in a partial batch, or fill one
  return new GpuBackend(gpu!, stages, { batchFrames: 5 });
}

const isSpeedKey = (k: string) => k.startsWith("speed_");
const summary = new Map<string, { keys: number; values: number; differing: number; maxFull: number; maxStock: number }>();

for (const kind of ["cpu", "gpu"] as const) {
  describe.skipIf(kind === "gpu" && !gpu)(`speed parity (${kind})`, () => {
    for (const pair of goldenPairs()) {
      for (const c of cases(pair)) {
        test(
          `${pair.pair} ${c.runs.join(", ")}`,
          async () => {
            const result = await score(pair, backend(kind, c));
            expect(result.frames).toBe(pair.frame_count);
            for (const run of c.runs) {
              const golden = goldenRun(pair, run);
              const full = compareWithGolden(result.collector, goldenOutput(golden, true), isSpeedKey, result.frames);
              const stock = compareWithGolden(result.collector, goldenOutput(golden, false), isSpeedKey, result.frames);
              expect(full.missing).toEqual([]);
              // 3 chroma keys (and speed_temporal), each per frame and 4 pooled
              expect(full.keys.length).toBe((c.temporal ? 4 : 3) * 5);
              const s = summary.get(kind) ?? { keys: 0, values: 0, differing: 0, maxFull: 0, maxStock: 0 };
              for (const k of full.keys) {
                s.keys++;
                s.values += k.compared;
                s.differing += k.differing;
                s.maxFull = Math.max(s.maxFull, k.maxAbs);
                expect(k.maxAbs).toBeLessThanOrEqual(TOLERANCE);
              }
              for (const k of stock.keys) {
                s.maxStock = Math.max(s.maxStock, k.maxAbs);
                expect(k.maxAbs).toBeLessThanOrEqual(TOLERANCE);
              }
              summary.set(kind, s);
            }
          },
          180_000,
        );
      }
    }
  });
}

afterAll(() => {
  for (const [kind, s] of summary) {
    console.log(
      `speed parity ${kind}: ${s.keys} key comparisons, ${s.values} values; ${s.differing} differ from out_full (max |Δ| ${s.maxFull.toExponential(2)}); max |Δ| vs out/ ${s.maxStock.toExponential(2)}`,
    );
  }
});
