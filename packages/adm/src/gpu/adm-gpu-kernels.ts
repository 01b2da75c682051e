import type { StageKernelSpec } from "@vq/gpu-core";
import frameWgsl from "../../../../shaders/common/frame.wgsl" with { type: "text" };
import i64Wgsl from "../../../../shaders/common/i64.wgsl" with { type: "text" };
import u64Wgsl from "../../../../shaders/common/u64.wgsl" with { type: "text" };
import csfWgsl from "../../../../shaders/adm/csf.wgsl" with { type: "text" };
import decoupleWgsl from "../../../../shaders/adm/decouple.wgsl" with { type: "text" };
import denWgsl from "../../../../shaders/adm/den.wgsl" with { type: "text" };
import dwtWgsl from "../../../../shaders/adm/dwt.wgsl" with { type: "text" };
import floatEmulationWgsl from "../../../../shaders/adm/float-emulation.wgsl" with { type: "text" };
import maskingWgsl from "../../../../shaders/adm/masking.wgsl" with { type: "text" };
import paramsWgsl from "../../../../shaders/adm/params.wgsl" with { type: "text" };
import sumsWgsl from "../../../../shaders/adm/sums.wgsl" with { type: "text" };

/**
 * The WGSL modules of the adm twin and the bindings each entry point uses, by their WGSL
 * names (pipelines have `auto` layouts, so a bind group names exactly those).
 */

const integers = [paramsWgsl, u64Wgsl, i64Wgsl];
/** The exact float/double emulation with what it needs (for tests of it alone). */
export const FLOAT_EMULATION_CODE = [...integers, floatEmulationWgsl].join("\n");
const dwtCode = [frameWgsl, ...integers, dwtWgsl].join("\n");
const dwtDecoupleCode = [frameWgsl, ...integers, floatEmulationWgsl, csfWgsl, sumsWgsl, denWgsl, dwtWgsl, decoupleWgsl].join("\n");
const maskingCode = [...integers, csfWgsl, sumsWgsl, denWgsl, maskingWgsl].join("\n");

function kernel(label: string, code: string, entryPoint: string, uses: string[]): StageKernelSpec {
  return { label, code, entryPoint, uses };
}

export const ADM_KERNELS = {
  // DWT, decoupling and the denominator's cubes per row (den.wgsl); the scale-0 code is
  // reachable from the scales 1-3 entry point too (a runtime branch), so both bind the frames
  bands0: kernel("adm dwt and decoupling scale 0", dwtDecoupleCode, "dwt_decouple_scale0", ["ref_frame", "dist_frame", "planes", "params", "pyr", "det", "stale", "frames", "den_rows"]),
  bands123: kernel("adm dwt and decoupling scales 1-3", dwtDecoupleCode, "dwt_decouple_scale123", ["ref_frame", "dist_frame", "planes", "params", "pyr", "det", "stale", "frames", "den_rows"]),
  // what the next frame's scale 0 reads (when frames run one at a time)
  stale: kernel("adm dwt row for the next frame", dwtCode, "dwt_stale", ["params", "pyr", "stale", "frames"]),
  // contrast masking, and the denominator's rows finished
  masking0: kernel("adm masking scale 0", maskingCode, "masking_scale0", ["params", "det", "sums", "frames", "den_rows"]),
  masking123: kernel("adm masking scales 1-3", maskingCode, "masking_scale123", ["params", "det", "sums", "frames", "den_rows"]),
} satisfies Record<string, StageKernelSpec>;

/** Side of the 2-D kernels' workgroups (their WGSL @workgroup_size(8, 8)); row kernels use one workgroup per row. */
export const TILE = 8;
