import { describe, expect, test } from "bun:test";
import { FeatureCollector, Picture, VqError, type PictureFormat } from "@vq/core";
import { ChromaUpsampling } from "../colour/chroma-upsampling.ts";
import { CiedeCpu, createCiedeCpu } from "./ciede-cpu.ts";
import { ciedeScore } from "../ciede-score.ts";
import { deltaE2000 } from "../colour/delta-e-2000.ts";
import { LabConverter } from "../colour/lab-color.ts";

function picture(format: PictureFormat, seed: number, flat = false): Picture {
  const p = Picture.allocate(format);
  const max = (1 << format.bitDepth) - 1;
  for (const plane of p.planes) {
    for (let k = 0; k < plane.data.length; k++) {
      // flat runs (repeated colours exercise the caches) mixed with noise
      const n = flat ? (k >> 4) * 7 + seed : Math.imul((k + 1) ^ Math.imul(seed, 0x9e3779b9), 0x85ebca6b) >>> 9;
      plane.data[k] = n % (max + 1);
    }
  }
  return p;
}

/** Σ ΔE00 without any cache: every pixel converted and compared afresh. */
function uncachedSum(ref: Picture, dist: Picture): number {
  const up = new ChromaUpsampling(ref.format);
  const conv = new LabConverter(ref.bitDepth);
  const lab = new Float32Array(6);
  const read = (pic: Picture, i: number, j: number) => {
    const o = up.columnOffsets(pic.planes[1]!.stride)[j]!;
    const c = (i >> up.rowShift) * pic.planes[1]!.stride + o;
    return [pic.planes[0]!.data[i * pic.planes[0]!.stride + j]!, o < 0 ? 0 : pic.planes[1]!.data[c]!, o < 0 ? 0 : pic.planes[2]!.data[c]!] as const;
  };
  let sum = 0;
  for (let i = 0; i < ref.height; i++) {
    for (let j = 0; j < ref.width; j++) {
      conv.convert(...read(ref, i, j), lab, 0);
      conv.convert(...read(dist, i, j), lab, 3);
      sum += deltaE2000(lab[0]!, lab[1]!, lab[2]!, lab[3]!, lab[4]!, lab[5]!);
    }
  }
  return sum;
}

describe("ciede on the CPU", () => {
  test("4:0:0 and unsupported bit depths are clear errors", () => {
    const cpu = createCiedeCpu();
    expect(() => cpu.init({ width: 16, height: 16, bitDepth: 8, pixelFormat: "400" })).toThrow(VqError);
    expect(() => cpu.init({ width: 16, height: 16, bitDepth: 8, pixelFormat: "400" })).toThrow(/4:0:0/);
    expect(() => cpu.init({ width: 16, height: 16, bitDepth: 9, pixelFormat: "420" })).toThrow(/9-bit/);
    expect(() => cpu.init({ width: 65, height: 2, bitDepth: 8, pixelFormat: "422" })).toThrow(/too short/);
    expect(() => cpu.init({ width: 65, height: 5, bitDepth: 8, pixelFormat: "422" })).not.toThrow();
  });

  test("identical frames score +Infinity (libvmaf's null)", () => {
    const format: PictureFormat = { width: 32, height: 8, bitDepth: 8, pixelFormat: "420" };
    const cpu = createCiedeCpu();
    cpu.init(format);
    const c = new FeatureCollector();
    const p = picture(format, 1);
    cpu.extract({ ref: p, dist: p }, 0, c);
    expect(c.get("ciede2000", 0)).toBe(Infinity);
  });

  for (const format of [
    { width: 67, height: 21, bitDepth: 10, pixelFormat: "422" },
    { width: 64, height: 20, bitDepth: 16, pixelFormat: "420" },
    { width: 33, height: 17, bitDepth: 8, pixelFormat: "444" },
  ] as PictureFormat[]) {
    test(`the caches change nothing: ${format.width}x${format.height} ${format.pixelFormat} ${format.bitDepth}-bit`, () => {
      const cpu = new CiedeCpu({});
      cpu.init(format);
      for (let f = 0; f < 3; f++) {
        const ref = picture(format, 2 * f + 1, f === 1);
        const dist = picture(format, 2 * f + 2, f === 1);
        const sum = cpu.deltaESum(ref, dist);
        expect(sum).toBe(uncachedSum(ref, dist));
        expect(Number.isFinite(ciedeScore(sum, format.width * format.height))).toBe(true);
      }
    });
  }
});
