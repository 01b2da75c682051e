import { describe, expect, test } from "bun:test";
import { compareWithGolden, goldenOutput, goldenPairs, goldenRun, type GoldenPair } from "@vq/core/golden";
import type { AdmOptions } from "./definition.ts";
import { isAdmKey, runOptions, scorePair } from "./golden-runs.ts";

/**
 * Parity with libvmaf (golden out_full, printed with %.17g): every integer_adm* /
 * integer_aim* value of every frame and every pooled statistic must be the identical
 * double, for every golden pair, in the debug and all runs and the four VMAF v1 model
 * runs (adm with the options of each model's feature_opts_dicts).
 */

const RUNS = ["debug", "all", "vmaf_v1_3d0h", "vmaf_v1_5d0h", "vmaf_v1_1d5h_2160", "vmaf_v1_hfr_3d0h"];
const TIMEOUT = 300_000;

async function checkPair(pair: GoldenPair): Promise<void> {
  // Runs with the same adm options share one scoring pass (debug only adds outputs).
  const passes = new Map<string, Promise<Awaited<ReturnType<typeof scorePair>>>>();
  for (const runName of RUNS) {
    const run = goldenRun(pair, runName);
    const options: Partial<AdmOptions> = { ...runOptions(run), debug: true };
    const key = JSON.stringify(Object.entries(options).sort());
    if (!passes.has(key)) passes.set(key, scorePair(pair, options));
    const { collector, frames } = (await passes.get(key))!;
    const golden = goldenOutput(run, true);
    const goldenKeys = Object.keys(golden.frames[0]!.metrics).filter(isAdmKey);
    expect(goldenKeys.length).toBe(runName === "debug" ? 18 : 7);
    expect(frames).toBe(pair.frame_count);
    const report = compareWithGolden(collector, golden, isAdmKey, frames);
    expect({ run: runName, missing: report.missing }).toEqual({ run: runName, missing: [] });
    // every per-frame key plus min/max/mean/harmonic_mean of each
    expect(report.keys.length).toBe(goldenKeys.length * 5);
    const compared = report.keys.reduce((n, k) => n + k.compared, 0);
    expect(compared).toBe(goldenKeys.length * (pair.frame_count + 4));
    expect({ run: runName, differing: report.keys.filter((k) => k.differing > 0) }).toEqual({ run: runName, differing: [] });
  }
}

describe("integer adm is bit-exact to libvmaf on every golden pair", () => {
  for (const pair of goldenPairs()) {
    test(`${pair.pair} (${pair.width}x${pair.height} ${pair.pixel_format} ${pair.bit_depth}-bit): ${RUNS.join(", ")}`, () => checkPair(pair), TIMEOUT);
  }
});
