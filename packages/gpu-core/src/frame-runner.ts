import { alignUp, VqError, type FeatureCollector, type FrameRead, type Picture, type PictureFormat, type PicturePair } from "@vq/core";
import type { GpuContext } from "./device.ts";
import type { GpuFrameBatch, GpuStage, PassRecorder } from "./gpu-stage.ts";
import { PassProfiler } from "./pass-profiler.ts";
import { compileQueuedPipelines } from "./pipeline-cache.ts";
import { UploadRing, type RingSlot } from "./upload-ring.ts";

export interface FrameRunnerOptions {
  /** Batches in flight (at least 2): batch N+1 is read and uploaded while batch N computes. */
  depth?: number;
  /** Frames per batch (one submit, one readback); by default as many as fit the upload budget (upload-ring.ts), at most 8. */
  batchFrames?: number;
  /** Record GPU timestamps per pass. */
  profile?: boolean;
  /** libvmaf's --subsample: stages that are not temporal skip frames not a multiple of it. */
  subsample?: number;
}

const STORAGE_ALIGN = 256;

/** One stage list per distorted input of a ladder, all scored against one reference upload. */
export type GpuStageLanes = readonly (readonly GpuStage[])[];

/** A stage of one lane, with its slice of the batch's results. */
interface LaneStage {
  readonly stage: GpuStage;
  readonly lane: number;
  /** Bytes from the start of the results to this stage's first frame. */
  readonly offset: number;
  /** Bytes between consecutive frames' result words (a multiple of 256). */
  readonly stride: number;
}

/**
 * Drives GPU stages over a stream of frames, in batches of consecutive frames: one upload
 * per frame shared by every stage (UploadRing), one submit and one readback per batch, no
 * CPU wait between kernels, and stages that record one set of dispatches for the whole
 * batch. ADR 0010.
 */
export class GpuFrameRunner {
  private readonly ring: UploadRing;
  private readonly profiler = new PassProfiler();
  private readonly lanes: GpuStageLanes;
  private readonly laneStages: LaneStage[] = [];
  /** Per lane, the frame it ended at (its distorted input ran out or failed): its stages skip every frame from there. */
  private readonly laneEnds: number[];
  private resultBytes = 0;
  private current?: RingSlot;
  /** A filled batch whose submission waits for the next batch, so that it can carry that batch's upload. */
  private waiting?: RingSlot;
  /** Every batch collected and the stages flushed: the run ended cleanly. */
  private flushed = false;
  private depth = 2;
  private nextSlot = 0;
  /** Submissions and collections happen in batch order, each on its own chain. */
  private submitTail: Promise<unknown> = Promise.resolve();
  private collectTail: Promise<void> = Promise.resolve();
  private failure: unknown;
  private format?: PictureFormat;

  /** `stages`: the stages of one distorted input, or one list per distorted input (a ladder, GpuStageLanes). */
  constructor(private readonly gpu: GpuContext, stages: readonly GpuStage[] | GpuStageLanes, private readonly options: FrameRunnerOptions = {}) {
    this.ring = new UploadRing(gpu);
    this.lanes = stages.length && Array.isArray(stages[0]) ? (stages as GpuStageLanes) : [stages as readonly GpuStage[]];
    this.laneEnds = this.lanes.map(() => Infinity);
  }

  private get stages(): GpuStage[] {
    return this.lanes.flat();
  }

  /** Frames per batch, once initialised. */
  get batchFrames(): number {
    return this.ring.maxBatch;
  }

  /** Summed GPU time per pass label, in nanoseconds (when profiling). */
  get gpuTimeNs(): Map<string, number> {
    return this.profiler.gpuTimeNs;
  }

  /**
   * Summed over batches, the time from the first pass's start to the last pass's end: the
   * passes plus the gaps between them (barriers, launches), in nanoseconds (when profiling).
   */
  get gpuSpanNs(): number {
    return this.profiler.gpuSpanNs;
  }

