import { packedLayout, VqError, type FeatureCollector, type PictureFormat } from "@vq/core";
import { computePipeline, planeUniforms, type GpuContext, type GpuFrame, type GpuStage, type PassRecorder } from "@vq/gpu-core";
import frameWgsl from "../../../shaders/common/frame.wgsl" with { type: "text" };
import floatSumWgsl from "../../../shaders/psnr-hvs/float-sum.wgsl" with { type: "text" };
import odDctWgsl from "../../../shaders/psnr-hvs/od-dct.wgsl" with { type: "text" };
import paramsWgsl from "../../../shaders/psnr-hvs/params.wgsl" with { type: "text" };
import termsWgsl from "../../../shaders/psnr-hvs/terms.wgsl" with { type: "text" };
import exactWgsl from "../../../shaders/speed/exact-f32.wgsl" with { type: "text" };
import { psnrHvsDefinition, psnrHvsOptions, type PsnrHvsOptions } from "./definition.ts";
import { RECORD_WORDS, psnrHvsGpuLayout, psnrHvsParams, type PsnrHvsGpuLayout } from "./psnr-hvs-gpu-layout.ts";
import { normalisedError } from "./plane-error.ts";
import { writePsnrHvs } from "./psnr-hvs-score.ts";

export const PSNR_HVS_TERMS_KERNEL = { label: "psnr_hvs terms", code: [frameWgsl, paramsWgsl, exactWgsl, odDctWgsl, termsWgsl].join("\n") };
export const PSNR_HVS_SUM_KERNEL = { label: "psnr_hvs sum", code: [paramsWgsl, floatSumWgsl].join("\n") };

const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);

/**
 * GPU twin of PsnrHvsCpu, bit for bit: kernel 1 computes every block's terms in libvmaf's
 * float steps and, per block and per group of 64 blocks, how many ulps they add to a float
 * sum in each binade; kernel 2 replays libvmaf's sequential float sum a group at a time
 * (block by block, or term by term, where a jump would cross a binade or meet a tie). The normalisation and dB are the CPU's, on the
 * read-back float sums. Design and measurements: adr/0008-psnr-hvs-float-sum-on-the-gpu.md.
 */
export class PsnrHvsGpu implements GpuStage {
  readonly definition = psnrHvsDefinition;
  readonly label = "psnr_hvs";
  readonly temporal = psnrHvsDefinition.temporal;
  /** Per plane the float sum's bits, then the count of blocks summed term by term. */
  readonly resultWords = 6;
  /** Blocks summed term by term, over every frame and plane so far (the rest were jumped). */
  termByTermBlocks = 0;
  private layout?: PsnrHvsGpuLayout;
  private bitDepth = 8;
  private device?: GPUDevice;
  private termsPipeline?: GPUComputePipeline;
  private sumPipeline?: GPUComputePipeline;
  private planes?: GPUBuffer;
  private params?: GPUBuffer;
  private terms?: GPUBuffer;
  private records?: GPUBuffer;
  private termsGroups = new WeakMap<object, GPUBindGroup>();
  /** By result buffer and offset: a batch's frames write to different offsets of one buffer. */
  private sumGroups = new WeakMap<object, Map<number, GPUBindGroup>>();

  /** `jumpGroups: false` sums every term one by one (the plain sequential sum), for tests and measurements. */
  constructor(
    readonly options: PsnrHvsOptions,
    private readonly variant: { jumpGroups?: boolean } = {},
  ) {}

