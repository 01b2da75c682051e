import { afterAll, describe, expect, test } from "bun:test";
import { CpuBackend, scoreVideos, Y4mReader, type ExtractionBackend } from "@vq/core";
import { compareWithGolden, goldenOutput, goldenPairs, goldenPath, goldenRun, type GoldenPair, type KeyParity } from "@vq/core/golden";
import { GpuBackend } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { floatMsSsimDefinition, floatMsSsimOptions } from "./float-ms-ssim-definition.ts";
import { FloatMsSsimCpu } from "./float-ms-ssim-cpu.ts";
import { FloatMsSsimGpu } from "./float-ms-ssim-gpu.ts";
import { floatSsimDefinition, floatSsimOptions } from "./float-ssim-definition.ts";
import { FloatSsimCpu } from "./float-ssim-cpu.ts";
import { FloatSsimGpu } from "./float-ssim-gpu.ts";

/**
 * float_ssim and float_ms_ssim against libvmaf 3.2 on every golden pair. Run `all` has
 * float_ssim and float_ms_ssim with default options, run `debug` float_ms_ssim with
 * enable_lcs (adding float_ms_ssim_{l,c,s}_scale0..4); enable_lcs is no feature parameter
 * and changes no other value, so one pass with it is checked against both runs.
 *
 * The contract: within 5e-5 of the stock (6-decimal) output on every frame and pooled
 * value, on both backends. The CPU emulates libvmaf's float arithmetic, so it is also held
 * to libvmaf's full-precision doubles (1e-12 relative, room for a libm pow differing in the
 * last bit). The GPU computes l and c per window in f32 where libvmaf uses double; its
 * distance from out_full is reported (and bounded at 1e-6, well inside the contract).
 */
const gpu = await gpuForTests();
const TOLERANCE = 5e-5;
const isSsimKey = (k: string) => /^float_(ms_)?ssim(_|\.|$)/.test(k);

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

const ssimOptions = floatSsimOptions.defaults;
const msSsimOptions = floatMsSsimOptions.parseStrings({ enable_lcs: "true" });
const RUNS = [
  { run: "all", keys: [...floatSsimDefinition.providedFeatures(ssimOptions), ...floatMsSsimDefinition.providedFeatures(floatMsSsimOptions.defaults)] },
  { run: "debug", keys: floatMsSsimDefinition.providedFeatures(msSsimOptions) },
];

/** Per backend and key (frames and pooled values together, every pair): values compared, how many differ from out_full, worst |Δ| against out_full and out/. */
const worst = new Map<string, { compared: number; differing: number; maxAbs: number; maxPrinted: number }>();
function record(backend: string, full: KeyParity[], printed: KeyParity[]) {
  const entry = (k: KeyParity) => {
    const name = `${backend} ${k.key.replace(/\.(min|max|mean|harmonic_mean)$/, "")}`;
    const w = worst.get(name) ?? { compared: 0, differing: 0, maxAbs: 0, maxPrinted: 0 };
    worst.set(name, w);
    return w;
  };
  for (const k of full) {
    const w = entry(k);
    w.compared += k.compared;
    w.differing += k.differing;
    w.maxAbs = Math.max(w.maxAbs, k.maxAbs);
  }
  for (const k of printed) entry(k).maxPrinted = Math.max(entry(k).maxPrinted, k.maxAbs);
}

const backends: { name: string; make: () => ExtractionBackend; exact: boolean }[] = [
  { name: "cpu", make: () => new CpuBackend([new FloatSsimCpu(ssimOptions), new FloatMsSsimCpu(msSsimOptions)]), exact: true },
  { name: "gpu", make: () => new GpuBackend(gpu!, [new FloatSsimGpu(ssimOptions), new FloatMsSsimGpu(msSsimOptions)]), exact: false },
];

for (const backend of backends) {
  describe.skipIf(backend.name === "gpu" && !gpu)(`float_ssim / float_ms_ssim parity (${backend.name})`, () => {
    for (const pair of goldenPairs()) {
      test(
        pair.pair,
        async () => {
          const result = await score(pair, backend.make());
          expect(result.frames).toBe(pair.frame_count);
          for (const { run, keys } of RUNS) {
            const golden = goldenRun(pair, run);
            const stock = goldenOutput(golden, false);
            // the names we write are exactly libvmaf's ssim keys for this run
            expect(keys, `${run}: keys`).toEqual(Object.keys(stock.frames[0]!.metrics).filter(isSsimKey));
            const select = (k: string) => keys.includes(k);
            const printed = compareWithGolden(result.collector, stock, select, result.frames);
            expect(printed.missing, `${run}: missing`).toEqual([]);
            expect(printed.keys.length, `${run}: keys compared`).toBe(keys.length * 5);
            for (const k of printed.keys) expect(k.maxAbs, `${run} ${k.key} vs out/`).toBeLessThanOrEqual(TOLERANCE);
            const full = compareWithGolden(result.collector, goldenOutput(golden, true), select, result.frames);
            record(backend.name, full.keys, printed.keys);
            for (const k of full.keys) {
              if (backend.exact) expect(k.maxRel, `${run} ${k.key} vs out_full`).toBeLessThanOrEqual(1e-12);
              else expect(k.maxAbs, `${run} ${k.key} vs out_full`).toBeLessThanOrEqual(1e-6);
            }
          }
        },
        300_000,
      );
    }
  });
}

afterAll(() => {
  const lines = [...worst].map(([k, w]) => `${k}: ${w.differing}/${w.compared} differ from out_full, max |Δ| ${w.maxAbs.toExponential(2)}; max |Δ| vs out/ ${w.maxPrinted.toExponential(2)}`);
  console.log(lines.join("\n"));
});
