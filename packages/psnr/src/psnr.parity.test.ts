import { afterAll, describe, expect, test } from "bun:test";
import { CpuBackend, scoreVideos, Y4mReader, type ExtractionBackend } from "@vq/core";
import { compareWithGolden, goldenOutput, goldenPairs, goldenPath, goldenRun } from "@vq/core/golden";
import { GpuBackend } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { psnrOptions } from "./definition.ts";
import { PsnrCpu } from "./psnr-cpu.ts";
import { PsnrGpu } from "./psnr-gpu.ts";

/**
 * PSNR against libvmaf 3.2 on every golden pair: run `all` (psnr) and run `debug`
 * (psnr=enable_mse=true), on the CPU and on the GPU. libvmaf's full-precision output
 * must be matched exactly, apart from where JavaScript's log10 rounds differently from
 * glibc's: there 1e-12 relative is allowed, and the count of such values is reported.
 */
const gpu = await gpuForTests();
const RUNS: { run: string; options: Record<string, string> }[] = [
  { run: "all", options: {} },
  { run: "debug", options: { enable_mse: "true" } },
];
const isPsnrKey = (k: string) => /^(psnr|mse)_(y|cb|cr)(\.|$)/.test(k);

async function score(pair: ReturnType<typeof goldenPairs>[number], backend: ExtractionBackend) {
  const ref = await Y4mReader.open(goldenPath(pair.reference));
  const dist = await Y4mReader.open(goldenPath(pair.distorted));
  try {
    return await scoreVideos(ref, dist, backend);
  } finally {
    await ref.close();
    await dist.close();
  }
}

const summary: string[] = [];

for (const backendName of ["cpu", "gpu"] as const) {
  describe.skipIf(backendName === "gpu" && !gpu)(`psnr parity (${backendName})`, () => {
    for (const pair of goldenPairs()) {
      for (const { run, options } of RUNS) {
        test(`${pair.pair} ${run}`, async () => {
          const opts = psnrOptions.parseStrings(options);
          const backend = backendName === "cpu" ? new CpuBackend([new PsnrCpu(opts)]) : new GpuBackend(gpu!, [new PsnrGpu(opts)]);
          const result = await score(pair, backend);
          const golden = goldenRun(pair, run);
          expect(result.frames).toBe(pair.frame_count);
          const report = compareWithGolden(result.collector, goldenOutput(golden, true), isPsnrKey, result.frames);
          expect(report.missing).toEqual([]);
          expect(report.keys.length).toBeGreaterThanOrEqual(run === "debug" ? 6 : 3);
          for (const k of report.keys) {
            if (k.differing) summary.push(`${backendName} ${pair.pair} ${run} ${k.key}: ${k.differing}/${k.compared} differ, max rel ${k.maxRel.toExponential(2)}`);
            expect(k.maxRel).toBeLessThanOrEqual(1e-12);
            // mse is a plain division: it must be the identical double.
            if (k.key.startsWith("mse_")) expect(k.differing).toBe(0);
          }
          // and within 5e-5 of the stock 6-decimal output
          const stock = compareWithGolden(result.collector, goldenOutput(golden, false), isPsnrKey, result.frames);
          for (const k of stock.keys) expect(k.maxAbs).toBeLessThanOrEqual(5e-5);
        });
      }
    }
  });
}

afterAll(() => {
  console.log(summary.length ? summary.join("\n") : "psnr: every value identical to libvmaf's out_full on every golden pair tested");
});
