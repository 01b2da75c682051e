import type { PictureFormat } from "@vq/core";
import { PLANE_CSF, maskingWeights } from "./csf.ts";
import { libvmafPlaneSizes } from "./definition.ts";
import { GLOBAL_VAR_SCALE, QUADRANT_VAR_SCALE, blocksAlong } from "./plane-error.ts";

/** Blocks per group record, words per record (shaders/psnr-hvs/params.wgsl's GROUP_BLOCKS, RECORD_WORDS). */
export const GROUP_BLOCKS = 64;
export const RECORD_WORDS = 28;
const PARAM_WORDS = 16 + 2 * 3 * 64;

export interface PlaneBlocks {
  blocksX: number;
  blocks: number;
  /** First term (f32 index) of the plane in the terms buffer. */
  termsAt: number;
  /** First group record of the plane. */
  groupsAt: number;
  groups: number;
}

/** Where each plane's blocks, terms and records go, in libvmaf's plane sizes. */
export interface PsnrHvsGpuLayout {
  planes: PlaneBlocks[];
  terms: number;
  /** Group records of every plane; the block records follow them. */
  groups: number;
  records: number;
}

export function psnrHvsGpuLayout(format: PictureFormat): PsnrHvsGpuLayout {
  let terms = 0;
  let groups = 0;
  const planes = libvmafPlaneSizes(format).map(({ width, height }) => {
    const blocksX = blocksAlong(width);
    const blocks = blocksX * blocksAlong(height);
    const plane = { blocksX, blocks, termsAt: terms, groupsAt: groups, groups: Math.ceil(blocks / GROUP_BLOCKS) };
    terms += blocks * 64;
    groups += plane.groups;
    return plane;
  });
  return { planes, terms, groups, records: groups + terms / 64 };
}

/** params.wgsl's `Params`: plane geometry, the zero word, the variance scales, where block records start, CSF and masking tables. */
export function psnrHvsParams(layout: PsnrHvsGpuLayout): ArrayBuffer {
  const buffer = new ArrayBuffer(PARAM_WORDS * 4);
  const u = new Uint32Array(buffer);
  const f = new Float32Array(buffer);
  layout.planes.forEach((p, i) => u.set([p.blocksX, p.blocks, p.termsAt, p.groupsAt], 4 * i));
  u[12] = 0;
  f[13] = GLOBAL_VAR_SCALE;
  f[14] = QUADRANT_VAR_SCALE;
  u[15] = layout.groups;
  PLANE_CSF.forEach((csf, p) => {
    f.set(csf, 16 + 64 * p);
    f.set(maskingWeights(csf), 16 + 192 + 64 * p);
  });
  return buffer;
}
