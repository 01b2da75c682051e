import { alignUp, copyPlaneIntoKernels, KernelMemoryLayout, kernelsModule, reserveMemory, type FeatureCollector, type FeatureExtractor, type PictureFormat, type PicturePair } from "@vq/core";
import { filterRegion, scoreRegion, type Region } from "../numerics/band-region.ts";
import { int32Numerator, maskingShifts, scale0Numerator, walkRange } from "../numerics/contrast-masking.ts";
import { csfFactors, fixedFactorsQ32, scale0FixedFactors } from "../numerics/csf.ts";
import { DEN_SQUARE_SHIFT, int32Denominator, scale0Denominator, scale0RowShift } from "../numerics/csf-den.ts";
import { COS_1DEG_SQ, divisionTable } from "../numerics/decouple.ts";
import { ceilLog2 } from "../numerics/dwt-indices.ts";
import { DWT123_ROUNDING, scale0Rounding, vectorOvershoots } from "../numerics/dwt2.ts";
import { ADM_DEBUG_FEATURES, ADM_FEATURES, admDefinition, admFeatureName, type AdmOptions } from "../definition.ts";
import { admSettings } from "./adm-cpu.ts";
import { SIMD_PROFILES, type AdmScores, type AdmSettings, type SimdProfile } from "./adm-pipeline.ts";
import { appendAdmFrame } from "./adm-scale-scores.ts";
import { admFrameTotals, numDenLimit } from "./frame-totals.ts";
import { ADM_KERNELS_WASM } from "./wasm/adm-kernels.wasm.ts";

/** The kernels' exports (assembly/adm-kernels.ts); pointers are byte addresses in `memory`, flags 0 or 1. */
export interface AdmKernels {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  dwtScale0(
    src: number, wide: number, vector: number, w: number, h: number, shift: number, round: number, centre: number,
    out: number, bandBytes: number, outStride: number, tmp: number, overshoot: number, lowOnly: number,
  ): void;
  dwtScale123(
    srcRef: number, srcDis: number, src16: number, w: number, h: number, stride: number,
    vRound: number, vShift: number, hRound: number, hShift: number,
    outRef: number, outDis: number, bandBytes: number, tmp: number, overshoot: number,
  ): void;
  decoupleScale0(...args: DecoupleArgs): void;
  decoupleInt32(...args: DecoupleArgs): void;
  csfMaskerScale0(src: number, bandBytes: number, wh: number, wv: number, wd: number, stride: number, ...rest: [...RegionArgs, flt: number, centre: number]): void;
  csfMaskerInt32(src: number, bandBytes: number, wh: number, wv: number, wd: number, stride: number, ...rest: [...RegionArgs, csf: number, flt: number, centre: number]): void;
  denominatorScale0(ref: number, bandBytes: number, stride: number, ...rest: [...RegionArgs, shift: number, out: number]): void;
  denominatorInt32(ref: number, bandBytes: number, stride: number, ...rest: [...RegionArgs, squareShift: number, cubeShift: number, rowShift: number, out: number]): void;
  maskingSums(
    src: number, bandBytes: number, shift16: number, flt: number, centre: number, w: number, h: number, stride: number,
    rowStart: number, rowEnd: number, colStart: number, colEnd: number,
    wh: number, wv: number, wd: number, subHv: number, subD: number, sqHv: number, cubeHv: number, sqD: number, cubeD: number, rowShift: number, out: number,
  ): void;
}
type RegionArgs = [left: number, top: number, right: number, bottom: number];
type DecoupleArgs = [ref: number, dis: number, restored: number, additive: number, bandBytes: number, stride: number, ...RegionArgs, gain: number, integerGain: number, div: number, cosSq: number];

/** The compiled kernels for this thread, or undefined where the TypeScript reference runs (core's kernelsModule). */
export function admKernelsModule(): WebAssembly.Module | undefined {
  return kernelsModule("adm", ADM_KERNELS_WASM);
}

/** Bytes a SIMD step may read past a buffer's end (32, rounded up). */
const SLACK = 64;

/**
 * Where everything lives, as AdmBuffers lays it out (one stride for every band, scale 0's
 * half width; smaller scales in the top-left corner): band sets are `bandBytes` apart,
 * a, h, v, d or h, v, d.
 */
