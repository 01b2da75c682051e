import { alignUp, copyPlaneIntoKernels, KernelMemoryLayout, kernelsModule, reserveMemory, type FeatureCollector, type FeatureExtractor, type PictureFormat, type PicturePair } from "@vq/core";
import { powf } from "@vq/core/libm";
import { filterRegion, scoreRegion } from "../numerics/band-region.ts";
import { walkRange } from "../numerics/contrast-masking.ts";
import { COS_1DEG_SQ } from "../numerics/decouple.ts";
import { FLOAT_ADM_DEBUG_FEATURES, FLOAT_ADM_FEATURES, floatAdmDefinition, floatAdmFeatureName, floatAdmOptions, type FloatAdmOptions } from "../float-adm-definition.ts";
import { floatAdmSettings, writeFloatAdmScores } from "./float-adm-cpu.ts";
import { FloatAdmTotals, type FloatAdmScores, type FloatAdmSettings } from "./float-adm-pipeline.ts";
import { floatCsfFactors, noiseConstant } from "./float-csf.ts";
import { FLOAT_ADM_KERNELS_WASM } from "./wasm/float-adm-kernels.wasm.ts";

/** The kernels' exports (assembly/float-adm-kernels.ts); pointers are byte addresses in `memory`, flags 0 or 1. */
interface FloatAdmKernels {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  dwt(
    src: number, kind: number, srcStride: number, w: number, h: number, inv: number,
    out: number, bandBytes: number, stride: number, tmp: number, tmpBytes: number, lowOnly: number,
  ): void;
  decoupleCsf(
    ref: number, dis: number, csfR: number, csfA: number, fltR: number, fltA: number, bandBytes: number, stride: number, w: number,
    left: number, top: number, right: number, bottom: number, gain: number, cosSq: number, weightHv: number, weightD: number,
  ): void;
  denominatorSums(ref: number, bandBytes: number, stride: number, left: number, top: number, right: number, bottom: number, weightHv: number, weightD: number, out: number): void;
  maskingSums(
    src: number, centre: number, flt: number, bandBytes: number, stride: number, h: number,
    rowStart: number, rowEnd: number, colStart: number, colEnd: number, bypass: number, out: number,
  ): void;
}

/** The compiled kernels for this thread, or undefined where the TypeScript reference runs (core's kernelsModule). */
export function floatAdmKernelsModule(): WebAssembly.Module | undefined {
  return kernelsModule("float_adm", FLOAT_ADM_KERNELS_WASM);
}

/** Bytes a step may read past a buffer's end (eight u16 samples, or four floats). */
const SLACK = 64;
/** Floats of room before each band's coefficient (0, 0): the maskers' mirrored column −1 of row 0. */
const FRONT = 4;

/**
 * Where everything lives in the kernels' memory. Every band has the same stride, scale 0's
 * half width plus room for a step's overshoot and the mirrored columns (smaller scales in
 * the top-left corner); the 20 bands are `bandBytes` apart: ref a, h, v, d; dis a, h, v, d;
 * then h, v, d of the restored and the additive CSF values and of their maskers. The a
 * bands' rows hold their even columns, then their odd ones half a stride on. The DWT's four
 * tmp rows (LO and HI, even and odd columns) are `tmpBytes` apart.
 */
export interface FloatAdmLayout {
  readonly srcRef: number;
  readonly srcDis: number;
  readonly tmp: number;
  readonly tmpBytes: number;
  readonly stride: number;
  readonly bandBytes: number;
  readonly refA: number;
  readonly disA: number;
  readonly csfRestored: number;
  readonly csfAdditive: number;
  readonly fltRestored: number;
  readonly fltAdditive: number;
  readonly out: number;
  /** The first byte after them all. */
  readonly end: number;
}

