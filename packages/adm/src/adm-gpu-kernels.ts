import type { KernelSpec } from "@vq/gpu-core";
import frameWgsl from "../../../shaders/common/frame.wgsl" with { type: "text" };
import i64Wgsl from "../../../shaders/common/i64.wgsl" with { type: "text" };
import u64Wgsl from "../../../shaders/common/u64.wgsl" with { type: "text" };
import csfWgsl from "../../../shaders/adm/csf.wgsl" with { type: "text" };
import decoupleWgsl from "../../../shaders/adm/decouple.wgsl" with { type: "text" };
import denWgsl from "../../../shaders/adm/den.wgsl" with { type: "text" };
import dwtWgsl from "../../../shaders/adm/dwt.wgsl" with { type: "text" };
import floatEmulationWgsl from "../../../shaders/adm/float-emulation.wgsl" with { type: "text" };
import maskingWgsl from "../../../shaders/adm/masking.wgsl" with { type: "text" };
import paramsWgsl from "../../../shaders/adm/params.wgsl" with { type: "text" };
import sumsWgsl from "../../../shaders/adm/sums.wgsl" with { type: "text" };

/**
 * The WGSL modules of the adm twin and the bindings each entry point uses (pipelines
 * have `auto` layouts, so a bind group names exactly those).
 */

const integers = [paramsWgsl, u64Wgsl, i64Wgsl];
/** The exact float/double emulation with what it needs (for tests of it alone). */
export const FLOAT_EMULATION_CODE = [...integers, floatEmulationWgsl].join("\n");
const dwtCode = [frameWgsl, ...integers, dwtWgsl].join("\n");
const dwtDecoupleCode = [frameWgsl, ...integers, floatEmulationWgsl, csfWgsl, sumsWgsl, denWgsl, dwtWgsl, decoupleWgsl].join("\n");
const maskingCode = [...integers, csfWgsl, sumsWgsl, denWgsl, maskingWgsl].join("\n");

/** Binding numbers (see the WGSL files): frame 0-2, params 3, then adm's buffers and the batch layout (frames). */
export const BINDING = { ref: 0, dist: 1, planes: 2, params: 3, pyr: 4, det: 5, stale: 6, sums: 9, frames: 10, denRows: 11 } as const;
export type BindingName = keyof typeof BINDING;

export interface AdmKernel {
  spec: KernelSpec;
  bindings: readonly BindingName[];
}

function kernel(label: string, code: string, entryPoint: string, bindings: BindingName[]): AdmKernel {
  return { spec: { label, code, entryPoint }, bindings };
}

export const ADM_KERNELS = {
  // DWT, decoupling and the denominator's cubes per row (den.wgsl); the scale-0 code is
  // reachable from the scales 1-3 entry point too (a runtime branch), so both bind the frames
  bands0: kernel("adm dwt and decoupling scale 0", dwtDecoupleCode, "dwt_decouple_scale0", ["ref", "dist", "planes", "params", "pyr", "det", "stale", "frames", "denRows"]),
  bands123: kernel("adm dwt and decoupling scales 1-3", dwtDecoupleCode, "dwt_decouple_scale123", ["ref", "dist", "planes", "params", "pyr", "det", "stale", "frames", "denRows"]),
  // what the next frame's scale 0 reads (when frames run one at a time)
  stale: kernel("adm dwt row for the next frame", dwtCode, "dwt_stale", ["params", "pyr", "stale", "frames"]),
  // contrast masking, and the denominator's rows finished
  masking0: kernel("adm masking scale 0", maskingCode, "masking_scale0", ["params", "det", "sums", "frames", "denRows"]),
  masking123: kernel("adm masking scales 1-3", maskingCode, "masking_scale123", ["params", "det", "sums", "frames", "denRows"]),
} as const;

/** Side of the 2-D kernels' workgroups (their WGSL @workgroup_size(8, 8)); row kernels use one workgroup per row. */
export const TILE = 8;
