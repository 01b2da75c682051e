import { describe, expect, test } from "bun:test";
import { goldenOutput, goldenPairs, goldenRun } from "@vq/core/golden";
import { loadBuiltInModel } from "./built-in-models.ts";
import { libvmafOptionString } from "./model-features.ts";
import { requiredExtractors } from "./required-features.ts";
// libvmaf's extractor list as @vq/score assembles it (a test-only import: @vq/model itself knows no metric package)
import { EXTRACTORS } from "../../score/src/catalogue.ts";

describe("model feature keys", () => {
  // The keys libvmaf wrote in each golden model run are the oracle for our key naming.
  const runs: [string, string][] = [
    ["vmaf_v0.6.1neg", "vmaf_v0.6.1neg"],
    ["vmaf_4k_v0.6.1", "vmaf_4k_v0.6.1"],
    ["vmaf_v1_3d0h", "vmaf_v1.0.16_3d0h"],
    ["vmaf_v1_5d0h", "vmaf_v1.0.16_5d0h"],
    ["vmaf_v1_1d5h_2160", "vmaf_v1.0.16_1d5h_2160"],
    ["vmaf_v1_hfr_3d0h", "vmaf_v1.0.16_hfr_3d0h"],
  ];
  for (const [run, builtIn] of runs) {
    test(`${builtIn}: every model input is a key libvmaf wrote`, async () => {
      const model = await loadBuiltInModel(builtIn, { extractors: EXTRACTORS });
      const keys = Object.keys(goldenOutput(goldenRun(goldenPairs()[0]!, run), true).frames[0]!.metrics);
      for (const f of model.model.features) expect(keys).toContain(f.key);
    });
  }

  test("options reach the extractor as libvmaf's strings: strtof then %g", () => {
    expect(libvmafOptionString(17.0)).toBe("17");
    expect(libvmafOptionString(0.06)).toBe("0.06");
    expect(libvmafOptionString(0.123456789)).toBe("0.123457");
    expect(libvmafOptionString(true)).toBe("true");
    expect(libvmafOptionString("bilinear")).toBe("bilinear");
  });
});

describe("required extractors", () => {
  test("v0.6.1: adm, motion, vif with default options, in feature order", async () => {
    const runs = requiredExtractors([await loadBuiltInModel("vmaf_v0.6.1", { extractors: EXTRACTORS })]);
    expect(runs.map((r) => [r.extractor, r.instance, r.options])).toEqual([
      ["adm", "adm", {}],
      ["motion", "motion", {}],
      ["vif", "vif", {}],
    ]);
  });

  test("a run two models share is listed once; different options make separate runs", async () => {
    const [a, b, neg] = await Promise.all(["vmaf_v0.6.1", "vmaf_4k_v0.6.1", "vmaf_v0.6.1neg"].map((n) => loadBuiltInModel(n, { name: n, extractors: EXTRACTORS })));
    expect(requiredExtractors([a!, b!]).length).toBe(3);
    const runs = requiredExtractors([a!, neg!]);
    expect(runs.map((r) => r.instance)).toEqual(["adm", "motion", "vif", "adm_egl_1", "vif_egl_1"]);
    expect(runs[3]!.options).toEqual({ adm_enhn_gain_limit: "1" });
    expect(runs[4]!.features).toEqual(["integer_vif_scale0_egl_1", "integer_vif_scale1_egl_1", "integer_vif_scale2_egl_1", "integer_vif_scale3_egl_1"]);
  });

  test("a bootstrap collection's models add no runs of their own", async () => {
    expect(requiredExtractors([await loadBuiltInModel("vmaf_b_v0.6.3", { extractors: EXTRACTORS })]).map((r) => r.extractor)).toEqual(["adm", "motion", "vif"]);
  });

  test("v1 models: option-suffixed instances of cambi, speed_chroma, adm, motion", async () => {
    const runs = requiredExtractors([await loadBuiltInModel("vmaf_v1.0.16_hfr_3d0h", { extractors: EXTRACTORS })]);
    expect(runs.map((r) => r.extractor)).toEqual(["cambi", "speed_chroma", "adm", "motion"]);
    expect(runs[3]!.options).toEqual({ motion_max_val: "18", motion_five_frame_window: "true", motion_moving_average: "true" });
    expect(runs[3]!.instance).toBe("motion_mffw_mmxv_18_mma");
  });
});
