import { afterAll, describe, expect, test } from "bun:test";
import { goldenPairs } from "@vq/core/golden";
import { gpuForTests } from "@vq/gpu-core/testing";
import { ADM_GOLDEN_RUNS, checkGoldenPair } from "./golden-runs.ts";

/**
 * The GPU twin against libvmaf (golden out_full): every integer_adm* / integer_aim* value
 * of every frame and pooled statistic identical, every golden pair, the debug and all runs
 * and the four VMAF v1 model runs with their adm options.
 */

const TIMEOUT = 600_000;
const gpu = await gpuForTests();
let compared = 0;

describe.skipIf(!gpu)("integer adm on the GPU is bit-exact to libvmaf on every golden pair", () => {
  for (const pair of goldenPairs()) {
    test(`${pair.pair} (${pair.width}x${pair.height} ${pair.pixel_format} ${pair.bit_depth}-bit): ${ADM_GOLDEN_RUNS.join(", ")}`, async () => {
      const n = await checkGoldenPair(pair, gpu!);
      expect(n).toBeGreaterThan(0);
      compared += n;
    }, TIMEOUT);
  }
  afterAll(() => console.log(`adm GPU parity: ${compared} values compared with out_full, all identical`));
});