  /** `frames`: how many frames will come, when known: a batch holds no more than that. */
  async init(format: PictureFormat, frames?: number): Promise<void> {
    this.format = format;
    const batch = this.ring.layOut(format, this.stages, this.options.batchFrames, frames, this.lanes.length);
    this.lanes.forEach((stages, lane) => {
      for (const stage of stages) {
        const stride = alignUp(Math.max(4, stage.resultWords * 4), STORAGE_ALIGN);
        this.laneStages.push({ stage, lane, offset: this.resultBytes, stride });
        this.resultBytes += stride * batch;
      }
    });
    // Every stage queues its kernels as its init begins; then this thread compiles beside Dawn's.
    const inits = Promise.all(this.stages.map((s) => s.init(this.gpu, format, batch)));
    await Promise.all([inits, this.ring.queueKernels(), compileQueuedPipelines(this.gpu.device)]);
    this.profiler.start(this.gpu.device, this.options.profile === true && this.gpu.hasTimestamps);
    this.ring.ready(this.resultBytes, this.resultBytes + this.profiler.readbackBytes);
    // at least 2: a batch is sent only once the next one is filled, in another slot
    this.depth = Math.max(2, this.options.depth ?? 3);
  }

  /**
   * Copies one frame pair into the current batch. Resolves once the pictures have been
   * copied (the caller may reuse them); scores reach `collector` in frame order, by
   * `flush` at latest.
   */
  submit(pair: PicturePair, index: number, collector: FeatureCollector): Promise<void> {
    return this.submitFrame(pair.ref, [pair.dist], index, [collector]);
  }

  /**
   * A ladder's frame: the reference and one distorted picture per lane, each lane's scores
   * to its own collector. A lane without a picture must have ended (endLane) before.
   */
  async submitFrame(ref: Picture, dists: readonly (Picture | undefined)[], index: number, collectors: readonly FeatureCollector[]): Promise<void> {
    const slot = await this.slotFor(index);
    this.ring.copyFrame(slot, slot.count++, ref, dists);
    if (slot.count === slot.limit) this.dispatch(slot, collectors);
  }

  /**
   * Reads one frame pair from its files straight into the current batch's staging buffer.
   * Resolves once the reads have started: several frames' reads run at once.
   */
  submitFromFiles(ref: FrameRead, dist: FrameRead, index: number, collector: FeatureCollector): Promise<void> {
    return this.submitFrameFromFiles(ref, [dist], index, [collector]);
  }

  /** submitFromFiles for a ladder's frame (as submitFrame). */
  async submitFrameFromFiles(ref: FrameRead, dists: readonly (FrameRead | undefined)[], index: number, collectors: readonly FeatureCollector[]): Promise<void> {
    const slot = await this.slotFor(index);
    // A device destroyed since has unmapped the slot's memory: read nothing into it.
    this.throwIfFailed();
    this.ring.readFrame(slot, slot.count++, ref, dists);
    if (slot.count === slot.limit) this.dispatch(slot, collectors);
  }

  /**
   * Lane `lane` ends at frame `frames` (its distorted input ran out, or failed): its stages
   * skip every frame from there, so their state, and what their flush writes, is that of a
   * run that ended there. Call before submitting frame `frames`.
   */
  endLane(lane: number, frames: number): void {
    this.laneEnds[lane] = Math.min(this.laneEnds[lane]!, frames);
  }