export function layOut(base: number, width: number, height: number, bitDepth: number): FloatAdmLayout {
  const layout = new KernelMemoryLayout(base, SLACK);
  const halfW = (width + 1) >> 1;
  const halfH = (height + 1) >> 1;
  const samples = width * height * (bitDepth > 8 ? 2 : 1);
  // past a row's last coefficient: an eight-output step's 7 floats (the a band: 3 past each half), the mirrored column w, column −1 of the next row
  const stride = alignUp(halfW, 8) + 8;
  const bandBytes = alignUp((FRONT + stride * halfH) * 4 + SLACK, 16);
  const srcRef = layout.take(samples);
  const srcDis = layout.take(samples);
  // a tmp row: column −1, half a source row and its mirrored columns, a step's overshoot
  const tmpBytes = (FRONT + (width >> 1) + 24) * 4;
  const tmp = layout.take(4 * tmpBytes) + FRONT * 4;
  const bands = layout.take(20 * bandBytes) + FRONT * 4;
  const out = layout.take(3 * 8);
  return {
    srcRef,
    srcDis,
    tmp,
    tmpBytes,
    stride,
    bandBytes,
    refA: bands,
    disA: bands + 4 * bandBytes,
    csfRestored: bands + 8 * bandBytes,
    csfAdditive: bands + 11 * bandBytes,
    fltRestored: bands + 14 * bandBytes,
    fltAdditive: bands + 17 * bandBytes,
    out,
    end: layout.end,
  };
}

interface WasmState {
  readonly kernels: FloatAdmKernels;
  readonly at: FloatAdmLayout;
  readonly sums: Float64Array;
  readonly width: number;
  readonly height: number;
  readonly bitDepth: number;
}

const f = Math.fround;

/**
 * libvmaf's `float_adm` on WebAssembly SIMD kernels (ADR 0040): the same doubles as
 * FloatAdmCpu, the TypeScript reference (FloatAdmPipeline). The kernels do the per-
 * coefficient work (DWT, decoupling, CSF, the masking and denominator sums); the L3 norms
 * (`powf`), noise floors and scores are computed here as the reference computes them.
 * Cubes only: adm_p_norm 3 (the default, and every model's); floatAdmFeature runs
 * FloatAdmCpu for other norms.
 */
export class FloatAdmWasm implements FeatureExtractor<PicturePair> {
  readonly definition = floatAdmDefinition;
  private state?: WasmState;
  private readonly settings: FloatAdmSettings;
  private readonly names: string[];
  private readonly debugNames: string[];
  private readonly weights: [number, number][] = [];
  private readonly totals: FloatAdmTotals;

  constructor(
    readonly options: FloatAdmOptions,
    private readonly module: WebAssembly.Module,
  ) {
    if (options.adm_p_norm !== 3) throw new Error(`float_adm: the WebAssembly kernels cube (adm_p_norm 3), not adm_p_norm ${options.adm_p_norm}: use FloatAdmCpu`);
    this.names = FLOAT_ADM_FEATURES.map((n) => floatAdmFeatureName(n, options));
    this.debugNames = FLOAT_ADM_DEBUG_FEATURES.map((n) => floatAdmFeatureName(n, options));
    this.settings = floatAdmSettings(options);
    this.totals = new FloatAdmTotals({ score: 0, aim: 0, num: 0, den: 0, scales: new Float64Array(8) }, this.settings.skipAimScale);
  }

  init(format: PictureFormat): void {
    floatAdmDefinition.checkFormat?.(this.options, format);
    this.weights.length = 0;
    for (let scale = 0; scale < 4; scale++) this.weights.push(floatCsfFactors(scale, this.settings));
    const kernels = new WebAssembly.Instance(this.module).exports as unknown as FloatAdmKernels;
    const at = layOut(kernels.heapBase(), format.width, format.height, format.bitDepth);
    reserveMemory(kernels.memory, at.end);
    const sums = new Float64Array(kernels.memory.buffer, at.out, 3);
    this.state = { kernels, at, sums, width: format.width, height: format.height, bitDepth: format.bitDepth };
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    const state = this.state;
    if (!state) throw new Error("float_adm: extract before init");
    const { kernels, at, bitDepth } = state;
    const ref = frame.ref.planes[0]!;
    const dis = frame.dist.planes[0]!;
    copyPlaneIntoKernels(kernels.memory.buffer, ref, at.srcRef, ref.width, bitDepth === 8);
    copyPlaneIntoKernels(kernels.memory.buffer, dis, at.srcDis, dis.width, bitDepth === 8);
    writeFloatAdmScores(collector, index, this.options, this.names, this.debugNames, this.compute(state));
  }

