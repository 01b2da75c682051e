import { describe, expect, test } from "bun:test";
import { VqError } from "@vq/core";
import { speedChromaDefinition, speedChromaNames, speedChromaOptions, speedTemporalDefinition, speedTemporalName, speedTemporalOptions } from "./definition.ts";

const format = (width: number, height: number, pixelFormat: "420" | "422" | "444" | "400" = "420", bitDepth = 8) => ({ width, height, pixelFormat, bitDepth });

describe("speed options and names", () => {
  test("defaults name the outputs by libvmaf's aliases", () => {
    expect(speedChromaNames(speedChromaOptions.defaults)).toEqual({ u: "speed_chroma_u", v: "speed_chroma_v", uv: "speed_chroma_uv" });
    expect(speedTemporalName(speedTemporalOptions.defaults)).toBe("speed_temporal");
  });

  test("non-default options suffix the names, sorted by option name, defaults left out", () => {
    // the options of the VMAF v1.0.16 models (their golden outputs carry these keys)
    const o = speedChromaOptions.parseStrings({ speed_kernelscale: "1.0", speed_nn_floor: "0.1", speed_sigma_nn: "0.19", speed_weight_var_mode: "5", speed_max_val: "45.0" });
    expect(speedChromaNames(o).uv).toBe("speed_chroma_uv_mxv_45_nnf_0.1_snn_0.19_wvm_5");
    const p = speedChromaOptions.parseStrings({ speed_prescale: "0.6", speed_prescale_method: "bilinear", speed_max_val: "45" });
    expect(speedChromaNames(p).u).toBe("speed_chroma_u_mxv_45_ps_0.6_psm_bilinear");
    expect(speedTemporalName(speedTemporalOptions.parseStrings({ speed_use_ref_diff: "true", speed_kernelscale: "2" }))).toBe("speed_temporal_ks_2_urd");
  });

  test("bad options are VqErrors naming the option", () => {
    expect(() => speedChromaOptions.parseStrings({ speed_weight_var_mode: "7" })).toThrow(/speed_weight_var_mode/);
    expect(() => speedChromaOptions.parseStrings({ speed_prescale_method: "area" })).toThrow(/speed_prescale_method/);
    expect(() => speedChromaOptions.parseStrings({ speed_sigma_nn: "0" })).toThrow(/speed_sigma_nn/);
    expect(() => speedTemporalOptions.parseStrings({ speed_weight_var_mode: "1" })).toThrow(/unknown option "speed_weight_var_mode"/);
    expect(() => speedChromaOptions.parseStrings({ speed_use_ref_diff: "true" })).toThrow(VqError);
  });
});

describe("speed formats", () => {
  const chroma = (f: ReturnType<typeof format>, options = speedChromaOptions.defaults) => () => speedChromaDefinition.checkFormat!(options, f);
  const temporal = (f: ReturnType<typeof format>, options = speedTemporalOptions.defaults) => () => speedTemporalDefinition.checkFormat!(options, f);

  test("pictures too small for one 5x5 block after decimation by 16 name the minimum", () => {
    expect(temporal(format(80, 80))).not.toThrow();
    expect(temporal(format(79, 200))).toThrow(/79x200 is too small for SpEED, which needs at least 80x80 samples/);
    // 4:2:0 chroma planes are half the luma: 160x160 luma is the smallest
    expect(chroma(format(160, 160))).not.toThrow();
    expect(chroma(format(158, 400))).toThrow(/chroma planes of a 158x400 420 picture: 79x200 is too small/);
    expect(chroma(format(80, 80, "444"))).not.toThrow();
    // prescaling changes the minimum
    expect(temporal(format(100, 100), speedTemporalOptions.parseStrings({ speed_prescale: "0.5" }))).toThrow(/at least 159x159 samples at speed_prescale=0.5/);
  });

  test("unsupported inputs and options are VqErrors", () => {
    expect(chroma(format(320, 240, "400"))).toThrow(/4:0:0 input has no chroma planes/);
    expect(temporal(format(320, 240, "420", 9))).toThrow(/9-bit input is not supported/);
    expect(chroma(format(320, 240), speedChromaOptions.parseStrings({ speed_kernelscale: "0.7" }))).toThrow(/speed_kernelscale=0.7 is not one of the kernel scales/);
    expect(temporal(format(2000, 200), speedTemporalOptions.parseStrings({ speed_prescale: "1.0005" }))).toThrow(/within 1e-3 of 1/);
    expect(temporal(format(320, 240, "400", 16))).not.toThrow();
  });
});
