import type { FeatureCollector, FeatureExtractor, PictureFormat, PicturePair } from "@vq/core";
import { floatMsSsimDefinition, MS_SSIM_SCALES, type FloatMsSsimOptions } from "../float-ms-ssim-definition.ts";
import { decimatedSize } from "../numerics/decimation-geometry.ts";
import { FloatMsSsimScorer } from "../numerics/float-ms-ssim-scores.ts";
import type { SsimMeans } from "../numerics/ssim-statistics.ts";
import { SsimWasmWorkspace, type WasmPlane } from "./ssim-wasm-workspace.ts";

interface State {
  readonly workspace: SsimWasmWorkspace;
  readonly scorer: FloatMsSsimScorer;
  /** The pyramid: reference and distorted per scale. */
  readonly levels: readonly { ref: WasmPlane; cmp: WasmPlane }[];
}

/**
 * libvmaf's float_ms_ssim on WebAssembly SIMD kernels (ADR 0040): the same doubles as
 * FloatMsSsimCpu, the TypeScript reference; the exponents' pow and the product stay its
 * TypeScript (FloatMsSsimScorer).
 */
export class FloatMsSsimWasm implements FeatureExtractor<PicturePair> {
  readonly definition = floatMsSsimDefinition;
  private state?: State;
  private readonly means: SsimMeans[] = Array.from({ length: MS_SSIM_SCALES }, () => ({ ssim: 0, l: 0, c: 0, s: 0 }));

  constructor(readonly options: FloatMsSsimOptions, private readonly module: WebAssembly.Module) {}

  init(format: PictureFormat): void {
    floatMsSsimDefinition.checkFormat?.(this.options, format);
    const workspace = new SsimWasmWorkspace(this.module, format.width, format.height, format.width);
    const levels: { ref: WasmPlane; cmp: WasmPlane }[] = [];
    for (let i = 0, width = format.width, height = format.height; i < MS_SSIM_SCALES; i++) {
      levels.push({ ref: workspace.plane(width, height), cmp: workspace.plane(width, height) });
      width = decimatedSize(width, 2);
      height = decimatedSize(height, 2);
    }
    workspace.ready();
    this.state = { workspace, scorer: new FloatMsSsimScorer(this.options, format), levels };
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    const state = this.state;
    if (!state) throw new Error("float_ms_ssim: extract before init");
    const { workspace, levels } = state;
    const top = levels[0]!;
    workspace.loadLuma(frame.ref.planes[0]!, frame.ref.bitDepth, top.ref);
    workspace.loadLuma(frame.dist.planes[0]!, frame.dist.bitDepth, top.cmp);
    for (let i = 1; i < MS_SSIM_SCALES; i++) workspace.waveletDecimate(levels[i - 1]!.ref, levels[i - 1]!.cmp, levels[i]!.ref, levels[i]!.cmp);
    for (let i = 0; i < MS_SSIM_SCALES; i++) workspace.statistics(levels[i]!.ref, levels[i]!.cmp, this.means[i]!);
    state.scorer.write(this.means, index, collector);
  }

  flush(_collector: FeatureCollector): void {}

  close(): void {
    this.state = undefined;
  }
}
