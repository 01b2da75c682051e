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
const decoupleCode = [...integers, floatEmulationWgsl, csfWgsl, decoupleWgsl].join("\n");
const denCode = [...integers, sumsWgsl, denWgsl].join("\n");
const maskingCode = [...integers, csfWgsl, sumsWgsl, maskingWgsl].join("\n");

/** Binding numbers (see the WGSL files): frame 0-2, params 3, then adm's buffers. */
export const BINDING = { ref: 0, dist: 1, planes: 2, params: 3, pyr: 4, det: 5, tmp: 6, dec: 7, flt: 8, sums: 9 } as const;
export type BindingName = keyof typeof BINDING;

export interface AdmKernel {
  spec: KernelSpec;
  bindings: readonly BindingName[];
}

function kernel(label: string, code: string, entryPoint: string, bindings: BindingName[]): AdmKernel {
  return { spec: { label, code, entryPoint }, bindings };
}

export const ADM_KERNELS = {
  vertical0: kernel("adm dwt vertical scale 0", dwtCode, "dwt_vertical0", ["ref", "dist", "planes", "params", "tmp"]),
  vertical123: kernel("adm dwt vertical scales 1-3", dwtCode, "dwt_vertical123", ["params", "pyr", "tmp"]),
  horizontal0: kernel("adm dwt horizontal scale 0", dwtCode, "dwt_horizontal0", ["params", "pyr", "det", "tmp"]),
  horizontal123: kernel("adm dwt horizontal scales 1-3", dwtCode, "dwt_horizontal123", ["params", "pyr", "det", "tmp"]),
  decouple0: kernel("adm decouple scale 0", decoupleCode, "decouple_scale0", ["params", "det", "dec", "flt"]),
  decouple123: kernel("adm decouple scales 1-3", decoupleCode, "decouple_scale123", ["params", "det", "dec", "flt"]),
  den0: kernel("adm den scale 0", denCode, "den_scale0", ["params", "det", "sums"]),
  den123: kernel("adm den scales 1-3", denCode, "den_scale123", ["params", "det", "sums"]),
  masking0: kernel("adm masking scale 0", maskingCode, "masking_scale0", ["params", "dec", "flt", "sums"]),
  masking123: kernel("adm masking scales 1-3", maskingCode, "masking_scale123", ["params", "dec", "flt", "sums"]),
} as const;

/** Side of the 2-D kernels' workgroups (their WGSL @workgroup_size(8, 8)); row kernels use one workgroup per row. */
export const TILE = 8;
