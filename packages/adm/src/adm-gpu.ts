import { VqError, packedLayout, type FeatureCollector, type PictureFormat } from "@vq/core";
import { LUMA_INPUTS, computePipelines, planeUniforms, type GpuContext, type GpuFrameBatch, type GpuStage, type PassRecorder } from "@vq/gpu-core";
import { ADM_GROUP_BUDGET_BYTES, admFrameLayout, admGeometry, admGroupFrames, FRAMES_WORDS, staleSource, type AdmFrameLayout, type AdmGeometry } from "./adm-gpu-geometry.ts";
import { ADM_KERNELS, BINDING, TILE, type AdmKernel, type BindingName } from "./adm-gpu-kernels.ts";
import { admParams, PARAMS_BYTES, SUM_WORDS_PER_SCALE } from "./adm-gpu-params.ts";
import { admScoresFromSums } from "./adm-gpu-sums.ts";
import { admSettings } from "./adm-cpu.ts";
import { SIMD_PROFILES, type AdmScores, type AdmSettings, type SimdProfile } from "./adm-pipeline.ts";
import { appendAdmFrame } from "./adm-scale-scores.ts";
import { scoreRegion } from "./band-region.ts";
import { walkRange } from "./contrast-masking.ts";
import { vectorOvershoots } from "./dwt2.ts";
import { ADM_DEBUG_FEATURES, ADM_FEATURES, admDefinition, admFeatureName, admOptions, type AdmOptions } from "./definition.ts";

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
  private resources?: Record<Exclude<BindingName, "ref" | "dist" | "sums" | "params">, GPUBuffer>;
  private params: GPUBuffer[] = [];
  private pipelines = new Map<AdmKernel, GPUComputePipeline>();
  private bindGroups = new WeakMap<object, Map<string, GPUBindGroup>>();
  private layout?: AdmFrameLayout;
  /** Frames whose intermediates fit at once (a batch of more runs in groups of this many). */
  group = 1;
  private frameStrides?: Uint32Array<ArrayBuffer>;
  private readsPreviousFrame = false;
  private staleScale = 1;
  private bufferIds = new WeakMap<GPUBuffer, number>();
  private nextBufferId = 0;
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
    const kernels = Object.values(ADM_KERNELS);
    const built = computePipelines(device, kernels.map((k) => k.spec));
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
      denRows: storage("adm denominator rows", group * layout.rowsWords * 4),
    };
    this.params = admParams(geometry, format.width, format.bitDepth, settings).map((p, s) => uniform(`adm params scale ${s}`, p));
    return built.then((pipelines) => kernels.forEach((k, i) => this.pipelines.set(k, pipelines[i]!)));
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
        ref: view(batch.ref, (batch.base + first) * batch.refStride),
        dist: view(batch.dist, (batch.base + first) * batch.distStride),
        results: view(results, resultOffset + first * resultStride),
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
    for (let scale = 0; scale < 4; scale++) {
      const g = geometry.scales[scale]!;
      const first = scale === 0;
      this.dispatch(passes, `adm dwt, decoupling and den ${scale}`, first ? ADM_KERNELS.bands0 : ADM_KERNELS.bands123, scale, views, [Math.ceil(g.w / TILE), Math.ceil(g.h / TILE), count]);
      // after this frame's a band of the scale before: the value the next frame's scale 0 reads
      if (this.readsPreviousFrame && scale === this.staleScale) this.dispatch(passes, "adm dwt row for the next frame", ADM_KERNELS.stale, scale, views, [1, 1, 1]);
      if (first && settings.skipScale0) continue;
      this.dispatch(passes, `adm masking and den ${scale}`, first ? ADM_KERNELS.masking0 : ADM_KERNELS.masking123, scale, views, [this.maskingRows[scale]!, 1, count]);
    }
  }

  private dispatch(passes: PassRecorder, label: string, kernel: AdmKernel, scale: number, views: GroupViews, groups: [number, number, number]): void {
    if (groups[0] <= 0 || groups[1] <= 0) return;
    const pass = passes.beginComputePass(label);
    pass.setPipeline(this.pipelines.get(kernel)!);
    pass.setBindGroup(0, this.bindGroup(kernel, scale, views));
    pass.dispatchWorkgroups(groups[0], groups[1], groups[2]);
    pass.end();
  }

  /**
   * Bind groups depend on the kernel, the scale and the views of the frames and results
   * (which rotate with the runner's ring): built once each.
   */
  private bindGroup(kernel: AdmKernel, scale: number, views: GroupViews): GPUBindGroup {
    const usesFrame = kernel.bindings.includes("ref");
    const usesSums = kernel.bindings.includes("sums");
    const owner: object = usesFrame ? views.ref.buffer : usesSums ? views.results.buffer : this;
    const key = `${kernel.spec.entryPoint}:${scale}:${usesFrame ? `${views.ref.offset}:${this.bufferId(views.dist.buffer)}:${views.dist.offset}` : ""}:${usesSums ? views.results.offset : ""}`;
    let byKey = this.bindGroups.get(owner);
    if (!byKey) this.bindGroups.set(owner, (byKey = new Map()));
    let group = byKey.get(key);
    if (!group) {
      const resource = (name: BindingName): GPUBindingResource => {
        if (name === "ref") return views.ref;
        if (name === "dist") return views.dist;
        if (name === "sums") return views.results;
        if (name === "params") return { buffer: this.params[scale]!, size: PARAMS_BYTES };
        return { buffer: this.resources![name] };
      };
      group = this.device!.createBindGroup({
        label: `${kernel.spec.label} ${scale}`,
        layout: this.pipelines.get(kernel)!.getBindGroupLayout(0),
        entries: kernel.bindings.map((name) => ({ binding: BINDING[name], resource: resource(name) })),
      });
      byKey.set(key, group);
    }
    return group;
  }

  private bufferId(buffer: GPUBuffer): number {
    let id = this.bufferIds.get(buffer);
    if (id === undefined) this.bufferIds.set(buffer, (id = this.nextBufferId++));
    return id;
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
    this.bindGroups = new WeakMap();
    this.pipelines.clear();
  }
}

/** The frame buffers and results of a group of frames, from its first frame on. */
interface GroupViews {
  ref: GPUBufferBinding & { buffer: GPUBuffer; offset: number };
  dist: GPUBufferBinding & { buffer: GPUBuffer; offset: number };
  results: GPUBufferBinding & { buffer: GPUBuffer; offset: number };
}

function view(buffer: GPUBuffer, offset: number): GPUBufferBinding & { buffer: GPUBuffer; offset: number } {
  return { buffer, offset, size: buffer.size - offset };
}

export function createAdmGpu(options: Partial<AdmOptions> = {}): AdmGpu {
  return new AdmGpu(admOptions.resolve(options));
}
