import { describe, expect, test } from "bun:test";
import { isVqError } from "@vq/core";
import { goldenOutput, goldenPairs, goldenRun } from "@vq/core/golden";
import { AdmCpu } from "./cpu/adm-cpu.ts";
import { admDefinition, admFeatureName, admOptions } from "./definition.ts";
import { admFeature } from "./index.ts";
import { goldenOptionSets } from "@vq/parity";

const pair = goldenPairs()[0]!;
const goldenKeys = (run: string) => Object.keys(goldenOutput(goldenRun(pair, run), true).frames[0]!.metrics).filter((k) => /^integer_(adm|aim)/.test(k));
const fails = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return isVqError(e) ? (e as Error).message : `not a VqError: ${e}`;
  }
  return "did not throw";
};

describe("adm options", () => {
  test("defaults are libvmaf's", () => {
    expect(admOptions.defaults).toEqual({
      debug: false,
      adm_csf_scale: 1.0,
      adm_csf_diag_scale: 1.0,
      adm_dlm_weight: 0.5,
      adm_enhn_gain_limit: 100.0,
      adm_norm_view_dist: 3.0,
      adm_ref_display_height: 1080,
      adm_csf_mode: 0,
      adm_noise_weight: 0.03125,
      adm_skip_aim: false,
      adm_skip_scale0: false,
      adm_min_val: 0.0,
    });
  });

  test("unknown options are rejected", () => {
    expect(fails(() => admOptions.parseStrings({ adm_foo: "1" }))).toContain('unknown option "adm_foo"');
    expect(fails(() => admOptions.resolve({ enable_chroma: true } as never))).toContain("unknown option");
  });

  test("out-of-range and ill-typed values are rejected", () => {
    expect(fails(() => admOptions.resolve({ adm_dlm_weight: 1.5 }))).toContain("adm_dlm_weight");
    expect(fails(() => admOptions.resolve({ adm_enhn_gain_limit: 0.5 }))).toContain("adm_enhn_gain_limit");
    expect(fails(() => admOptions.resolve({ adm_norm_view_dist: 0.5 }))).toContain("adm_norm_view_dist");
    expect(fails(() => admOptions.resolve({ adm_ref_display_height: 0 }))).toContain("adm_ref_display_height");
    expect(fails(() => admOptions.resolve({ adm_ref_display_height: 4321 }))).toContain("adm_ref_display_height");
    expect(fails(() => admOptions.resolve({ adm_csf_mode: 4 }))).toContain("adm_csf_mode");
    expect(fails(() => admOptions.resolve({ adm_csf_mode: 1.5 }))).toContain("adm_csf_mode");
    expect(fails(() => admOptions.resolve({ adm_noise_weight: -0.1 }))).toContain("adm_noise_weight");
    expect(fails(() => admOptions.resolve({ adm_csf_scale: 51 }))).toContain("adm_csf_scale");
    expect(fails(() => admOptions.resolve({ adm_min_val: 2 }))).toContain("adm_min_val");
    expect(fails(() => admOptions.parseStrings({ adm_csf_mode: "two" }))).toContain("expected an integer");
    expect(fails(() => admOptions.parseStrings({ debug: "yes" }))).toContain("expected true or false");
  });

  test("libvmaf-style strings parse to typed values", () => {
    const o = admOptions.parseStrings({ adm_csf_mode: "2", adm_dlm_weight: "0.7", adm_skip_scale0: "true", adm_norm_view_dist: "1.5" });
    expect(o.adm_csf_mode).toBe(2);
    expect(o.adm_dlm_weight).toBe(0.7);
    expect(o.adm_skip_scale0).toBe(true);
    expect(o.adm_norm_view_dist).toBe(1.5);
  });
});

describe("feature names", () => {
  test("default and debug names are libvmaf's (alias table applied)", () => {
    expect(admDefinition.providedFeatures(admOptions.resolve({}))).toEqual(goldenKeys("all"));
    expect(admDefinition.providedFeatures(admOptions.resolve({ debug: true }))).toEqual(goldenKeys("debug"));
  });

  test("non-default feature parameters suffix every name like libvmaf (VMAF v1 models)", () => {
    for (const run of ["vmaf_v1_3d0h", "vmaf_v1_5d0h", "vmaf_v1_1d5h_2160", "vmaf_v1_hfr_3d0h"]) {
      const options = admOptions.parseStrings(goldenOptionSets(goldenRun(pair, run), "adm", /^VMAF_integer_feature_adm/)[0]!);
      expect(admDefinition.providedFeatures(options)).toEqual(goldenKeys(run));
    }
  });

  test("bool feature parameters add their alias, other options add nothing", () => {
    const o = admOptions.resolve({ adm_skip_scale0: true, adm_skip_aim: true, debug: true });
    expect(admFeatureName("VMAF_integer_feature_adm2_score", o)).toBe("integer_adm2_ssz");
    expect(admFeatureName("integer_adm_num_scale1", o)).toBe("integer_adm_num_scale1_ssz");
    expect(admFeatureName("VMAF_integer_feature_aim_score", admOptions.resolve({ adm_skip_aim: true }))).toBe("integer_aim");
    // %g values, sorted by option name: csf_diag_scale < csf_mode < csf_scale
    const scaled = admOptions.resolve({ adm_csf_mode: 1, adm_csf_scale: 0.85, adm_csf_diag_scale: 0.5 });
    expect(admFeatureName("VMAF_integer_feature_adm3_score", scaled)).toBe("integer_adm3_scfd_0.5_csf_1_scf_0.85");
  });
});

describe("formats and viewing conditions", () => {
  const format = { width: 64, height: 48, bitDepth: 8, pixelFormat: "420" as const };
  test("accepts 8, 10, 12 and 16 bits, rejects others", () => {
    for (const bitDepth of [8, 10, 12, 16]) expect(() => admDefinition.checkFormat!(admOptions.defaults, { ...format, bitDepth })).not.toThrow();
    expect(fails(() => admDefinition.checkFormat!(admOptions.defaults, { ...format, bitDepth: 9 }))).toContain("9-bit");
  });

  test("rejects pictures too small for four DWT scales", () => {
    expect(() => admDefinition.checkFormat!(admOptions.defaults, { ...format, width: 33, height: 33 })).not.toThrow();
    expect(fails(() => admDefinition.checkFormat!(admOptions.defaults, { ...format, width: 32 }))).toContain("too small");
    expect(fails(() => admDefinition.checkFormat!(admOptions.defaults, { ...format, height: 20 }))).toContain("too small");
  });

  test("rejects viewing conditions below 1080 lines at 3H, as libvmaf's extract does", () => {
    const close = admOptions.resolve({ adm_norm_view_dist: 1.5 });
    expect(fails(() => admDefinition.checkFormat!(close, format))).toContain("3240");
    expect(() => admDefinition.checkFormat!(admOptions.resolve({ adm_norm_view_dist: 1.5, adm_ref_display_height: 2160 }), format)).not.toThrow();
  });

  test("blended CSF modes need one of libvmaf's tabulated viewing conditions", () => {
    const cpu = admFeature.cpu(admOptions.resolve({ adm_csf_mode: 2, adm_ref_display_height: 1440 }));
    expect(fails(() => cpu.init(format))).toContain("adm_csf_mode=2");
    expect(() => new AdmCpu(admOptions.resolve({ adm_csf_mode: 3, adm_norm_view_dist: 5 })).init(format)).not.toThrow();
    expect(() => new AdmCpu(admOptions.resolve({ adm_csf_mode: 1, adm_csf_scale: 0.5 })).init(format)).not.toThrow();
  });
});
