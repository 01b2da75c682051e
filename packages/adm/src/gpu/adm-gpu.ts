import { VqError, packedLayout, type FeatureCollector, type PictureFormat } from "@vq/core";
import { LUMA_INPUTS, bufferFrom, planeUniforms, stageKernels, type GpuContext, type GpuFrameBatch, type GpuStage, type Bindings, type PassRecorder, type StageKernel } from "@vq/gpu-core";
import { ADM_GROUP_BUDGET_BYTES, admFrameLayout, admGeometry, admGroupFrames, FRAMES_WORDS, staleSource, type AdmFrameLayout, type AdmGeometry } from "./adm-gpu-geometry.ts";
import { ADM_KERNELS, TILE } from "./adm-gpu-kernels.ts";
import { admParams, PARAMS_BYTES, SUM_WORDS_PER_SCALE } from "./adm-gpu-params.ts";
import { admScoresFromSums } from "./adm-gpu-sums.ts";
import { admSettings } from "../cpu/adm-cpu.ts";
import { SIMD_PROFILES, type AdmScores, type AdmSettings, type SimdProfile } from "../cpu/adm-pipeline.ts";
import { appendAdmFrame } from "../cpu/adm-scale-scores.ts";
import { scoreRegion } from "../numerics/band-region.ts";
import { walkRange } from "../numerics/contrast-masking.ts";
import { vectorOvershoots } from "../numerics/dwt2.ts";
import { ADM_DEBUG_FEATURES, ADM_FEATURES, admDefinition, admFeatureName, admOptions, type AdmOptions } from "../definition.ts";

/**
 * GPU twin of AdmCpu: libvmaf's integer adm in WGSL, in its exact integer arithmetic
 * (int64 steps on u32 pairs; its few float and double steps emulated exactly in
 * integers). Per scale, for every frame of a batch at once: DWT, decoupling with CSF
 * weighting (and the denominator's cubes), then the contrast-masking sums, reduced per
 * row with libvmaf's rounding shifts and added exactly. Only the 36 uint64/int64 sums of
 * a frame come back; the float steps after them (cube roots with glibc's powf, the
 * ratios) run on the CPU in the code AdmCpu uses.
 */
export class AdmGpu implements GpuStage {
  readonly definition = admDefinition;
  readonly label = "adm";
  /** Luma only, like libvmaf's extractor: chroma is never uploaded for it. */
  readonly inputs = LUMA_INPUTS;
  readonly temporal = admDefinition.temporal;
  readonly resultWords = 4 * SUM_WORDS_PER_SCALE;
  private readonly names: string[];
  private readonly debugNames: string[];
  private settings?: AdmSettings;
  private geometry?: AdmGeometry;
  /** Rows the masking pass walks, per scale (one workgroup each). */
  private maskingRows: number[] = [];
  private device?: GPUDevice;
  private buffers: GPUBuffer[] = [];
  /** adm's own buffers, by the names its kernels bind them under. */
  private resources?: { planes: GPUBuffer; frames: GPUBuffer; pyr: GPUBuffer; det: GPUBuffer; stale: GPUBuffer; den_rows: GPUBuffer };
  /** Each scale's params, as bound. */
  private params: GPUBufferBinding[] = [];
  private kernels?: Record<keyof typeof ADM_KERNELS, StageKernel>;
  private layout?: AdmFrameLayout;
  /** Frames whose intermediates fit at once (a batch of more runs in groups of this many). */
  group = 1;
  private frameStrides?: Uint32Array<ArrayBuffer>;
  private readsPreviousFrame = false;
  private staleScale = 1;
  private result?: AdmScores;
  private width = 0;
  private height = 0;

  /**
   * @param simd the libvmaf build to reproduce (see AdmCpu); x86 AVX-512 by default.
   * @param budgetBytes GPU memory for the intermediates of the frames of a batch (see admGroupFrames).
   */
  constructor(
    readonly options: AdmOptions,
    readonly simd: SimdProfile = SIMD_PROFILES.avx512,
    readonly budgetBytes = ADM_GROUP_BUDGET_BYTES,
  ) {
    this.names = ADM_FEATURES.map((n) => admFeatureName(n, options));
    this.debugNames = ADM_DEBUG_FEATURES.map((n) => admFeatureName(n, options));
  }

