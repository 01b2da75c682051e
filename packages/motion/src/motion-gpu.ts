import { packedLayout, uint64ToNumber, VqError, type FeatureCollector, type PictureFormat } from "@vq/core";
import { bufferFrom, planeUniforms, stageKernels, type GpuContext, type GpuFrameBatch, type GpuStage, type PassRecorder, type FrameInputs, type StageKernel } from "@vq/gpu-core";
import frameWgsl from "../../../shaders/common/frame.wgsl" with { type: "text" };
import motionWgsl from "../../../shaders/motion/motion.wgsl" with { type: "text" };
import { motionDefinition, motionFeatureNames, motionFrameDistance, motionOptions, type MotionFeatureNames, type MotionOptions } from "./definition.ts";
import { sadScore } from "./motion-cpu.ts";
import { Motion2And3Writer } from "./motion-temporal.ts";

const MOTION_CODE = [frameWgsl, motionWgsl].join("\n");

/** Rows of a tile: shaders/motion/motion.wgsl's ROWS. */
const MOTION_ROWS = 4;

/** Output columns of a tile: shaders/motion/motion.wgsl's TILE. */
const MOTION_COLUMNS = 252;

/** The two kernels of shaders/motion/motion.wgsl for a bit depth (the vertical pass shifts by it). */
export function motionKernels(bitDepth: number) {
  const constants = { BPC: bitDepth };
  return {
    sad: { label: "motion sad", code: MOTION_CODE, entryPoint: "motion_sad", constants },
    total: { label: "motion total", code: MOTION_CODE, entryPoint: "motion_total", constants },
  };
}

