import type { KernelSpec } from "@vq/gpu-core";
import frameWgsl from "../../../../shaders/common/frame.wgsl" with { type: "text" };
import u64Wgsl from "../../../../shaders/common/u64.wgsl" with { type: "text" };
import batchWgsl from "../../../../shaders/cambi/batch.wgsl" with { type: "text" };
import cValuesWgsl from "../../../../shaders/cambi/c-values.wgsl" with { type: "text" };
import frameCopyWgsl from "../../../../shaders/cambi/frame-copy.wgsl" with { type: "text" };
import fixedPointWgsl from "../../../../shaders/cambi/fixed-point.wgsl" with { type: "text" };
import lumaCheckWgsl from "../../../../shaders/cambi/luma-check.wgsl" with { type: "text" };
import modeFilterWgsl from "../../../../shaders/cambi/mode-filter.wgsl" with { type: "text" };
import preprocessWgsl from "../../../../shaders/cambi/preprocess.wgsl" with { type: "text" };
import spatialMaskWgsl from "../../../../shaders/cambi/spatial-mask.wgsl" with { type: "text" };
import poolingWgsl from "../../../../shaders/cambi/topk-pooling.wgsl" with { type: "text" };
import replayWgsl from "../../../../shaders/cambi/topk-replay.wgsl" with { type: "text" };

/** Pixels per workgroup side of the per-pixel kernels and of the c-value tiles. */
export const TILE = 16;
/** Output columns per workgroup of the spatial mask (OUT_W in spatial-mask.wgsl). */
export const MASK_TILE_WIDTH = 32;
/** Output rows per workgroup of the spatial mask: fewer when it decimates, so that its flatness tile fits 16 KiB. */
export const maskTileHeight = (step: 1 | 2): number => (step === 2 ? 16 : 32);
/** Workgroup memory of the c-value kernel: slot column histograms and 8-column sums, a row's counts, band bit sets, the tile's codes. */
export const C_VALUES_WORKGROUP_BYTES = (2560 + 320 + 528 + 3 * 34 + 3 + 2 * 256) * 4;
/** Words of the pooling's radix-select histograms per picture and scale: 2048 + 2 x 256 bins. */
export const HIST_WORDS = 2048 + 2 * 256;

const pooling = [u64Wgsl, fixedPointWgsl, poolingWgsl].join("\n");
export const CAMBI_KERNELS = {
  lumaCheck: { label: "cambi luma check", code: [frameWgsl, batchWgsl, lumaCheckWgsl].join("\n") },
  preprocess: { label: "cambi preprocess", code: [frameWgsl, batchWgsl, preprocessWgsl].join("\n") },
  mask: { label: "cambi mask", code: [batchWgsl, spatialMaskWgsl].join("\n"), entryPoint: "mask" },
  mode: { label: "cambi mode filter", code: [batchWgsl, modeFilterWgsl].join("\n"), entryPoint: "mode" },
  cValues: { label: "cambi c-values", code: [u64Wgsl, fixedPointWgsl, batchWgsl, cValuesWgsl].join("\n") },
  histogram: { label: "cambi select histogram", code: pooling, entryPoint: "histogram" },
  find: { label: "cambi select find", code: pooling, entryPoint: "find" },
  sumAbove: { label: "cambi sum above", code: pooling, entryPoint: "sum_above" },
  replay: { label: "cambi top-k replay", code: [u64Wgsl, replayWgsl].join("\n") },
  frameCopy: { label: "cambi frame copy", code: [frameWgsl, frameCopyWgsl].join("\n") },
} satisfies Record<string, KernelSpec>;