  init(gpu: GpuContext, format: PictureFormat, maxBatch = 1): Promise<void> {
    admDefinition.checkFormat?.(this.options, format);
    const settings = admSettings(this.options, this.simd);
    const simd = settings.simd ?? SIMD_PROFILES.avx512;
    // libvmaf's x86 scale-0 kernel reads, at the last column, what the previous frame left
    // in its temporary rows (that frame's scales may depend on it in turn): then frames run
    // one after the other, each leaving that value for the next (dwt_stale)
    const readsPreviousFrame = !settings.skipScale0 && vectorOvershoots((format.width + 1) >> 1, format.bitDepth === 8 ? simd.scale0Bits8 : simd.scale0HighBits);
    const geometry = admGeometry(format.width, format.height);
    const device = gpu.device;
    // every kernel first, to build on Dawn's threads while the rest is set up (a cold start's largest part)
    const built = stageKernels(device, ADM_KERNELS);
    built.catch(() => {}); // reported by the returned promise, unless a check below throws first
    const limits = device.limits;
    const bufferLimit = Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
    const layout = admFrameLayout(geometry);
    const largest = Math.max(layout.bandWords, layout.pyrWords) * 4;
    if (largest > bufferLimit) {
      throw new VqError(`feature adm: ${format.width}x${format.height} needs ${largest} bytes per GPU buffer, more than this GPU allows (${bufferLimit}); use --backend cpu`);
    }
    const s0 = geometry.scales[0]!;
    if (Math.ceil(s0.w / TILE) > limits.maxComputeWorkgroupsPerDimension || Math.ceil(s0.h / TILE) > limits.maxComputeWorkgroupsPerDimension) {
      throw new VqError(`feature adm: ${format.width}x${format.height} exceeds this GPU's dispatch limit of ${limits.maxComputeWorkgroupsPerDimension} workgroups`);
    }
    this.maskingRows = geometry.scales.map((g) => {
      // den and masking share their rows and columns (fused passes rely on it)
      const s = scoreRegion(g.w, g.h);
      const walk = walkRange(g.w, g.h);
      if (walk.rowStart !== s.top || walk.rowEnd !== s.bottom || walk.colStart !== s.left || walk.colEnd !== s.right) throw new Error("adm: masking walk differs from the score region");
      return walk.rowEnd - walk.rowStart;
    });
    this.readsPreviousFrame = readsPreviousFrame;
    this.staleScale = staleSource(geometry, format.width).scale;
    const group = readsPreviousFrame ? 1 : admGroupFrames(layout, maxBatch, bufferLimit, this.budgetBytes);
    this.settings = settings;
    this.geometry = geometry;
    this.layout = layout;
    this.group = group;
    this.device = device;
    this.width = format.width;
    this.height = format.height;
    this.result = { score: 0, aim: 0, num: 0, den: 0, scales: new Float64Array(8) };

    const storage = (label: string, bytes: number) => {
      const b = device.createBuffer({ label, size: Math.max(16, bytes), usage: GPUBufferUsage.STORAGE });
      this.buffers.push(b);
      return b;
    };
    const uniform = (label: string, data: Uint32Array<ArrayBuffer>) => {
      const b = device.createBuffer({ label, size: data.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
      device.queue.writeBuffer(b, 0, data);
      this.buffers.push(b);
      return b;
    };
    const { planes } = packedLayout(format);
    this.frameStrides = new Uint32Array(FRAMES_WORDS);
    this.resources = {
      planes: uniform("adm planes", planeUniforms(format, planes)),
      frames: uniform("adm batch layout", this.frameStrides),
      pyr: storage("adm a bands", group * layout.pyrWords * 4),
      det: storage("adm detail bands", group * layout.bandWords * 4),
      // a fresh buffer is zero: what libvmaf's never-written temporary memory reads as here
      stale: storage("adm dwt row for the next frame", 4),
      // zero between scales: each masking pass clears the rows it has read
      den_rows: storage("adm denominator rows", group * layout.rowsWords * 4),
    };
    this.params = admParams(geometry, format.width, format.bitDepth, settings).map((p, s) => ({ buffer: uniform(`adm params scale ${s}`, p), size: PARAMS_BYTES }));
    return built.then((kernels) => {
      this.kernels = kernels;
    });
  }

  /** Bytes of GPU memory this stage holds (its intermediates for `group` frames and its uniforms). */
  get allocatedBytes(): number {
    return this.buffers.reduce((n, b) => n + b.size, 0);
  }

  encodeBatch(_encoder: GPUCommandEncoder, passes: PassRecorder, batch: GpuFrameBatch, results: GPUBuffer, resultOffset: number, resultStride: number): void {
    this.writeFrameStrides(batch, resultStride);
    // frames beyond the intermediates' capacity run in further groups, one after the other
    for (let first = 0; first < batch.count; first += this.group) {
      const count = Math.min(this.group, batch.count - first);
      const views: GroupViews = {
        ref_frame: bufferFrom(batch.ref, (batch.base + first) * batch.refStride),
        dist_frame: bufferFrom(batch.dist, (batch.base + first) * batch.distStride),
        sums: bufferFrom(results, resultOffset + first * resultStride),
      };
      this.encodeGroup(passes, views, count);
    }
  }

  /** The batch layout is fixed for a run; written (before the batch's submit) only when it changes. */
  private writeFrameStrides(batch: GpuFrameBatch, resultStride: number): void {
    const layout = this.layout!;
    const words = [batch.refStride / 4, batch.distStride / 4, resultStride / 4, layout.pyrWords, layout.bandWords, layout.rowsWords, 0, 0];
    if (words.every((w, i) => this.frameStrides![i] === w)) return;
    this.frameStrides!.set(words);
    this.device!.queue.writeBuffer(this.resources!.frames, 0, this.frameStrides!);
  }

  private encodeGroup(passes: PassRecorder, views: GroupViews, count: number): void {
    const geometry = this.geometry!;
    const settings = this.settings!;
    const kernels = this.kernels!;
    for (let scale = 0; scale < 4; scale++) {
      const g = geometry.scales[scale]!;
      const first = scale === 0;
      // every kernel binds what it uses of these (ADM_KERNELS' `uses`)
      const bindings = { ...views, ...this.resources!, params: this.params[scale]! };
      dispatch(passes, first ? kernels.bands0 : kernels.bands123, bindings, [Math.ceil(g.w / TILE), Math.ceil(g.h / TILE), count], `adm dwt, decoupling and den ${scale}`);
      // after this frame's a band of the scale before: the value the next frame's scale 0 reads
      if (this.readsPreviousFrame && scale === this.staleScale) dispatch(passes, kernels.stale, bindings, [1, 1, 1], "adm dwt row for the next frame");
      if (first && settings.skipScale0) continue;
      dispatch(passes, first ? kernels.masking0 : kernels.masking123, bindings, [this.maskingRows[scale]!, 1, count], `adm masking and den ${scale}`);
    }
  }

  collect(words: Uint32Array, index: number, collector: FeatureCollector): void {
    const r = admScoresFromSums(words, this.geometry!, this.width, this.height, this.settings!, this.result!);
    appendAdmFrame(r, this.options, this.names, this.debugNames, index, collector);
  }

  flush(): void {}

  close(): void {
    for (const b of this.buffers) b.destroy();
    this.buffers = [];
    this.params = [];
    this.kernels = undefined;
  }
}

/** The frame buffers and results of a group of frames, from its first frame on. */
interface GroupViews {
  ref_frame: GPUBufferBinding;
  dist_frame: GPUBufferBinding;
  sums: GPUBufferBinding;
}

/** A dispatch, left out when a scale is too small to have its region. */
function dispatch(passes: PassRecorder, kernel: StageKernel, bindings: Bindings, workgroups: [number, number, number], label: string): void {
  if (workgroups[0] > 0 && workgroups[1] > 0) kernel.dispatch(passes, bindings, workgroups, label);
}

export function createAdmGpu(options: Partial<AdmOptions> = {}): AdmGpu {
  return new AdmGpu(admOptions.resolve(options));
}
