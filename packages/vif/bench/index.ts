import { Bench } from "tinybench";
import { FeatureCollector, Y4mReader, type Picture } from "@vq/core";
import { goldenPairs, goldenPath } from "@vq/core/golden";
import { createFloatVifCpu, createVifCpu } from "../src/index.ts";

/** The first frame of a golden pair's reference and distorted videos. */
async function firstFrames(pairName: string): Promise<{ ref: Picture; dist: Picture }> {
  const pair = goldenPairs().find((p) => p.pair === pairName);
  if (!pair) throw new Error(`no golden pair ${pairName}`);
  const open = async (path: string) => {
    const reader = await Y4mReader.open(goldenPath(path));
    const picture = await reader.read();
    await reader.close();
    if (!picture) throw new Error(`${path} has no frames`);
    return picture;
  };
  return { ref: await open(pair.reference), dist: await open(pair.distorted) };
}

/** One extract call per iteration on an extractor initialised once (init allocates; extract does not). */
function extractTask(frame: { ref: Picture; dist: Picture }, extractor: "vif" | "float_vif"): () => void {
  const vif = extractor === "vif" ? createVifCpu() : createFloatVifCpu();
  vif.init(frame.ref.format);
  let index = 0;
  let collector = new FeatureCollector();
  return () => {
    if (index === 64) {
      collector = new FeatureCollector(); // keep the collector small; frame indices must be unique
      index = 0;
    }
    vif.extract(frame, index++, collector);
  };
}

const hd = await firstFrames("nat_1920x1080.x264crf35");
const deep = await firstFrames("grad_960x540_10b.q8bit");

const bench = new Bench({ name: "@vq/vif (CPU)", time: 5000, warmupTime: 1500 });
bench
  .add("VifCpu 1920x1080 8-bit, one frame pair", extractTask(hd, "vif"))
  .add("VifCpu 960x540 10-bit, one frame pair", extractTask(deep, "vif"))
  .add("FloatVifCpu 1920x1080 8-bit, one frame pair", extractTask(hd, "float_vif"));
await bench.run();
console.log(bench.name);
console.table(bench.table());
for (const task of bench.tasks) {
  const result = task.result;
  const ms = result && "latency" in result ? result.latency.mean : undefined;
  if (ms) console.log(`${task.name}: ${(1000 / ms).toFixed(2)} frames/s (${ms.toFixed(1)} ms/frame)`);
}
