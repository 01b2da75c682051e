import type { PictureFormat } from "@vq/core";
import { ChromaUpsampling } from "../colour/chroma-upsampling.ts";
import { LAB_CONSTANTS, sampleScaling } from "../colour/lab-color.ts";

/**
 * The uniform block of shaders/ciede/ciede.wgsl (`Ciede`): sample offsets, how libvmaf
 * pairs chroma with luma, and the conversion's constants (the CPU's, LAB_CONSTANTS)
 * split into f32 pairs in the order of lab.wgsl's K_* indices.
 */
export function ciedeUniforms(format: PictureFormat): ArrayBuffer {
  const buffer = new ArrayBuffer(32 + 12 * 16);
  const f = new Float32Array(buffer);
  const u = new Uint32Array(buffer);
  const s = sampleScaling(format.bitDepth);
  const up = ChromaUpsampling.describe(format);
  f[0] = s.lumaOffset;
  f[1] = s.chromaOffset;
  u[2] = up.rowShift;
  u[3] = up.columnShift;
  u[4] = up.quirk422 ? 1 : 0;
  u[5] = up.chromaWidth;
  u[6] = up.alignedWidth;
  const K = LAB_CONSTANTS;
  const table = [
    s.lumaGain, s.chromaGain, K.rFromV, K.gFromU, K.gFromV, K.bFromU,
    K.srgbKnee, K.srgbOffset, K.srgbGain, K.srgbLinearGain,
    ...K.xyz,
    K.whiteX, K.whiteZ, K.labEpsilon, K.labKappa, K.one116th,
  ];
  table.forEach((c, i) => {
    const hi = Math.fround(c);
    f[8 + 2 * i] = hi;
    f[9 + 2 * i] = Math.fround(c - hi);
  });
  return buffer;
}
