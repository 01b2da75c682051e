import { alignUp, type FeatureCollector, type FeatureEntry, type OptionDef, type PictureFormat, type PicturePair, type PlaneLayout, VqError, packedLayout } from "@vq/core";
import type { GpuContext } from "./device.ts";

/** A frame pair on the GPU: the reference and distorted frame buffers, uploaded once. */
export interface GpuFrame {
  readonly index: number;
  /** Raw frame bytes (Y4M layout) as 32-bit words: 8-bit samples stay packed 4 to a word. */
  readonly ref: GPUBuffer;
  readonly dist: GPUBuffer;
  readonly format: PictureFormat;
  readonly planes: readonly PlaneLayout[];
}

/** How a stage records its compute passes (with GPU timestamps when profiling). */
export interface PassRecorder {
  beginComputePass(label: string): GPUComputePassEncoder;
}

/** How much of one side of the frame pair a stage reads. */
export type FrameSideInput = "none" | "luma" | "all";

/** Which samples of the frame pair a stage reads; the runner uploads only what some stage reads. */
export interface FrameInputs {
  readonly reference: FrameSideInput;
  readonly distorted: FrameSideInput;
}

/** Luma of both pictures: what most of libvmaf's extractors read. */
export const LUMA_INPUTS: FrameInputs = { reference: "luma", distorted: "luma" };
const ALL_INPUTS: FrameInputs = { reference: "all", distorted: "all" };

/**
 * A GPU feature extractor as the frame runner drives it: it records its kernels into the
 * frame's command encoder and writes its raw results (32-bit words) into its slice of
 * the frame's result buffer; after the frame's single readback it turns those words into
 * scores. Results of several stages share one readback.
 */
export interface GpuStage {
  readonly label: string;
  /** Needs every frame (libvmaf's TEMPORAL flag): not skipped by subsampling. */
  readonly temporal?: boolean;
  /** 32-bit words of results per frame. */
  readonly resultWords: number;
  /** What it reads of the frame pair (default: every plane of both). Unread planes are not uploaded. */
  readonly inputs?: FrameInputs;
  init(gpu: GpuContext, format: PictureFormat): void | Promise<void>;
  /** Records this frame's work. `results` is bound from `resultOffset` (bytes) on. */
  encode(encoder: GPUCommandEncoder, passes: PassRecorder, frame: GpuFrame, results: GPUBuffer, resultOffset: number): void;
  /** Turns this frame's result words into scores. */
  collect(words: Uint32Array, index: number, collector: FeatureCollector): void;
  flush?(collector: FeatureCollector): void | Promise<void>;
  close?(): void;
}

interface Slot {
  ref: GPUBuffer;
  dist: GPUBuffer;
  staging: GPUBuffer;
  stagingReady: Promise<void>;
  results: GPUBuffer;
  readback: GPUBuffer;
  /** Settles once this slot's last frame has been collected. */
  done: Promise<void>;
}

export interface FrameRunnerOptions {
  /** Frames in flight: frame N+1 is uploaded while frame N computes. */
  depth?: number;
  /** Record GPU timestamps per pass. */
  profile?: boolean;
  /** libvmaf's --subsample: stages that are not temporal skip frames not a multiple of it. */
  subsample?: number;
}

const STORAGE_ALIGN = 256;

/**
 * Drives GPU stages over a stream of frames: one upload per frame shared by every stage
 * (through a ring of mapped staging buffers, which Dawn copies much faster than
 * writeBuffer), one submit and one readback per frame, and no CPU wait between kernels.
 */
export class GpuFrameRunner {
  private readonly slots: Slot[] = [];
  private readonly offsets: number[] = [];
  private resultBytes = 0;
  private bufferBytes = 0;
  /** Bytes uploaded per frame from each side: 0, its luma (word-aligned) or the whole frame. */
  private refBytes = 0;
  private distBytes = 0;
  private planes: PlaneLayout[] = [];
  private tail: Promise<void> = Promise.resolve();
  private failure: unknown;
  private querySet?: GPUQuerySet;
  private queryBuffer?: GPUBuffer;
  private passLabels: string[] = [];
  private readonly maxPasses = 64;
  /** Summed GPU time per pass label, in nanoseconds (when profiling). */
  readonly gpuTimeNs = new Map<string, number>();
  private format?: PictureFormat;

