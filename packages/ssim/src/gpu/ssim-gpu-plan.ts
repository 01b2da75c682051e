import { VqError, packedLayout, type PictureFormat } from "@vq/core";
import { planeUniforms, stageKernel, type Bindings, type GpuFrame, type PassRecorder, type StageKernel, type StageKernelSpec } from "@vq/gpu-core";
import { decimatedSize } from "../numerics/decimation-geometry.ts";
import { WINDOW } from "../numerics/ssim-constants.ts";
import { SSIM_KERNELS, SUM_WORDS } from "./ssim-gpu-kernels.ts";
import type { SsimMeans } from "../numerics/ssim-statistics.ts";
import { windowMeans, type SsimSums } from "../numerics/window-means.ts";

/** A picture on the GPU: reference and distorted as f32, stride = width. */
export interface GpuLevel {
  readonly width: number;
  readonly height: number;
  readonly ref: GPUBuffer;
  readonly cmp: GPUBuffer;
}

/** One dispatch: its kernel and what it binds for a frame and its result slice. */
interface Step {
  readonly label: string;
  readonly kernel: StageKernel;
  readonly workgroups: readonly [number, number];
  /** A bind group made once where nothing changes between frames. */
  bindings(frame: GpuFrame, results: GPUBuffer, resultOffset: number): Bindings | GPUBindGroup;
}

/** Workgroups covering width × height threads in tiles of tx × ty. */
function tiles(width: number, height: number, tx: number, ty: number): [number, number] {
  return [Math.ceil(width / tx), Math.ceil(height / ty)];
}

/**
 * The GPU work of float_ssim and float_ms_ssim as a list of dispatches built at init:
 * luma to f32, the downscalings (box or wavelet), and per SSIM scale a horizontal pass, a
 * vertical pass that sums each row of the SSIM map, and a pass that sums the rows into
 * the scale's 8 result words (f32 pairs throughout). Scores are made on the host from
 * those sums, by the code the CPU twins use.
 *
 * Scales must be added largest first, then seal(); `scales` is fixed at construction,
 * as the frame runner sizes every stage's results before its init.
 */
export class SsimGpuPlan {
  private readonly steps: Step[] = [];
  private readonly owned: GPUBuffer[] = [];
  /** Pixel count (windows) of each scale's SSIM map. */
  private readonly windows: number[] = [];
  /** The horizontal pass's maps, by their WGSL names. */
  private maps?: { map_ref: GPUBuffer; map_cmp: GPUBuffer; map_ref_sq: GPUBuffer; map_cmp_sq: GPUBuffer; map_product: GPUBuffer };
  private rowSums?: GPUBuffer;
  private rows = 0;
  private readonly sums: SsimSums = { ssim: 0, l: 0, c: 0, s: 0 };

  constructor(private readonly device: GPUDevice, private readonly format: PictureFormat, private readonly extractor: string, private readonly scales: number) {}

  /** 32-bit result words per frame for `scales` SSIM scales. */
  static resultWords(scales: number): number {
    return scales * SUM_WORDS;
  }

  level(width: number, height: number): GpuLevel {
    const bytes = width * height * 4;
    return { width, height, ref: this.buffer(bytes, `${this.extractor} level ref`), cmp: this.buffer(bytes, `${this.extractor} level cmp`) };
  }

  /** picture_copy of both lumas into `to` (full size). */
  luma(to: GpuLevel): void {
    const scaler = { 8: 1, 10: 4, 12: 16, 16: 256 }[this.format.bitDepth] ?? 1;
    const params = this.params({ width: to.width, height: to.height, tap: 1 / scaler });
    const planes = this.uniform(planeUniforms(this.format, packedLayout(this.format).planes), "planes");
    this.steps.push({
      label: `${this.extractor} luma`,
      kernel: stageKernel(this.device, SSIM_KERNELS.luma),
      workgroups: tiles(to.width, to.height, 16, 16),
      bindings: (frame) => ({ ref_frame: frame.ref, dist_frame: frame.dist, planes, params, luma_ref: to.ref, luma_cmp: to.cmp }),
    });
  }

  /** float_ssim's box downscaling by `factor`; returns the smaller level. */
  boxDecimate(from: GpuLevel, factor: number): GpuLevel {
    const to = this.level(decimatedSize(from.width, factor), decimatedSize(from.height, factor));
    const params = this.params({ width: from.width, height: from.height, outWidth: to.width, outHeight: to.height, factor, tap: 1 / (factor * factor) });
    this.fixedStep(`${this.extractor} decimate`, SSIM_KERNELS.boxDecimate, tiles(to.width, to.height, 16, 16), { params, src_ref: from.ref, src_cmp: from.cmp, dst_ref: to.ref, dst_cmp: to.cmp });
    return to;
  }

  /** MS-SSIM's wavelet halving; returns the smaller level. */
  waveletDecimate(from: GpuLevel): GpuLevel {
    const to = this.level(decimatedSize(from.width, 2), decimatedSize(from.height, 2));
    const params = this.params({ width: from.width, height: from.height, outWidth: to.width, outHeight: to.height });
    this.fixedStep(`${this.extractor} decimate`, SSIM_KERNELS.waveletDecimate, tiles(to.width, to.height, 16, 16), { params, src_ref: from.ref, src_cmp: from.cmp, dst_ref: to.ref, dst_cmp: to.cmp });
    return to;
  }