  /** The batch that frame `index` joins: the current one, or the next slot once it is free. */
  private async slotFor(index: number): Promise<RingSlot> {
    if (!this.format) throw new Error("GpuFrameRunner.submit before init");
    this.throwIfFailed();
    const open = this.current;
    if (open && open.count < open.limit) {
      if (index !== open.first + open.count) throw new Error(`GpuFrameRunner: frame ${index} after frame ${open.first + open.count - 1}: frames must come in order`);
      return open;
    }
    const maxBatch = this.ring.maxBatch;
    // The run's first batch is one frame, sent at once: its scores come without waiting for
    // a whole batch, nor for the next one, to be read (a cold start's last step)...
    const limit = this.nextSlot === 0 ? 1 : maxBatch;
    // ...and the second batch waits for them: its buffers (tens of MB of mapped staging,
    // ~20 ms of this thread at 1080p) would otherwise come first.
    if (this.nextSlot === 1 && maxBatch > 1) await this.ring.slots[0]?.done;
    const slot = this.ring.slot(this.nextSlot++ % this.depth, limit);
    await slot.done;
    await slot.stagingReady;
    this.throwIfFailed();
    this.gpu.assertHealthy();
    this.ring.open(slot, index, limit);
    this.current = slot;
    return slot;
  }

  /**
   * A batch is filled: it is sent once the next one is filled too (or at flush), so that its
   * submission also carries the next batch's upload, which then runs beside its kernels. The
   * run's first batch, one frame, goes at once.
   */
  private dispatch(slot: RingSlot, collectors: readonly FeatureCollector[]): void {
    this.current = undefined;
    const reads = slot.reads;
    slot.reads = [];
    slot.filled = Promise.allSettled(reads).then((settled) => {
      for (const r of settled) if (r.status === "rejected") throw r.reason;
    });
    slot.filled.catch(() => {}); // reported when the batch is sent
    if (slot.limit < this.ring.maxBatch) return this.send(slot, undefined, collectors); // the run's first batch
    const previous = this.waiting;
    this.waiting = slot;
    if (previous) this.send(previous, slot, collectors);
  }

