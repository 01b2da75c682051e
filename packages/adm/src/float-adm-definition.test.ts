import { describe, expect, test } from "bun:test";
import { goldenOutput, goldenPairs, goldenRun } from "@vq/core/golden";
import { floatAdmDefinition, floatAdmFeatureName, floatAdmOptions } from "./float-adm-definition.ts";

describe("float_adm options and names", () => {
  test("libvmaf's names, with the alias table and option suffixes", () => {
    const pair = goldenPairs()[0]!;
    const keys = Object.keys(goldenOutput(goldenRun(pair, "debug"), true).frames[0]!.metrics).filter((key) => /^(adm|aim)/.test(key));
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
