import type { MaskerSums } from "../numerics/contrast-masking.ts";
import type { Orientations } from "../numerics/decouple.ts";
import { DwtIndices } from "../numerics/dwt-indices.ts";
import type { Bands16, Bands32 } from "../numerics/dwt2.ts";

/**
 * Every buffer one frame needs, allocated once per picture size. Like libvmaf, all
 * bands share one stride (the width of scale 0's bands) and smaller scales use their
 * top-left corner. Scale 0 is int16, scales 1..3 int32.
 */
export class AdmBuffers {
  readonly stride: number;
  readonly rows: DwtIndices;
  readonly cols: DwtIndices;
  /** libvmaf's tmp_ref: DWT rows, int16 at scale 0 and int32 after, in one buffer (see dwt2.ts). */
  readonly tmp16: Int16Array;
  readonly tmp32: Int32Array;
  readonly ref16: Bands16;
  readonly dis16: Bands16;
  readonly restored16: Orientations<Int16Array>;
  readonly additive16: Orientations<Int16Array>;
  /** the masking threshold's inputs at scale 0 (of the additive bands for the DLM, then of the restored ones for the AIM) */
  readonly masker16: MaskerSums;
  readonly ref32: Bands32;
  readonly dis32: Bands32;
  readonly restored32: Orientations<Int32Array>;
  readonly additive32: Orientations<Int32Array>;
  /** CSF-weighted additive and restored bands with their threshold inputs: each is the masker of the other. */
  readonly csfAdditive32: Orientations<Int32Array>;
  readonly maskerAdditive32: MaskerSums;
  readonly csfRestored32: Orientations<Int32Array>;
  readonly maskerRestored32: MaskerSums;

  constructor(width: number, height: number) {
    const halfW = (width + 1) >> 1;
    const halfH = (height + 1) >> 1;
    const size = halfW * halfH;
    this.stride = halfW;
    this.rows = new DwtIndices(halfH);
    this.cols = new DwtIndices(halfW);
    // ALIGN_CEIL(width * 4) * 4 bytes, as libvmaf allocates it
    const rowBytes = width * 4 + ((width * 4) % 32 ? 32 - ((width * 4) % 32) : 0);
    const tmp = new ArrayBuffer(rowBytes * 4);
    this.tmp16 = new Int16Array(tmp);
    this.tmp32 = new Int32Array(tmp);
    const i16 = () => new Int16Array(size);
    // scales 1..3 hold at most scale 1's rows
    const i32 = () => new Int32Array(halfW * ((halfH + 1) >> 1));
    this.ref16 = { a: i16(), h: i16(), v: i16(), d: i16() };
    this.dis16 = { a: i16(), h: i16(), v: i16(), d: i16() };
    this.restored16 = { h: i16(), v: i16(), d: i16() };
    this.additive16 = { h: i16(), v: i16(), d: i16() };
    this.masker16 = { flt: new Int32Array(size), centre: new Int32Array(size) };
    this.ref32 = { a: i32(), h: i32(), v: i32(), d: i32() };
    this.dis32 = { a: i32(), h: i32(), v: i32(), d: i32() };
    this.restored32 = { h: i32(), v: i32(), d: i32() };
    this.additive32 = { h: i32(), v: i32(), d: i32() };
    this.csfAdditive32 = { h: i32(), v: i32(), d: i32() };
    this.maskerAdditive32 = { flt: i32(), centre: i32() };
    this.csfRestored32 = { h: i32(), v: i32(), d: i32() };
    this.maskerRestored32 = { flt: i32(), centre: i32() };
  }
}