interface WasmLayout {
  readonly srcRef: number;
  readonly srcDis: number;
  readonly tmp: number;
  readonly div: number;
  readonly out: number;
  readonly band16: number;
  readonly ref16: number;
  readonly dis16: number;
  readonly restored16: number;
  readonly additive16: number;
  readonly flt16: number;
  readonly centre16: number;
  readonly band32: number;
  readonly ref32: number;
  readonly dis32: number;
  readonly restored32: number;
  readonly additive32: number;
  readonly csfAdditive32: number;
  readonly csfRestored32: number;
  readonly fltAdditive32: number;
  readonly centreAdditive32: number;
  readonly fltRestored32: number;
  readonly centreRestored32: number;
  /** The first byte after them all. */
  readonly end: number;
}

export function layOut(base: number, width: number, height: number, bitDepth: number): WasmLayout {
  const layout = new KernelMemoryLayout(base, SLACK);
  const halfW = (width + 1) >> 1;
  const halfH = (height + 1) >> 1;
  const samples = width * height * (bitDepth > 8 ? 2 : 1);
  // libvmaf's tmp (ALIGN_CEIL(width * 4) * 4 bytes): the x86 overshoot reads its stale bytes
  const rowBytes = width * 4 + ((width * 4) % 32 ? 32 - ((width * 4) % 32) : 0);
  const band16 = alignUp(halfW * halfH * 2 + SLACK, 16);
  const band32 = alignUp(halfW * ((halfH + 1) >> 1) * 4 + SLACK, 16);
  const bands = (count: number, bytes: number) => layout.take(count * bytes);
  return {
    srcRef: layout.take(samples),
    srcDis: layout.take(samples),
    tmp: layout.take(rowBytes * 4),
    div: layout.take(65537 * 4),
    out: layout.take(6 * 8),
    band16,
    ref16: bands(4, band16),
    dis16: bands(4, band16),
    restored16: bands(3, band16),
    additive16: bands(3, band16),
    flt16: layout.take(halfW * halfH * 4),
    centre16: layout.take(halfW * halfH * 4),
    band32,
    ref32: bands(4, band32),
    dis32: bands(4, band32),
    restored32: bands(3, band32),
    additive32: bands(3, band32),
    csfAdditive32: bands(3, band32),
    csfRestored32: bands(3, band32),
    fltAdditive32: layout.take(band32),
    centreAdditive32: layout.take(band32),
    fltRestored32: layout.take(band32),
    centreRestored32: layout.take(band32),
    end: layout.end, // evaluated last, after every take
  };
}

interface WasmState {
  readonly kernels: AdmKernels;
  readonly at: WasmLayout;
  readonly out: Float64Array;
  readonly width: number;
  readonly height: number;
  readonly bitDepth: number;
}

const regionArgs = (r: Region): RegionArgs => [r.left, r.top, r.right, r.bottom];

/**
 * libvmaf's integer `adm` on WebAssembly SIMD kernels (ADR 0040): the same numbers as
 * AdmCpu, the TypeScript reference (AdmPipeline). The module instance owns every band and
 * libvmaf's tmp rows; a frame costs one copy of each luma plane into it. The per-scale
 * float arithmetic after the integer sums (L3 norms, powf, the totals) is the reference's
 * own functions.
 */
export class AdmWasm implements FeatureExtractor<PicturePair> {
  readonly definition = admDefinition;
  private state?: WasmState;
  private readonly settings: AdmSettings;
  private readonly names: string[];
  private readonly debugNames: string[];
  private floatWeights: [number, number, number][] = [];
  private q32Weights: [number, number, number][] = [];
  private scale0Weights: [number, number, number] = [0, 0, 0];
  private readonly aimScales = new Float64Array(4);
  private readonly result: AdmScores = { score: 0, aim: 0, num: 0, den: 0, scales: new Float64Array(8) };

  /**
   * @param simd the libvmaf build to reproduce; x86 AVX-512 by default (the build the golden data came from).
   */
  constructor(
    readonly options: AdmOptions,
    private readonly module: WebAssembly.Module,
    readonly simd: SimdProfile = SIMD_PROFILES.avx512,
  ) {
    this.names = ADM_FEATURES.map((n) => admFeatureName(n, options));
    this.debugNames = ADM_DEBUG_FEATURES.map((n) => admFeatureName(n, options));
    this.settings = admSettings(options, simd);
  }

