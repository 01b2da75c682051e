import { VqError, packedLayout, type FeatureCollector, type PictureFormat } from "@vq/core";
import { LUMA_INPUTS, computePipeline, planeUniforms, type GpuContext, type GpuFrame, type GpuStage, type PassRecorder } from "@vq/gpu-core";
import { admGeometry, type AdmGeometry } from "./adm-gpu-geometry.ts";
import { ADM_KERNELS, BINDING, TILE, type AdmKernel, type BindingName } from "./adm-gpu-kernels.ts";
import { admParams, PARAMS_BYTES, SUM_WORDS_PER_SCALE } from "./adm-gpu-params.ts";
import { admScoresFromSums } from "./adm-gpu-sums.ts";
import { admSettings } from "./adm-cpu.ts";
import { SIMD_PROFILES, type AdmScores, type AdmSettings, type SimdProfile } from "./adm-pipeline.ts";
import { appendAdmFrame } from "./adm-scale-scores.ts";
import { filterRegion, scoreRegion } from "./band-region.ts";
import { walkRange } from "./contrast-masking.ts";
import { ADM_DEBUG_FEATURES, ADM_FEATURES, admDefinition, admFeatureName, admOptions, type AdmOptions } from "./definition.ts";

/** Bands of the scale being computed: reference and distorted h, v, d (det), decoupled (dec) and filtered (flt). */
const BANDS_PER_BUFFER = 6;

