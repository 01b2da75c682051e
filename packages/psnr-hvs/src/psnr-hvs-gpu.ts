import { packedLayout, VqError, type FeatureCollector, type PictureFormat } from "@vq/core";
import { planeUniforms, stageKernel, type GpuContext, type GpuFrame, type GpuStage, type PassRecorder, type StageKernel } from "@vq/gpu-core";
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
  /** Per plane the float sum's bits, then the count of blocks summed term by term, then whether libvmaf's sum is NaN. */
  readonly resultWords = 9;
  /** Blocks summed term by term, over every frame and plane so far (the rest were jumped). */
  termByTermBlocks = 0;
  private layout?: PsnrHvsGpuLayout;
  private bitDepth = 8;
  private termsKernel?: StageKernel;
  private sumKernel?: StageKernel;
  private planes?: GPUBuffer;
  private params?: GPUBuffer;
  private terms?: GPUBuffer;
  private records?: GPUBuffer;

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
    this.termsKernel = stageKernel(gpu.device, PSNR_HVS_TERMS_KERNEL);
    this.sumKernel = stageKernel(gpu.device, { ...PSNR_HVS_SUM_KERNEL, constants: { JUMP_GROUPS: this.variant.jumpGroups === false ? 0 : 1 } });
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
    const shared = { params: this.params!, terms: this.terms!, records: this.records! };
    this.termsKernel!.dispatch(passes, { ref_frame: frame.ref, dist_frame: frame.dist, planes: this.planes!, ...shared }, [Math.max(...layout.planes.map((p) => p.groups)), 1, 3]);
    const sums = { buffer: results, offset: resultOffset, size: this.resultWords * 4 };
    this.sumKernel!.dispatch(passes, { ...shared, results: sums }, [1, 1, 3]);
  }

  collect(words: Uint32Array, index: number, collector: FeatureCollector): void {
    const errors = [0, 0, 0] as [number, number, number];
    this.layout!.planes.forEach((plane, p) => {
      f32Bits[0] = words[p]!;
      errors[p] = words[6 + p] ? NaN : normalisedError(f32[0]!, plane.blocks * 64, this.bitDepth);
      this.termByTermBlocks += words[3 + p]!;
    });
    writePsnrHvs(errors, index, collector, this.bitDepth);
  }

  close(): void {
    for (const b of [this.planes, this.params, this.terms, this.records]) b?.destroy();
  }
}

export function createPsnrHvsGpu(options: Partial<PsnrHvsOptions> = {}): PsnrHvsGpu {
  return new PsnrHvsGpu(psnrHvsOptions.resolve(options));
}
