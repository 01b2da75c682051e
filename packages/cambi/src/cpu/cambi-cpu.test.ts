import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, statSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FeatureCollector, isVqError, Picture, Y4mReader, type PictureFormat } from "@vq/core";
import { goldenOutput, goldenPairs, goldenPath, goldenRun } from "@vq/core/golden";
import { CambiCpu, createCambiCpu } from "./cambi-cpu.ts";
import { cambiDefinition, cambiOptions, type CambiOptions } from "../definition.ts";
import { toTenBit } from "../numerics/preprocess.ts";

async function readFrames(path: string, count = Infinity): Promise<Picture[]> {
  const r = await Y4mReader.open(goldenPath(path));
  const out: Picture[] = [];
  try {
    while (out.length < count) {
      const p = await r.read();
      if (!p) break;
      out.push(p);
    }
  } finally {
    await r.close();
  }
  return out;
}

function pair(name: string) {
  const p = goldenPairs().find((x) => x.pair === name);
  if (!p) throw new Error(`no golden pair ${name}`);
  return p;
}

/** The same luma (and chroma) samples at another bit depth: shifted left by `shift`, or only the luma plane for 4:0:0. */
function reDepth(p: Picture, bitDepth: number, shift: number, pixelFormat = p.pixelFormat): Picture {
  const out = Picture.allocate({ width: p.width, height: p.height, bitDepth, pixelFormat });
  out.planes.forEach((plane, i) => {
    const src = p.planes[i]!;
    for (let k = 0; k < plane.data.length; k++) plane.data[k] = src.data[k]! << shift;
  });
  return out;
}

/** Every other row and column, starting at 1 (what libvmaf's resampler picks at exactly half size). */
function oddSamples(p: Picture): Picture {
  const w = p.width >> 1;
  const h = p.height >> 1;
  const out = Picture.allocate({ width: w, height: h, bitDepth: p.bitDepth, pixelFormat: "400" });
  const src = p.planes[0]!;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out.planes[0]!.data[y * w + x] = src.data[(2 * y + 1) * src.stride + 2 * x + 1]!;
  return out;
}

function run(options: Partial<CambiOptions>, frames: { ref: Picture; dist: Picture }[]): FeatureCollector {
  const cpu = createCambiCpu(options);
  const collector = new FeatureCollector();
  cpu.init(frames[0]!.dist.format);
  frames.forEach((f, i) => cpu.extract(f, i, collector));
  cpu.close();
  return collector;
}

function vqErrorOf(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    expect(isVqError(e)).toBe(true);
    return e as Error;
  }
  throw new Error("expected a VqError");
}

describe("cambi on other bit depths and layouts scores what libvmaf scores on the golden ones", () => {
  test("10-bit content at 11, 12 and 16 bits (rounded back to 10) gives the 10-bit golden values", async () => {
    const p = pair("grad_960x540_10b.q8bit");
    const refs = await readFrames(p.reference, 3);
    const dists = await readFrames(p.distorted, 3);
    const golden = goldenOutput(goldenRun(p, "cambi_fullref"), true);
    for (const [bitDepth, shift] of [
      [11, 1],
      [12, 2],
      [16, 6],
    ] as const) {
      const frames = refs.map((ref, i) => ({ ref: reDepth(ref, bitDepth, shift), dist: reDepth(dists[i]!, bitDepth, shift) }));
      const c = run({ full_ref: true }, frames);
      for (let i = 0; i < frames.length; i++) {
        for (const key of ["cambi", "cambi_source", "cambi_full_reference"]) expect(c.get(key, i)).toBe(golden.frames[i]!.metrics[key]!);
      }
    }
  });

  test("8-bit content at 9 bits gives the 8-bit golden values; luma alone (4:0:0) too", async () => {
    const p = pair("nat_576x324.x264crf45");
    const dists = await readFrames(p.distorted, 3);
    const golden = goldenOutput(goldenRun(p, "all"), true);
    for (const [bitDepth, shift, layout] of [
      [9, 1, "420"],
      [8, 0, "400"],
    ] as const) {
      const frames = dists.map((d) => ({ ref: d, dist: reDepth(d, bitDepth, shift, layout) }));
      const c = run({}, frames);
      for (let i = 0; i < frames.length; i++) expect(c.get("cambi", i)).toBe(golden.frames[i]!.metrics.cambi!);
    }
  });
});

