import { describe, expect, test } from "bun:test";
import { FeatureCollector, VqError } from "@vq/core";
import { goldenOutput, goldenPairs, goldenRun } from "@vq/core/golden";
import { readFileSync } from "node:fs";
import { loadBuiltInModel } from "./built-in-models.ts";
import { parseModel } from "./model-reader.ts";
import { modelScoreKeys, scoreModels } from "./score-models.ts";
// libvmaf's extractor list as @vq/score assembles it (a test-only import: @vq/model itself knows no metric package)
import { EXTRACTORS } from "../../score/src/catalogue.ts";

const golden = goldenOutput(goldenRun(goldenPairs()[0]!, "all"), true);

/** The golden run's features (no model score), with `patch` in place of one value. */
function features(patch?: { key: string; frame: number; value: number }): FeatureCollector {
  const c = new FeatureCollector();
  for (const f of golden.frames) {
    for (const [k, v] of Object.entries(f.metrics)) {
      if (k !== "vmaf") c.append(k, f.frameNum, patch?.key === k && patch.frame === f.frameNum ? patch.value : (v ?? Infinity));
    }
  }
  return c;
}

describe("scoreModels", () => {
  test("models first, then bootstrap collections, in libvmaf's key order", async () => {
    const b = await loadBuiltInModel("vmaf_b_v0.6.3", { name: "b", extractors: EXTRACTORS });
    const v = await loadBuiltInModel("vmaf_v0.6.1", { extractors: EXTRACTORS });
    const c = features();
    scoreModels([b, v], c, { frameCount: golden.frames.length });
    const written = c.names().filter((k) => k === "vmaf" || k.startsWith("b"));
    expect(written).toEqual(["b", "vmaf", ...b.bootstrap!.models.map((m) => m.name), "b_bagging", "b_stddev", "b_ci_p95_lo", "b_ci_p95_hi"]);
    expect(modelScoreKeys([b, v])).toEqual(written);
    for (const f of golden.frames) expect(c.get("vmaf", f.frameNum)).toBe(f.metrics.vmaf!);
  });

  test("subsample scores every n-th frame only, with the same values", async () => {
    const v = await loadBuiltInModel("vmaf_v0.6.1", { extractors: EXTRACTORS });
    const c = features();
    scoreModels([v], c, { frameCount: golden.frames.length, subsample: 5 });
    for (const f of golden.frames) expect(c.get("vmaf", f.frameNum)).toBe(f.frameNum % 5 === 0 ? f.metrics.vmaf! : undefined);
  });

  test("two models with one name, or a name a feature has, are refused", async () => {
    const v = await loadBuiltInModel("vmaf_v0.6.1", { extractors: EXTRACTORS });
    const neg = await loadBuiltInModel("vmaf_v0.6.1neg", { extractors: EXTRACTORS });
    expect(() => scoreModels([v, neg], features(), { frameCount: 1 })).toThrow('two models write the score "vmaf": give each model its own name=');
    const clash = await loadBuiltInModel("vmaf_v0.6.1", { name: "integer_adm2", extractors: EXTRACTORS });
    expect(() => scoreModels([clash], features(), { frameCount: 1 })).toThrow('the score "integer_adm2" already exists as a feature');
  });

  test("a missing feature names the model, the key and the frame", async () => {
    const v = await loadBuiltInModel("vmaf_v0.6.1", { extractors: EXTRACTORS });
    const c = new FeatureCollector();
    c.append("integer_adm2", 0, 0.9);
    const e = (() => {
      try {
        scoreModels([v], c, { frameCount: 1 });
      } catch (x) {
        return x as VqError;
      }
    })();
    expect(e).toBeInstanceOf(VqError);
    expect(e!.message).toBe("model vmaf (built-in model vmaf_v0.6.1): no feature integer_motion2 at frame 0");
  });

  // NaN once became "vmaf": null, and an overflow a score pinned at 100 by the clip, with exit 0.
  test("a prediction that is not a finite number names the model, the frame and the cause", async () => {
    const v = await loadBuiltInModel("vmaf_v0.6.1", { extractors: EXTRACTORS });
    const nan = features({ key: "integer_adm2", frame: 2, value: NaN });
    expect(() => scoreModels([v], nan, { frameCount: 3 })).toThrow(
      new VqError("model vmaf (built-in model vmaf_v0.6.1): frame 2: the prediction is NaN, not a finite number (its input integer_adm2 is NaN)"),
    );
    // finite numbers whose de-normalisation overflows: (y - intercept) / 1e-320
    const json = JSON.parse(readFileSync(new URL("../models/vmaf_v0.6.1.json", import.meta.url), "utf8"));
    json.model_dict.slopes[0] = 1e-320;
    const tiny = parseModel(json, "tiny.json", { extractors: EXTRACTORS });
    expect(() => scoreModels([tiny], features(), { frameCount: 1 })).toThrow(
      new VqError("model vmaf (tiny.json): frame 0: the prediction is Infinity, not a finite number (check the model's numbers)"),
    );
  });

  test("a bootstrap model's prediction is checked as well", async () => {
    const b = await loadBuiltInModel("vmaf_b_v0.6.3", { extractors: EXTRACTORS });
    const c = features({ key: "integer_vif_scale1", frame: 0, value: NaN });
    expect(() => scoreModels([b], c, { frameCount: 1 })).toThrow("frame 0: the prediction is NaN, not a finite number (its input integer_vif_scale1 is NaN)");
  });
});
