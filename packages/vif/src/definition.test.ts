import { describe, expect, test } from "bun:test";
import { isVqError, type PictureFormat } from "@vq/core";
import { goldenOutput, goldenPairs, goldenRun } from "@vq/core/golden";
import { vifDefinition, vifOptions } from "./definition.ts";
import { vifFeature } from "./index.ts";

const format = (width: number, height: number, bitDepth = 8): PictureFormat => ({ width, height, bitDepth, pixelFormat: "420" });

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("expected an error");
}

describe("vif options", () => {
  test("defaults are libvmaf's", () => {
    expect(vifOptions.resolve()).toEqual({ debug: false, vif_enhn_gain_limit: 100, vif_skip_scale0: false });
  });

  test("libvmaf-style strings parse", () => {
    expect(vifOptions.parseStrings({ vif_enhn_gain_limit: "1.5", vif_skip_scale0: "true", debug: "true" })).toEqual({
      debug: true,
      vif_enhn_gain_limit: 1.5,
      vif_skip_scale0: true,
    });
  });

  test("an unknown option is an error naming it", () => {
    const e = thrown(() => vifOptions.parseStrings({ enable_chroma: "true" }));
    expect(isVqError(e)).toBe(true);
    expect(String((e as Error).message)).toContain("enable_chroma");
    expect(() => vifOptions.resolve({ egl: 1 } as never)).toThrow(/egl/);
  });

  test("out-of-range and malformed values are errors", () => {
    // libvmaf's range for vif_enhn_gain_limit is [1, 100]
    expect(() => vifOptions.parseStrings({ vif_enhn_gain_limit: "0.99" })).toThrow(/vif_enhn_gain_limit/);
    expect(() => vifOptions.parseStrings({ vif_enhn_gain_limit: "100.5" })).toThrow(/vif_enhn_gain_limit/);
    expect(() => vifOptions.parseStrings({ vif_enhn_gain_limit: "lots" })).toThrow(/vif_enhn_gain_limit/);
    expect(() => vifOptions.parseStrings({ debug: "yes" })).toThrow(/debug/);
    expect(() => vifOptions.resolve({ vif_enhn_gain_limit: Number.NaN })).toThrow(/vif_enhn_gain_limit/);
  });

  test("the boundaries themselves are accepted", () => {
    expect(vifOptions.parseStrings({ vif_enhn_gain_limit: "1" }).vif_enhn_gain_limit).toBe(1);
    expect(vifOptions.parseStrings({ vif_enhn_gain_limit: "100" }).vif_enhn_gain_limit).toBe(100);
  });
});

describe("vif feature names", () => {
  const defaults = vifOptions.resolve();

  test("default names are libvmaf's aliases, in its writing order (golden `all` and `debug` runs)", () => {
    const pair = goldenPairs()[0]!;
    const keys = (run: string) => Object.keys(goldenOutput(goldenRun(pair, run), true).frames[0]!.metrics).filter((k) => k.startsWith("integer_vif"));
    expect(vifDefinition.providedFeatures(defaults)).toEqual(keys("all"));
    expect(vifDefinition.providedFeatures({ ...defaults, debug: true })).toEqual(keys("debug"));
  });

  test("a non-default gain limit suffixes every name with _egl_<%g> (golden vmaf_v0.6.1neg run)", () => {
    const pair = goldenPairs()[0]!;
    const golden = Object.keys(goldenOutput(goldenRun(pair, "vmaf_v0.6.1neg"), true).frames[0]!.metrics).filter((k) => k.startsWith("integer_vif"));
    expect(vifDefinition.providedFeatures({ ...defaults, vif_enhn_gain_limit: 1 })).toEqual(golden);
  });

  test("debug names get the suffixes too; debug itself is not a feature parameter", () => {
    const names = vifDefinition.providedFeatures({ ...defaults, debug: true, vif_enhn_gain_limit: 1.5 });
    expect(names).toContain("integer_vif_scale0_egl_1.5");
    expect(names).toContain("integer_vif_egl_1.5");
    expect(names).toContain("integer_vif_num_scale3_egl_1.5");
    expect(names.every((n) => n.endsWith("_egl_1.5"))).toBe(true);
  });

  test("boolean feature parameters add their alias; several are sorted by option name", () => {
    expect(vifDefinition.providedFeatures({ ...defaults, vif_skip_scale0: true })[1]).toBe("integer_vif_scale1_ssclz");
    expect(vifDefinition.providedFeatures({ ...defaults, vif_skip_scale0: true, vif_enhn_gain_limit: 2 })[0]).toBe("integer_vif_scale0_egl_2_ssclz");
  });

  test("the extractor writes the names its definition provides", () => {
    const options = vifOptions.resolve({ vif_enhn_gain_limit: 1 });
    expect(vifFeature.cpu(options).definition.providedFeatures(options)[0]).toBe("integer_vif_scale0_egl_1");
  });
});

describe("vif formats", () => {
  const defaults = vifOptions.resolve();

  test("8- to 16-bit input is accepted", () => {
    for (const bitDepth of [8, 9, 10, 12, 16]) expect(() => vifDefinition.checkFormat!(defaults, format(64, 64, bitDepth))).not.toThrow();
  });

  test("pictures below 16x16 are rejected with the reason", () => {
    expect(() => vifDefinition.checkFormat!(defaults, format(16, 16))).not.toThrow();
    expect(() => vifDefinition.checkFormat!(defaults, format(15, 64))).toThrow(/too small/);
    expect(() => vifDefinition.checkFormat!(defaults, format(64, 15))).toThrow(/too small/);
  });

  test("init checks the format", () => {
    expect(() => vifFeature.cpu(defaults).init(format(8, 8))).toThrow(/too small/);
  });
});