describe("cambi's resampling to the encoding and source sizes", () => {
  test("half the input size scores the odd rows and columns, for the encode and the source", async () => {
    const p = pair("nat_1920x1080.x264crf35");
    const [ref] = await readFrames(p.reference, 1);
    const [dist] = await readFrames(p.distorted, 1);
    const opts = { full_ref: true, enc_width: 960, enc_height: 540, src_width: 960, src_height: 540 };
    const resampled = run(opts, [{ ref: ref!, dist: dist! }]);
    const direct = run({ full_ref: true }, [{ ref: oddSamples(ref!), dist: oddSamples(dist!) }]);
    // libvmaf's name: options sorted by name, then their aliases
    expect(cambiDefinition.providedFeatures(cambiOptions.resolve(opts))).toEqual(["cambi_ench_540_encw_960_srch_540_srcw_960", "cambi_source", "cambi_full_reference"]);
    expect(resampled.get("cambi_ench_540_encw_960_srch_540_srcw_960", 0)).toBe(direct.get("cambi", 0)!);
    expect(resampled.get("cambi_source", 0)).toBe(direct.get("cambi_source", 0)!);
  });

  test("other sizes (down and up, uneven ratios) give finite scores", async () => {
    const p = pair("nat_576x324.x264crf45");
    const [ref] = await readFrames(p.reference, 1);
    const [dist] = await readFrames(p.distorted, 1);
    const c = run({ full_ref: true, enc_width: 500, enc_height: 300, src_width: 700, src_height: 400 }, [{ ref: ref!, dist: dist! }]);
    for (const key of ["cambi_ench_300_encw_500_srch_400_srcw_700", "cambi_source", "cambi_full_reference"]) {
      expect(Number.isFinite(c.get(key, 0))).toBe(true);
    }
  });

  test("10-bit input of the source's stride-32 width copied into a wider picture shifts rows, as libvmaf's memcpy does", () => {
    const plane = { width: 40, height: 3, stride: 40, offset: 0, data: new Uint16Array(120).map((_, k) => k + 1) };
    const out = new Uint16Array(120);
    // input rows padded to 64 samples, the working picture's (width 70) to 96
    toTenBit(plane, 10, 40, 3, 70, out);
    for (let y = 0; y < 3; y++) {
      for (let x = 0; x < 40; x++) {
        const k = y * 96 + x;
        const r = Math.floor(k / 64);
        const c = k % 64;
        expect(out[y * 40 + x]).toBe(r < 3 && c < 40 ? plane.data[r * 40 + c]! : 0);
      }
    }
  });
});

describe("cambi's options", () => {
  test("non-default options run and name the score as libvmaf does", async () => {
    const p = pair("odd_321x241_444.x264crf32");
    const frames = (await readFrames(p.distorted, 2)).map((d) => ({ ref: d, dist: d }));
    for (const [opts, key] of [
      [{ eotf: "pq" }, "cambi_eotf_pq"],
      [{ cambi_eotf: "pq" }, "cambi_ceot_pq"],
      [{ window_size: 15, max_log_contrast: 5 }, "cambi_mlc_5_ws_15"],
      [{ max_log_contrast: 0, tvi_threshold: 1 }, "cambi_mlc_0_tvit_1"],
      [{ tvi_threshold: 0.0001, cambi_topk: 0.0001 }, "cambi_ctpk_0.0001_tvit_0.0001"],
      [{ enc_bitdepth: 10 }, "cambi_encbd_10"],
      [{ cambi_vis_lum_threshold: 300 }, "cambi_vlt_300"],
    ] as [Partial<CambiOptions>, string][]) {
      const c = run(opts, frames);
      expect(cambiDefinition.providedFeatures(cambiOptions.resolve(opts))).toEqual([key]);
      for (let i = 0; i < frames.length; i++) {
        const v = c.get(key, i)!;
        expect(Number.isFinite(v) && v >= 0).toBe(true);
      }
    }
  });

  test("cambi_max_val clips every output", async () => {
    const p = pair("grad_960x540_10b.q8bit");
    const [ref] = await readFrames(p.reference, 1);
    const [dist] = await readFrames(p.distorted, 1);
    const c = run({ full_ref: true, cambi_max_val: 1 }, [{ ref: ref!, dist: dist! }]);
    expect(c.get("cambi_cmxv_1", 0)).toBe(1);
    expect(c.get("cambi_full_reference", 0)).toBe(1);
  });

  test("heatmaps: five 16-bit gray files, one frame after another, named by the encoding size per scale", async () => {
    const p = pair("odd_321x241_444.x264crf32");
    const frames = (await readFrames(p.distorted, 2)).map((d) => ({ ref: d, dist: d }));
    const dir = join(mkdtempSync(join(tmpdir(), "vq-cambi-")), "maps", "deeper");
    const c = run({ heatmaps_path: dir }, frames);
    expect(c.get("cambi", 1)).toBeDefined();
    const sizes = [
      [321, 241],
      [161, 121],
      [81, 61],
      [41, 31],
      [21, 16],
    ];
    expect(readdirSync(dir).sort()).toEqual(sizes.map(([w, h], s) => `cambi_heatmap_scale_${s}_${w}x${h}_16b.gray`).sort());
    sizes.forEach(([w, h], s) => expect(statSync(join(dir, `cambi_heatmap_scale_${s}_${w}x${h}_16b.gray`)).size).toBe(2 * w! * h! * 2));
    const scale0 = new Uint16Array(readFileSync(join(dir, "cambi_heatmap_scale_0_321x241_16b.gray")).buffer.slice(0));
    expect(scale0.some((v) => v > 0)).toBe(true);
  });
});

