import { describe, expect, test } from "bun:test";
import type { PictureFormat } from "@vq/core";
import { adjustWindowSize, planCambi, scaleSizes } from "./cambi-plan.ts";
import { cambiOptions, type CambiOptions } from "../definition.ts";

const format = (width: number, height: number, bitDepth = 8): PictureFormat => ({ width, height, bitDepth, pixelFormat: "420" });
const plan = (opts: Partial<CambiOptions>, f: PictureFormat) => planCambi(cambiOptions.resolve(opts), f);

describe("cambi's plan (libvmaf's init)", () => {
  test("the window scales with width + height (65 at 4K) and stays odd; the speed-up halves it", () => {
    expect(adjustWindowSize(65, 3840, 2160, false)).toBe(65);
    expect(adjustWindowSize(65, 1920, 1080, false)).toBe(33);
    expect(adjustWindowSize(65, 1920, 1080, true)).toBe(17);
    for (let w = 200; w < 4000; w += 37) expect(adjustWindowSize(65, w, 300, false) % 2).toBe(1);
  });

  test("the high-resolution speed-up applies from its resolution on, else not at all", () => {
    expect(plan({ cambi_high_res_speedup: 1080 }, format(1920, 1080)).highResSpeedup).toBe(true);
    expect(plan({ cambi_high_res_speedup: 1080 }, format(1918, 1080)).highResSpeedup).toBe(false);
    expect(plan({ cambi_high_res_speedup: 1440 }, format(1920, 1080)).highResSpeedup).toBe(false);
    expect(plan({ cambi_high_res_speedup: 720 }, format(3840, 2160)).highResSpeedup).toBe(false);
    expect(scaleSizes(1920, 1080, true)[0]).toEqual({ width: 960, height: 540 });
    expect(scaleSizes(321, 241, false).map((s) => `${s.width}x${s.height}`)).toEqual(["321x241", "161x121", "81x61", "41x31", "21x16"]);
  });

  test("topk and eotf win over their cambi_ twins unless left at the default", () => {
    expect(plan({ topk: 0.2, cambi_topk: 0.3 }, format(640, 480)).topk).toBe(0.2);
    expect(plan({ cambi_topk: 0.3 }, format(640, 480)).topk).toBe(0.3);
    const pq = plan({ eotf: "pq" }, format(640, 480)).tviForDiff;
    expect(plan({ cambi_eotf: "pq" }, format(640, 480)).tviForDiff).toEqual(pq);
    expect(plan({ eotf: "bt1886", cambi_eotf: "pq" }, format(640, 480)).tviForDiff).toEqual(pq);
    expect(plan({}, format(640, 480)).tviForDiff).not.toEqual(pq);
  });

  test("an encode larger than the input is scored at the input size; the source size is used as given", () => {
    const p = plan({ enc_width: 3840, enc_height: 2160, src_width: 3840, src_height: 2160, full_ref: true }, format(1920, 1080));
    expect([p.enc.width, p.enc.height]).toEqual([1920, 1080]);
    expect([p.src.width, p.src.height]).toEqual([3840, 2160]);
    expect([p.allocWidth, p.allocHeight]).toEqual([3840, 2160]);
  });

  test("visibility thresholds rise with the step, and the band covers the codes they allow", () => {
    for (const opts of [{}, { max_log_contrast: 5 }, { tvi_threshold: 0.001 }, { cambi_vis_lum_threshold: 2 }, { eotf: "pq" }] as Partial<CambiOptions>[]) {
      const p = plan(opts, format(640, 480));
      for (let d = 1; d < p.numDiffs; d++) expect(p.tviForDiff[d]!).toBeGreaterThanOrEqual(p.tviForDiff[d - 1]!);
      expect(p.bandBase + p.bandSize).toBe(Math.max(p.bandBase, p.tviForDiff[p.numDiffs - 1]! + 1));
    }
  });
});