  init(gpu: GpuContext, format: PictureFormat): void {
    psnrHvsDefinition.checkFormat?.(this.options, format);
    const layout = psnrHvsGpuLayout(format);
    const { limits } = gpu.device;
    const groups = layout.planes[0]!.groups;
    if (groups > limits.maxComputeWorkgroupsPerDimension) {
      throw new VqError(`feature psnr_hvs: ${format.width}x${format.height} needs ${groups} workgroups, more than this GPU's dispatch limit of ${limits.maxComputeWorkgroupsPerDimension}`);
    }
    const bytes = Math.max(layout.terms * 4, layout.records * RECORD_WORDS * 4);
    if (bytes > limits.maxStorageBufferBindingSize) {
      throw new VqError(`feature psnr_hvs: ${format.width}x${format.height} needs a ${bytes}-byte buffer, more than this GPU's limit of ${limits.maxStorageBufferBindingSize}`);
    }
    this.layout = layout;
    this.bitDepth = format.bitDepth;
    this.device = gpu.device;
    this.termsPipeline = computePipeline(gpu.device, PSNR_HVS_TERMS_KERNEL);
    this.sumPipeline = computePipeline(gpu.device, { ...PSNR_HVS_SUM_KERNEL, constants: { JUMP_GROUPS: this.variant.jumpGroups === false ? 0 : 1 } });
    this.planes = gpu.device.createBuffer({ label: "psnr_hvs planes", size: 64, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    gpu.device.queue.writeBuffer(this.planes, 0, planeUniforms(format, packedLayout(format).planes));
    const params = psnrHvsParams(layout);
    this.params = gpu.device.createBuffer({ label: "psnr_hvs params", size: params.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    gpu.device.queue.writeBuffer(this.params, 0, params);
    this.terms = gpu.device.createBuffer({ label: "psnr_hvs terms", size: layout.terms * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
    this.records = gpu.device.createBuffer({ label: "psnr_hvs records", size: layout.records * RECORD_WORDS * 4, usage: GPUBufferUsage.STORAGE });
  }

  /** The terms buffer (every block's 64 terms, plane after plane), for tests. */
  get termsBuffer(): GPUBuffer | undefined {
    return this.terms;
  }

  encode(_encoder: GPUCommandEncoder, passes: PassRecorder, frame: GpuFrame, results: GPUBuffer, resultOffset: number): void {
    const layout = this.layout!;
    const termsPass = passes.beginComputePass("psnr_hvs terms");
    termsPass.setPipeline(this.termsPipeline!);
    termsPass.setBindGroup(0, this.termsBindGroup(frame));
    termsPass.dispatchWorkgroups(Math.max(...layout.planes.map((p) => p.groups)), 1, 3);
    termsPass.end();
    const sumPass = passes.beginComputePass("psnr_hvs sum");
    sumPass.setPipeline(this.sumPipeline!);
    sumPass.setBindGroup(0, this.sumBindGroup(results, resultOffset));
    sumPass.dispatchWorkgroups(1, 1, 3);
    sumPass.end();
  }

  /** Bind groups depend only on which slot's buffers a frame uses: built once per slot. */
  private termsBindGroup(frame: GpuFrame): GPUBindGroup {
    let g = this.termsGroups.get(frame.ref);
    if (!g) {
      g = this.device!.createBindGroup({
        layout: this.termsPipeline!.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: frame.ref },
          { binding: 1, resource: frame.dist },
          { binding: 2, resource: { buffer: this.planes! } },
          { binding: 3, resource: { buffer: this.params! } },
          { binding: 4, resource: { buffer: this.terms! } },
          { binding: 5, resource: { buffer: this.records! } },
        ],
      });
      this.termsGroups.set(frame.ref, g);
    }
    return g;
  }

  private sumBindGroup(results: GPUBuffer, resultOffset: number): GPUBindGroup {
    let byOffset = this.sumGroups.get(results);
    if (!byOffset) this.sumGroups.set(results, (byOffset = new Map()));
    let g = byOffset.get(resultOffset);
    if (!g) {
      g = this.device!.createBindGroup({
        layout: this.sumPipeline!.getBindGroupLayout(0),
        entries: [
          { binding: 3, resource: { buffer: this.params! } },
          { binding: 4, resource: { buffer: this.terms! } },
          { binding: 5, resource: { buffer: this.records! } },
          { binding: 6, resource: { buffer: results, offset: resultOffset, size: this.resultWords * 4 } },
        ],
      });
      byOffset.set(resultOffset, g);
    }
    return g;
  }

  collect(words: Uint32Array, index: number, collector: FeatureCollector): void {
    const errors = [0, 0, 0] as [number, number, number];
    this.layout!.planes.forEach((plane, p) => {
      f32Bits[0] = words[p]!;
      errors[p] = normalisedError(f32[0]!, plane.blocks * 64, this.bitDepth);
      this.termByTermBlocks += words[3 + p]!;
    });
    writePsnrHvs(errors, index, collector);
  }

  close(): void {
    for (const b of [this.planes, this.params, this.terms, this.records]) b?.destroy();
  }
}

export function createPsnrHvsGpu(options: Partial<PsnrHvsOptions> = {}): PsnrHvsGpu {
  return new PsnrHvsGpu(psnrHvsOptions.resolve(options));
}
