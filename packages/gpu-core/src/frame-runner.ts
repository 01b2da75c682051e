import { alignUp, type FeatureCollector, type FeatureEntry, type FrameRead, type OptionDef, type PictureFormat, type PicturePair, type PlaneLayout, VqError, packedLayout } from "@vq/core";
import type { GpuContext } from "./device.ts";
import { compileQueuedPipelines, computePipeline, computePipelines } from "./pipeline-cache.ts";

/** A frame pair on the GPU: views of the reference and distorted frames, uploaded once. */
export interface GpuFrame {
  readonly index: number;
  /**
   * Raw frame bytes (Y4M layout) as 32-bit words: 8-bit samples stay packed 4 to a word.
   * A view into the batch's buffer (its offset a multiple of 256); bind it as it is. The
   * object is the same for every frame that lands at this place of the ring, so stages
   * may key bind-group caches on it.
   */
  readonly ref: GPUBufferBinding;
  readonly dist: GPUBufferBinding;
  readonly format: PictureFormat;
  readonly planes: readonly PlaneLayout[];
}

/**
 * Consecutive frames of one submission, back to back in one buffer per side: frame
 * `first + f` (f < count) starts at byte `(base + f) * refStride` of `ref` and
 * `(base + f) * distStride` of `dist`. Batched kernels take the frame from the workgroup's
 * z and reach the frame's bytes with the stride; `base` is 0 except when subsampling hands
 * a stage single frames.
 */
export interface GpuFrameBatch {
  /** Index (in the video) of the batch's first frame. */
  readonly first: number;
  readonly count: number;
  readonly base: number;
  readonly ref: GPUBuffer;
  readonly dist: GPUBuffer;
  /** Bytes between frames, multiples of 256. */
  readonly refStride: number;
  readonly distStride: number;
  /** Per-frame views of the batch, `frames[f]` for frame `first + f`. */
  readonly frames: readonly GpuFrame[];
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
  /** `maxBatch`: the most frames an `encodeBatch` call will get (size per-frame buffers by it). */
  init(gpu: GpuContext, format: PictureFormat, maxBatch: number): void | Promise<void>;
  /** Records this frame's work. `results` is bound from `resultOffset` (bytes) on. */
  encode?(encoder: GPUCommandEncoder, passes: PassRecorder, frame: GpuFrame, results: GPUBuffer, resultOffset: number): void;
  /**
   * Records the work of every frame of a batch in one set of dispatches (workgroup z = frame),
   * which costs what one frame's dispatches cost on the host and fills the GPU at small
   * scales. Frame f's result words go to `resultOffset + f * resultStride` (bytes). Stages
   * without it get `encode` once per frame.
   */
  encodeBatch?(encoder: GPUCommandEncoder, passes: PassRecorder, batch: GpuFrameBatch, results: GPUBuffer, resultOffset: number, resultStride: number): void;
  /** Turns this frame's result words into scores. */
  collect(words: Uint32Array, index: number, collector: FeatureCollector): void;
  flush?(collector: FeatureCollector): void | Promise<void>;
  close?(): void;
}

/** One batch's place in the ring: its upload, frame and result buffers. */
interface Slot {
  /** The batch's frames back to back, one buffer per side. */
  ref: GPUBuffer;
  dist: GPUBuffer;
  /** Stable per-frame views of ref/dist; `index` is rewritten for each batch. */
  frames: { index: number; ref: GPUBufferBinding; dist: GPUBufferBinding; format: PictureFormat; planes: readonly PlaneLayout[] }[];
  staging: GPUBuffer;
  /** Frames the staging buffer holds. */
  stagingFrames: number;
  stagingReady: Promise<void>;
  /** The staging buffer's mapped bytes while the batch is being filled. */
  mapped?: Uint8Array;
  results: GPUBuffer;
  readback: GPUBuffer;
  /** Settles once this slot's last batch has been collected. */
  done: Promise<void>;
  first: number;
  count: number;
  /** Frames this batch takes before it is sent: one for a run's first batch, else the batch size. */
  limit: number;
  /** Reads straight into `mapped` still under way. */
  reads: Promise<void>[];
  /** Settles once the batch's staging buffer is filled (rejects if a read failed). */
  filled: Promise<void>;
  /** The batch's copies to the frame buffers were recorded in the previous batch's submission. */
  uploaded: boolean;
  /** Binds the slot's frame and result buffers for the pass that moves them to the kernels' usage. */
  touchGroup: GPUBindGroup;
}

