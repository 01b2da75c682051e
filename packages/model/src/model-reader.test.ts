import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VqError } from "@vq/core";
import { BUILT_IN_MODELS, loadBuiltInModel } from "./built-in-models.ts";
import { parseModel, parseModelText, readModelFile } from "./model-reader.ts";
// libvmaf's extractor list as @vq/score assembles it (a test-only import: @vq/model itself knows no metric package)
import { EXTRACTORS } from "../../score/src/catalogue.ts";

const modelText = (name: string) => readFileSync(new URL(`../models/${name}.json`, import.meta.url), "utf8");
/** A fresh, mutable copy of a bundled model file. */
const modelJson = (name = "vmaf_v0.6.1") => JSON.parse(modelText(name));

function errorOf(f: () => unknown): VqError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(VqError);
    return e as VqError;
  }
  throw new Error("expected a VqError");
}

describe("model files", () => {
  test("reads a v0.6.1 model: features, clip, transform only on request", () => {
    const { model, bootstrap } = parseModel(modelJson(), "model.json", { extractors: EXTRACTORS });
    expect(bootstrap).toBeUndefined();
    expect(model.name).toBe("vmaf");
    expect(model.features.map((f) => f.key)).toEqual(["integer_adm2", "integer_motion2", "integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3"]);
    expect(model.clip).toBeDefined();
    expect(model.transform).toBeUndefined();
    const phone = parseModel(modelJson(), "model.json", { name: "vmaf_phone", enableTransform: true, disableClip: true, extractors: EXTRACTORS }).model;
    expect(phone.name).toBe("vmaf_phone");
    expect(phone.transform).toBeDefined();
    expect(phone.clip).toBeUndefined();
  });

  test("enable_transform does nothing for a model without score_transform (as in libvmaf)", () => {
    expect(parseModel(modelJson("vmaf_4k_v0.6.1neg"), "m.json", { enableTransform: true, extractors: EXTRACTORS }).model.transform).toBeUndefined();
  });

  test("reads a bootstrap collection: model 0 plus named bootstrap models", () => {
    const { model, bootstrap } = parseModel(modelJson("vmaf_b_v0.6.3"), "b.json", { name: "b", extractors: EXTRACTORS });
    expect(model.name).toBe("b");
    expect(bootstrap!.name).toBe("b");
    expect(bootstrap!.models.map((m) => m.name)).toEqual(Array.from({ length: 20 }, (_, i) => `b_${String(i + 1).padStart(4, "0")}`));
  });

  test("a wrong type names the file and the JSON path", () => {
    const json = modelJson();
    json.model_dict.slopes[3] = "1.5";
    expect(errorOf(() => parseModel(json, "model.json", { extractors: EXTRACTORS })).message).toBe("model.json: model_dict.slopes[3]: expected number, got string");
  });

  test("a missing field", () => {
    const json = modelJson();
    delete json.model_dict.model;
    expect(errorOf(() => parseModel(json, "model.json", { extractors: EXTRACTORS })).message).toBe("model.json: model_dict.model: missing (expected string)");
    const noSlopes = modelJson();
    delete noSlopes.model_dict.slopes;
    expect(errorOf(() => parseModel(noSlopes, "model.json", { extractors: EXTRACTORS })).message).toBe("model.json: model_dict.slopes: missing (linear_rescale needs it)");
  });

  test("a bad enum value, a short list, a bad option value type", () => {
    const json = modelJson();
    json.model_dict.norm_type = "clip_0to1";
    expect(errorOf(() => parseModel(json, "m.json", { extractors: EXTRACTORS })).message).toBe('m.json: model_dict.norm_type: expected one of "linear_rescale", "none", got "clip_0to1"');
    const short = modelJson();
    short.model_dict.intercepts.pop();
    expect(errorOf(() => parseModel(short, "m.json", { extractors: EXTRACTORS })).message).toMatch(/^m\.json: model_dict\.intercepts: expected 7 numbers .*got 6$/);
    const opts = modelJson("vmaf_v0.6.1neg");
    opts.model_dict.feature_opts_dicts[2].vif_enhn_gain_limit = null;
    expect(errorOf(() => parseModel(opts, "m.json", { extractors: EXTRACTORS })).message).toBe("m.json: model_dict.feature_opts_dicts[2].vif_enhn_gain_limit: expected number, boolean or string, got null");
  });

  test("paths inside a bootstrap collection start with the entry", () => {
    const json = modelJson("vmaf_b_v0.6.3");
    json["7"].model_dict.score_clip = [0, "100"];
    expect(errorOf(() => parseModel(json, "b.json", { extractors: EXTRACTORS })).message).toBe("b.json: 7.model_dict.score_clip[1]: expected number, got string");
  });

  test("an unknown feature name, an out-of-range option", () => {
    const json = modelJson();
    json.model_dict.feature_names[1] = "VMAF_integer_feature_motion9_score";
    expect(errorOf(() => parseModel(json, "m.json", { extractors: EXTRACTORS })).message).toBe('m.json: model_dict.feature_names[1]: no feature extractor provides "VMAF_integer_feature_motion9_score"');
    const range = modelJson("vmaf_v0.6.1neg");
    range.model_dict.feature_opts_dicts[0].adm_enhn_gain_limit = 0.5;
    expect(errorOf(() => parseModel(range, "m.json", { extractors: EXTRACTORS })).message).toMatch(/^m\.json: model_dict\.feature_opts_dicts\[0\]: feature adm: option adm_enhn_gain_limit/);
  });

  test("a total_sv the text cannot hold, or over vq's limit, is refused before anything is sized by it", () => {
    const claims = modelJson();
    claims.model_dict.model = claims.model_dict.model.replace("total_sv 211", "total_sv 2000000000");
    expect(errorOf(() => parseModel(claims, "m.json", { extractors: EXTRACTORS })).message).toBe("m.json: model_dict.model: libsvm model: total_sv 2000000000 is over vq's limit of 1000000 support vectors (docs/limits.md)");
    const overLines = modelJson();
    overLines.model_dict.model = overLines.model_dict.model.replace("total_sv 211", "total_sv 900000");
    expect(errorOf(() => parseModel(overLines, "m.json", { extractors: EXTRACTORS })).message).toMatch(/^m\.json: model_dict\.model: libsvm model: 900000 support vectors announced \(total_sv\), but only \d+ lines follow "SV"$/);
  });

  test("a broken libsvm model", () => {
    const json = modelJson();
    json.model_dict.model = json.model_dict.model.replace("kernel_type rbf", "kernel_type sigmoid");
    expect(errorOf(() => parseModel(json, "m.json", { extractors: EXTRACTORS })).message).toBe("m.json: model_dict.model: libsvm model: kernel_type sigmoid is not supported (VMAF models use rbf)");
    const truncated = modelJson();
    truncated.model_dict.model = truncated.model_dict.model.split("\n").slice(0, 20).join("\n");
    expect(errorOf(() => parseModel(truncated, "m.json", { extractors: EXTRACTORS })).message).toMatch(/^m\.json: model_dict\.model: libsvm model: 211 support vectors announced \(total_sv\), but only \d+ lines follow "SV"$/);
    const node = modelJson();
    node.model_dict.model = node.model_dict.model.replace(" 2:", " 2;");
    expect(errorOf(() => parseModel(node, "m.json", { extractors: EXTRACTORS })).message).toMatch(/^m\.json: model_dict\.model: libsvm model: support vector 1: bad node "2;/);
  });

  // Each once gave "vmaf": null on every frame, or scores pinned at 0 or 100, with exit 0.
  test("non-finite and out-of-range numbers name the field", () => {
    const refused = (change: (j: any) => void, name = "vmaf_v0.6.1") => {
      const json = modelJson(name);
      change(json);
      return errorOf(() => parseModel(JSON.parse(JSON.stringify(json).replaceAll('"INF"', "1e999")), "m.json", { extractors: EXTRACTORS })).message;
    };
    const svm = (from: RegExp, to: string) => (j: any) => (j.model_dict.model = j.model_dict.model.replace(from, to));
    expect(refused((j) => (j.model_dict.slopes[2] = "INF"))).toBe("m.json: model_dict.slopes[2]: expected a finite number, got Infinity");
    expect(refused((j) => (j.model_dict.score_transform.p1 = "INF"))).toBe("m.json: model_dict.score_transform.p1: expected a finite number, got Infinity");
    expect(refused((j) => (j.model_dict.feature_opts_dicts[1].vif_enhn_gain_limit = "INF"), "vmaf_v0.6.1neg")).toBe(
      "m.json: model_dict.feature_opts_dicts[1].vif_enhn_gain_limit: expected a finite number, got Infinity",
    );
    expect(refused((j) => (j.model_dict.slopes[0] = 0))).toBe("m.json: model_dict.slopes[0]: must not be 0 (the score is divided by it)");
    expect(refused((j) => (j.model_dict.score_clip = [100, 0]))).toBe("m.json: model_dict.score_clip: the minimum 100 must be below the maximum 0");
    expect(refused((j) => (j.model_dict.score_transform.knots = [[0, 0], [0, 50], [100, 100]]))).toBe("m.json: model_dict.score_transform.knots[1]: x 0 must be above the previous knot's 0");
    expect(refused((j) => (j.model_dict.score_transform.knots = [[0, 0], [50, 60], [100, 40]]))).toBe("m.json: model_dict.score_transform.knots[2]: y 40 must not be below the previous knot's 60");
    expect(refused(svm(/gamma \S+/, "gamma -1e308"))).toBe("m.json: model_dict.model: libsvm model: gamma must be a positive finite number, got -1e308");
    expect(refused(svm(/gamma \S+/, "gamma 0"))).toBe("m.json: model_dict.model: libsvm model: gamma must be a positive finite number, got 0");
    expect(refused(svm(/rho \S+/, "rho 1e999"))).toBe("m.json: model_dict.model: libsvm model: rho must be a finite number, got 1e999");
    expect(refused(svm(/\nSV\n\S+/, "\nSV\n1e999"))).toBe("m.json: model_dict.model: libsvm model: support vector 1: the coefficient must be a finite number, got 1e999");
    expect(refused(svm(/ 2:\S+/, " 2:-1e999"))).toBe('m.json: model_dict.model: libsvm model: support vector 1: node "2:-1e999": the value must be a finite number');
    expect(refused(svm(/ 1:/, " 0:"))).toBe('m.json: model_dict.model: libsvm model: support vector 1: node "0:0.65734273": the index must be at least 1');
    expect(refused(svm(/ 3:/, " 2:"))).toMatch(/^m\.json: model_dict\.model: libsvm model: support vector 1: node "2:0\.09\d+": the index must be above the previous node's 2$/);
  });

  test("neither a model nor a collection; not JSON; a bootstrap of plain models", () => {
    expect(errorOf(() => parseModel({ param_dict: {} }, "x.json", { extractors: EXTRACTORS })).message).toBe('x.json: neither a model ("model_dict") nor a bootstrap collection ("0", "1", …)');
    expect(errorOf(() => parseModel([1], "x.json", { extractors: EXTRACTORS })).message).toBe("x.json: expected a JSON object at the top level");
    expect(errorOf(() => parseModelText("{ nope", "x.json", { extractors: EXTRACTORS })).message).toStartWith("x.json: not valid JSON");
    const plain = { "0": modelJson(), "1": modelJson() };
    expect(errorOf(() => parseModel(plain, "p.json", { extractors: EXTRACTORS })).message).toMatch(/^p\.json: 1\.model_dict\.model_type: a bootstrap collection needs/);
  });

  test("a chroma correction without its features, or with parameter 0", () => {
    const json = modelJson("vmaf_v1.0.16_3d0h");
    json.model_dict.chroma_correction_parameter = 0;
    expect(errorOf(() => parseModel(json, "v1.json", { extractors: EXTRACTORS })).message).toBe("v1.json: model_dict.chroma_correction_parameter: must not be 0");
    const v06 = modelJson();
    v06.model_dict.chroma_correction_parameter = 120;
    expect(errorOf(() => parseModel(v06, "m.json", { extractors: EXTRACTORS })).message).toBe("m.json: model_dict.feature_names: chroma_correction_parameter needs exactly one feature named *adm3*, found 0");
  });

  test("files: a missing file, a file with an error", async () => {
    await expect(readModelFile("/nonexistent/model.json", { extractors: EXTRACTORS })).rejects.toThrow("/nonexistent/model.json: cannot read the model file (ENOENT)");
    const dir = mkdtempSync(join(tmpdir(), "vq-model-"));
    const json = modelJson();
    json.model_dict.slopes[3] = true;
    writeFileSync(join(dir, "model.json"), JSON.stringify(json));
    await expect(readModelFile(join(dir, "model.json"), { extractors: EXTRACTORS })).rejects.toThrow(`${join(dir, "model.json")}: model_dict.slopes[3]: expected number, got boolean`);
  });
});

describe("built-in models", () => {
  test("libvmaf's table, float models included", () => {
    expect(BUILT_IN_MODELS.length).toBe(17);
    expect(BUILT_IN_MODELS).toContain("vmaf_float_v0.6.1");
    expect(BUILT_IN_MODELS).toContain("vmaf_v1.0.16_hfr_1d5h_2160");
  });

  test("every built-in model loads", async () => {
    for (const name of BUILT_IN_MODELS) {
      const { model, bootstrap } = await loadBuiltInModel(name, { extractors: EXTRACTORS });
      expect(model.source).toBe(`built-in model ${name}`);
      expect(model.features.length).toBeGreaterThan(0);
      expect(bootstrap === undefined).toBe(!name.includes("_b_"));
    }
  });

  test("an unknown name lists the available ones", async () => {
    const e = await loadBuiltInModel("vmaf_v9", { extractors: EXTRACTORS }).catch((x) => x);
    expect(e).toBeInstanceOf(VqError);
    expect(e.message).toBe(`no built-in model "vmaf_v9" (nearest of the ${BUILT_IN_MODELS.length} built in: vmaf_v0.6.1, vmaf_v0.6.1neg, vmaf_v1.0.16_3d0h, vmaf_v1.0.16_3d0h_2160, vmaf_v1.0.16_5d0h; docs/metrics/vmaf.md lists them all)`);
    expect((await loadBuiltInModel("vmaf_4k", { extractors: EXTRACTORS }).catch((x) => x)).message).toContain("built in: vmaf_4k_v0.6.1, vmaf_4k_v0.6.1neg, ");
  });
});
