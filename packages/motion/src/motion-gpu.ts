import { packedLayout, uint64ToNumber, VqError, type FeatureCollector, type PictureFormat } from "@vq/core";
import { computePipeline, planeUniforms, type GpuContext, type GpuFrame, type GpuStage, type PassRecorder, type FrameInputs } from "@vq/gpu-core";
import frameWgsl from "../../../shaders/common/frame.wgsl" with { type: "text" };
import motionWgsl from "../../../shaders/motion/motion.wgsl" with { type: "text" };
import { motionDefinition, motionFeatureNames, motionFrameDistance, motionOptions, type MotionFeatureNames, type MotionOptions } from "./definition.ts";
import { sadScore } from "./motion-cpu.ts";
import { writeMotion2And3 } from "./motion-temporal.ts";

const MOTION_CODE = [frameWgsl, motionWgsl].join("\n");

/** The two kernels of shaders/motion/motion.wgsl for a bit depth (the vertical pass shifts by it). */
export function motionKernels(bitDepth: number) {
  const constants = { BPC: bitDepth };
  return {
    columns: { label: "motion columns", code: MOTION_CODE, entryPoint: "blur_columns", constants },
    sad: { label: "motion sad", code: MOTION_CODE, entryPoint: "motion_sad", constants },
  };
}

/**
 * GPU twin of MotionCpu. Per frame one dispatch computes the reference luma's vertical blur
 * sums into a ring of GPU buffers allocated at init (the current frame and the 1 or 2 before
 * it: the history never leaves the GPU) and, from the first frame with a predecessor, fuses
 * the difference with the earlier frame's sums, the horizontal blur and the exact uint64 SAD
 * into two result words. The score, motion2 and motion3 come from the CPU package's shared
 * code (sadScore, writeMotion2And3), so the backends cannot diverge.
 */
export class MotionGpu implements GpuStage {
  readonly definition = motionDefinition;
  readonly label = "motion";
  /** libvmaf's motion reads the reference's luma only. */
  readonly inputs: FrameInputs = { reference: "luma", distorted: "none" };
  readonly temporal = motionDefinition.temporal;
  /** The SAD as a uint64: low word, high word. */
  readonly resultWords = 2;
  readonly names: MotionFeatureNames;
  private readonly distance: 1 | 2;
  private format?: PictureFormat;
  private device?: GPUDevice;
  private columnsPipeline?: GPUComputePipeline;
  private sadPipeline?: GPUComputePipeline;
  private uniforms?: GPUBuffer;
  /** Column sums of the current frame and the `distance` before it (ring, by frames encoded). */
  private columns: GPUBuffer[] = [];
  /** Per frame slot (keyed by its ref buffer): bind groups by ring position and kernel. */
  private bindGroups = new WeakMap<GPUBuffer, GPUBindGroup[]>();
  private encoded = 0;

  constructor(readonly options: MotionOptions) {
    this.names = motionFeatureNames(options);
    this.distance = motionFrameDistance(options);
  }

  init(gpu: GpuContext, format: PictureFormat): void {
    motionDefinition.checkFormat?.(this.options, format);
    this.close();
    this.format = format;
    this.encoded = 0;
    if (this.options.motion_force_zero) return; // every score is 0: no kernel runs
    const { device } = gpu;
    const { limits } = device;
    if (format.height > limits.maxComputeWorkgroupsPerDimension) {
      throw new VqError(`feature motion: ${format.height} rows exceed this GPU's dispatch limit of ${limits.maxComputeWorkgroupsPerDimension}`);
    }
    const bytes = format.width * format.height * 4;
    const maxBytes = Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
    if (bytes > maxBytes) {
      throw new VqError(`feature motion: a ${format.width}x${format.height} picture needs ${bytes}-byte GPU buffers, above this GPU's limit of ${maxBytes}`);
    }
    this.device = device;
    const kernels = motionKernels(format.bitDepth);
    this.columnsPipeline = computePipeline(device, kernels.columns);
    this.sadPipeline = computePipeline(device, kernels.sad);
    this.uniforms = device.createBuffer({ label: "motion planes", size: 64, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(this.uniforms, 0, planeUniforms(format, packedLayout(format).planes));
    this.columns = Array.from({ length: this.distance + 1 }, (_, i) =>
      device.createBuffer({ label: `motion columns ${i}`, size: bytes, usage: GPUBufferUsage.STORAGE }),
    );
  }

  encode(_encoder: GPUCommandEncoder, passes: PassRecorder, frame: GpuFrame, results: GPUBuffer, resultOffset: number): void {
    if (this.options.motion_force_zero) return;
    if (!this.format) throw new Error("motion: encode before init");
    const compare = frame.index >= this.distance;
    if (compare && this.encoded < this.distance) {
      throw new VqError(`feature motion: frame ${frame.index} needs the reference frame ${this.distance} before it, but only ${this.encoded} frames were seen`);
    }
    const position = this.encoded % this.columns.length;
    const pass = passes.beginComputePass(compare ? "motion sad" : "motion columns");
    pass.setPipeline(compare ? this.sadPipeline! : this.columnsPipeline!);
    pass.setBindGroup(0, this.bindGroup(frame, results, resultOffset, position, compare));
    pass.dispatchWorkgroups(this.format.height);
    pass.end();
    this.encoded++;
  }

  /**
   * Bind groups depend only on the frame slot, the ring position and the kernel: built once
   * each. The columns-only kernel uses neither the results nor an earlier frame's sums, and
   * neither kernel the distorted frame, so "auto" layouts leave those bindings out.
   */
  private bindGroup(frame: GpuFrame, results: GPUBuffer, resultOffset: number, position: number, compare: boolean): GPUBindGroup {
    let groups = this.bindGroups.get(frame.ref);
    if (!groups) this.bindGroups.set(frame.ref, (groups = []));
    const key = 2 * position + (compare ? 1 : 0);
    let g = groups[key];
    if (!g) {
      const cur = this.columns[position]!;
      const entries: GPUBindGroupEntry[] = [
        { binding: 0, resource: { buffer: frame.ref } },
        { binding: 2, resource: { buffer: this.uniforms! } },
        { binding: 5, resource: { buffer: cur } },
      ];
      if (compare) {
        const prev = this.columns[(position + this.columns.length - this.distance) % this.columns.length]!;
        entries.push({ binding: 3, resource: { buffer: results, offset: resultOffset, size: this.resultWords * 4 } }, { binding: 4, resource: { buffer: prev } });
      }
      const pipeline = compare ? this.sadPipeline! : this.columnsPipeline!;
      groups[key] = g = this.device!.createBindGroup({ label: `motion ${key}`, layout: pipeline.getBindGroupLayout(0), entries });
    }
    return g;
  }

  collect(words: Uint32Array, index: number, collector: FeatureCollector): void {
    const { width, height } = this.format!;
    let score = 0;
    if (!this.options.motion_force_zero && index >= this.distance) {
      score = sadScore(uint64ToNumber(words[1]!, words[0]!), width, height, this.options);
    }
    collector.append(this.names.sad, index, score);
    if (this.options.debug) collector.append(this.names.motion, index, score);
  }

  flush(collector: FeatureCollector): void {
    writeMotion2And3(collector, this.names, this.options);
  }

  close(): void {
    for (const b of this.columns) b.destroy();
    this.columns = [];
    this.uniforms?.destroy();
    this.uniforms = undefined;
    this.bindGroups = new WeakMap();
  }
}

export function createMotionGpu(options: Partial<MotionOptions> = {}): MotionGpu {
  return new MotionGpu(motionOptions.resolve(options));
}
