import type { PassRecorder } from "./gpu-stage.ts";

/** Timed passes per submission: beyond this, passes run untimed. */
const MAX_PROFILED_PASSES = 512;

/** The profile's name for the copies from the staging buffer to the frame buffers. */
export const UPLOAD_LABEL = "upload (staging to frame buffers)";

/**
 * GPU timestamps of every compute pass, summed by label (`vq --gpu-profile`). The
 * timestamps ride in the batch's readback after the stages' results, so profiling adds
 * no wait of its own.
 */
export class PassProfiler {
  /** Summed GPU time per pass label, in nanoseconds. */
  readonly gpuTimeNs = new Map<string, number>();
  /**
   * Summed over batches, the time from the first pass's start to the last pass's end: the
   * passes plus the gaps between them (barriers, launches), in nanoseconds.
   */
  gpuSpanNs = 0;
  private querySet?: GPUQuerySet;
  private queryBuffer?: GPUBuffer;

  /** Starts timing on `device` (once per run); a device without timestamp queries stays untimed. */
  start(device: GPUDevice, enabled: boolean): void {
    if (!enabled || this.querySet) return;
    this.querySet = device.createQuerySet({ type: "timestamp", count: MAX_PROFILED_PASSES * 2 });
    this.queryBuffer = device.createBuffer({ size: MAX_PROFILED_PASSES * 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
  }

  get timing(): boolean {
    return this.querySet !== undefined;
  }

  /** Bytes the timestamps take after a batch's results in its readback. */
  get readbackBytes(): number {
    return this.querySet ? MAX_PROFILED_PASSES * 16 : 0;
  }

  /** The pass recorder of one submission; `labels` collects its timed passes in order. */
  recorder(encoder: GPUCommandEncoder, labels: string[]): PassRecorder {
    return { beginComputePass: (label) => this.beginPass(encoder, labels, label) };
  }

  /** Marks where the upload copies start: they end where the next timed pass starts. */
  markUpload(passes: PassRecorder): void {
    if (this.querySet) passes.beginComputePass(UPLOAD_LABEL).end();
  }

  /** Records the copy of the submission's timestamps into `readback` at byte `offset`. */
  resolve(encoder: GPUCommandEncoder, labels: readonly string[], readback: GPUBuffer, offset: number): void {
    if (!this.querySet || !this.queryBuffer || !labels.length) return;
    encoder.resolveQuerySet(this.querySet, 0, labels.length * 2, this.queryBuffer, 0);
    encoder.copyBufferToBuffer(this.queryBuffer, 0, readback, offset, labels.length * 16);
  }

  /** Adds one submission's times, read back from `words` at word `base` on. */
  add(words: Uint32Array, base: number, labels: readonly string[]): void {
    if (!labels.length) return;
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

  destroy(): void {
    this.querySet?.destroy();
    this.queryBuffer?.destroy();
    this.querySet = this.queryBuffer = undefined;
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
}
