/**
 * Microbenchmark: integer adm (and float_adm) on one 1080p frame pair of the golden set
 * (nat_1920x1080, first frame of the reference and of the x264 crf 35 version).
 * `bun run bench/index.ts` (or the package's `bench` script).
 */
import { FeatureCollector, Y4mReader, type Picture } from "@vq/core";
import { goldenPath } from "@vq/core/golden";
import { Bench } from "tinybench";
import { AdmCpu, admOptions, FloatAdmCpu, floatAdmOptions } from "../src/index.ts";

async function firstFrame(path: string): Promise<Picture> {
  const reader = await Y4mReader.open(goldenPath(path));
  const picture = await reader.read();
  if (!picture) throw new Error(`${path} has no frames`);
  return picture;
}

const ref = await firstFrame("vectors/nat_1920x1080.ref.y4m");
const dist = await firstFrame("vectors/nat_1920x1080.x264crf35.y4m");

const defaults = new AdmCpu(admOptions.resolve({}));
defaults.init(ref.format);
const v1 = new AdmCpu(admOptions.resolve({ adm_csf_mode: 2, adm_dlm_weight: 0.7, adm_enhn_gain_limit: 1, adm_noise_weight: 0.02, adm_min_val: 0.5 }));
v1.init(ref.format);
const floatAdm = new FloatAdmCpu(floatAdmOptions.resolve({}));
floatAdm.init(ref.format);
let index = 0;

const bench = new Bench({ name: "adm 1920x1080 8-bit, one frame pair", time: 5000, warmup: true });
bench.add("integer adm (default options)", () => {
  defaults.extract({ ref, dist }, index++, new FeatureCollector());
});
bench.add("integer adm (VMAF v1 3d0h options)", () => {
  v1.extract({ ref, dist }, index++, new FeatureCollector());
});
bench.add("float_adm (default options)", () => {
  floatAdm.extract({ ref, dist }, index++, new FeatureCollector());
});
await bench.run();

console.log(bench.name);
console.table(bench.table());
for (const task of bench.tasks) {
  const r = task.result;
  if (r.state !== "completed") continue;
  console.log(`${task.name}: ${r.latency.p50.toFixed(1)} ms median, ${(1000 / r.latency.p50).toFixed(2)} fps (min ${r.latency.min.toFixed(1)} ms)`);
}
