// tinybench: psnr_hvs at 1080p on the CPU, one frame pair per iteration.
import { Bench } from "tinybench";
import { FeatureCollector, Y4mReader, type Picture } from "@vq/core";
import { goldenPath } from "@vq/core/golden";
import { psnrHvsOptions } from "../src/definition.ts";
import { PsnrHvsCpu } from "../src/psnr-hvs-cpu.ts";

async function firstFrame(path: string): Promise<Picture> {
  const r = await Y4mReader.open(goldenPath(path));
  const p = (await r.read())!;
  await r.close();
  return p;
}

const ref = await firstFrame("vectors/nat_1920x1080.ref.y4m");
const dist = await firstFrame("vectors/nat_1920x1080.x264crf35.y4m");
const bench = new Bench({ time: Number(process.env.BENCH_TIME_MS ?? 4000), warmup: true });

const cpu = new PsnrHvsCpu(psnrHvsOptions.defaults);
cpu.init(ref.format);
let index = 0;
let collector = new FeatureCollector();
bench.add("psnr_hvs cpu 1080p (1 frame)", () => {
  if (index > 10000) {
    index = 0;
    collector = new FeatureCollector();
  }
  cpu.extract({ ref, dist }, index++, collector);
});

await bench.run();
console.table(
  bench.tasks.map((t) => {
    const r = t.result as { latency?: { mean: number }; period?: number } | undefined;
    const ms = r?.latency?.mean ?? r?.period ?? NaN;
    return { task: t.name, "ms/iteration": ms.toFixed(1), fps: (1000 / ms).toFixed(2) };
  }),
);
process.exit(0);
