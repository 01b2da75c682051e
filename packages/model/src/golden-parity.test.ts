import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { FeatureCollector } from "@vq/core";
import { goldenOutput, goldenPairs, goldenPath, goldenRun, type GoldenRun, type LibvmafJson } from "@vq/core/golden";
import { expectParity } from "@vq/parity";
import { BUILT_IN_MODELS, loadBuiltInModel } from "./built-in-models.ts";
import { readModelFile } from "./model-reader.ts";
import { modelScoreKeys, scoreModels } from "./score-models.ts";
import type { LoadedModel } from "./vmaf-model.ts";
// libvmaf's extractor list as @vq/score assembles it (a test-only import: @vq/model itself knows no metric package)
import { EXTRACTORS } from "../../score/src/catalogue.ts";

const RUNS = ["all", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1", "vmaf_b_v0.6.3", "vmaf_phone", "vmaf_noclip", "vmaf_v1_3d0h", "vmaf_v1_5d0h", "vmaf_v1_1d5h_2160", "vmaf_v1_hfr_3d0h"];

/** The `--model path=…:name=…:enable_transform=…:disable_clip=…` argument of a golden run. */
function modelArgument(run: GoldenRun): Record<string, string> {
  const at = run.vmaf_args.indexOf("--model");
  if (at < 0) throw new Error(`run ${run.run} has no --model`);
  return Object.fromEntries(run.vmaf_args[at + 1]!.split(":").map((kv) => kv.split("=") as [string, string]));
}

const loaded = new Map<string, Promise<LoadedModel>>();
function modelOf(run: GoldenRun): Promise<LoadedModel> {
  const a = modelArgument(run);
  const key = JSON.stringify(a);
  if (!loaded.has(key)) {
    loaded.set(key, readModelFile(goldenPath(a.path!), { name: a.name, enableTransform: a.enable_transform === "true", disableClip: a.disable_clip === "true", extractors: EXTRACTORS }));
  }
  return loaded.get(key)!;
}

/** libvmaf's per-frame values except the model scores, in its order (null = infinite). */
function featuresOnly(golden: LibvmafJson, scoreKeys: ReadonlySet<string>): FeatureCollector {
  const c = new FeatureCollector();
  for (const f of golden.frames) {
    for (const [k, v] of Object.entries(f.metrics)) if (!scoreKeys.has(k)) c.append(k, f.frameNum, v ?? Infinity);
  }
  return c;
}

let comparedValues = 0;

for (const pair of goldenPairs()) {
  describe(pair.pair, () => {
    for (const runName of RUNS) {
      test(`${runName}: every score key, per frame and pooled, is libvmaf's double`, async () => {
        const run = goldenRun(pair, runName);
        const model = await modelOf(run);
        const golden = goldenOutput(run, true);
        const keys = new Set(modelScoreKeys([model]));
        const collector = featuresOnly(golden, keys);
        scoreModels([model], collector, { frameCount: golden.frames.length });

        // Every key the model writes is one libvmaf wrote, on every frame and pooled: identical doubles.
        comparedValues += expectParity({ collector, run, names: [...keys], frames: golden.frames.length, tolerance: ["identical"], label: pair.pair }).values;

        // Same keys in the same order per frame, so writers print libvmaf's layout.
        for (const f of golden.frames) expect(collector.frame(f.frameNum).map(([k]) => k)).toEqual(Object.keys(f.metrics));
      });
    }
  });
}

describe("built-in models", () => {
  test("the golden model files are byte-identical to the bundled copies", () => {
    const files = new Set(goldenPairs().flatMap((p) => p.runs.map((r) => r.vmaf_args)).flatMap((args) => args.filter((a) => a.startsWith("path=")).map((a) => a.split(":")[0]!.slice(5))));
    expect(files.size).toBeGreaterThan(0);
    for (const file of files) {
      const name = file.replace(/^models\//, "").replace(/\.json$/, "");
      expect(BUILT_IN_MODELS).toContain(name);
      expect(readFileSync(new URL(`../models/${name}.json`, import.meta.url), "utf8")).toBe(readFileSync(goldenPath(file), "utf8"));
    }
  });

  test("a built-in model scores like the file libvmaf read", async () => {
    const pair = goldenPairs()[0]!;
    const run = goldenRun(pair, "vmaf_b_v0.6.3");
    const golden = goldenOutput(run, true);
    const model = await loadBuiltInModel("vmaf_b_v0.6.3", { extractors: EXTRACTORS });
    const keys = new Set(modelScoreKeys([model]));
    const collector = featuresOnly(golden, keys);
    scoreModels([model], collector, { frameCount: golden.frames.length });
    expectParity({ collector, run, names: [...keys], frames: golden.frames.length, tolerance: ["identical"], label: "built-in vmaf_b_v0.6.3" });
  });

  test("parity covered a meaningful number of values", () => {
    // 9 single-score runs and one 25-key bootstrap run over 133 frames of 10 pairs, plus 4 pools each.
    expect(comparedValues).toBeGreaterThan(5000);
  });
});
