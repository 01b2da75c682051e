import { describe, expect, test } from "bun:test";
import { FeatureCollector } from "@vq/core";
import { goldenOutput, goldenPairs, goldenRun } from "@vq/core/golden";
import { expectParity } from "./compare.ts";
import type { Tolerance } from "./contract.ts";
import { goldenOptionSets } from "./golden-options.ts";

/**
 * The harness itself: libvmaf's own per-frame values (out_full) pass every class, and one
 * value moved by a little fails the classes it should, naming the key and its |Δ|.
 */
const pair = goldenPairs()[0]!;
const run = goldenRun(pair, "debug");
const golden = goldenOutput(run, true);
const names = Object.keys(golden.frames[0]!.metrics).filter((k) => k.startsWith("integer_adm"));

/** libvmaf's values for `names`, one of them at frame 3 moved by `delta` (relative, when `relative`). */
function collector(delta = 0, relative = false): FeatureCollector {
  const c = new FeatureCollector();
  for (const f of golden.frames) {
    for (const name of names) {
      const v = f.metrics[name]!;
      c.append(name, f.frameNum, f.frameNum === 3 && name === names[0] ? v + (relative ? v * delta : delta) : v);
    }
  }
  return c;
}

const check = (c: FeatureCollector, tolerance: Tolerance) => () => expectParity({ collector: c, run, names, frames: golden.frames.length, tolerance, label: "test" });

describe("expectParity", () => {
  test("libvmaf's own values pass every class, and every value is counted", () => {
    const t = check(collector(), ["identical", "float", "libm"])();
    expect(t.series).toBe(names.length * 5);
    expect(t.values).toBe(names.length * (golden.frames.length + 4));
    expect(t.differing).toBe(0);
  });

  test("1e-9 off on one frame fails `identical` with the key and its |Δ|, and passes `float`", () => {
    expect(check(collector(1e-9), ["identical"])).toThrow(new RegExp(`${names[0]}: 1/${golden.frames.length} differ from out_full, worst \\|Δ\\| 1\\.00e-9`));
    // the mean moves too, by 1e-9 / frames
    expect(check(collector(1e-9), ["identical"])).toThrow(`${names[0]}.mean: 1/1 differ`);
    check(collector(1e-9), ["float"])();
  });

  test("relative 1e-11 fails `libm` (1e-12), 1e-13 passes it; 1e-4 fails `float`", () => {
    expect(check(collector(1e-11, true), ["libm"])).toThrow("libm allows relative |Δ| ≤ 1e-12 to out_full");
    check(collector(1e-13, true), ["libm"])();
    expect(check(collector(1e-4), ["float"])).toThrow("float allows absolute |Δ| ≤ 0.00005 to out");
  });

  test("a class restricted to other keys leaves a key unchecked: that fails too", () => {
    expect(check(collector(), [{ keys: /^psnr_/, class: "libm" }])).toThrow("no tolerance class applies");
  });

  test("a name libvmaf did not write, and a frame we did not write, are failures", () => {
    expect(() => expectParity({ collector: collector(), run, names: [...names, "integer_adm_nonexistent"], frames: golden.frames.length, tolerance: ["identical"], label: "test" })).toThrow(
      "integer_adm_nonexistent: 0 of",
    );
    const short = new FeatureCollector();
    for (const f of golden.frames.slice(1)) for (const name of names) short.append(name, f.frameNum, f.metrics[name]!);
    expect(() => expectParity({ collector: short, run, names, frames: golden.frames.length, tolerance: ["identical"], label: "test" })).toThrow();
  });
});

describe("goldenOptionSets", () => {
  test("--feature arguments and a model's feature_opts_dicts, with libvmaf's %g of the float", () => {
    expect(goldenOptionSets(goldenRun(pair, "debug"), "adm")).toEqual([{ debug: "true" }]);
    expect(goldenOptionSets(goldenRun(pair, "all"), "float_adm")).toEqual([{}]);
    // four vif features of the neg model, each with its gain limit 1.0
    expect(goldenOptionSets(goldenRun(pair, "vmaf_v0.6.1neg"), "vif", /^VMAF_integer_feature_vif/)).toEqual(Array(4).fill({ vif_enhn_gain_limit: "1" }));
    expect(goldenOptionSets(goldenRun(pair, "vmaf_v1_3d0h"), "cambi", /^Cambi_feature_cambi_score$/)).toEqual([
      { cambi_high_res_speedup: "1080", cambi_vis_lum_threshold: "0.06", cambi_max_val: "17" },
    ]);
    // no model feature named: model runs register nothing
    expect(goldenOptionSets(goldenRun(pair, "vmaf_v1_3d0h"), "cambi")).toEqual([]);
  });
});
