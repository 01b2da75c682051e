import { copyPlaneIntoKernels, KernelMemoryLayout, kernelsModule, reserveMemory, uint64ToNumber, type FeatureCollector, type FeatureExtractor, type PictureFormat, type PicturePair } from "@vq/core";
import { vifDefinition, vifFeatureNames, type VifFeatureNames, type VifOptions } from "../definition.ts";
import { createLog2Table } from "../numerics/log2-table.ts";
import { pairedTaps } from "../numerics/paired-taps.ts";
import { VIF_FILTERS, VIF_FILTER_HALF, VIF_MAX_HALF, VIF_SCALES } from "../numerics/vif-filters.ts";
import { writeVifScores } from "../numerics/vif-scores.ts";
import { VIF_KERNELS_WASM } from "./wasm/vif-kernels.wasm.ts";

/** The kernels' exports (assembly/vif-kernels.ts); pointers are byte addresses in `memory`. */
interface VifKernels {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  sumNumLog(): number;
  sumDenLog(): number;
  sumDenNonLog(): number;
  sumNonLogHi(): number;
  sumNonLogLo(): number;
  mirrorPlaneRows(plane: number, stride: number, width: number, height: number, half: number, wide: number): void;
  statisticScale(
    ref: number, dis: number, stride: number, width: number, height: number,
    filter: number, half: number, narrow: number, muRound: number, muShift: number, sqRound: number, sqShift: number,
    rows: number, rowStep: number, pairs: number, pairCount: number,
    table: number, gainLimit: number,
  ): void;
  decimate(
    fromRef: number, fromDis: number, fromStride: number, width: number,
    toRef: number, toDis: number, toStride: number, toWidth: number, toHeight: number, toPad: number,
    filter: number, half: number, round: number, shift: number, pairs: number, pairCount: number, rowA: number, rowB: number, fromNarrow: number,
  ): void;
}

/** The compiled kernels for this thread, or undefined where the TypeScript reference runs (core's kernelsModule). */
export function vifKernelsModule(): WebAssembly.Module | undefined {
  return kernelsModule("vif", VIF_KERNELS_WASM);
}

/** Samples a SIMD step may read or write past a row's or plane's end. */
const SLACK = 16;
/** The statistic rows the vertical pass writes (the kernels' MU1..RD_HI). */
const STAT_ROWS = 8;

/** One scale's planes in wasm memory: byte addresses of sample (0, 0) of reference and distorted. */
interface WasmScale {
  readonly width: number;
  readonly height: number;
  readonly pad: number;
  readonly ref: number;
  readonly dis: number;
}

interface WasmState {
  readonly kernels: VifKernels;
  readonly scales: readonly WasmScale[];
  readonly filters: readonly number[];
  /** Per scale, its filter's paired taps: byte address and count. */
  readonly pairs: readonly { at: number; count: number }[];
  /** The eight statistic rows, `rowStep` bytes apart, and decimation's two rows. */
  readonly rows: { stats: number; rowStep: number; a: number; b: number };
  readonly table: number;
  readonly bitDepth: number;
}

/**
 * libvmaf's integer `vif` extractor on WebAssembly SIMD kernels (ADR 0040): the same
 * numbers as VifCpu, the TypeScript reference. Its own module instance owns the pyramid,
 * the row buffers and the log2 table; a frame costs one copy of each luma plane into it.
 */
export class VifWasm implements FeatureExtractor<PicturePair> {
  readonly definition = vifDefinition;
  readonly names: VifFeatureNames;
  private state?: WasmState;
  private readonly numDen = new Float32Array(2 * VIF_SCALES);

  constructor(readonly options: VifOptions, private readonly module: WebAssembly.Module) {
    this.names = vifFeatureNames(options);
  }

