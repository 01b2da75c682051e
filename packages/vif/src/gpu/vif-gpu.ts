import { packedLayout, VqError, type FeatureCollector, type PictureFormat } from "@vq/core";
import { LUMA_INPUTS, bufferFrom, planeUniforms, stageKernels, type GpuContext, type GpuFrameBatch, type GpuStage, type KernelSpec, type PassRecorder, type StageKernel } from "@vq/gpu-core";
import frameWgsl from "../../../../shaders/common/frame.wgsl" with { type: "text" };
import u64Wgsl from "../../../../shaders/common/u64.wgsl" with { type: "text" };
import f64Wgsl from "../../../../shaders/common/f64.wgsl" with { type: "text" };
import gainWgsl from "../../../../shaders/vif/gain.wgsl" with { type: "text" };
import filterWgsl from "../../../../shaders/vif/filter.wgsl" with { type: "text" };
import log2Wgsl from "../../../../shaders/vif/log2.wgsl" with { type: "text" };
import batchWgsl from "../../../../shaders/vif/batch.wgsl" with { type: "text" };
import inputFrameWgsl from "../../../../shaders/vif/input-frame.wgsl" with { type: "text" };
import inputPlaneWgsl from "../../../../shaders/vif/input-plane.wgsl" with { type: "text" };
import statisticWgsl from "../../../../shaders/vif/statistic.wgsl" with { type: "text" };
import decimateWgsl from "../../../../shaders/vif/decimate.wgsl" with { type: "text" };
import { vifDefinition, vifFeatureNames, vifOptions, type VifFeatureNames, type VifOptions } from "../definition.ts";
import { createLog2Table } from "../numerics/log2-table.ts";
import { VIF_FILTER_HALF, VIF_SCALES } from "../numerics/vif-filters.ts";
import { decimateParams, packedLog2Table, SCALE_RESULT_WORDS, statisticParams } from "./vif-gpu-params.ts";
import { writeVifScores } from "../numerics/vif-scores.ts";
import { writeScaleNumDen, type VifScaleSums } from "../numerics/vif-sums.ts";

/** The kernels: scale 0 reads the uploaded batch, later scales the previous decimation. */
export const VIF_KERNELS = {
  statisticFrame: { label: "vif statistic", code: [frameWgsl, u64Wgsl, f64Wgsl, gainWgsl, filterWgsl, log2Wgsl, batchWgsl, inputFrameWgsl, statisticWgsl].join("\n") },
  statisticPlane: { label: "vif statistic", code: [u64Wgsl, f64Wgsl, gainWgsl, filterWgsl, log2Wgsl, batchWgsl, inputPlaneWgsl, statisticWgsl].join("\n") },
  decimateFrame: { label: "vif decimate", code: [frameWgsl, filterWgsl, batchWgsl, inputFrameWgsl, decimateWgsl].join("\n") },
  decimatePlane: { label: "vif decimate", code: [filterWgsl, inputPlaneWgsl, decimateWgsl].join("\n") },
} satisfies Record<string, KernelSpec>;

/** Samples per workgroup of the statistic (48 x 16) and decimation (32 x 8 outputs) kernels. */
const STAT_TILE = [48, 16] as const;
const DECIMATE_TILE = [32, 8] as const;
/** Workgroup memory of the statistic kernel: 5 planes of 16 x (48 + 16) words, 5 sums. */
const STAT_WORKGROUP_BYTES = 5 * 16 * 64 * 4 + 5 * 4;

interface Scale {
  width: number;
  height: number;
  /** This scale's samples (scales 1-3), one per word, one plane per frame of a batch, written by the decimation. */
  ref?: GPUBuffer;
  dis?: GPUBuffer;
  statParams: GPUBuffer;
  statistic: StageKernel;
  /** Decimation from this scale to the next (scales 0-2). */
  decimateParams?: GPUBuffer;
  decimate?: StageKernel;
}

/**
 * GPU twin of VifCpu: per batch of frames, the four scales' statistics and the three
 * decimations run on the GPU in libvmaf's integer arithmetic (its few double steps emulated
 * exactly), one dispatch per kernel for the whole batch (workgroup z = frame), each frame's
 * integer sums reduced exactly on the GPU, and only those 28 words per frame come back.
 * The scores are computed from them by the same code as on the CPU, so they are the same
 * doubles. Everything but a few bind groups (built once per ring slot) is allocated in init; nothing waits between kernels.
 */
