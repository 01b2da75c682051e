import { describe, expect, test } from "bun:test";
import { FeatureCollector, Picture, packedLayout, type PictureFormat } from "@vq/core";
import { firstFrames } from "../golden-frames.ts";
import { goldenOutput, goldenPairs, goldenRun } from "@vq/core/golden";
import { vifOptions } from "../definition.ts";
import { createVifCpu, VifCpu } from "./vif-cpu.ts";

function run(vif: VifCpu, frame: { ref: Picture; dist: Picture }, frames = 1): FeatureCollector {
  const collector = new FeatureCollector();
  vif.init(frame.ref.format);
  for (let i = 0; i < frames; i++) vif.extract(frame, i, collector);
  vif.flush(collector);
  vif.close();
  return collector;
}

/** The same picture with every row padded to `stride` samples (as a decoder's buffer might be). */
function withStride(picture: Picture, stride: number): Picture {
  const bps = picture.bitDepth > 8 ? 2 : 1;
  const packed = packedLayout(picture.format).planes;
  let offset = 0;
  const layouts = packed.map((p) => {
    const l = { width: p.width, height: p.height, offset, stride: p.width + stride - picture.width };
    offset += l.stride * l.height * bps;
    return l;
  });
  const buffer = new Uint8Array(offset + 16);
  const out = new Picture(picture.format, buffer, layouts);
  picture.planes.forEach((plane, i) => {
    for (let y = 0; y < plane.height; y++) out.planes[i]!.data.set(plane.data.subarray(y * plane.stride, y * plane.stride + plane.width), y * out.planes[i]!.stride);
  });
  return out;
}

/** Deterministic pseudo-random planes of `bitDepth` bits. */
function noisePicture(format: PictureFormat, seed: number, amplitude: (x: number, y: number) => number): Picture {
  const picture = Picture.allocate(format);
  let s = seed;
  const plane = picture.planes[0]!;
  const max = 2 ** format.bitDepth - 1;
  for (let y = 0; y < plane.height; y++)
    for (let x = 0; x < plane.width; x++) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      plane.data[y * plane.stride + x] = Math.min(max, Math.max(0, Math.round(amplitude(x, y) + ((s >>> 16) / 65536 - 0.5) * max * 0.2)));
    }
  return picture;
}

describe("VifCpu", () => {
  test("vif_skip_scale0: scales 1-3 as libvmaf wrote them, scale 0 reported as 0 (and 0 / -1 in debug)", async () => {
    const pair = goldenPairs().find((p) => p.pair === "odd_321x241_444.x264crf32")!;
    const frame = await firstFrames(pair.pair);
    const collector = run(createVifCpu({ vif_skip_scale0: true, debug: true }), frame);
    const debug = goldenOutput(goldenRun(pair, "debug"), true).frames[0]!.metrics;
    for (const s of [1, 2, 3]) {
      expect(collector.get(`integer_vif_scale${s}_ssclz`, 0)).toBe(debug[`integer_vif_scale${s}`]!);
      expect(collector.get(`integer_vif_num_scale${s}_ssclz`, 0)).toBe(debug[`integer_vif_num_scale${s}`]!);
      expect(collector.get(`integer_vif_den_scale${s}_ssclz`, 0)).toBe(debug[`integer_vif_den_scale${s}`]!);
    }
    expect(collector.get("integer_vif_scale0_ssclz", 0)).toBe(0);
    expect(collector.get("integer_vif_num_scale0_ssclz", 0)).toBe(0);
    expect(collector.get("integer_vif_den_scale0_ssclz", 0)).toBe(-1);
    // libvmaf sums the remaining scales in double, left to right
    const num = debug.integer_vif_num_scale1! + debug.integer_vif_num_scale2! + debug.integer_vif_num_scale3!;
    const den = debug.integer_vif_den_scale1! + debug.integer_vif_den_scale2! + debug.integer_vif_den_scale3!;
    expect(collector.get("integer_vif_num_ssclz", 0)).toBe(num);
    expect(collector.get("integer_vif_den_ssclz", 0)).toBe(den);
    expect(collector.get("integer_vif_ssclz", 0)).toBe(num / den);
  });

  test("plane strides wider than the picture give the same scores", async () => {
    for (const pairName of ["odd_321x241_444.noise", "grad_960x540_10b.q8bit"]) {
      const frame = await firstFrames(pairName);
      const packed = run(createVifCpu({ debug: true }), frame);
      const strided = run(createVifCpu({ debug: true }), { ref: withStride(frame.ref, frame.ref.width + 37), dist: withStride(frame.dist, frame.dist.width + 5) });
      expect(strided.frame(0)).toEqual(packed.frame(0));
    }
  });

  test("repeated frames give identical scores (no state leaks between frames)", async () => {
    const frame = await firstFrames("chroma_352x288_444.x264crf32");
    const collector = run(createVifCpu({ debug: true }), frame, 3);
    expect(collector.frame(1)).toEqual(collector.frame(0));
    expect(collector.frame(2)).toEqual(collector.frame(0));
  });

  test("full-range 12- and 16-bit content and the smallest size give finite scores", () => {
    for (const [width, height, bitDepth] of [[16, 16, 8], [17, 19, 16], [64, 48, 12], [64, 48, 16]] as const) {
      const format: PictureFormat = { width, height, bitDepth, pixelFormat: "400" };
      const max = 2 ** bitDepth - 1;
      // hard edges between black and white: the largest variances the fixed point holds
      const ref = noisePicture(format, 1, (x, y) => ((x >> 1) + (y >> 2)) & 1 ? max : 0);
      const dist = noisePicture(format, 2, (x, y) => ((x >> 1) + (y >> 2)) & 1 ? max * 0.9 : max * 0.05);
      const collector = run(new VifCpu(vifOptions.resolve({ debug: true })), { ref, dist });
      for (const [name, score] of collector.frame(0)) expect(Number.isFinite(score), `${width}x${height} ${bitDepth}-bit ${name} = ${score}`).toBe(true);
    }
  });
});
