import { describe, expect, test } from "bun:test";
import { CpuBackend, Y4mReader, poolFeature, scoreVideos } from "@vq/core";
import { goldenOutput, goldenPairs, goldenPath, goldenRun, type GoldenPair } from "@vq/core/golden";
import { floatAdmDefinition, floatAdmFeatureName, floatAdmOptions } from "./float-adm-definition.ts";
import { FloatAdmCpu } from "./float-adm-cpu.ts";

/**
 * float_adm against libvmaf's stock output (out/, 6 decimals): every per-frame and
 * pooled value of the debug run (18 keys) and the all run (7 keys) within 5e-5.
 * libvmaf divides with SSE's approximate reciprocal (CPU-dependent), so float_adm is
 * held to a tolerance, not to identical doubles.
 */

const TOLERANCE = 5e-5;
const isFloatAdmKey = (key: string) => /^(adm|aim)/.test(key);

async function checkPair(pair: GoldenPair): Promise<void> {
  const ref = await Y4mReader.open(goldenPath(pair.reference));
  const dist = await Y4mReader.open(goldenPath(pair.distorted));
  const { collector, frames } = await scoreVideos(ref, dist, new CpuBackend([new FloatAdmCpu(floatAdmOptions.resolve({ debug: true }))]));
  for (const run of ["debug", "all"]) {
    const golden = goldenOutput(goldenRun(pair, run), false);
    const keys = Object.keys(golden.frames[0]!.metrics).filter(isFloatAdmKey);
    expect(keys.length).toBe(run === "debug" ? 18 : 7);
    let worst = { key: "", error: 0 };
    const note = (key: string, ours: number | undefined, theirs: number | null | undefined) => {
      expect({ key, defined: ours !== undefined && theirs !== undefined && theirs !== null }).toEqual({ key, defined: true });
      const error = Math.abs(ours! - theirs!);
      if (!(error <= worst.error)) worst = { key, error };
    };
    for (const f of golden.frames) for (const key of keys) note(`${key}@${f.frameNum}`, collector.get(key, f.frameNum), f.metrics[key]);
    for (const key of keys) {
      const pooled = poolFeature(collector, key, frames)!;
      for (const m of ["min", "max", "mean", "harmonic_mean"] as const) note(`${key}.${m}`, pooled[m], golden.pooled_metrics[key]![m]);
    }
    expect({ run, worst, within: worst.error <= TOLERANCE }).toEqual({ run, worst, within: true });
  }
}

describe("float_adm is within 5e-5 of libvmaf on every golden pair", () => {
  for (const pair of goldenPairs()) {
    test(`${pair.pair}: debug and all runs`, () => checkPair(pair), 120_000);
  }
});

describe("float_adm options and names", () => {
  test("libvmaf's names, with the alias table and option suffixes", () => {
    const pair = goldenPairs()[0]!;
    const keys = Object.keys(goldenOutput(goldenRun(pair, "debug"), true).frames[0]!.metrics).filter(isFloatAdmKey);
    expect(floatAdmDefinition.providedFeatures(floatAdmOptions.resolve({ debug: true }))).toEqual(keys);
    const o = floatAdmOptions.resolve({ adm_ref_display_height: 2160, adm_p_norm: 2, adm_adm3_apply_hm: true });
    expect(floatAdmFeatureName("VMAF_feature_adm2_score", o)).toBe("adm2_aah_apn_2_rdf_2160");
  });

  test("out-of-range and unknown options are rejected; the -1 defaults stand", () => {
    expect(floatAdmOptions.defaults.adm_skip_aim_scale).toBe(-1);
    expect(floatAdmOptions.resolve({}).adm_f1s0).toBe(-1);
    expect(() => floatAdmOptions.resolve({ adm_skip_aim_scale: -1 })).toThrow();
    expect(() => floatAdmOptions.resolve({ adm_p_norm: 0.5 })).toThrow();
    expect(() => floatAdmOptions.resolve({ adm_csf_mode: 10 })).toThrow();
    expect(() => floatAdmOptions.parseStrings({ adm_skip_aim: "true" })).toThrow();
  });
});