export interface FrameRunnerOptions {
  /** Batches in flight (at least 2): batch N+1 is read and uploaded while batch N computes. */
  depth?: number;
  /** Frames per batch (one submit, one readback); by default as many as fit BATCH_UPLOAD_BYTES, at most 8. */
  batchFrames?: number;
  /** Record GPU timestamps per pass. */
  profile?: boolean;
  /** libvmaf's --subsample: stages that are not temporal skip frames not a multiple of it. */
  subsample?: number;
}

const STORAGE_ALIGN = 256;
/** Room before each frame in the staging buffer: a Y4M frame's marker is read there with it. */
const MARKER_ROOM = 8;
/**
 * Upload bytes a batch may take (staging and device copies each): 8 frames of 1080p luma
 * pairs, 4 of 4K 8-bit luma pairs. A frame pair that fits still gets a batch of 2 (4K 10-bit with every
 * plane: 50 MB a frame), so that batched kernels run two frames' serial parts side by side.
 */
const BATCH_UPLOAD_BYTES = 64 << 20;
const MAX_BATCH = 8;
const MAX_PROFILED_PASSES = 512;
/** Binds a slot's frame and result buffers as the kernels do, and does nothing with them. */
const TOUCH_WGSL = `
@group(0) @binding(0) var<storage, read> ref_frames: array<u32>;
@group(0) @binding(1) var<storage, read> dist_frames: array<u32>;
@group(0) @binding(2) var<storage, read_write> results: array<u32>;
@compute @workgroup_size(1) fn main() {
  if (arrayLength(&results) == 0u) { results[0] = ref_frames[0] + dist_frames[0]; }
}`;
/** The profile's name for the copies from the staging buffer to the frame buffers. */
export const UPLOAD_LABEL = "upload (staging to frame buffers)";

/**
 * Drives GPU stages over a stream of frames, in batches of consecutive frames: one upload
 * per frame shared by every stage (read straight from the file into a ring of mapped
 * staging buffers when the input allows, which Dawn copies much faster than
 * writeBuffer), one submit and one readback per batch, no CPU wait between kernels, and
 * stages that record one set of dispatches for the whole batch. ADR 0010.
 */
export class GpuFrameRunner {
  private readonly slots: Slot[] = [];
  private readonly offsets: number[] = [];
  /** Bytes between consecutive frames' result words, per stage (multiples of 256). */
  private readonly resultStrides: number[] = [];
  private resultBytes = 0;
  /** Bytes read per frame from each side: 0, its luma or the whole frame; uploaded word-aligned. */
  private refRead = 0;
  private distRead = 0;
  private refStride = 0;
  private distStride = 0;
  private hostStride = 0;
  private planes: PlaneLayout[] = [];
  private maxBatch = 1;
  private current?: Slot;
  /** A filled batch whose submission waits for the next batch, so that it can carry that batch's upload. */
  private waiting?: Slot;
  private touchPipeline?: GPUComputePipeline;
  private depth = 2;
  private readbackBytes = 0;
  private nextSlot = 0;
  /** Submissions and collections happen in batch order, each on its own chain. */
  private submitTail: Promise<unknown> = Promise.resolve();
  private collectTail: Promise<void> = Promise.resolve();
  private readonly pendingReads = new Set<Promise<unknown>>();
  private failure: unknown;
  private querySet?: GPUQuerySet;
  private queryBuffer?: GPUBuffer;
  /** Summed GPU time per pass label, in nanoseconds (when profiling). */
  readonly gpuTimeNs = new Map<string, number>();
  /**
   * Summed over batches, the time from the first pass's start to the last pass's end: the
   * passes plus the gaps between them (barriers, launches), in nanoseconds (when profiling).
   */
  gpuSpanNs = 0;
  private format?: PictureFormat;

  constructor(private readonly gpu: GpuContext, private readonly stages: readonly GpuStage[], private readonly options: FrameRunnerOptions = {}) {}

  /** Frames per batch, once initialised. */
  get batchFrames(): number {
    return this.maxBatch;
  }

