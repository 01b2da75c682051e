import type { FeatureCollector, FeatureExtractor, PictureFormat, PicturePair } from "@vq/core";
import { floatSsimDefinition, ssimPictureSize, type FloatSsimOptions } from "../float-ssim-definition.ts";
import { FloatSsimScorer } from "../numerics/float-ssim-scores.ts";
import type { SsimMeans } from "../numerics/ssim-statistics.ts";
import { SsimWasmWorkspace, type WasmPlane } from "./ssim-wasm-workspace.ts";

interface State {
  readonly workspace: SsimWasmWorkspace;
  readonly scorer: FloatSsimScorer;
  readonly scale: number;
  readonly ref: WasmPlane;
  readonly cmp: WasmPlane;
  /** The downscaled pair, when the scale factor is above 1. */
  readonly small?: { ref: WasmPlane; cmp: WasmPlane };
}

/**
 * libvmaf's float_ssim on WebAssembly SIMD kernels (ADR 0040): the same doubles as
 * FloatSsimCpu, the TypeScript reference.
 */
export class FloatSsimWasm implements FeatureExtractor<PicturePair> {
  readonly definition = floatSsimDefinition;
  private state?: State;
  private readonly means: SsimMeans = { ssim: 0, l: 0, c: 0, s: 0 };

  constructor(readonly options: FloatSsimOptions, private readonly module: WebAssembly.Module) {}

  init(format: PictureFormat): void {
    floatSsimDefinition.checkFormat?.(this.options, format);
    const size = ssimPictureSize(this.options, format);
    const workspace = new SsimWasmWorkspace(this.module, format.width, format.height, size.width);
    const ref = workspace.plane(format.width, format.height);
    const cmp = workspace.plane(format.width, format.height);
    const small = size.scale > 1 ? { ref: workspace.plane(size.width, size.height), cmp: workspace.plane(size.width, size.height) } : undefined;
    workspace.ready();
    this.state = { workspace, scorer: new FloatSsimScorer(this.options, format), scale: size.scale, ref, cmp, small };
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    const state = this.state;
    if (!state) throw new Error("float_ssim: extract before init");
    const { workspace, small } = state;
    workspace.loadLuma(frame.ref.planes[0]!, frame.ref.bitDepth, state.ref);
    workspace.loadLuma(frame.dist.planes[0]!, frame.dist.bitDepth, state.cmp);
    if (small) {
      workspace.boxDecimate(state.ref, state.cmp, state.scale, small.ref, small.cmp);
      workspace.statistics(small.ref, small.cmp, this.means);
    } else {
      workspace.statistics(state.ref, state.cmp, this.means);
    }
    state.scorer.write(this.means, index, collector);
  }

  flush(_collector: FeatureCollector): void {}

  close(): void {
    this.state = undefined;
  }
}