  /** Encodes and submits a batch (with `next`'s upload when its reads are in), then collects it, in batch order. */
  private send(slot: RingSlot, next: RingSlot | undefined, collectors: readonly FeatureCollector[]): void {
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
            for (const ls of this.laneStages) {
              if (!active(ls, first + f)) continue;
              const at = (ls.offset + f * ls.stride) / 4;
              ls.stage.collect(words.subarray(at, at + ls.stage.resultWords), first + f, collectors[ls.lane]!);
            }
          }
          this.profiler.add(words, this.resultBytes / 4, labels);
        } finally {
          slot.readback.unmap();
        }
      })
      .catch((e) => {
        this.failure ??= e;
      });
  }

  /**
   * One submission: this batch's upload unless the previous submission carried it, then a
   * tiny pass that moves its frame and result buffers to the kernels' usage, then the next
   * batch's upload, then the kernels. Dawn puts a barrier before a pass that reads a buffer
   * last written by a copy, and such a barrier waits for every copy before it; with the
   * frame buffers moved first, nothing in the kernels waits for the next batch's copies,
   * so those can run beside the kernels (the upload is 1.2 ms of a 4K 10-bit frame on an H100).
   */
  private encodeAndSubmit(slot: RingSlot, next: RingSlot | undefined) {
    const { first, count } = slot;
    this.gpu.assertHealthy();
    const { device } = this.gpu;
    const encoder = device.createCommandEncoder({ label: `vq frames ${first}-${first + count - 1}` });
    const labels: string[] = [];
    const passes = this.profiler.recorder(encoder, labels);
    const unmapped: RingSlot[] = [];
    const upload = (s: RingSlot) => {
      this.profiler.markUpload(passes);
      this.ring.encodeUpload(encoder, s);
      unmapped.push(s);
    };
    if (!slot.uploaded) upload(slot);
    for (const frames of slot.frames) for (let f = 0; f < count; f++) frames[f]!.index = first + f;
    this.ring.encodeTouch(encoder, slot);
    if (next) upload(next);
    const subsample = this.options.subsample ?? 1;
    const laneEnds = [...this.laneEnds];
    const active = (ls: LaneStage, index: number) => index < laneEnds[ls.lane]! && (subsample <= 1 || index % subsample === 0 || ls.stage.temporal === true);
    for (const ls of this.laneStages) this.encodeStage(encoder, passes, ls, slot, active);
    encoder.copyBufferToBuffer(slot.results, 0, slot.readback, 0, this.resultBytes);
    this.profiler.resolve(encoder, labels, slot.readback, this.resultBytes);
    device.queue.submit([encoder.finish()]);
    slot.uploaded = false;
    for (const s of unmapped) {
      this.ring.remap(s, (e) => {
        this.failure ??= e;
      });
    }
    return { mappedForRead: slot.readback.mapAsync(GPUMapMode.READ), active, labels, first, count };
  }

  /**
   * One stage's work on a batch: one `encodeBatch` (over the frames before its lane's end),
   * or per frame it keeps (subsampling) `encodeBatch` of 1 or `encode`.
   */
  private encodeStage(encoder: GPUCommandEncoder, passes: PassRecorder, ls: LaneStage, slot: RingSlot, active: (ls: LaneStage, index: number) => boolean): void {
    const { first } = slot;
    const { stage: s, lane, offset, stride } = ls;
    const count = Math.min(slot.count, this.laneEnds[lane]! - first);
    if (count <= 0) return;
    const everyFrame = (this.options.subsample ?? 1) <= 1 || s.temporal === true;
    if (s.encodeBatch && everyFrame) {
      s.encodeBatch(encoder, passes, this.batchOf(slot, lane, 0, count), slot.results, offset, stride);
      return;
    }
    for (let f = 0; f < count; f++) {
      if (!active(ls, first + f)) continue;
      if (s.encodeBatch) s.encodeBatch(encoder, passes, this.batchOf(slot, lane, f, 1), slot.results, offset + f * stride, stride);
      else s.encode!(encoder, passes, slot.frames[lane]![f]!, slot.results, offset + f * stride);
    }
  }

  /** Frames `base` to `base + n` of the slot's batch, as a stage of `lane` sees them. */
  private batchOf(slot: RingSlot, lane: number, base: number, n: number): GpuFrameBatch {
    return {
      first: slot.first + base,
      count: n,
      base,
      ref: slot.ref,
      dist: slot.dists[lane]!,
      refStride: this.ring.refStride,
      distStride: this.ring.distStride,
      frames: slot.frames[lane]!.slice(base, base + n),
      format: this.format!,
      planes: this.ring.planes,
    };
  }

  private deviceHealthy(): boolean {
    try {
      this.gpu.assertHealthy();
      return true;
    } catch {
      return false;
    }
  }

  private throwIfFailed(): void {
    this.gpu.assertHealthy();
    if (this.failure) throw toVqError(this.failure);
  }

  /** Sends the last, partial batch, waits for every frame in flight, then lets temporal stages write their last scores. */
  flush(collector: FeatureCollector): Promise<void> {
    return this.flushLanes([collector]);
  }

  /** flush for a ladder: each lane's stages write their last scores to the lane's collector. */
  async flushLanes(collectors: readonly FeatureCollector[]): Promise<void> {
    if (this.current && this.current.count > 0) this.dispatch(this.current, collectors);
    if (this.waiting) this.send(this.waiting, undefined, collectors);
    this.waiting = undefined;
    await this.collectTail;
    this.throwIfFailed();
    for (const ls of this.laneStages) await ls.stage.flush?.(collectors[ls.lane]!);
    this.flushed = true;
  }

  /** Frees every buffer, once no read into a staging buffer is under way. */
  async close(): Promise<void> {
    await this.ring.settled();
    for (const s of this.stages) s.close?.();
    // a clean end leaves the slots in a state the next run of the device can take them in
    this.ring.release(this.flushed && !this.failure && this.deviceHealthy());
    this.current = undefined;
    this.waiting = undefined;
    this.profiler.destroy();
  }
}

function toVqError(e: unknown): VqError {
  if (e instanceof VqError) return e;
  const message = e instanceof Error ? e.message : String(e);
  return new VqError(`GPU failure: ${message}`, { cause: e });
}