  init(format: PictureFormat): void {
    admDefinition.checkFormat?.(this.options, format);
    // here, as AdmCpu: weights without a tabulated viewing condition fail init, not the constructor
    this.floatWeights = [];
    this.q32Weights = [];
    for (let scale = 0; scale < 4; scale++) {
      const [hv, diag] = csfFactors(scale, this.settings);
      this.floatWeights.push([hv, hv, diag]);
      this.q32Weights.push(scale === 0 ? [0, 0, 0] : fixedFactorsQ32(scale, this.settings));
    }
    this.scale0Weights = scale0FixedFactors(this.settings);
    const kernels = new WebAssembly.Instance(this.module).exports as unknown as AdmKernels;
    const at = layOut(kernels.heapBase(), format.width, format.height, format.bitDepth);
    reserveMemory(kernels.memory, at.end);
    new Int32Array(kernels.memory.buffer, at.div, 65537).set(divisionTable());
    const out = new Float64Array(kernels.memory.buffer, at.out, 6);
    this.state = { kernels, at, out, width: format.width, height: format.height, bitDepth: format.bitDepth };
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    const state = this.state;
    if (!state) throw new Error("adm: extract before init");
    const { kernels, at, bitDepth } = state;
    copyPlaneIntoKernels(kernels.memory.buffer, frame.ref.planes[0]!, at.srcRef, frame.ref.planes[0]!.width, bitDepth <= 8);
    copyPlaneIntoKernels(kernels.memory.buffer, frame.dist.planes[0]!, at.srcDis, frame.dist.planes[0]!.width, bitDepth <= 8);
    const r = this.compute(state);
    appendAdmFrame(r, this.options, this.names, this.debugNames, index, collector);
  }

