import { alignUp, packedLayout, type FrameRead, type Picture, type PictureFormat, type PlaneLayout } from "@vq/core";
import type { GpuContext } from "./device.ts";
import { ALL_INPUTS, type FrameInputs, type FrameSideInput, type GpuStage } from "./gpu-stage.ts";
import { computePipeline, computePipelines } from "./pipeline-cache.ts";

/** A frame of one lane as stages see it; the object is stable, `index` is rewritten for each batch. */
export interface RingFrame {
  index: number;
  ref: GPUBufferBinding;
  dist: GPUBufferBinding;
  format: PictureFormat;
  planes: readonly PlaneLayout[];
}

/**
 * One batch's place in the ring: its upload, frame and result buffers. A ring has one
 * reference side and one distorted side per lane (a ladder scores several distorted
 * inputs against one reference: the reference is uploaded once for all of them).
 */
export interface RingSlot {
  /** The batch's frames back to back, one buffer per side. */
  ref: GPUBuffer;
  /** One per lane. */
  dists: GPUBuffer[];
  /** Per lane, stable per-frame views of ref and that lane's dist. */
  frames: RingFrame[][];
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
  /** Per lane, binds the slot's frame and result buffers for the pass that moves them to the kernels' usage. */
  touchGroups: GPUBindGroup[];
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
const TOUCH_KERNEL = {
  label: "vq touch frames",
  /** Binds a slot's frame and result buffers as the kernels do, and does nothing with them. */
  code: `
@group(0) @binding(0) var<storage, read> ref_frames: array<u32>;
@group(0) @binding(1) var<storage, read> dist_frames: array<u32>;
@group(0) @binding(2) var<storage, read_write> results: array<u32>;
@compute @workgroup_size(1) fn main() {
  if (arrayLength(&results) == 0u) { results[0] = ref_frames[0] + dist_frames[0]; }
}`,
};

/**
 * Slots finished runs left, per device and layout, for the next run of the same layout:
 * making a slot (frame buffers and tens of MB of mapped staging) was most of the host's
 * time in a short run (~30 ms of a warm 48-frame 1080p run on an H200), and allocation
 * takes the GPU driver's lock that other GPUs' processes then wait on (ADR 0042).
 */
const parkedSlots = new WeakMap<GPUDevice, { bytes: number; byLayout: Map<string, RingSlot[]> }>();
/** What parked slots may hold per device; beyond it a finished run's slots are freed. */
const PARKED_BYTES_LIMIT = 1 << 30;

function slotBytes(slot: RingSlot): number {
  return [slot.ref, ...slot.dists, slot.staging, slot.results, slot.readback].reduce((n, b) => n + b.size, 0);
}

/** Slots parked for `device` (a test checks reuse). */
export function parkedSlotCount(device: GPUDevice): number {
  return [...(parkedSlots.get(device)?.byLayout.values() ?? [])].reduce((n, list) => n + list.length, 0);
}

/**
 * The ring of upload slots (ADR 0010): per slot a batch's frame buffers, its mapped staging
 * buffer, its results and readback. Frames are copied or read straight from their files
 * into the mapped staging buffer, only the bytes some stage reads (luma, or every plane),
 * and copied to the frame buffers in a submission. Slots are made when the ring first
 * reaches them and reused after: steady state allocates nothing.
 */
export class UploadRing {
  readonly slots: RingSlot[] = [];
  /** Bytes read per frame from each side: 0, its luma or the whole frame; uploaded word-aligned. */
  refRead = 0;
  distRead = 0;
  /** Bytes between frames in the frame buffers, multiples of 256. */
  refStride = 0;
  distStride = 0;
  private hostStride = 0;
  planes: PlaneLayout[] = [];
  /** Frames per batch. */
  maxBatch = 1;
  /** Distorted inputs per frame. */
  lanes = 1;
  private format?: PictureFormat;
  private resultBytes = 0;
  private readbackBytes = 0;
  private touchPipeline?: GPUComputePipeline;
  private readonly pendingReads = new Set<Promise<unknown>>();

  constructor(private readonly gpu: GpuContext) {}