  /** `frames`: how many frames will come, when known: a batch holds no more than that. */
  async init(format: PictureFormat, frames?: number): Promise<void> {
    this.format = format;
    const { planes, byteLength } = packedLayout(format);
    this.planes = planes;
    const frameWords = alignUp(byteLength, 4);
    // Reading and copying are most of the host's cost per frame (1080p: luma is 2/3 of a 4:2:0 frame).
    const lumaBytes = Math.min(byteLength, planes[0]!.stride * planes[0]!.height * (format.bitDepth > 8 ? 2 : 1));
    const widest = (side: keyof FrameInputs): FrameSideInput => {
      const wanted = this.stages.map((s) => (s.inputs ?? ALL_INPUTS)[side]);
      return wanted.includes("all") ? "all" : wanted.includes("luma") ? "luma" : "none";
    };
    const bytes = (input: FrameSideInput) => (input === "all" ? byteLength : input === "luma" ? lumaBytes : 0);
    this.refRead = bytes(widest("reference"));
    this.distRead = bytes(widest("distorted"));
    // A side nothing reads still gets a (tiny) buffer: kernels may bind it.
    this.refStride = this.refRead ? alignUp(frameWords, STORAGE_ALIGN) : STORAGE_ALIGN;
    this.distStride = this.distRead ? alignUp(frameWords, STORAGE_ALIGN) : STORAGE_ALIGN;
    this.hostStride = MARKER_ROOM + alignUp(this.refRead, 4) + MARKER_ROOM + alignUp(this.distRead, 4);
    const upload = Math.max(1, this.refRead + this.distRead);
    const fitting = upload <= BATCH_UPLOAD_BYTES ? Math.max(2, Math.floor(BATCH_UPLOAD_BYTES / upload)) : 1;
    this.maxBatch = Math.max(1, Math.floor(this.options.batchFrames ?? Math.min(MAX_BATCH, fitting, frames ?? MAX_BATCH)));
    const batch = this.maxBatch;
    for (const s of this.stages) {
      const stride = alignUp(Math.max(4, s.resultWords * 4), STORAGE_ALIGN);
      this.offsets.push(this.resultBytes);
      this.resultStrides.push(stride);
      this.resultBytes += stride * batch;
    }
    // Every stage queues its kernels as its init begins; then this thread compiles beside Dawn's.
    const inits = Promise.all(this.stages.map((s) => s.init(this.gpu, format, batch)));
    const touch = computePipelines(this.gpu.device, [{ label: "vq touch frames", code: TOUCH_WGSL }]);
    await Promise.all([inits, touch, compileQueuedPipelines(this.gpu.device)]);
    const { device } = this.gpu;
    const profile = this.options.profile && this.gpu.hasTimestamps;
    if (profile) {
      this.querySet = device.createQuerySet({ type: "timestamp", count: MAX_PROFILED_PASSES * 2 });
      this.queryBuffer = device.createBuffer({ size: MAX_PROFILED_PASSES * 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    }
    const readbackBytes = this.resultBytes + (profile ? MAX_PROFILED_PASSES * 16 : 0);
    this.touchPipeline = computePipeline(device, { label: "vq touch frames", code: TOUCH_WGSL });
    // at least 2: a batch is sent only once the next one is filled, in another slot
    this.depth = Math.max(2, this.options.depth ?? 3);
    this.readbackBytes = readbackBytes;
  }

  /**
   * A slot's buffers, made when the ring first reaches it (a short run needs fewer; mapped
   * staging costs ~0.6 ms per MB to make). The first slot's staging holds only the run's
   * first batch, one frame, until the ring comes back to it.
   */
  private createSlot(stagingFrames: number): Slot {
    const { device } = this.gpu;
    const batch = this.maxBatch;
    const format = this.format!;
    const planes = this.planes;
    const ref = device.createBuffer({ label: "vq ref frames", size: this.refStride * batch, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    const dist = device.createBuffer({ label: "vq dist frames", size: this.distStride * batch, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    const results = device.createBuffer({ label: "vq results", size: this.resultBytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    return {
      ref,
      dist,
      frames: Array.from({ length: batch }, (_, f) => ({
        index: -1,
        ref: { buffer: ref, offset: f * this.refStride, size: this.refStride },
        dist: { buffer: dist, offset: f * this.distStride, size: this.distStride },
        format,
        planes,
      })),
      staging: this.createStaging(stagingFrames),
      stagingFrames,
      stagingReady: Promise.resolve(),
      results,
      readback: device.createBuffer({ label: "vq readback", size: this.readbackBytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }),
      done: Promise.resolve(),
      first: 0,
      count: 0,
      limit: batch,
      reads: [],
      filled: Promise.resolve(),
      uploaded: false,
      touchGroup: device.createBindGroup({
        label: "vq touch frames",
        layout: this.touchPipeline!.getBindGroupLayout(0),
        entries: [ref, dist, results].map((buffer, binding) => ({ binding, resource: { buffer } })),
      }),
    };
  }

  private createStaging(frames: number): GPUBuffer {
    return this.gpu.device.createBuffer({ label: "vq upload staging", size: Math.max(16, this.hostStride * frames), usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC, mappedAtCreation: true });
  }

  private refAt(f: number): number {
    return f * this.hostStride + MARKER_ROOM;
  }

  private distAt(f: number): number {
    return this.refAt(f) + alignUp(this.refRead, 4) + MARKER_ROOM;
  }

  /**
   * Copies one frame pair into the current batch. Resolves once the pictures have been
   * copied (the caller may reuse them); scores reach `collector` in frame order, by
   * `flush` at latest.
   */
  async submit(pair: PicturePair, index: number, collector: FeatureCollector): Promise<void> {
    const slot = await this.slotFor(index);
    const f = slot.count++;
    slot.mapped!.set(pair.ref.buffer.subarray(0, this.refRead), this.refAt(f));
    slot.mapped!.set(pair.dist.buffer.subarray(0, this.distRead), this.distAt(f));
    if (slot.count === slot.limit) this.dispatch(slot, collector);
  }

  /**
   * Reads one frame pair from its files straight into the current batch's staging buffer.
   * Resolves once the reads have started: several frames' reads run at once.
   */
  async submitFromFiles(ref: FrameRead, dist: FrameRead, index: number, collector: FeatureCollector): Promise<void> {
    const slot = await this.slotFor(index);
    // A device destroyed since has unmapped the slot's memory: read nothing into it.
    this.throwIfFailed();
    const f = slot.count++;
    const mapped = slot.mapped!;
    const reads = [];
    if (this.refRead) reads.push(ref.file.read(ref.index, mapped.subarray(this.refAt(f), this.refAt(f) + this.refRead), true));
    if (this.distRead) reads.push(dist.file.read(dist.index, mapped.subarray(this.distAt(f), this.distAt(f) + this.distRead), true));
    for (const r of reads) {
      // Tracked until settled: the staging buffer must outlive every read into it.
      this.pendingReads.add(r);
      this.gpu.holdMappedWhile(r);
      const settled = () => void this.pendingReads.delete(r);
      r.then(settled, settled);
      slot.reads.push(r);
    }
    if (slot.count === slot.limit) this.dispatch(slot, collector);
  }

  /** The batch that frame `index` joins: the current one, or the next slot once it is free. */
  private async slotFor(index: number): Promise<Slot> {
    if (!this.format) throw new Error("GpuFrameRunner.submit before init");
    this.throwIfFailed();
    const open = this.current;
    if (open && open.count < open.limit) {
      if (index !== open.first + open.count) throw new Error(`GpuFrameRunner: frame ${index} after frame ${open.first + open.count - 1}: frames must come in order`);
      return open;
    }
    // The run's first batch is one frame, sent at once: its scores come without waiting for
    // a whole batch, nor for the next one, to be read (a cold start's last step)...
    const limit = this.nextSlot === 0 ? 1 : this.maxBatch;
    // ...and the second batch waits for them: its buffers (tens of MB of mapped staging,
    // ~20 ms of this thread at 1080p) would otherwise come first.
    if (this.nextSlot === 1 && this.maxBatch > 1) await this.slots[0]?.done;
    const at = this.nextSlot++ % this.depth;
    const slot = (this.slots[at] ??= this.createSlot(limit));
    await slot.done;
    await slot.stagingReady;
    this.throwIfFailed();
    this.gpu.assertHealthy();
    if (slot.stagingFrames < limit) {
      slot.staging.destroy();
      slot.staging = this.createStaging(limit);
      slot.stagingFrames = limit;
    }
    slot.mapped = new Uint8Array(slot.staging.getMappedRange());
    slot.first = index;
    slot.count = 0;
    slot.limit = limit;
    slot.reads = [];
    this.current = slot;
    return slot;
  }

  /**
   * A batch is filled: it is sent once the next one is filled too (or at flush), so that its
   * submission also carries the next batch's upload, which then runs beside its kernels. The
   * run's first batch, one frame, goes at once.
   */
  private dispatch(slot: Slot, collector: FeatureCollector): void {
    this.current = undefined;
    const reads = slot.reads;
    slot.reads = [];
    slot.filled = Promise.allSettled(reads).then((settled) => {
      for (const r of settled) if (r.status === "rejected") throw r.reason;
    });
    slot.filled.catch(() => {}); // reported when the batch is sent
    if (slot.limit < this.maxBatch) return this.send(slot, undefined, collector); // the run's first batch
    const previous = this.waiting;
    this.waiting = slot;
    if (previous) this.send(previous, slot, collector);
  }

  /** Encodes and submits a batch (with `next`'s upload when its reads are in), then collects it, in batch order. */
  private send(slot: Slot, next: Slot | undefined, collector: FeatureCollector): void {
    const submitted = this.submitTail.then(async () => {
      await slot.filled;
      const nextFilled = next ? await next.filled.then(() => true, () => false) : false;
      this.throwIfFailed();
      return this.encodeAndSubmit(slot, nextFilled ? next : undefined);
    });
    this.submitTail = submitted.catch(() => {});
    this.collectTail = slot.done = this.collectTail
      .then(() => submitted)
      .then(async ({ mappedForRead, active, labels, first, count }) => {
        await mappedForRead;
        // Read straight from the mapped range (no copy), then hand the buffer back.
        const words = new Uint32Array(slot.readback.getMappedRange());
        try {
          for (let f = 0; f < count; f++) {
            this.stages.forEach((s, i) => {
              if (!active(s, first + f)) return;
              const at = (this.offsets[i]! + f * this.resultStrides[i]!) / 4;
              s.collect(words.subarray(at, at + s.resultWords), first + f, collector);
            });
          }
          if (labels.length) this.addTimes(words, labels);
        } finally {
          slot.readback.unmap();
        }
      })
      .catch((e) => {
        this.failure ??= e;
      });
  }

  /** Records the copies of a filled batch's frames from its staging buffer to its frame buffers. */
  private encodeUpload(encoder: GPUCommandEncoder, passes: PassRecorder, slot: Slot): void {
    // Profiling: an empty pass marks where the copies start; they end where the next timed pass starts.
    if (this.querySet) passes.beginComputePass(UPLOAD_LABEL).end();
    slot.staging.unmap();
    slot.mapped = undefined;
    for (let f = 0; f < slot.count; f++) {
      if (this.refRead) encoder.copyBufferToBuffer(slot.staging, this.refAt(f), slot.ref, f * this.refStride, alignUp(this.refRead, 4));
      if (this.distRead) encoder.copyBufferToBuffer(slot.staging, this.distAt(f), slot.dist, f * this.distStride, alignUp(this.distRead, 4));
    }
    slot.uploaded = true;
  }

  /**
   * One submission: this batch's upload unless the previous submission carried it, then a
   * tiny pass that moves its frame and result buffers to the kernels' usage, then the next
   * batch's upload, then the kernels. Dawn puts a barrier before a pass that reads a buffer
   * last written by a copy, and such a barrier waits for every copy before it; with the
   * frame buffers moved first, nothing in the kernels waits for the next batch's copies,
   * so those can run beside the kernels (the upload is 1.2 ms of a 4K 10-bit frame on an H100).
   */
  private encodeAndSubmit(slot: Slot, next: Slot | undefined) {
    const { first, count } = slot;
    this.gpu.assertHealthy();
    const { device } = this.gpu;
    const encoder = device.createCommandEncoder({ label: `vq frames ${first}-${first + count - 1}` });
    const labels: string[] = [];
    const passes: PassRecorder = { beginComputePass: (label) => this.beginPass(encoder, labels, label) };
    const unmapped: Slot[] = [];
    if (!slot.uploaded) {
      this.encodeUpload(encoder, passes, slot);
      unmapped.push(slot);
    }
    for (let f = 0; f < count; f++) slot.frames[f]!.index = first + f;
    encoder.clearBuffer(slot.results);
    const touch = encoder.beginComputePass({ label: "vq touch frames" });
    touch.setPipeline(this.touchPipeline!);
    touch.setBindGroup(0, slot.touchGroup);
    touch.dispatchWorkgroups(1);
    touch.end();
    if (next) {
      this.encodeUpload(encoder, passes, next);
      unmapped.push(next);
    }
    const subsample = this.options.subsample ?? 1;
    const active = (s: GpuStage, index: number) => subsample <= 1 || index % subsample === 0 || s.temporal === true;
    const batchOf = (base: number, n: number): GpuFrameBatch => ({
      first: first + base,
      count: n,
      base,
      ref: slot.ref,
      dist: slot.dist,
      refStride: this.refStride,
      distStride: this.distStride,
      frames: slot.frames.slice(base, base + n),
      format: this.format!,
      planes: this.planes,
    });
    this.stages.forEach((s, i) => {
      const offset = this.offsets[i]!;
      const stride = this.resultStrides[i]!;
      const everyFrame = subsample <= 1 || s.temporal === true;
      if (s.encodeBatch && everyFrame) {
        s.encodeBatch(encoder, passes, batchOf(0, count), slot.results, offset, stride);
        return;
      }
      for (let f = 0; f < count; f++) {
        if (!active(s, first + f)) continue;
        if (s.encodeBatch) s.encodeBatch(encoder, passes, batchOf(f, 1), slot.results, offset + f * stride, stride);
        else s.encode!(encoder, passes, slot.frames[f]!, slot.results, offset + f * stride);
      }
    });
    encoder.copyBufferToBuffer(slot.results, 0, slot.readback, 0, this.resultBytes);
    if (this.querySet && this.queryBuffer && labels.length) {
      encoder.resolveQuerySet(this.querySet, 0, labels.length * 2, this.queryBuffer, 0);
      encoder.copyBufferToBuffer(this.queryBuffer, 0, slot.readback, this.resultBytes, labels.length * 16);
    }
    device.queue.submit([encoder.finish()]);
    slot.uploaded = false;
    for (const s of unmapped) {
      s.stagingReady = s.staging.mapAsync(GPUMapMode.WRITE);
      s.stagingReady.catch((e) => {
        this.failure ??= e;
      });
    }
    return { mappedForRead: slot.readback.mapAsync(GPUMapMode.READ), active, labels, first, count };
  }

  private beginPass(encoder: GPUCommandEncoder, labels: string[], label: string): GPUComputePassEncoder {
    if (!this.querySet || labels.length >= MAX_PROFILED_PASSES) return encoder.beginComputePass({ label });
    const i = labels.length;
    labels.push(label);
    return encoder.beginComputePass({
      label,
      timestampWrites: { querySet: this.querySet, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 },
    });
  }

  private addTimes(words: Uint32Array, labels: string[]): void {
    const base = this.resultBytes / 4;
    const at = (q: number) => words[base + 2 * q]! + words[base + 2 * q + 1]! * 2 ** 32;
    labels.forEach((label, i) => {
      // the upload: from its marker pass's end to the next pass's start
      const [t0, t1] = label === UPLOAD_LABEL ? [at(2 * i + 1), at(2 * i + 2)] : [at(2 * i), at(2 * i + 1)];
      if (t1 >= t0 && (label !== UPLOAD_LABEL || i + 1 < labels.length)) this.gpuTimeNs.set(label, (this.gpuTimeNs.get(label) ?? 0) + (t1 - t0));
    });
    const kernelsFrom = labels[0] === UPLOAD_LABEL ? 1 : 0;
    const span = at(2 * labels.length - 1) - at(2 * kernelsFrom);
    if (labels.length > kernelsFrom && span > 0) this.gpuSpanNs += span;
  }

  private throwIfFailed(): void {
    this.gpu.assertHealthy();
    if (this.failure) throw toVqError(this.failure);
  }

  /** Sends the last, partial batch, waits for every frame in flight, then lets temporal stages write their last scores. */
  async flush(collector: FeatureCollector): Promise<void> {
    if (this.current && this.current.count > 0) this.dispatch(this.current, collector);
    if (this.waiting) this.send(this.waiting, undefined, collector);
    this.waiting = undefined;
    await this.collectTail;
    this.throwIfFailed();
    for (const s of this.stages) await s.flush?.(collector);
  }

  /** Frees every buffer, once no read into a staging buffer is under way. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.pendingReads]);
    for (const s of this.stages) s.close?.();
    for (const slot of this.slots) for (const b of [slot.ref, slot.dist, slot.staging, slot.results, slot.readback]) b.destroy();
    this.slots.length = 0;
    this.current = undefined;
    this.waiting = undefined;
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
