import { Bench } from "tinybench";
import { FeatureCollector, type FeatureExtractor, type PicturePair, type Picture } from "@vq/core";
import { goldenPairs } from "@vq/core/golden";
import { firstFrames } from "../../../tools/bench-tasks.ts";
import { createFloatMotionCpu, createFloatMotionWasm, createMotionCpu, floatMotionKernelsModule, motionKernelsModule, motionOptions, MotionWasm } from "../src/index.ts";
import { blurColumns, motionSad } from "../src/motion-sad.ts";

/** The reference frames of a golden pair, kept (not released) so the bench reads no file. */
async function referenceFrames(pairName: string): Promise<Picture[]> {
  const pair = goldenPairs().find((p) => p.pair === pairName);
  if (!pair) throw new Error(`no golden pair ${pairName}`);
  return firstFrames(pair.reference, pair.frame_count);
}

const hd = await referenceFrames("nat_1920x1080.x264crf35");
const deep = await referenceFrames("grad_960x540_10b.q8bit");

/** One frame's work once the previous frame's columns are known: blur the new frame's columns, then the SAD. */
function frameTask(frames: Picture[]): () => void {
  const [a, b] = [frames[0]!.planes[0]!, frames[1]!.planes[0]!];
  const bitDepth = frames[0]!.bitDepth;
  const prev = new Int32Array(a.width * a.height);
  const cur = new Int32Array(a.width * a.height);
  const prevNarrow = blurColumns(a.data, a.stride, a.width, a.height, bitDepth, prev);
  return () => {
    const narrow = blurColumns(b.data, b.stride, b.width, b.height, bitDepth, cur);
    motionSad(prev, cur, a.width, a.height, bitDepth, prevNarrow && narrow);
  };
}

/** A whole extractor over the clip: init, every frame, flush. */
function extractorTask(frames: Picture[], create: () => FeatureExtractor<PicturePair>): () => void {
  return () => {
    const motion = create();
    const collector = new FeatureCollector();
    motion.init(frames[0]!.format);
    frames.forEach((p, i) => motion.extract({ ref: p, dist: p }, i, collector));
    motion.flush(collector);
  };
}

const module = motionKernelsModule();
const floatModule = floatMotionKernelsModule();
if (!module || !floatModule) throw new Error("no WebAssembly SIMD here (or VQ_CPU_KERNELS=ts)");
const wasm = () => new MotionWasm(motionOptions.resolve(), module);

const bench = new Bench({ name: "@vq/motion (CPU)", time: 2000, warmupTime: 500 });
bench
  .add("blurColumns + motionSad 1920x1080 8-bit, one frame", frameTask(hd))
  .add(`MotionCpu 1920x1080 8-bit, ${hd.length} frames + flush`, extractorTask(hd, () => createMotionCpu()))
  .add(`MotionWasm (WebAssembly SIMD) 1920x1080 8-bit, ${hd.length} frames + flush`, extractorTask(hd, wasm))
  .add("blurColumns + motionSad 960x540 10-bit, one frame", frameTask(deep))
  .add(`MotionCpu 960x540 10-bit, ${deep.length} frames + flush`, extractorTask(deep, () => createMotionCpu()))
  .add(`MotionWasm (WebAssembly SIMD) 960x540 10-bit, ${deep.length} frames + flush`, extractorTask(deep, wasm))
  .add(`FloatMotionCpu 1920x1080 8-bit, ${hd.length} frames + flush`, extractorTask(hd, () => createFloatMotionCpu()))
  .add(`FloatMotionWasm (WebAssembly SIMD) 1920x1080 8-bit, ${hd.length} frames + flush`, extractorTask(hd, () => createFloatMotionWasm(floatModule)));
await bench.run();
console.log(bench.name);
console.table(bench.table());

// The machine may be shared: the median and the best run say more than the mean.
const frameCounts = [1, hd.length, hd.length, 1, deep.length, deep.length, hd.length, hd.length];
bench.tasks.forEach((task, i) => {
  const r = task.result;
  if (r?.state !== "completed") return;
  const perFrame = (ms: number) => ms / frameCounts[i]!;
  const fps = (ms: number) => (1000 / perFrame(ms)).toFixed(1);
  console.log(`${task.name}: median ${fps(r.latency.p50)} frames/s (${perFrame(r.latency.p50).toFixed(2)} ms/frame), best ${fps(r.latency.min)} frames/s`);
});