  /** The SSIM map of `level`, summed into the next scale's result words. Returns that scale's index. */
  statistics(level: GpuLevel): number {
    const scale = this.windows.length;
    if (scale >= this.scales || this.rowSums) throw new Error(`${this.extractor}: more than ${this.scales} SSIM scales, or added after seal()`);
    const outW = level.width - WINDOW + 1;
    const outH = level.height - WINDOW + 1;
    // the horizontal maps are shared by every scale: the first (largest) sizes them
    if (!this.maps) {
      const map = (m: string) => this.buffer(outW * level.height * 4, `${this.extractor} map ${m}`);
      this.maps = { map_ref: map("ref"), map_cmp: map("cmp"), map_ref_sq: map("ref²"), map_cmp_sq: map("cmp²"), map_product: map("ref·cmp") };
    }
    const maps = this.maps;
    const params = this.params({ width: level.width, height: level.height, outWidth: outW, outHeight: outH, firstRow: this.rows, scale });
    this.fixedStep(`${this.extractor} horizontal`, SSIM_KERNELS.horizontal, tiles(outW, level.height, 64, 4), { params, src_ref: level.ref, src_cmp: level.cmp, ...maps });
    // the row sums buffer exists once every scale is known (seal): these steps bind it then
    const vertical = stageKernel(this.device, SSIM_KERNELS.vertical);
    let verticalGroup: GPUBindGroup | undefined;
    this.steps.push({
      label: `${this.extractor} vertical`,
      kernel: vertical,
      workgroups: [outH, 1],
      bindings: () => (verticalGroup ??= vertical.bindGroup({ params, ...maps, row_sums: this.sealed() })),
    });
    const sumsSize = SsimGpuPlan.resultWords(this.scales) * 4;
    this.steps.push({
      label: `${this.extractor} row sums`,
      kernel: stageKernel(this.device, SSIM_KERNELS.rowSums),
      workgroups: [1, 1],
      // a batch's frames write to different offsets of one result buffer
      bindings: (_frame, results, offset) => ({ params, row_sums: this.sealed(), sums: { buffer: results, offset, size: sumsSize } }),
    });
    this.windows.push(outW * outH);
    this.rows += outH;
    return scale;
  }

  /** Ends the plan: allocates the row sums of every scale. */
  seal(): void {
    this.rowSums ??= this.buffer(this.rows * SUM_WORDS * 4, `${this.extractor} row sums`);
  }

  private sealed(): GPUBuffer {
    if (!this.rowSums) throw new Error(`${this.extractor}: SsimGpuPlan used before seal()`);
    return this.rowSums;
  }

  encode(passes: PassRecorder, frame: GpuFrame, results: GPUBuffer, resultOffset: number): void {
    for (const step of this.steps) step.kernel.dispatch(passes, step.bindings(frame, results, resultOffset), step.workgroups, step.label);
  }

  /** One scale's SSIM means from the frame's result words (f32 pairs, added in double). */
  means(words: Uint32Array, scale: number, out: SsimMeans): SsimMeans {
    const f = new Float32Array(words.buffer, words.byteOffset + scale * SUM_WORDS * 4, SUM_WORDS);
    const sums = this.sums;
    sums.ssim = f[0]! + f[1]!;
    sums.l = f[2]! + f[3]!;
    sums.c = f[4]! + f[5]!;
    sums.s = f[6]! + f[7]!;
    return windowMeans(sums, this.windows[scale]!, out);
  }

  destroy(): void {
    for (const b of this.owned) b.destroy();
    this.owned.length = 0;
  }

  private fixedStep(label: string, spec: StageKernelSpec, workgroups: readonly [number, number], bindings: Bindings): void {
    const kernel = stageKernel(this.device, spec);
    const group = kernel.bindGroup(bindings);
    this.steps.push({ label, kernel, workgroups, bindings: () => group });
  }

  /** A SsimParams uniform (params.wgsl). */
  private params(p: { width: number; height: number; outWidth?: number; outHeight?: number; factor?: number; firstRow?: number; scale?: number; tap?: number }): GPUBuffer {
    const data = new ArrayBuffer(48);
    const u = new Uint32Array(data);
    const f = new Float32Array(data);
    u.set([p.width, p.height, p.outWidth ?? p.width, p.outHeight ?? p.height, p.factor ?? 1, p.firstRow ?? 0, p.scale ?? 0]);
    f[7] = p.tap ?? 1; // stored as float, as libvmaf's 1.0f / (scale * scale)
    u[8] = 0; // `zero_bits`: see opaque in params.wgsl
    return this.uniform(new Uint8Array(data), "params");
  }

  private uniform(data: ArrayBufferView<ArrayBuffer>, what: string): GPUBuffer {
    const buffer = this.device.createBuffer({ label: `${this.extractor} ${what}`, size: Math.max(16, data.byteLength), usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.device.queue.writeBuffer(buffer, 0, data);
    this.owned.push(buffer);
    return buffer;
  }

  private buffer(bytes: number, label: string): GPUBuffer {
    const limit = this.device.limits.maxStorageBufferBindingSize;
    if (bytes > limit) {
      throw new VqError(`feature ${this.extractor}: a ${this.format.width}x${this.format.height} picture needs ${bytes}-byte GPU buffers, over this GPU's limit of ${limit}`);
    }
    const buffer = this.device.createBuffer({ label, size: Math.max(16, bytes), usage: GPUBufferUsage.STORAGE });
    this.owned.push(buffer);
    return buffer;
  }
}
