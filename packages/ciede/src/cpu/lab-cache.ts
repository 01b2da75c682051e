import { colourKey } from "./delta-e-cache.ts";
import { LabConverter } from "../colour/lab-color.ts";

/**
 * Remembers the Lab colour of recently seen (Y, Cb, Cr) sample triples. The conversion
 * costs six pow() calls, and video repeats triples heavily (~10^5 distinct ones in a
 * 1080p frame). A slot is used only when its stored key is the very triple asked for,
 * so every value handed out is the one the conversion computes: the cache changes
 * speed, never results. Direct-mapped (a colliding triple replaces the old one); a
 * slot's key and L, a, b sit side by side.
 */
export class LabCache {
  /** Per slot: the colour key (see colourKey), then L, a, b; int32/float32 words up to 10 bits. */
  private readonly words: Int32Array | Float64Array;
  /** The same memory, for the L, a, b words: where `find` points. */
  readonly lab: Float32Array | Float64Array;
  private readonly shift: number;
  private readonly converter: LabConverter;
  private readonly converted = new Float32Array(3);

  private readonly keyScale: number;

  constructor(bitDepth: number, slotBits = 20) {
    this.keyScale = 2 ** bitDepth;
    this.converter = new LabConverter(bitDepth);
    if (bitDepth <= 10) {
      this.words = new Int32Array(4 << slotBits).fill(-1);
      this.lab = new Float32Array(this.words.buffer);
    } else {
      this.words = this.lab = new Float64Array(4 << slotBits).fill(-1);
    }
    this.shift = 32 - slotBits;
  }

  /** Index into `lab` of L (then a, b) of the colour (y, u, v), converting it on a miss. */
  find(y: number, u: number, v: number): number {
    const key = colourKey(y, u, v, this.keyScale);
    let h = Math.imul(y, 0x9e3779b1) ^ Math.imul(u, 0x85ebca6b) ^ Math.imul(v, 0xc2b2ae35);
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> this.shift;
    const at = 4 * h;
    if (this.words[at] !== key) {
      this.words[at] = key;
      this.converter.convert(y, u, v, this.converted, 0);
      this.lab[at + 1] = this.converted[0]!;
      this.lab[at + 2] = this.converted[1]!;
      this.lab[at + 3] = this.converted[2]!;
    }
    return at + 1;
  }
}