  /**
   * Sizes a batch for what `stages` read of `format`: as many frames as fit the upload
   * budget (at least 2 while a pair fits), at most 8, `batchFrames` when given, no more
   * than `frames` when known. `stages`: every lane's.
   */
  layOut(format: PictureFormat, stages: readonly GpuStage[], batchFrames?: number, frames?: number, lanes = 1): number {
    this.format = format;
    this.lanes = lanes;
    const { planes, byteLength } = packedLayout(format);
    this.planes = planes;
    const frameWords = alignUp(byteLength, 4);
    // Reading and copying are most of the host's cost per frame (1080p: luma is 2/3 of a 4:2:0 frame).
    const lumaBytes = Math.min(byteLength, planes[0]!.stride * planes[0]!.height * (format.bitDepth > 8 ? 2 : 1));
    const widest = (side: keyof FrameInputs): FrameSideInput => {
      const wanted = stages.map((s) => (s.inputs ?? ALL_INPUTS)[side]);
      return wanted.includes("all") ? "all" : wanted.includes("luma") ? "luma" : "none";
    };
    const bytes = (input: FrameSideInput) => (input === "all" ? byteLength : input === "luma" ? lumaBytes : 0);
    this.refRead = bytes(widest("reference"));
    this.distRead = bytes(widest("distorted"));
    // A side nothing reads still gets a (tiny) buffer: kernels may bind it.
    this.refStride = this.refRead ? alignUp(frameWords, STORAGE_ALIGN) : STORAGE_ALIGN;
    this.distStride = this.distRead ? alignUp(frameWords, STORAGE_ALIGN) : STORAGE_ALIGN;
    this.hostStride = MARKER_ROOM + alignUp(this.refRead, 4) + lanes * (MARKER_ROOM + alignUp(this.distRead, 4));
    const upload = Math.max(1, this.refRead + lanes * this.distRead);
    const fitting = upload <= BATCH_UPLOAD_BYTES ? Math.max(2, Math.floor(BATCH_UPLOAD_BYTES / upload)) : 1;
    this.maxBatch = Math.max(1, Math.floor(batchFrames ?? Math.min(MAX_BATCH, fitting, frames ?? MAX_BATCH)));
    return this.maxBatch;
  }

  /** Queues the touch pass's pipeline with the stages' kernels (built on Dawn's threads). */
  queueKernels(): Promise<unknown> {
    return computePipelines(this.gpu.device, [TOUCH_KERNEL]);
  }

  /** Once every kernel is built: the sizes of a slot's result buffer and readback. */
  ready(resultBytes: number, readbackBytes: number): void {
    this.resultBytes = resultBytes;
    this.readbackBytes = readbackBytes;
    this.touchPipeline = computePipeline(this.gpu.device, TOUCH_KERNEL);
  }

  /**
   * Slot `at`'s buffers, made when the ring first reaches it (a short run needs fewer;
   * mapped staging costs ~0.6 ms per MB to make). The first slot's staging holds only the
   * run's first batch, one frame, until the ring comes back to it.
   */
  slot(at: number, stagingFrames: number): RingSlot {
    return (this.slots[at] ??= this.parkedSlot() ?? this.createSlot(stagingFrames));
  }

  /** Everything a slot's buffers are sized by: a parked slot serves a run of the same layout. */
  private layoutKey(): string {
    return [this.refStride, this.distStride, this.hostStride, this.maxBatch, this.lanes, this.resultBytes, this.readbackBytes].join(":");
  }

  /** A slot an earlier run of this layout parked, its frames' views given this run's format. */
  private parkedSlot(): RingSlot | undefined {
    const pool = parkedSlots.get(this.gpu.device);
    const slot = pool?.byLayout.get(this.layoutKey())?.pop();
    if (!slot) return undefined;
    pool!.bytes -= slotBytes(slot);
    for (const frames of slot.frames) {
      for (const frame of frames) {
        frame.index = -1;
        frame.format = this.format!;
        frame.planes = this.planes;
      }
    }
    return slot;
  }

  /** Maps a free slot's staging buffer for a batch of `limit` frames from frame `first` on. */
  open(slot: RingSlot, first: number, limit: number): void {
    if (slot.stagingFrames < limit) {
      slot.staging.destroy();
      slot.staging = this.createStaging(limit);
      slot.stagingFrames = limit;
    }
    slot.mapped = new Uint8Array(slot.staging.getMappedRange());
    slot.first = first;
    slot.count = 0;
    slot.limit = limit;
    slot.reads = [];
  }

  /**
   * Copies a frame's read bytes into frame `f` of the slot's staging buffer: the reference
   * and each lane's distorted picture (none for a lane that has ended: its stages skip the frame).
   */
  copyFrame(slot: RingSlot, f: number, ref: Picture, dists: readonly (Picture | undefined)[]): void {
    slot.mapped!.set(ref.buffer.subarray(0, this.refRead), this.refAt(f));
    dists.forEach((d, lane) => d && slot.mapped!.set(d.buffer.subarray(0, this.distRead), this.distAt(f, lane)));
  }

  /** Starts reading a frame from its files straight into frame `f` of the slot's staging buffer (as copyFrame). */
  readFrame(slot: RingSlot, f: number, ref: FrameRead, dists: readonly (FrameRead | undefined)[]): void {
    const mapped = slot.mapped!;
    const reads = [];
    if (this.refRead) reads.push(ref.file.read(ref.index, mapped.subarray(this.refAt(f), this.refAt(f) + this.refRead), true));
    if (this.distRead) {
      dists.forEach((d, lane) => d && reads.push(d.file.read(d.index, mapped.subarray(this.distAt(f, lane), this.distAt(f, lane) + this.distRead), true)));
    }
    for (const r of reads) {
      // Tracked until settled: the staging buffer must outlive every read into it.
      this.pendingReads.add(r);
      this.gpu.holdMappedWhile(r);
      const settled = () => void this.pendingReads.delete(r);
      r.then(settled, settled);
      slot.reads.push(r);
    }
  }