export class VifGpu implements GpuStage {
  readonly definition = vifDefinition;
  readonly label = "vif";
  /** Luma only, like libvmaf's extractor: chroma is never uploaded for it. */
  readonly inputs = LUMA_INPUTS;
  readonly temporal = false;
  readonly resultWords = VIF_SCALES * SCALE_RESULT_WORDS;
  readonly names: VifFeatureNames;
  private device?: GPUDevice;
  private maxBatch = 1;
  private scales: Scale[] = [];
  private planes?: GPUBuffer;
  private log2Table?: GPUBuffer;
  private readonly owned: GPUBuffer[] = [];
  /** Batch layout uniforms (shaders/vif/batch.wgsl), one per distinct set of strides. */
  private layouts = new Map<string, GPUBuffer>();
  private readonly numDen = new Float32Array(2 * VIF_SCALES);
  private readonly sums: VifScaleSums = { numLogHi: 0, numLogLo: 0, denLogHi: 0, denLogLo: 0, nonLogHi: 0, nonLogLo: 0, nonLogCount: 0 };

  constructor(readonly options: VifOptions) {
    this.names = vifFeatureNames(options);
  }

  async init(gpu: GpuContext, format: PictureFormat, maxBatch = 1): Promise<void> {
    vifDefinition.checkFormat?.(this.options, format);
    this.close(); // a second init (another format) starts afresh
    const { device } = gpu;
    const limits = device.limits;
    const workgroups = Math.max(Math.ceil(format.height / STAT_TILE[1]), Math.ceil(format.width / STAT_TILE[0]), maxBatch);
    if (workgroups > limits.maxComputeWorkgroupsPerDimension) {
      throw new VqError(`feature vif: a ${format.width}x${format.height} picture in batches of ${maxBatch} needs ${workgroups} workgroups in one dimension; this GPU allows ${limits.maxComputeWorkgroupsPerDimension}`);
    }
    if (limits.maxComputeWorkgroupStorageSize < STAT_WORKGROUP_BYTES) {
      throw new VqError(`feature vif: this GPU offers ${limits.maxComputeWorkgroupStorageSize} bytes of workgroup memory; vif's kernels need ${STAT_WORKGROUP_BYTES}`);
    }
    const planeBytes = maxBatch * Math.ceil(format.width / 2) * Math.ceil(format.height / 2) * 4;
    const maxBytes = Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
    if (planeBytes > maxBytes) {
      throw new VqError(`feature vif: a ${format.width}x${format.height} picture in batches of ${maxBatch} needs ${planeBytes}-byte buffers; this GPU binds at most ${maxBytes}`);
    }
    this.device = device;
    this.maxBatch = maxBatch;
    const buffer = (label: string, data: Uint32Array<ArrayBuffer> | number, usage: number): GPUBuffer => {
      const size = typeof data === "number" ? data : data.byteLength;
      const b = device.createBuffer({ label, size: Math.max(16, Math.ceil(size / 4) * 4), usage: usage | GPUBufferUsage.COPY_DST });
      if (typeof data !== "number") device.queue.writeBuffer(b, 0, data);
      this.owned.push(b);
      return b;
    };
    // the frame's plane table, for the kernels that read the frame (they read luma only)
    this.planes = buffer("vif planes", planeUniforms(format, packedLayout(format).planes), GPUBufferUsage.UNIFORM);
    this.log2Table = buffer("vif log2 table", packedLog2Table(createLog2Table()), GPUBufferUsage.STORAGE);

    // Every kernel at once (a cold start's largest part). The filter's reach is a constant
    // of the pipelines of scales 0 and 1 and of the first decimation, the largest passes;
    // scales 2 and 3 and the later decimations share a pipeline that reads it from its params
    // (shaders/vif/filter.wgsl): two pipelines fewer to build, for ~6 us more per 1080p frame.
    const kernels = await stageKernels(device, {
      // 8-bit samples' products fit 16 bits: their vertical sums need no high halves
      stat0: { ...VIF_KERNELS.statisticFrame, label: "vif statistic 0", constants: { HALF: VIF_FILTER_HALF[0]!, WIDE_PRODUCTS: format.bitDepth === 8 ? 0 : 1 } },
      stat1: { ...VIF_KERNELS.statisticPlane, label: "vif statistic 1", constants: { HALF: VIF_FILTER_HALF[1]! } },
      statLater: { ...VIF_KERNELS.statisticPlane, label: "vif statistic 2-3" },
      decimate0: { ...VIF_KERNELS.decimateFrame, label: "vif decimate 0", constants: { HALF: VIF_FILTER_HALF[1]! } },
      decimateLater: { ...VIF_KERNELS.decimatePlane, label: "vif decimate 1-2" },
    });
    const statistics = [kernels.stat0, kernels.stat1, kernels.statLater, kernels.statLater];
    const decimations = [kernels.decimate0, kernels.decimateLater, kernels.decimateLater];
    this.scales = [];
    for (let s = 0, w = format.width, h = format.height; s < VIF_SCALES; s++, w >>= 1, h >>= 1) {
      const scale: Scale = {
        width: w,
        height: h,
        statParams: buffer(`vif statistic ${s} params`, statisticParams(s, w, h, format.bitDepth, this.options.vif_enhn_gain_limit), GPUBufferUsage.UNIFORM),
        statistic: statistics[s]!,
      };
      if (s > 0) {
        scale.ref = buffer(`vif scale ${s} ref`, maxBatch * w * h * 4, GPUBufferUsage.STORAGE);
        scale.dis = buffer(`vif scale ${s} dis`, maxBatch * w * h * 4, GPUBufferUsage.STORAGE);
      }
      if (s < VIF_SCALES - 1) {
        scale.decimateParams = buffer(`vif decimate ${s} params`, decimateParams(s, w, h, format.bitDepth), GPUBufferUsage.UNIFORM);
        scale.decimate = decimations[s]!;
      }
      this.scales.push(scale);
    }
  }

