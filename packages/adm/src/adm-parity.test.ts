import { describe, test } from "bun:test";
import { goldenPairs } from "@vq/core/golden";
import { ADM_GOLDEN_RUNS, checkGoldenPair } from "./golden-runs.ts";

/**
 * Parity with libvmaf (golden out_full, printed with %.17g): every integer_adm* /
 * integer_aim* value of every frame and every pooled statistic must be the identical
 * double, for every golden pair, in the debug and all runs and the four VMAF v1 model
 * runs (adm with the options of each model's feature_opts_dicts).
 */

const TIMEOUT = 300_000;

describe("integer adm is bit-exact to libvmaf on every golden pair", () => {
  for (const pair of goldenPairs()) {
    test(`${pair.pair} (${pair.width}x${pair.height} ${pair.pixel_format} ${pair.bit_depth}-bit): ${ADM_GOLDEN_RUNS.join(", ")}`, () => checkGoldenPair(pair).then(() => {}), TIMEOUT);
  }
});
