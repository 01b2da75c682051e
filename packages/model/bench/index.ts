import { Bench } from "tinybench";
import { FeatureCollector } from "@vq/core";
import { goldenOutput, goldenPairs, goldenRun } from "@vq/core/golden";
import { bootstrapScores, loadBuiltInModel, predictScore, predictSvm, readFeatures, scoreModels, type LoadedModel } from "../src/index.ts";
// libvmaf's extractor list as @vq/score assembles it (@vq/model itself knows no metric package)
import { EXTRACTORS as extractors } from "../../score/src/catalogue.ts";

/** A golden run's per-frame features, as a scoring pipeline would have collected them. */
function collected(run: string): { collector: FeatureCollector; frames: number } {
  const golden = goldenOutput(goldenRun(goldenPairs()[0]!, run), true);
  const collector = new FeatureCollector();
  for (const f of golden.frames) {
    for (const [k, v] of Object.entries(f.metrics)) if (k !== "vmaf" && !k.startsWith("vmaf_")) collector.append(k, f.frameNum, v ?? Infinity);
  }
  return { collector, frames: golden.frames.length };
}

const v061 = await loadBuiltInModel("vmaf_v0.6.1", { extractors });
const b063 = await loadBuiltInModel("vmaf_b_v0.6.3", { extractors });
const v1 = await loadBuiltInModel("vmaf_v1.0.16_3d0h", { extractors });
const legacy = collected("all");
const bootstrap = collected("vmaf_b_v0.6.3");
const modern = collected("vmaf_v1_3d0h");

const normalised = new Float64Array(v061.model.features.length).fill(0.5);
const inputs = readFeatures(v061.model, legacy.collector, 7);
const v1Inputs = readFeatures(v1.model, modern.collector, 7);

function wholeRun(model: LoadedModel, data: { collector: FeatureCollector; frames: number }): () => void {
  return () => {
    const c = new FeatureCollector();
    for (const name of data.collector.names()) for (const [i, v] of data.collector.scores(name)!) c.append(name, i, v);
    scoreModels([model], c, { frameCount: data.frames });
  };
}

const bench = new Bench({ name: "@vq/model (CPU)", time: 1500, warmupTime: 300 });
bench
  .add(`predictSvm vmaf_v0.6.1 (${v061.model.svm.coefficients.length} SVs, 6 features), one frame`, () => predictSvm(v061.model.svm, normalised))
  .add("predictScore vmaf_v0.6.1, one frame", () => predictScore(v061.model, inputs))
  .add(`predictScore vmaf_v1.0.16_3d0h (${v1.model.svm.coefficients.length} SVs, chroma correction), one frame`, () => predictScore(v1.model, v1Inputs))
  .add(`bootstrapScores vmaf_b_v0.6.3 (${b063.bootstrap!.models.length} models), one frame`, () => bootstrapScores(b063.bootstrap!, bootstrap.collector, 7))
  .add(`scoreModels vmaf_v0.6.1, ${legacy.frames} frames (incl. collector copy)`, wholeRun(v061, legacy));
await bench.run();
console.log(bench.name);
console.table(bench.table());

const frameCounts = [1, 1, 1, 1, legacy.frames];
bench.tasks.forEach((task, i) => {
  const result = task.result;
  const ms = result && "latency" in result ? result.latency.mean : undefined;
  if (ms) console.log(`${task.name}: ${((ms * 1000) / frameCounts[i]!).toFixed(2)} µs/frame`);
});
