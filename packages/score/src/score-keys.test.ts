import { describe, expect, test } from "bun:test";
import { goldenDir, goldenOutput, goldenPairs } from "@vq/core/golden";
import { plannedScoreKeys } from "./score-keys.ts";

/** libvmaf's `vmaf` arguments of a golden run as a score() request (paths from the golden folder). */
function requestOf(args: readonly string[]) {
  const features: string[] = [];
  const models: string[] = [];
  let noPrediction = false;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--feature") features.push(args[++i]!);
    else if (args[i] === "--model") models.push(args[++i]!.replace(/path=/, `path=${goldenDir()}/`));
    else if (args[i] === "-n") noPrediction = true;
  }
  return { features, models, noPrediction };
}

describe("plannedScoreKeys: the keys a run writes, known before it starts", () => {
  for (const pair of goldenPairs().filter((p) => p.pair === "nat_576x324.x264crf30" || p.pair === "odd_321x241_444.noise")) {
    for (const run of pair.runs) {
      test(`${pair.pair} ${run.run}: libvmaf's keys`, async () => {
        const planned = await plannedScoreKeys(requestOf(run.vmaf_args));
        expect(new Set(planned)).toEqual(new Set(Object.keys(goldenOutput(run, false).pooled_metrics)));
      });
    }
  }

  test("a 4:0:0 input's psnr has no chroma keys when the format is given", async () => {
    const request = { features: ["psnr"], noPrediction: true };
    expect(await plannedScoreKeys(request)).toEqual(["psnr_y", "psnr_cb", "psnr_cr"]);
    expect(await plannedScoreKeys(request, { width: 8, height: 8, bitDepth: 8, pixelFormat: "400" })).toEqual(["psnr_y"]);
  });
});
