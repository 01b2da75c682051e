import type { Plane, Samples } from "@vq/core";

/**
 * Copies of the last few reference luma planes. Readers recycle their frame buffers once
 * a frame is extracted, so motion keeps its own copies, in buffers allocated once.
 */
export class LumaHistory {
  private readonly planes: Samples[];
  private pushed = 0;

  /** @param depth how many past frames to keep (2 for the five-frame window) */
  constructor(readonly width: number, readonly height: number, bitDepth: number, readonly depth: number) {
    const size = width * height;
    this.planes = Array.from({ length: depth }, () => (bitDepth > 8 ? new Uint16Array(size) : new Uint8Array(size)));
  }

  /** Frames held so far, up to depth. */
  get size(): number {
    return Math.min(this.pushed, this.depth);
  }

  /** The plane `back` frames before the next push (1 = the last one pushed); stride = width. */
  back(back: number): Samples {
    if (back < 1 || back > this.size) throw new Error(`motion: no reference frame ${back} back (${this.size} held)`);
    return this.planes[(this.pushed - back) % this.depth]!;
  }

  /** Keeps a copy of `plane`, replacing the oldest one held. */
  push(plane: Plane): void {
    const into = this.planes[this.pushed % this.depth]!;
    const { width, height, stride, data } = plane;
    if (stride === width) {
      into.set(data.subarray(0, width * height));
    } else {
      for (let y = 0; y < height; y++) into.set(data.subarray(y * stride, y * stride + width), y * width);
    }
    this.pushed++;
  }
}
