import { expect, test } from "bun:test";
import { CpuBackend, scoreVideos, Y4mReader, type FeatureExtractor } from "@vq/core";
import { goldenOutput, goldenPairs, goldenPath, goldenRun } from "@vq/core/golden";
import { floatMsSsimOptions } from "./float-ms-ssim-definition.ts";
import { FloatMsSsimCpu } from "./cpu/float-ms-ssim-cpu.ts";
import { floatSsimOptions } from "./float-ssim-definition.ts";
import { FloatSsimCpu } from "./cpu/float-ssim-cpu.ts";

/** Options the golden runs leave at their defaults, checked through what the golden data does fix. */
const pair = goldenPairs().find((p) => p.pair === "nat_1920x1080.x264crf35")!;

async function run(extractors: FeatureExtractor[]) {
  const ref = await Y4mReader.open(goldenPath(pair.reference));
  const dist = await Y4mReader.open(goldenPath(pair.distorted));
  try {
    return (await scoreVideos(ref, dist, new CpuBackend(extractors))).collector;
  } finally {
    await ref.close();
    await dist.close();
  }
}

test(
  "scale: the automatic factor at 1080p is 4 (explicit scale=4 reproduces libvmaf, 3 and 5 do not)",
  async () => {
    const golden = goldenOutput(goldenRun(pair, "all"), true);
    for (const scale of [3, 4, 5]) {
      const scores = await run([new FloatSsimCpu(floatSsimOptions.parseStrings({ scale: String(scale) }))]);
      const same = golden.frames.every((f) => scores.get("float_ssim", f.frameNum) === f.metrics.float_ssim);
      expect(same, `scale=${scale}`).toBe(scale === 4);
    }
  },
  60_000,
);

test(
  "enable_db writes −10·log10(1 − score) of the plain score; clip_db caps it",
  async () => {
    const plain = await run([new FloatSsimCpu(floatSsimOptions.defaults)]);
    const db = await run([new FloatSsimCpu(floatSsimOptions.parseStrings({ enable_db: "true" }))]);
    for (let i = 0; i < pair.frame_count; i++) expect(db.get("float_ssim", i)).toBe(-10 * Math.log10(1 - plain.get("float_ssim", i)!));
    const ms = await run([new FloatMsSsimCpu(floatMsSsimOptions.parseStrings({ enable_db: "true", clip_db: "true" }))]);
    const golden = goldenOutput(goldenRun(pair, "all"), true);
    // far below the cap here, so clipping leaves the dB value of libvmaf's score
    for (const f of golden.frames) expect(ms.get("float_ms_ssim", f.frameNum)).toBe(-10 * Math.log10(1 - f.metrics.float_ms_ssim!));
  },
  60_000,
);
