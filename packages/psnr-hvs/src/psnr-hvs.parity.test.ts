import { afterAll, describe, expect, test } from "bun:test";
import { CpuBackend, scoreVideos, Y4mReader, type ExtractionBackend } from "@vq/core";
import { compareWithGolden, goldenOutput, goldenPairs, goldenPath, goldenRun, type GoldenPair } from "@vq/core/golden";
import { GpuBackend } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { psnrHvsOptions } from "./definition.ts";
import { PsnrHvsCpu } from "./psnr-hvs-cpu.ts";
import { PsnrHvsGpu } from "./psnr-hvs-gpu.ts";

/**
 * psnr_hvs against libvmaf 3.2 on every golden pair (run `all`, the only run with
 * psnr_hvs): psnr_hvs_y/cb/cr and psnr_hvs, per frame and pooled. libvmaf writes an
 * infinite score (identical planes) as null; here it must be +Infinity. The contract
 * for this float feature is 5e-5 of the printed output; vq repeats libvmaf's float
 * steps, so the full-precision output is matched too, up to 1e-12 relative where a
 * JavaScript engine's log10 rounds differently from glibc's. The GPU twin reproduces
 * the same float sums bit for bit, so it is held to the same bounds.
 */
const gpu = await gpuForTests();
const isPsnrHvsKey = (k: string) => /^psnr_hvs(_y|_cb|_cr)?(\.|$)/.test(k);
/** Per backend and key (per-frame values and pooled values together), over every pair. */
const summary = new Map<string, { compared: number; differing: number; maxAbs: number; stockMaxAbs: number }>();

async function score(pair: GoldenPair, backend: ExtractionBackend) {
  const ref = await Y4mReader.open(goldenPath(pair.reference));
  const dist = await Y4mReader.open(goldenPath(pair.distorted));
  try {
    return await scoreVideos(ref, dist, backend);
  } finally {
    await ref.close();
    await dist.close();
  }
}

for (const backendName of ["cpu", "gpu"] as const) {
  describe.skipIf(backendName === "gpu" && !gpu)(`psnr_hvs parity (${backendName})`, () => {
    for (const pair of goldenPairs()) {
      test(
        pair.pair,
        async () => {
          const backend = backendName === "cpu" ? new CpuBackend([new PsnrHvsCpu(psnrHvsOptions.defaults)]) : new GpuBackend(gpu!, [new PsnrHvsGpu(psnrHvsOptions.defaults)]);
          const result = await score(pair, backend);
          expect(result.frames).toBe(pair.frame_count);
          const run = goldenRun(pair, "all");
          const full = compareWithGolden(result.collector, goldenOutput(run, true), isPsnrHvsKey, result.frames);
          expect(full.missing).toEqual([]);
          expect(full.keys.length).toBe(20); // 4 keys × (per frame + 4 pooled)
          const entry = (k: string) => {
            const key = `${backendName} ${k.replace(/\..*/, "")}`;
            const s = summary.get(key) ?? { compared: 0, differing: 0, maxAbs: 0, stockMaxAbs: 0 };
            summary.set(key, s);
            return s;
          };
          for (const k of full.keys) {
            const s = entry(k.key);
            s.compared += k.compared;
            s.differing += k.differing;
            s.maxAbs = Math.max(s.maxAbs, k.maxAbs);
            expect(k.maxRel).toBeLessThanOrEqual(1e-12);
          }
          const stock = compareWithGolden(result.collector, goldenOutput(run, false), isPsnrHvsKey, result.frames);
          for (const k of stock.keys) {
            const s = entry(k.key);
            s.stockMaxAbs = Math.max(s.stockMaxAbs, k.maxAbs);
            expect(k.maxAbs).toBeLessThanOrEqual(5e-5);
          }
        },
        backendName === "gpu" ? 300_000 : 60_000,
      );
    }
  });
}

afterAll(() => {
  for (const [key, s] of summary) console.log(`${key}: ${s.differing}/${s.compared} values differ from out_full (max |Δ| ${s.maxAbs.toExponential(2)}); max |Δ| to out/ ${s.stockMaxAbs.toExponential(2)}`);
});