  /** AdmPipeline.compute on the kernels. */
  private compute(state: WasmState): AdmScores {
    const { kernels: k, at, out, bitDepth } = state;
    const s = this.settings;
    const simd = this.simd;
    const stride = (state.width + 1) >> 1;
    const scales = this.result.scales;
    const aimScales = this.aimScales;
    const gain = s.enhancementGainLimit;
    // an integer gain (1 to 100) boosts in int32 lanes, any other in doubles
    const integerGain = Number.isInteger(gain) && gain < 65536 ? 1 : 0;
    let w = state.width;
    let h = state.height;
    for (let scale = 0; scale < 4; scale++) {
      let numScale = 0;
      let denScale = 0;
      let aimScale = 0;
      const halfW = (w + 1) >> 1;
      if (scale === 0) {
        const lowOnly = s.skipScale0;
        const { shift, round, centre } = scale0Rounding(bitDepth);
        const chunk = bitDepth === 8 ? simd.scale0Bits8 : simd.scale0HighBits;
        const overshoot = !lowOnly && vectorOvershoots(halfW, chunk) ? 1 : 0;
        const wide = bitDepth > 8 ? 1 : 0;
        const vector = bitDepth < 16 ? 1 : 0;
        k.dwtScale0(at.srcRef, wide, vector, w, h, shift, round, centre, at.ref16, at.band16, stride, at.tmp, overshoot, lowOnly ? 1 : 0);
        k.dwtScale0(at.srcDis, wide, vector, w, h, shift, round, centre, at.dis16, at.band16, stride, at.tmp, overshoot, lowOnly ? 1 : 0);
        w = halfW;
        h = (h + 1) >> 1;
        if (lowOnly) {
          denScale = Math.fround(1e-10); // libvmaf's guard against dividing by zero
        } else {
          const filter = regionArgs(filterRegion(w, h));
          k.decoupleScale0(at.ref16, at.dis16, at.restored16, at.additive16, at.band16, stride, ...filter, gain, integerGain, at.div, COS_1DEG_SQ);
          const score = scoreRegion(w, h);
          const area = (score.bottom - score.top) * (score.right - score.left);
          k.denominatorScale0(at.ref16, at.band16, stride, ...regionArgs(score), scale0RowShift(area), at.out);
          denScale = scale0Denominator(out, w, h, this.floatWeights[0]!, s.noiseWeight);
          const [wh, wv, wd] = this.scale0Weights;
          k.csfMaskerScale0(at.additive16, at.band16, wh, wv, wd, stride, ...filter, at.flt16, at.centre16);
          this.masking(k, at.restored16, at.band16, 1, at.flt16, at.centre16, w, h, stride, this.scale0Weights, 0);
          numScale = scale0Numerator(out, w, h, s.noiseWeight);
          if (!s.skipAim) {
            k.csfMaskerScale0(at.restored16, at.band16, wh, wv, wd, stride, ...filter, at.flt16, at.centre16);
            this.masking(k, at.additive16, at.band16, 1, at.flt16, at.centre16, w, h, stride, this.scale0Weights, 0);
            aimScale = scale0Numerator(out, w, h, 0);
          }
        }
      } else {
        const src16 = scale === 1 ? 1 : 0;
        const { vRound, vShift, hRound, hShift } = DWT123_ROUNDING[scale - 1]!;
        const overshoot = vectorOvershoots(halfW, simd.scales123) ? 1 : 0;
        const srcRef = src16 ? at.ref16 : at.ref32;
        const srcDis = src16 ? at.dis16 : at.dis32;
        k.dwtScale123(srcRef, srcDis, src16, w, h, stride, vRound, vShift, hRound, hShift, at.ref32, at.dis32, at.band32, at.tmp, overshoot);
        w = halfW;
        h = (h + 1) >> 1;
        const filter = regionArgs(filterRegion(w, h));
        k.decoupleInt32(at.ref32, at.dis32, at.restored32, at.additive32, at.band32, stride, ...filter, gain, integerGain, at.div, COS_1DEG_SQ);
        const score = scoreRegion(w, h);
        k.denominatorInt32(at.ref32, at.band32, stride, ...regionArgs(score), DEN_SQUARE_SHIFT[scale - 1]!, ceilLog2(score.right - score.left), ceilLog2(score.bottom - score.top), at.out);
        denScale = int32Denominator(out, scale, w, h, this.floatWeights[scale]!, s.noiseWeight);
        const [wh, wv, wd] = this.q32Weights[scale]!;
        // the restored bands' CSF values are both the DLM's x and the AIM's masker (and vice versa)
        k.csfMaskerInt32(at.additive32, at.band32, wh, wv, wd, stride, ...filter, at.csfAdditive32, at.fltAdditive32, at.centreAdditive32);
        k.csfMaskerInt32(at.restored32, at.band32, wh, wv, wd, stride, ...filter, at.csfRestored32, at.fltRestored32, at.centreRestored32);
        this.masking(k, at.csfRestored32, at.band32, 0, at.fltAdditive32, at.centreAdditive32, w, h, stride, UNIT_WEIGHTS, scale);
        numScale = int32Numerator(out.subarray(3), scale, w, h, s.noiseWeight);
        if (!s.skipAim) {
          this.masking(k, at.csfAdditive32, at.band32, 0, at.fltRestored32, at.centreRestored32, w, h, stride, UNIT_WEIGHTS, scale);
          aimScale = int32Numerator(out.subarray(3), scale, w, h, 0);
        }
      }
      scales[2 * scale] = numScale;
      scales[2 * scale + 1] = denScale;
      aimScales[scale] = aimScale;
    }
    return admFrameTotals(this.result, aimScales, numDenLimit(state.width, state.height));
  }

  /** contrastMaskingScale0 / contrastMaskingInt32's three int64 sums into `out` (as doubles, then as floats). */
  private masking(k: AdmKernels, src: number, bandBytes: number, shift16: number, flt: number, centre: number, w: number, h: number, stride: number, weights: readonly number[], scale: number): void {
    const walk = walkRange(w, h);
    const m = maskingShifts(scale, w);
    k.maskingSums(
      src, bandBytes, shift16, flt, centre, w, h, stride,
      walk.rowStart, walk.rowEnd, walk.colStart, walk.colEnd,
      weights[0]!, weights[1]!, weights[2]!, m.subHv, m.subD, m.squareHv, m.cubeHv, m.squareD, m.cubeD, ceilLog2(h), this.state!.at.out,
    );
  }

  flush(_collector: FeatureCollector): void {}

  close(): void {
    this.state = undefined;
  }
}

const UNIT_WEIGHTS = [1, 1, 1] as const;