  init(format: PictureFormat): void {
    vifDefinition.checkFormat?.(this.options, format);
    const kernels = new WebAssembly.Instance(this.module).exports as unknown as VifKernels;
    const layout = new KernelMemoryLayout(kernels.heapBase());
    const table = layout.take(65537 * 2);
    const filters = VIF_FILTERS.map((f) => layout.take(f.length * 4));
    const tapPairs = VIF_FILTERS.map((f) => pairedTaps(f));
    const pairs = tapPairs.map((p) => ({ at: layout.take(p.length * 8), count: p.length }));
    const scales: WasmScale[] = [];
    // 8-bit scale 0 stays in bytes (a frame's copy is a plain one, and half the memory traffic)
    const narrow = format.bitDepth === 8;
    for (let s = 0, w = format.width, h = format.height; s < VIF_SCALES; s++, w >>= 1, h >>= 1) {
      const pad = VIF_FILTER_HALF[s]!;
      const bytes = s === 0 && narrow ? 1 : 2;
      const plane = () => layout.take(((h + 2 * pad) * w + SLACK) * bytes) + pad * w * bytes;
      scales.push({ width: w, height: h, pad, ref: plane(), dis: plane() });
    }
    // u16 rows: mirrored padding on the left, on the right that and what a step reads past it
    const rowStep = (format.width + 2 * VIF_MAX_HALF + 2 * SLACK) * 2;
    // then sigma1_sq, sigma2_sq and sigma12 of a row, i32 rows two steps apart, from there on
    const stats = layout.take((STAT_ROWS + 6) * rowStep) + VIF_MAX_HALF * 2;
    const rows = { stats, rowStep, a: layout.take(rowStep) + VIF_MAX_HALF * 2, b: layout.take(rowStep) + VIF_MAX_HALF * 2 };
    reserveMemory(kernels.memory, layout.end);
    const buffer = kernels.memory.buffer;
    new Uint16Array(buffer, table, 65537).set(createLog2Table());
    VIF_FILTERS.forEach((f, s) => new Int32Array(buffer, filters[s]!, f.length).set(f));
    // each step: its byte offset, then taps a and b as the low and high i16 of one word
    tapPairs.forEach((p, s) => new Int32Array(buffer, pairs[s]!.at, p.length * 2).set(p.flatMap(({ offset, a, b }) => [offset * 2, a | (b << 16)])));
    this.state = { kernels, scales, filters, pairs, rows, table, bitDepth: format.bitDepth };
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    const state = this.state;
    if (!state) throw new Error("vif: extract before init");
    const { kernels, scales, filters, pairs, rows, bitDepth } = state;
    const top = scales[0]!;
    const narrow = bitDepth === 8;
    copyPlaneIntoKernels(kernels.memory.buffer, frame.ref.planes[0]!, top.ref, top.width, narrow);
    copyPlaneIntoKernels(kernels.memory.buffer, frame.dist.planes[0]!, top.dis, top.width, narrow);
    kernels.mirrorPlaneRows(top.ref, top.width, top.width, top.height, top.pad, narrow ? 0 : 1);
    kernels.mirrorPlaneRows(top.dis, top.width, top.width, top.height, top.pad, narrow ? 0 : 1);
    for (let scale = 0; scale < VIF_SCALES; scale++) {
      const to = scales[scale]!;
      if (scale > 0) {
        const from = scales[scale - 1]!;
        // from full-depth samples the vertical pass drops bitDepth bits, from 16-bit means 16
        const shift = scale === 1 ? bitDepth : 16;
        kernels.decimate(from.ref, from.dis, from.width, from.width, to.ref, to.dis, to.width, to.width, to.height, to.pad, filters[scale]!, to.pad, 2 ** (shift - 1), shift, pairs[scale]!.at, pairs[scale]!.count, rows.a, rows.b, scale === 1 && narrow ? 1 : 0);
      }
      if (scale === 0 && this.options.vif_skip_scale0) continue;
      // scale 0 brings samples of bitDepth bits to 16-bit means and, above 8 bits, its
      // squares to 32 bits; later scales round 16 bits off both
      const muShift = scale === 0 ? bitDepth : 16;
      const sqShift = scale === 0 ? (bitDepth - 8) * 2 : 16;
      kernels.statisticScale(
        to.ref, to.dis, to.width, to.width, to.height,
        filters[scale]!, to.pad, scale === 0 && narrow ? 1 : 0, 2 ** (muShift - 1), muShift, sqShift === 0 ? 0 : 2 ** (sqShift - 1), sqShift,
        rows.stats, rows.rowStep, pairs[scale]!.at, pairs[scale]!.count,
        state.table, this.options.vif_enhn_gain_limit,
      );
      const numLog = kernels.sumNumLog();
      const denLog = kernels.sumDenLog();
      const denNonLog = kernels.sumDenNonLog();
      const nonLog = uint64ToNumber(kernels.sumNonLogHi(), kernels.sumNonLogLo());
      this.numDen[2 * scale] = numLog / 2048.0 + (denNonLog - nonLog / 16384.0 / 65025.0);
      this.numDen[2 * scale + 1] = denLog / 2048.0 + denNonLog;
    }
    writeVifScores(collector, index, this.names, this.options, this.numDen);
  }

  flush(_collector: FeatureCollector): void {}

  close(): void {
    this.state = undefined;
  }
}