/**
 * GPU twin of MotionCpu. Per batch of frames, one dispatch blurs the difference between each
 * frame's reference luma and the luma of the frame 1 (five-frame window: 2) before it, in
 * tiles, summing |.| into libvmaf's uint32 row sums; a second one adds each frame's row sums
 * into the exact uint64 SAD (two result words). Workgroup z is the frame of the batch. The earlier
 * frame comes from the batch's upload or, for the batch's first frames, from a ring of luma
 * copies on the GPU (allocated at init, slots by frame number) that the batch's last frames
 * fill, so the history never leaves the GPU. The score, motion2 and motion3 come from the CPU
 * package's shared code (sadScore, Motion2And3Writer), so the backends cannot diverge.
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
  private kernels?: { sad: StageKernel; total: StageKernel };
  /** libvmaf's uint32 row sums of a batch's frames (height words a frame), zero between batches. */
  private rowSums?: GPUBuffer;
  private uniforms?: GPUBuffer;
  /** Luma (plane 0's words) of recent frames, frame i in slot i % ringSlots. */
  private ring?: GPUBuffer;
  private ringSlots = 0;
  private slotWords = 0;
  private maxBatch = 1;
  /** Batch uniforms (shaders/motion/motion.wgsl's Batch) by strides, ring phase and batch size: written once each. */
  private batchUniforms = new Map<string, GPUBuffer>();
  /** The next frame a batch must start at (frames come in order); undefined before a run's first batch. */
  private next?: number;
  /**
   * The run's first frame: 0, or later for a run started mid-video to warm up (device loss,
   * chunks: ExtractorDefinition.warmUpFrames); its first `distance` frames have no predecessor.
   */
  private start = 0;
  private readonly motion2And3: Motion2And3Writer;

  constructor(readonly options: MotionOptions) {
    this.names = motionFeatureNames(options);
    this.distance = motionFrameDistance(options);
    this.motion2And3 = new Motion2And3Writer(this.names, options);
  }

  async init(gpu: GpuContext, format: PictureFormat, maxBatch = 1): Promise<void> {
    motionDefinition.checkFormat?.(this.options, format);
    this.close();
    this.format = format;
    this.next = undefined;
    this.start = 0;
    this.maxBatch = maxBatch;
    if (this.options.motion_force_zero) return; // every score is 0: no kernel runs
    const { device } = gpu;
    const { limits } = device;
    if (Math.max(Math.ceil(format.width / MOTION_COLUMNS), Math.ceil(format.height / MOTION_ROWS), maxBatch) > limits.maxComputeWorkgroupsPerDimension) {
      throw new VqError(`feature motion: a ${format.width}x${format.height} picture in batches of ${maxBatch} exceeds this GPU's dispatch limit of ${limits.maxComputeWorkgroupsPerDimension} workgroups`);
    }
    const luma = packedLayout(format).planes[0]!;
    // a slot holds plane 0's words as uploaded: from the word of its first byte to that of its last
    this.slotWords = Math.ceil(((luma.offset % 4) + luma.stride * luma.height * (format.bitDepth > 8 ? 2 : 1)) / 4);
    // frames of one batch and the `distance` before it never share a slot
    this.ringSlots = maxBatch + this.distance;
    const bytes = this.ringSlots * this.slotWords * 4;
    const maxBytes = Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
    if (bytes > maxBytes) {
      throw new VqError(`feature motion: a ${format.width}x${format.height} picture in batches of ${maxBatch} needs a ${bytes}-byte GPU buffer, above this GPU's limit of ${maxBytes}`);
    }
    this.device = device;
    const built = stageKernels(device, motionKernels(format.bitDepth));
    this.uniforms = device.createBuffer({ label: "motion planes", size: 64, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(this.uniforms, 0, planeUniforms(format, packedLayout(format).planes));
    this.ring = device.createBuffer({ label: "motion luma history", size: bytes, usage: GPUBufferUsage.STORAGE });
    this.rowSums = device.createBuffer({ label: "motion row sums", size: maxBatch * format.height * 4, usage: GPUBufferUsage.STORAGE });
    this.kernels = await built;
  }

  encodeBatch(_encoder: GPUCommandEncoder, passes: PassRecorder, batch: GpuFrameBatch, results: GPUBuffer, resultOffset: number, resultStride: number): void {
    // a video from its start again, or a run's first frame wherever it starts: no history needed
    if (batch.first === 0 || this.next === undefined) this.next = this.start = batch.first;
    if (batch.first !== this.next) {
      throw new VqError(`feature motion: frame ${batch.first} came after frame ${this.next - 1}; motion compares each frame with the reference frame ${this.distance} before it, so it needs every frame, in order`);
    }
    if (batch.count > this.maxBatch) throw new Error(`motion: a batch of ${batch.count} frames, sized for ${this.maxBatch}`);
    this.next += batch.count;
    if (this.options.motion_force_zero) return;
    const { width, height } = this.format!;
    const common = { planes: this.uniforms!, batch: this.batchUniform(batch.first, batch.first - this.start, batch.count, batch.refStride, resultStride), row_sums: this.rowSums! };
    const kernels = this.kernels!;
    // runs even when no frame of the batch has a predecessor yet: its last frames fill the ring
    const ref = bufferFrom(batch.ref, batch.base * batch.refStride);
    kernels.sad.dispatch(passes, { ...common, ref_frame: ref, ring: this.ring! }, [Math.ceil(width / MOTION_COLUMNS), Math.ceil(height / MOTION_ROWS), batch.count]);
    // the first frames of a run have nothing to compare with (score 0, no result words)
    if (batch.first - this.start + batch.count <= this.distance) return;
    kernels.total.dispatch(passes, { ...common, sad: bufferFrom(results, resultOffset) }, [1, 1, batch.count]);
  }

  /**
   * The uniform of a batch at a ring phase and size: the batch's first frame's slot, how many
   * of its leading frames have no predecessor (only while `sinceStart < distance`) and from
   * which frame on it keeps its luma for the next batch. One buffer per distinct value, never
   * rewritten, so it cannot be out of order with a recorded pass.
   */
  private batchUniform(first: number, sinceStart: number, count: number, refStride: number, resultStride: number): GPUBuffer {
    const slot = first % this.ringSlots;
    const skip = Math.max(0, this.distance - sinceStart);
    const keepFrom = Math.max(0, count - this.distance);
    const key = `${refStride}/${resultStride}/${slot}/${skip}/${keepFrom}`;
    let b = this.batchUniforms.get(key);
    if (!b) {
      b = this.device!.createBuffer({ label: `motion batch ${key}`, size: 32, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
      this.device!.queue.writeBuffer(b, 0, new Uint32Array([refStride, resultStride / 4, slot, this.ringSlots, skip, this.distance, keepFrom, this.slotWords]));
      this.batchUniforms.set(key, b);
    }
    return b;
  }

  collect(words: Uint32Array, index: number, collector: FeatureCollector): void {
    const { width, height } = this.format!;
    let score = 0;
    if (!this.options.motion_force_zero && index - this.start >= this.distance) {
      score = sadScore(uint64ToNumber(words[1]!, words[0]!), width, height, this.options);
    }
    this.motion2And3.writeScore(collector, index, score);
  }

  flush(collector: FeatureCollector): void {
    this.motion2And3.finish(collector);
  }

  close(): void {
    this.ring?.destroy();
    this.ring = undefined;
    this.rowSums?.destroy();
    this.rowSums = undefined;
    this.uniforms?.destroy();
    this.uniforms = undefined;
    for (const b of this.batchUniforms.values()) b.destroy();
    this.batchUniforms.clear();
  }
}

export function createMotionGpu(options: Partial<MotionOptions> = {}): MotionGpu {
  return new MotionGpu(motionOptions.resolve(options));
}