  /**
   * Scale 0 and the first decimation read the batch's frames, bound from its first frame (offsets
   * multiples of 256) to their ends; later scales read the decimations' planes.
   */
  encodeBatch(_encoder: GPUCommandEncoder, passes: PassRecorder, batch: GpuFrameBatch, results: GPUBuffer, resultOffset: number, resultStride: number): void {
    if (batch.count > this.maxBatch) throw new Error(`vif: a batch of ${batch.count} frames, sized for ${this.maxBatch}`);
    const frames = {
      ref_frame: bufferFrom(batch.ref, batch.base * batch.refStride),
      dist_frame: bufferFrom(batch.dist, batch.base * batch.distStride),
      planes: this.planes!,
      batch: this.layoutFor(batch.refStride, batch.distStride, resultStride),
    };
    const sums = bufferFrom(results, resultOffset);
    for (let s = 0; s < VIF_SCALES; s++) {
      const scale = this.scales[s]!;
      if (s > 0) {
        const from = this.scales[s - 1]!;
        const source = s === 1 ? frames : { scale_ref: from.ref!, scale_dis: from.dis! };
        const workgroups = [Math.ceil(scale.width / DECIMATE_TILE[0]), Math.ceil(scale.height / DECIMATE_TILE[1]), batch.count] as const;
        from.decimate!.dispatch(passes, { ...source, params: from.decimateParams!, out_ref: scale.ref!, out_dis: scale.dis! }, workgroups, `vif decimate ${s}`);
      }
      if (s === 0 && this.options.vif_skip_scale0) continue;
      const source = s === 0 ? frames : { scale_ref: scale.ref!, scale_dis: scale.dis!, batch: frames.batch };
      const workgroups = [Math.ceil(scale.width / STAT_TILE[0]), Math.ceil(scale.height / STAT_TILE[1]), batch.count] as const;
      scale.statistic.dispatch(passes, { ...source, params: scale.statParams, sums, log2_table: this.log2Table! }, workgroups, `vif scale ${s}`);
    }
  }

  collect(words: Uint32Array, index: number, collector: FeatureCollector): void {
    const sums = this.sums;
    for (let s = this.options.vif_skip_scale0 ? 1 : 0; s < VIF_SCALES; s++) {
      const at = s * SCALE_RESULT_WORDS;
      sums.numLogLo = words[at]!;
      sums.numLogHi = words[at + 1]!;
      sums.denLogLo = words[at + 2]!;
      sums.denLogHi = words[at + 3]!;
      sums.nonLogLo = words[at + 4]!;
      sums.nonLogHi = words[at + 5]!;
      sums.nonLogCount = words[at + 6]!;
      writeScaleNumDen(sums, s, this.numDen);
    }
    writeVifScores(collector, index, this.names, this.options, this.numDen);
  }

  close(): void {
    for (const b of this.owned) b.destroy();
    for (const b of this.layouts.values()) b.destroy();
    this.owned.length = 0;
    this.layouts.clear();
    this.scales = [];
  }

  /** The batch layout uniform for these strides: made on first use, never rewritten (so never out of order with a recorded pass). */
  private layoutFor(refStride: number, distStride: number, resultStride: number): GPUBuffer {
    const key = `${refStride}/${distStride}/${resultStride}`;
    let b = this.layouts.get(key);
    if (!b) {
      b = this.device!.createBuffer({ label: `vif batch ${key}`, size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
      this.device!.queue.writeBuffer(b, 0, new Uint32Array([refStride, distStride, resultStride / 4, 0]));
      this.layouts.set(key, b);
    }
    return b;
  }
}

export function createVifGpu(options: Partial<VifOptions> = {}): VifGpu {
  return new VifGpu(vifOptions.resolve(options));
}
