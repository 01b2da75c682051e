import { readFileSync } from "node:fs";
import { CpuBackend, FeatureCollector, Y4mReader, scoreVideos } from "@vq/core";
import { goldenPath, type GoldenPair, type GoldenRun } from "@vq/core/golden";
import { SIMD_PROFILES, type SimdProfile } from "./adm-pipeline.ts";
import { AdmCpu } from "./adm-cpu.ts";
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

/** Scores a golden pair with integer adm on the CPU. */
export async function scorePair(pair: GoldenPair, options: Partial<AdmOptions>, simd: SimdProfile = SIMD_PROFILES.avx512): Promise<{ collector: FeatureCollector; frames: number }> {
  const ref = await Y4mReader.open(goldenPath(pair.reference));
  const dist = await Y4mReader.open(goldenPath(pair.distorted));
  const { collector, frames } = await scoreVideos(ref, dist, new CpuBackend([new AdmCpu(admOptions.resolve(options), simd)]));
  return { collector, frames };
}
