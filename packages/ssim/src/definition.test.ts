import { describe, expect, test } from "bun:test";
import { FeatureCollector, Picture, VqError, type PictureFormat } from "@vq/core";
import { floatMsSsimDefinition, floatMsSsimOptions, MS_SSIM_MIN_SIZE } from "./float-ms-ssim-definition.ts";
import { FloatMsSsimCpu } from "./cpu/float-ms-ssim-cpu.ts";
import { floatSsimDefinition, floatSsimOptions } from "./float-ssim-definition.ts";
import { FloatSsimCpu } from "./cpu/float-ssim-cpu.ts";

const format = (width: number, height: number, bitDepth = 8): PictureFormat => ({ width, height, bitDepth, pixelFormat: "420" });

describe("float_ssim / float_ms_ssim options and formats", () => {
  test("libvmaf's option strings parse; bad ones are VqErrors naming the option", () => {
    expect(floatSsimOptions.parseStrings({ scale: "3", enable_db: "true" })).toMatchObject({ scale: 3, enable_db: true });
    expect(() => floatSsimOptions.parseStrings({ scale: "11" })).toThrow(VqError);
    expect(() => floatSsimOptions.parseStrings({ scale: "2.5" })).toThrow(/scale/);
    expect(() => floatMsSsimOptions.parseStrings({ scale: "2" })).toThrow(/unknown option "scale"/);
    expect(() => floatMsSsimOptions.parseStrings({ enable_lcs: "yes" })).toThrow(/enable_lcs=yes/);
  });

  test("output names follow enable_lcs (no option is a feature parameter: no suffixes)", () => {
    expect(floatSsimDefinition.providedFeatures(floatSsimOptions.parseStrings({ enable_db: "true", scale: "2" }))).toEqual(["float_ssim"]);
    expect(floatSsimDefinition.providedFeatures(floatSsimOptions.parseStrings({ enable_lcs: "true" }))).toEqual(["float_ssim", "float_ssim_l", "float_ssim_c", "float_ssim_s"]);
    const lcs = floatMsSsimDefinition.providedFeatures(floatMsSsimOptions.parseStrings({ enable_lcs: "true" }));
    expect(lcs).toHaveLength(16);
    expect(lcs.slice(0, 3)).toEqual(["float_ms_ssim", "float_ms_ssim_l_scale0", "float_ms_ssim_l_scale1"]);
  });

  test("bit depths picture_copy cannot convert are refused", () => {
    expect(() => new FloatSsimCpu(floatSsimOptions.defaults).init(format(64, 64, 9))).toThrow(/float_ssim: 9-bit input is not supported/);
    expect(() => new FloatMsSsimCpu(floatMsSsimOptions.defaults).init(format(256, 256, 14))).toThrow(VqError);
    for (const depth of [8, 10, 12, 16]) expect(() => new FloatSsimCpu(floatSsimOptions.defaults).init(format(64, 64, depth))).not.toThrow();
  });

  test("pictures smaller than the SSIM window (after downscaling) are refused", () => {
    expect(() => new FloatSsimCpu(floatSsimOptions.defaults).init(format(11, 11))).not.toThrow();
    expect(() => new FloatSsimCpu(floatSsimOptions.defaults).init(format(10, 40))).toThrow(/smaller than the 11x11 SSIM window/);
    expect(() => new FloatSsimCpu(floatSsimOptions.parseStrings({ scale: "4" })).init(format(40, 40))).toThrow(/after downscaling by 4/);
  });

  test("MS-SSIM needs 176x176 (four halvings down to the window), as libvmaf's 'scale below 1x1'", () => {
    const ms = () => new FloatMsSsimCpu(floatMsSsimOptions.defaults);
    expect(() => ms().init(format(MS_SSIM_MIN_SIZE, MS_SSIM_MIN_SIZE))).not.toThrow();
    expect(() => ms().init(format(MS_SSIM_MIN_SIZE - 1, 400))).toThrow(/too small/);
    expect(() => ms().init(format(400, MS_SSIM_MIN_SIZE - 1))).toThrow(VqError);
  });

  test("identical pictures score exactly 1 at every scale (the flat-window fix), and ∞ dB unless clipped", () => {
    const f = format(200, 180, 10);
    const p = Picture.allocate(f);
    const y = p.planes[0]!;
    for (let i = 0; i < y.height; i++) for (let x = 0; x < y.width; x++) y.data[i * y.stride + x] = (x * 7 + i * 3) % 50 === 0 ? 900 : 64 + ((x * i) % 5);
    const run = (extractor: FloatSsimCpu | FloatMsSsimCpu) => {
      const c = new FeatureCollector();
      extractor.init(f);
      extractor.extract({ ref: p, dist: p }, 0, c);
      return c;
    };
    const lcs = run(new FloatMsSsimCpu(floatMsSsimOptions.parseStrings({ enable_lcs: "true" })));
    for (const name of floatMsSsimDefinition.providedFeatures(floatMsSsimOptions.parseStrings({ enable_lcs: "true" }))) expect(lcs.get(name, 0)).toBe(1);
    expect(run(new FloatSsimCpu(floatSsimOptions.parseStrings({ enable_lcs: "true" }))).get("float_ssim_s", 0)).toBe(1);
    expect(run(new FloatSsimCpu(floatSsimOptions.parseStrings({ enable_db: "true" }))).get("float_ssim", 0)).toBe(Infinity);
    const clipped = run(new FloatMsSsimCpu(floatMsSsimOptions.parseStrings({ enable_db: "true", clip_db: "true" }))).get("float_ms_ssim", 0)!;
    // the cap: ceil(10·log10(peak² · 2·w·h))
    expect(clipped).toBe(Math.ceil(10 * Math.log10(1023 * 1023 * 2 * f.width * f.height)));
  });
});

describe("anti-correlated pictures", () => {
  test("a negative picture makes MS-SSIM undefined: a VqError naming the scale, not a NaN", () => {
    const f = format(192, 180);
    const ref = Picture.allocate(f);
    const neg = Picture.allocate(f);
    const [a, b] = [ref.planes[0]!, neg.planes[0]!];
    for (let i = 0; i < a.data.length; i++) {
      a.data[i] = 128 + Math.round(100 * Math.sin(i / 7) * Math.cos(i / 1901));
      b.data[i] = 255 - a.data[i]!;
    }
    const ms = new FloatMsSsimCpu(floatMsSsimOptions.defaults);
    ms.init(f);
    expect(() => ms.extract({ ref, dist: neg }, 3, new FeatureCollector())).toThrow(/frame 3: MS-SSIM is undefined \(scale 0 has mean/);
    // float_ssim's product of means stays a number (negative), as libvmaf's
    const ssim = new FloatSsimCpu(floatSsimOptions.defaults);
    ssim.init(f);
    const c = new FeatureCollector();
    ssim.extract({ ref, dist: neg }, 0, c);
    expect(c.get("float_ssim", 0)!).toBeLessThan(0);
  });
});
