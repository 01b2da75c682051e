import { expect } from "bun:test";
import { readFileSync } from "node:fs";
import { CpuBackend, FeatureCollector, Y4mReader, scoreVideos } from "@vq/core";
import { compareWithGolden, goldenOutput, goldenPath, goldenRun, type GoldenPair, type GoldenRun } from "@vq/core/golden";
import { GpuBackend, type GpuContext } from "@vq/gpu-core";
import { SIMD_PROFILES, type SimdProfile } from "./adm-pipeline.ts";
import { AdmCpu } from "./adm-cpu.ts";
import { AdmGpu } from "./adm-gpu.ts";
import { admOptions, type AdmOptions } from "./definition.ts";

/** Reading the golden runs (their adm options) and scoring golden pairs: for the parity tests, not exported. */

/** libvmaf's keys of the integer adm extractor in a golden output. */
export function isAdmKey(key: string): boolean {
  return key.startsWith("integer_adm") || key.startsWith("integer_aim");
}

/**
 * The adm options a golden run used: `adm=...` feature arguments, or the
 * feature_opts_dicts entry of the model file the run loaded.
 */
export function runOptions(run: GoldenRun): Partial<AdmOptions> {
  const args = run.vmaf_args;
  const options: Record<string, unknown> = {};
  for (let i = 0; i < args.length - 1; i++) {
    if (args[i] === "--feature" && args[i + 1]!.startsWith("adm=")) {
      const parsed = admOptions.parseStrings(
        Object.fromEntries(
          args[i + 1]!
            .slice(4)
            .split(":")
            .map((kv) => kv.split("=") as [string, string]),
        ),
      );
      for (const [k, v] of Object.entries(parsed)) if (v !== admOptions.defaults[k as keyof AdmOptions]) options[k] = v;
    }
    if (args[i] === "--model") {
      const path = args[i + 1]!.split(":")[0]!.replace(/^path=/, "");
      const model = JSON.parse(readFileSync(goldenPath(path), "utf8")).model_dict;
      const names: string[] = model.feature_names;
      const dicts: Record<string, unknown>[] = model.feature_opts_dicts ?? [];
      names.forEach((name, k) => {
        if (name.startsWith("VMAF_integer_feature_adm") && dicts[k]) Object.assign(options, dicts[k]);
      });
    }
  }
  return options as Partial<AdmOptions>;
}

/** Scores a golden pair with integer adm on the CPU, or on the GPU twin when `gpu` is given. */
export async function scorePair(
  pair: GoldenPair,
  options: Partial<AdmOptions>,
  simd: SimdProfile = SIMD_PROFILES.avx512,
  gpu?: GpuContext,
): Promise<{ collector: FeatureCollector; frames: number }> {
  const ref = await Y4mReader.open(goldenPath(pair.reference));
  const dist = await Y4mReader.open(goldenPath(pair.distorted));
  const resolved = admOptions.resolve(options);
  const backend = gpu ? new GpuBackend(gpu, [new AdmGpu(resolved, simd)]) : new CpuBackend([new AdmCpu(resolved, simd)]);
  const { collector, frames } = await scoreVideos(ref, dist, backend);
  return { collector, frames };
}

/** The runs whose integer_adm* keys the parity tests check: debug, all and the VMAF v1 model runs. */
export const ADM_GOLDEN_RUNS = ["debug", "all", "vmaf_v1_3d0h", "vmaf_v1_5d0h", "vmaf_v1_1d5h_2160", "vmaf_v1_hfr_3d0h"];

/**
 * Every integer_adm* / integer_aim* value of every frame and pooled statistic of each run
 * must be the identical double to out_full; `gpu` scores on the GPU twin. Returns the
 * number of values compared.
 */
export async function checkGoldenPair(pair: GoldenPair, gpu?: GpuContext): Promise<number> {
  // Runs with the same adm options share one scoring pass (debug only adds outputs).
  const passes = new Map<string, Promise<Awaited<ReturnType<typeof scorePair>>>>();
  let total = 0;
  for (const runName of ADM_GOLDEN_RUNS) {
    const run = goldenRun(pair, runName);
    const options: Partial<AdmOptions> = { ...runOptions(run), debug: true };
    const key = JSON.stringify(Object.entries(options).sort());
    if (!passes.has(key)) passes.set(key, scorePair(pair, options, SIMD_PROFILES.avx512, gpu));
    const { collector, frames } = (await passes.get(key))!;
    const golden = goldenOutput(run, true);
    const goldenKeys = Object.keys(golden.frames[0]!.metrics).filter(isAdmKey);
    expect(goldenKeys.length).toBe(runName === "debug" ? 18 : 7);
    expect(frames).toBe(pair.frame_count);
    const report = compareWithGolden(collector, golden, isAdmKey, frames);
    expect({ run: runName, missing: report.missing }).toEqual({ run: runName, missing: [] });
    // every per-frame key plus min/max/mean/harmonic_mean of each
    expect(report.keys.length).toBe(goldenKeys.length * 5);
    const compared = report.keys.reduce((n, k) => n + k.compared, 0);
    expect(compared).toBe(goldenKeys.length * (pair.frame_count + 4));
    expect({ run: runName, differing: report.keys.filter((k) => k.differing > 0) }).toEqual({ run: runName, differing: [] });
    total += compared;
  }
  return total;
}