  constructor(private readonly gpu: GpuContext, private readonly stages: readonly GpuStage[], private readonly options: FrameRunnerOptions = {}) {}

  async init(format: PictureFormat): Promise<void> {
    this.format = format;
    const { planes, byteLength } = packedLayout(format);
    this.planes = planes;
    this.bufferBytes = alignUp(byteLength, 4);
    // The PCIe copy is most of the host's cost per frame (1080p: luma is 2/3 of a 4:2:0 frame).
    const lumaBytes = Math.min(this.bufferBytes, alignUp(planes[0]!.stride * planes[0]!.height * (format.bitDepth > 8 ? 2 : 1), 4));
    const widest = (side: keyof FrameInputs): FrameSideInput => {
      const wanted = this.stages.map((s) => (s.inputs ?? ALL_INPUTS)[side]);
      return wanted.includes("all") ? "all" : wanted.includes("luma") ? "luma" : "none";
    };
    const bytes = (input: FrameSideInput) => (input === "all" ? this.bufferBytes : input === "luma" ? lumaBytes : 0);
    this.refBytes = bytes(widest("reference"));
    this.distBytes = bytes(widest("distorted"));
    for (const s of this.stages) {
      this.offsets.push(this.resultBytes);
      this.resultBytes += alignUp(Math.max(4, s.resultWords * 4), STORAGE_ALIGN);
      await s.init(this.gpu, format);
    }
    const { device } = this.gpu;
    const profile = this.options.profile && this.gpu.hasTimestamps;
    if (profile) {
      this.querySet = device.createQuerySet({ type: "timestamp", count: this.maxPasses * 2 });
      this.queryBuffer = device.createBuffer({ size: this.maxPasses * 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    }
    const readbackBytes = this.resultBytes + (profile ? this.maxPasses * 16 : 0);
    const depth = Math.max(1, this.options.depth ?? 3);
    for (let i = 0; i < depth; i++) {
      const staging = device.createBuffer({ label: "vq upload staging", size: Math.max(4, this.refBytes + this.distBytes), usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC, mappedAtCreation: true });
      this.slots.push({
        ref: device.createBuffer({ label: "vq ref frame", size: this.bufferBytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST }),
        dist: device.createBuffer({ label: "vq dist frame", size: this.bufferBytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST }),
        staging,
        stagingReady: Promise.resolve(),
        results: device.createBuffer({ label: "vq results", size: this.resultBytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST }),
        readback: device.createBuffer({ label: "vq readback", size: readbackBytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }),
        done: Promise.resolve(),
      });
    }
  }

  /**
   * Uploads and schedules one frame. Resolves once the pictures have been copied (the
   * caller may reuse them); scores reach `collector` in frame order, by `flush` at latest.
   */
  async submit(pair: PicturePair, index: number, collector: FeatureCollector): Promise<void> {
    if (!this.format) throw new Error("GpuFrameRunner.submit before init");
    this.throwIfFailed();
    const slot = this.slots[index % this.slots.length]!;
    await slot.done;
    await slot.stagingReady;
    this.throwIfFailed();
    this.gpu.assertHealthy();
    const mapped = new Uint8Array(slot.staging.getMappedRange());
    mapped.set(pair.ref.buffer.subarray(0, this.refBytes), 0);
    mapped.set(pair.dist.buffer.subarray(0, this.distBytes), this.refBytes);
    slot.staging.unmap();

    const { device } = this.gpu;
    const encoder = device.createCommandEncoder({ label: `vq frame ${index}` });
    if (this.refBytes) encoder.copyBufferToBuffer(slot.staging, 0, slot.ref, 0, this.refBytes);
    if (this.distBytes) encoder.copyBufferToBuffer(slot.staging, this.refBytes, slot.dist, 0, this.distBytes);
    encoder.clearBuffer(slot.results);
    const frame: GpuFrame = { index, ref: slot.ref, dist: slot.dist, format: this.format, planes: this.planes };
    this.passLabels = [];
    const passes: PassRecorder = { beginComputePass: (label) => this.beginPass(encoder, label) };
    const subsample = this.options.subsample ?? 1;
    const active = this.stages.map((s) => subsample <= 1 || index % subsample === 0 || s.temporal === true);
    this.stages.forEach((s, i) => active[i] && s.encode(encoder, passes, frame, slot.results, this.offsets[i]!));
    encoder.copyBufferToBuffer(slot.results, 0, slot.readback, 0, this.resultBytes);
    const labels = this.passLabels;
    if (this.querySet && this.queryBuffer && labels.length) {
      encoder.resolveQuerySet(this.querySet, 0, labels.length * 2, this.queryBuffer, 0);
      encoder.copyBufferToBuffer(this.queryBuffer, 0, slot.readback, this.resultBytes, labels.length * 16);
    }
    device.queue.submit([encoder.finish()]);
    slot.stagingReady = slot.staging.mapAsync(GPUMapMode.WRITE);
    const mappedForRead = slot.readback.mapAsync(GPUMapMode.READ);
    // Collect in frame order, whatever order the maps settle in.
    this.tail = slot.done = this.tail
      .then(() => mappedForRead)
      .then(() => {
        // Read straight from the mapped range (no copy), then hand the buffer back.
        const words = new Uint32Array(slot.readback.getMappedRange());
        try {
          this.stages.forEach((s, i) => {
            if (!active[i]) return;
            const at = this.offsets[i]! / 4;
            s.collect(words.subarray(at, at + s.resultWords), index, collector);
          });
          if (labels.length) this.addTimes(words, labels);
        } finally {
          slot.readback.unmap();
        }
      })
      .catch((e) => {
        this.failure ??= e;
      });
    slot.stagingReady.catch((e) => {
      this.failure ??= e;
    });
  }

  private beginPass(encoder: GPUCommandEncoder, label: string): GPUComputePassEncoder {
    if (!this.querySet || this.passLabels.length >= this.maxPasses) return encoder.beginComputePass({ label });
    const i = this.passLabels.length;
    this.passLabels.push(label);
    return encoder.beginComputePass({
      label,
      timestampWrites: { querySet: this.querySet, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 },
    });
  }

  private addTimes(words: Uint32Array, labels: string[]): void {
    const base = this.resultBytes / 4;
    labels.forEach((label, i) => {
      const t0 = words[base + 4 * i]! + words[base + 4 * i + 1]! * 2 ** 32;
      const t1 = words[base + 4 * i + 2]! + words[base + 4 * i + 3]! * 2 ** 32;
      if (t1 >= t0) this.gpuTimeNs.set(label, (this.gpuTimeNs.get(label) ?? 0) + (t1 - t0));
    });
  }

  private throwIfFailed(): void {
    this.gpu.assertHealthy();
    if (this.failure) throw toVqError(this.failure);
  }

  /** Waits for every frame in flight, then lets temporal stages write their last scores. */
  async flush(collector: FeatureCollector): Promise<void> {
    await this.tail;
    this.throwIfFailed();
    for (const s of this.stages) await s.flush?.(collector);
  }

  close(): void {
    for (const s of this.stages) s.close?.();
    for (const slot of this.slots) for (const b of [slot.ref, slot.dist, slot.staging, slot.results, slot.readback]) b.destroy();
    this.slots.length = 0;
    this.querySet?.destroy();
    this.queryBuffer?.destroy();
  }
}

function toVqError(e: unknown): VqError {
  if (e instanceof VqError) return e;
  const message = e instanceof Error ? e.message : String(e);
  return new VqError(`GPU failure: ${message}`, { cause: e });
}

/** A metric whose GPU twin is a GpuStage. */
export type GpuFeatureEntry<T extends Record<string, OptionDef> = any> = FeatureEntry<T, GpuStage>;