describe("cambi rejects what libvmaf cannot score, with a clear error", () => {
  const format = (width: number, height: number, bitDepth = 8): PictureFormat => ({ width, height, bitDepth, pixelFormat: "420" });
  const check = (opts: Partial<CambiOptions>, f: PictureFormat) => () => cambiDefinition.checkFormat!(cambiOptions.resolve(opts), f);

  test("pictures below 216 in both dimensions", () => {
    expect(vqErrorOf(check({}, format(215, 215))).message).toContain("at least 216");
    expect(vqErrorOf(() => createCambiCpu().init(format(200, 120))).message).toContain("at least 216");
    expect(() => check({}, format(216, 100))()).not.toThrow();
    // an encoding size below the minimum counts too
    expect(vqErrorOf(check({ enc_width: 200, enc_height: 200 }, format(640, 480))).message).toContain("at least 216");
  });

  test("a scale narrower than half the window", () => {
    const msg = vqErrorOf(check({}, format(4000, 60))).message;
    expect(msg).toContain("window");
    expect(msg).toMatch(/at least \d+ pixels/);
  });

  test("a window too large for libvmaf's reciprocal table", () => {
    expect(vqErrorOf(check({ window_size: 127 }, format(3840, 2160))).message).toContain("window_size=127");
  });

  test("source and encoding sizes larger in one dimension and smaller in the other", () => {
    expect(vqErrorOf(check({ src_width: 1280, src_height: 400 }, format(960, 540))).message).toContain("source size");
  });

  test("luma samples above the bit depth's maximum", () => {
    const p = Picture.allocate(format(320, 240, 10));
    p.planes[0]!.data[5 * 320 + 7] = 1024;
    const cpu = new CambiCpu(cambiOptions.defaults);
    cpu.init(p.format);
    const msg = vqErrorOf(() => cpu.extract({ ref: p, dist: p }, 0, new FeatureCollector())).message;
    expect(msg).toContain("1024");
    expect(msg).toContain("10-bit");
  });

  test("bad option values", () => {
    expect(vqErrorOf(() => cambiOptions.parseStrings({ eotf: "hlg" })).message).toContain("eotf");
    expect(vqErrorOf(() => cambiOptions.parseStrings({ topk: "0" })).message).toContain("topk");
    expect(vqErrorOf(() => cambiOptions.parseStrings({ window_size: "13" })).message).toContain("window_size");
    expect(vqErrorOf(() => cambiOptions.parseStrings({ max_log_contrast: "6" })).message).toContain("max_log_contrast");
    expect(vqErrorOf(() => cambiOptions.parseStrings({ full_ref: "yes" })).message).toContain("full_ref");
    expect(vqErrorOf(() => cambiOptions.parseStrings({ hrs: "1080" })).message).toContain("hrs");
  });

  test("a heatmaps_path that cannot be created", () => {
    const file = join(mkdtempSync(join(tmpdir(), "vq-cambi-")), "file");
    writeFileSync(file, "");
    expect(vqErrorOf(() => createCambiCpu({ heatmaps_path: join(file, "maps") }).init(format(320, 240))).message).toContain("heatmaps_path");
  });
});
