import { afterAll, describe, expect, test } from "bun:test";
import { CpuBackend, scoreVideos, Y4mReader } from "@vq/core";
import { compareWithGolden, goldenOutput, goldenPairs, goldenPath, goldenRun } from "@vq/core/golden";
import { FloatAnsnrCpu } from "./float-ansnr-cpu.ts";
import { FloatMomentCpu } from "./float-moment-cpu.ts";
import { FloatPsnrCpu } from "./float-psnr-cpu.ts";

/**
 * float_psnr, float_ansnr and float_moment against libvmaf 3.2 (run `all`) on every
 * golden pair. The contract for float extractors is 5e-5 of the stock output; since
 * the single-precision steps are emulated, out_full is matched too: identical doubles,
 * apart from where JavaScript's log10 may round differently from glibc's (1e-12
 * relative, for the dB scores only). The moments involve no libm call: exact.
 */
const isFloatStatKey = (k: string) => /^float_(psnr|ansnr|anpsnr|moment_(ref|dis)(1st|2nd))(\.|$)/.test(k);
const isLogKey = (k: string) => /^float_(psnr|ansnr|anpsnr)(\.|$)/.test(k);

const summary: string[] = [];

describe("float_psnr, float_ansnr, float_moment parity (cpu)", () => {
  for (const pair of goldenPairs()) {
    test(
      pair.pair,
      async () => {
        const ref = await Y4mReader.open(goldenPath(pair.reference));
        const dist = await Y4mReader.open(goldenPath(pair.distorted));
        const result = await scoreVideos(ref, dist, new CpuBackend([new FloatPsnrCpu(), new FloatAnsnrCpu(), new FloatMomentCpu()])).finally(async () => {
          await ref.close();
          await dist.close();
        });
        expect(result.frames).toBe(pair.frame_count);
        const golden = goldenRun(pair, "all");
        const full = compareWithGolden(result.collector, goldenOutput(golden, true), isFloatStatKey, result.frames);
        expect(full.missing).toEqual([]);
        expect(full.keys.length).toBe(7 * 5); // 7 keys: per frame + 4 pooled methods
        for (const k of full.keys) {
          summary.push(`${pair.pair} ${k.key}: ${k.differing}/${k.compared} differ, max |Δ| ${k.maxAbs.toExponential(2)}, max rel ${k.maxRel.toExponential(2)}`);
          if (isLogKey(k.key)) expect(k.maxRel).toBeLessThanOrEqual(1e-12);
          else expect(k.differing).toBe(0);
        }
        const stock = compareWithGolden(result.collector, goldenOutput(golden, false), isFloatStatKey, result.frames);
        for (const k of stock.keys) expect(k.maxAbs).toBeLessThanOrEqual(5e-5);
      },
      120_000,
    );
  }
});

afterAll(() => console.log(summary.filter((s) => !s.includes(" 0/")).join("\n") || "float_psnr/ansnr/moment: every value identical to libvmaf's out_full"));