/**
 * GPU twin of AdmCpu: libvmaf's integer adm in WGSL, in its exact integer arithmetic
 * (int64 steps on u32 pairs; its few float and double steps emulated exactly in
 * integers). Per scale: DWT, decoupling with CSF weighting, then the denominator and the
 * contrast-masking sums, reduced per row with libvmaf's rounding shifts and added
 * exactly. Only the 36 uint64/int64 sums come back; the float steps after them (cube
 * roots with glibc's powf, the ratios) run on the CPU in the code AdmCpu uses.
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
  private device?: GPUDevice;
  private buffers: GPUBuffer[] = [];
  private resources?: Record<Exclude<BindingName, "ref" | "dist" | "sums" | "params">, GPUBuffer>;
  private params: GPUBuffer[] = [];
  private pipelines = new Map<AdmKernel, GPUComputePipeline>();
  private bindGroups = new Map<string, WeakMap<GPUBuffer, GPUBindGroup>>();
  private result?: AdmScores;
  private width = 0;
  private height = 0;

  /** @param simd the libvmaf build to reproduce (see AdmCpu); x86 AVX-512 by default. */
  constructor(
    readonly options: AdmOptions,
    readonly simd: SimdProfile = SIMD_PROFILES.avx512,
  ) {
    this.names = ADM_FEATURES.map((n) => admFeatureName(n, options));
    this.debugNames = ADM_DEBUG_FEATURES.map((n) => admFeatureName(n, options));
  }

  init(gpu: GpuContext, format: PictureFormat): void {
    admDefinition.checkFormat?.(this.options, format);
    const settings = admSettings(this.options, this.simd);
    const geometry = admGeometry(format.width, format.height);
    const device = gpu.device;
    const limits = device.limits;
    const bandBytes = geometry.bandCap * 4 * BANDS_PER_BUFFER;
    const largest = Math.max(bandBytes, geometry.pyrLength * 4, geometry.tmpLength * 4);
    if (largest > limits.maxStorageBufferBindingSize || largest > limits.maxBufferSize) {
      throw new VqError(
        `feature adm: ${format.width}x${format.height} needs ${largest} bytes per GPU buffer, more than this GPU allows (${Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize)}); use --backend cpu`,
      );
    }
    const s0 = geometry.scales[0]!;
    if (Math.ceil(s0.w / TILE) > limits.maxComputeWorkgroupsPerDimension || Math.ceil(s0.h / TILE) > limits.maxComputeWorkgroupsPerDimension) {
      throw new VqError(`feature adm: ${format.width}x${format.height} exceeds this GPU's dispatch limit of ${limits.maxComputeWorkgroupsPerDimension} workgroups`);
    }
    this.settings = settings;
    this.geometry = geometry;
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
    this.resources = {
      planes: uniform("adm planes", planeUniforms(format, planes)),
      pyr: storage("adm a bands", geometry.pyrLength * 4),
      det: storage("adm detail bands", bandBytes),
      // a fresh buffer is zero: what libvmaf's never-written temporary memory reads as here
      tmp: storage("adm temporary rows", geometry.tmpLength * 4),
      dec: storage("adm decoupled bands", bandBytes),
      flt: storage("adm masking filter bands", bandBytes),
    };
    this.params = admParams(geometry, format.width, format.bitDepth, settings).map((p, s) => uniform(`adm params scale ${s}`, p));
    for (const k of Object.values(ADM_KERNELS)) this.pipelines.set(k, computePipeline(device, k.spec));
  }

  encode(_encoder: GPUCommandEncoder, passes: PassRecorder, frame: GpuFrame, results: GPUBuffer, resultOffset: number): void {
    const geometry = this.geometry!;
    const settings = this.settings!;
    for (let scale = 0; scale < 4; scale++) {
      const g = geometry.scales[scale]!;
      const first = scale === 0;
      const vertical = first ? ADM_KERNELS.vertical0 : ADM_KERNELS.vertical123;
      this.dispatch(passes, `adm dwt vertical ${scale}`, vertical, scale, frame, results, resultOffset, [Math.ceil(g.inW / TILE), Math.ceil(g.h / TILE), 2]);
      const horizontal = first ? ADM_KERNELS.horizontal0 : ADM_KERNELS.horizontal123;
      this.dispatch(passes, `adm dwt horizontal ${scale}`, horizontal, scale, frame, results, resultOffset, [Math.ceil(g.w / TILE), Math.ceil(g.h / TILE), 2]);
      if (first && settings.skipScale0) continue;
      const f = filterRegion(g.w, g.h);
      const decouple = first ? ADM_KERNELS.decouple0 : ADM_KERNELS.decouple123;
      this.dispatch(passes, `adm decouple ${scale}`, decouple, scale, frame, results, resultOffset, [Math.ceil((f.right - f.left) / TILE), Math.ceil((f.bottom - f.top) / TILE), 1]);
      const s = scoreRegion(g.w, g.h);
      this.dispatch(passes, `adm den ${scale}`, first ? ADM_KERNELS.den0 : ADM_KERNELS.den123, scale, frame, results, resultOffset, [s.bottom - s.top, 1, 1]);
      const walk = walkRange(g.w, g.h);
      this.dispatch(passes, `adm masking ${scale}`, first ? ADM_KERNELS.masking0 : ADM_KERNELS.masking123, scale, frame, results, resultOffset, [walk.rowEnd - walk.rowStart, 1, 1]);
    }
  }

  private dispatch(passes: PassRecorder, label: string, kernel: AdmKernel, scale: number, frame: GpuFrame, results: GPUBuffer, resultOffset: number, groups: [number, number, number]): void {
    if (groups[0] <= 0 || groups[1] <= 0) return;
    const pass = passes.beginComputePass(label);
    pass.setPipeline(this.pipelines.get(kernel)!);
    pass.setBindGroup(0, this.bindGroup(kernel, scale, frame, results, resultOffset));
    pass.dispatchWorkgroups(groups[0], groups[1], groups[2]);
    pass.end();
  }

  /** Bind groups depend on the kernel, the scale and the frame slot's buffers: built once each. */
  private bindGroup(kernel: AdmKernel, scale: number, frame: GpuFrame, results: GPUBuffer, resultOffset: number): GPUBindGroup {
    const key = `${kernel.spec.entryPoint}:${scale}:${resultOffset}`;
    let bySlot = this.bindGroups.get(key);
    if (!bySlot) this.bindGroups.set(key, (bySlot = new WeakMap()));
    // frame buffers and the result buffer rotate together with the runner's slots
    const slotKey = kernel.bindings.includes("ref") ? frame.ref : results;
    let group = bySlot.get(slotKey);
    if (!group) {
      const resource = (name: BindingName): GPUBindingResource => {
        if (name === "ref") return { buffer: frame.ref };
        if (name === "dist") return { buffer: frame.dist };
        if (name === "params") return { buffer: this.params[scale]!, size: PARAMS_BYTES };
        if (name === "sums") return { buffer: results, offset: resultOffset, size: this.resultWords * 4 };
        return { buffer: this.resources![name] };
      };
      group = this.device!.createBindGroup({
        label: `${kernel.spec.label} ${scale}`,
        layout: this.pipelines.get(kernel)!.getBindGroupLayout(0),
        entries: kernel.bindings.map((name) => ({ binding: BINDING[name], resource: resource(name) })),
      });
      bySlot.set(slotKey, group);
    }
    return group;
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
    this.bindGroups.clear();
    this.pipelines.clear();
  }
}

export function createAdmGpu(options: Partial<AdmOptions> = {}): AdmGpu {
  return new AdmGpu(admOptions.resolve(options));
}