  /** Records the copies of a filled batch's frames from its staging buffer to its frame buffers. */
  encodeUpload(encoder: GPUCommandEncoder, slot: RingSlot): void {
    slot.staging.unmap();
    slot.mapped = undefined;
    for (let f = 0; f < slot.count; f++) {
      if (this.refRead) encoder.copyBufferToBuffer(slot.staging, this.refAt(f), slot.ref, f * this.refStride, alignUp(this.refRead, 4));
      if (this.distRead) slot.dists.forEach((dist, lane) => encoder.copyBufferToBuffer(slot.staging, this.distAt(f, lane), dist, f * this.distStride, alignUp(this.distRead, 4)));
    }
    slot.uploaded = true;
  }

  /**
   * Clears the slot's results and records the tiny pass that moves its frame and result
   * buffers to the kernels' usage (see GpuFrameRunner's encodeAndSubmit for why).
   */
  encodeTouch(encoder: GPUCommandEncoder, slot: RingSlot): void {
    encoder.clearBuffer(slot.results);
    const touch = encoder.beginComputePass({ label: "vq touch frames" });
    touch.setPipeline(this.touchPipeline!);
    for (const group of slot.touchGroups) {
      touch.setBindGroup(0, group);
      touch.dispatchWorkgroups(1);
    }
    touch.end();
  }

  /** After the submission: maps the slot's staging buffer again for its next batch. */
  remap(slot: RingSlot, onError: (e: unknown) => void): void {
    slot.stagingReady = slot.staging.mapAsync(GPUMapMode.WRITE);
    slot.stagingReady.catch(onError);
  }

  /**
   * Ends the ring, once `settled()` has: after a run that ended cleanly (`reusable`: every
   * batch collected, nothing mapped for reading) its slots are parked for the device's next
   * run of the same layout, up to PARKED_BYTES_LIMIT; else, and beyond that, freed.
   */
  release(reusable: boolean): void {
    let pool = parkedSlots.get(this.gpu.device);
    if (reusable && !pool) parkedSlots.set(this.gpu.device, (pool = { bytes: 0, byLayout: new Map() }));
    const key = this.layoutKey();
    for (const slot of this.slots) {
      const bytes = slotBytes(slot);
      // a slot opened for a batch never sent has its staging handed out: not parked
      if (reusable && pool && !slot.mapped && pool.bytes + bytes <= PARKED_BYTES_LIMIT) {
        pool.bytes += bytes;
        let list = pool.byLayout.get(key);
        if (!list) pool.byLayout.set(key, (list = []));
        list.push(slot);
      } else {
        for (const b of [slot.ref, ...slot.dists, slot.staging, slot.results, slot.readback]) b.destroy();
      }
    }
    this.slots.length = 0;
  }

  /** Waits for the reads still under way (their buffers must outlive them). */
  settled(): Promise<unknown> {
    return Promise.allSettled([...this.pendingReads]);
  }

  private createSlot(stagingFrames: number): RingSlot {
    const { device } = this.gpu;
    const batch = this.maxBatch;
    const format = this.format!;
    const planes = this.planes;
    const ref = device.createBuffer({ label: "vq ref frames", size: this.refStride * batch, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    const dists = Array.from({ length: this.lanes }, () => device.createBuffer({ label: "vq dist frames", size: this.distStride * batch, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST }));
    const results = device.createBuffer({ label: "vq results", size: this.resultBytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    return {
      ref,
      dists,
      frames: dists.map((dist) =>
        Array.from({ length: batch }, (_, f) => ({
          index: -1,
          ref: { buffer: ref, offset: f * this.refStride, size: this.refStride },
          dist: { buffer: dist, offset: f * this.distStride, size: this.distStride },
          format,
          planes,
        })),
      ),
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
      touchGroups: dists.map((dist) =>
        device.createBindGroup({
          label: "vq touch frames",
          layout: this.touchPipeline!.getBindGroupLayout(0),
          entries: [ref, dist, results].map((buffer, binding) => ({ binding, resource: { buffer } })),
        }),
      ),
    };
  }

  private createStaging(frames: number): GPUBuffer {
    return this.gpu.device.createBuffer({ label: "vq upload staging", size: Math.max(16, this.hostStride * frames), usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC, mappedAtCreation: true });
  }

  private refAt(f: number): number {
    return f * this.hostStride + MARKER_ROOM;
  }

  private distAt(f: number, lane: number): number {
    return this.refAt(f) + alignUp(this.refRead, 4) + MARKER_ROOM + lane * (alignUp(this.distRead, 4) + MARKER_ROOM);
  }
}