  /** FloatAdmPipeline.compute on the kernels. */
  private compute(state: WasmState): FloatAdmScores {
    const { kernels: k, at, sums, bitDepth } = state;
    const s = this.settings;
    const { stride, bandBytes } = at;
    let w = state.width;
    let h = state.height;
    const totals = this.totals;
    totals.start();
    for (let scale = 0; scale < 4; scale++) {
      let numScale = 0;
      let denScale = 0;
      let aimScale = 0;
      const lowOnly = scale === 0 && s.skipScale0 ? 1 : 0;
      if (scale === 0) {
        // the luma samples, converted as they are read
        const kind = bitDepth === 8 ? 1 : 2;
        const inv = 2 ** (8 - bitDepth);
        k.dwt(at.srcRef, kind, w, w, h, inv, at.refA, bandBytes, stride, at.tmp, at.tmpBytes, lowOnly);
        k.dwt(at.srcDis, kind, w, w, h, inv, at.disA, bandBytes, stride, at.tmp, at.tmpBytes, lowOnly);
      } else {
        // the previous scale's a bands, in place
        k.dwt(at.refA, 0, stride, w, h, 1, at.refA, bandBytes, stride, at.tmp, at.tmpBytes, 0);
        k.dwt(at.disA, 0, stride, w, h, 1, at.disA, bandBytes, stride, at.tmp, at.tmpBytes, 0);
      }
      w = (w + 1) >> 1;
      h = (h + 1) >> 1;
      if (lowOnly) {
        denScale = f(1e-10); // libvmaf's guard against dividing by zero
      } else {
        // floats (floatCsfFactors rounds them), so the kernels' f32 parameters carry them exactly
        const [weightHv, weightD] = this.weights[scale]!;
        const refH = at.refA + bandBytes;
        const disH = at.disA + bandBytes;
        const fr = filterRegion(w, h);
        k.decoupleCsf(refH, disH, at.csfRestored, at.csfAdditive, at.fltRestored, at.fltAdditive, bandBytes, stride, w, fr.left, fr.top, fr.right, fr.bottom, s.enhancementGainLimit, COS_1DEG_SQ, weightHv, weightD);
        const sr = scoreRegion(w, h);
        const walk = walkRange(w, h);
        k.denominatorSums(refH, bandBytes, stride, sr.left, sr.top, sr.right, sr.bottom, weightHv, weightD, at.out);
        denScale = normTotal(sums, walk.area, s.noiseWeight);
        const bypass = s.bypassCm ? 1 : 0;
        // DLM: the restored part masked by the additive one
        k.maskingSums(at.csfRestored, at.csfAdditive, at.fltAdditive, bandBytes, stride, h, walk.rowStart, walk.rowEnd, walk.colStart, walk.colEnd, bypass, at.out);
        numScale = normTotal(sums, walk.area, s.noiseWeight);
        // AIM: the additive part masked by the restored one (not computed for the scale it skips: unused)
        if (s.skipAimScale !== scale) {
          k.maskingSums(at.csfAdditive, at.csfRestored, at.fltRestored, bandBytes, stride, h, walk.rowStart, walk.rowEnd, walk.colStart, walk.colEnd, bypass, at.out);
          aimScale = normTotal(sums, walk.area, 0);
        }
      }
      totals.add(scale, numScale, denScale, aimScale);
    }
    return totals.finish(state.width * state.height);
  }

  flush(_collector: FeatureCollector): void {}

  close(): void {
    this.state = undefined;
  }
}

/** A scale's term from the kernels' three float sums (h, v, d), as floatCsfDenominator and floatContrastMasking end: L3 norms plus the noise floor, added in float. */
function normTotal(sums: Float64Array, area: number, noiseWeight: number): number {
  const noise = noiseConstant(area, noiseWeight, 3);
  const third = f(1 / 3);
  let total = 0;
  for (let theta = 0; theta < 3; theta++) {
    const term = f(powf(sums[theta]!, third) + noise);
    total = theta === 0 ? term : f(total + term);
  }
  return total;
}

export function createFloatAdmWasm(module: WebAssembly.Module, options: Partial<FloatAdmOptions> = {}): FloatAdmWasm {
  return new FloatAdmWasm(floatAdmOptions.resolve(options), module);
}
