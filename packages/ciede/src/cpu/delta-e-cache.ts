/**
 * Remembers ΔE00 of recently seen pairs of sample triples (reference, distorted). Coded
 * video repeats pairs a lot, within a frame (flat areas) and across frames: on the
 * golden 1080p x264 pair a 2^22-slot cache answers ~74% of the pixels. ΔE00 depends on
 * nothing but the pair. Like LabCache it is exact: a slot is used only when both
 * stored keys equal the pair asked for. Direct-mapped; a slot's keys and value sit
 * side by side, so a probe touches one cache line.
 */
export class DeltaECache {
  /** Per slot: reference key, distorted key (see colourKey), ΔE. int32 words up to 10 bits. */
  private readonly words: Int32Array | Float64Array;
  /** The same memory, for reading and writing the ΔE word. */
  private readonly valueWords: Float32Array | Float64Array;
  private readonly shift: number;

  constructor(bitDepth: number, slotBits: number) {
    const length = 3 << slotBits;
    if (bitDepth <= 10) {
      this.words = new Int32Array(length).fill(-1);
      this.valueWords = new Float32Array(this.words.buffer);
    } else {
      this.words = this.valueWords = new Float64Array(length).fill(-1);
    }
    this.shift = 32 - slotBits;
  }

  /** The slot for the pair of triples (y1, u1, v1), (y2, u2, v2). */
  slot(y1: number, u1: number, v1: number, y2: number, u2: number, v2: number): number {
    let h = Math.imul(y1, 0x9e3779b1) ^ Math.imul(u1, 0x85ebca6b) ^ Math.imul(v1, 0xc2b2ae35);
    h = Math.imul(h ^ (h >>> 16), 0x27d4eb2f) ^ Math.imul(y2, 0x165667b1) ^ Math.imul(u2, 0xd3a2646c) ^ Math.imul(v2, 0xfd7046c5);
    return Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> this.shift;
  }

  /** ΔE of the pair if the slot holds it, else -1. */
  lookup(slot: number, refKey: number, distKey: number): number {
    const at = 3 * slot;
    return this.words[at] === refKey && this.words[at + 1] === distKey ? this.valueWords[at + 2]! : -1;
  }

  store(slot: number, refKey: number, distKey: number, deltaE: number): void {
    const at = 3 * slot;
    this.words[at] = refKey;
    this.words[at + 1] = distKey;
    this.valueWords[at + 2] = deltaE;
  }
}

/**
 * One number naming a sample triple exactly: (y·scale + u)·scale + v with scale =
 * 2^bitDepth (below 2^31 up to 10 bits, below 2^48 always).
 */
export function colourKey(y: number, u: number, v: number, scale: number): number {
  return (y * scale + u) * scale + v;
}

/** Cache sizes for a picture: about two slots per pixel, within [2^min, 2^max] slots. */
export function slotBitsFor(pixels: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.ceil(Math.log2(pixels)) + 1));
}
