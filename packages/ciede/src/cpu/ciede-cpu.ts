import type { FeatureCollector, FeatureExtractor, Picture, PictureFormat, PicturePair } from "@vq/core";
import { ChromaUpsampling } from "../colour/chroma-upsampling.ts";
import { ciedeScore } from "../ciede-score.ts";
import { CIEDE_FEATURE, ciedeDefinition, ciedeOptions, type CiedeOptions } from "../definition.ts";
import { deltaE2000 } from "../colour/delta-e-2000.ts";
import { colourKey, DeltaECache, slotBitsFor } from "./delta-e-cache.ts";
import { LabCache } from "./lab-cache.ts";

/**
 * libvmaf's ciede on the CPU: per pixel, both colours to Lab (through an exact cache),
 * ΔE00 in libvmaf's float/double steps, summed in double in raster order.
 */
export class CiedeCpu implements FeatureExtractor<PicturePair> {
  readonly definition = ciedeDefinition;
  private upsampling?: ChromaUpsampling;
  private cache?: LabCache;
  private pairs?: DeltaECache;

  constructor(readonly options: CiedeOptions) {}

  init(format: PictureFormat): void {
    ciedeDefinition.checkFormat?.(this.options, format);
    this.upsampling = new ChromaUpsampling(format);
    const pixels = format.width * format.height;
    // from 1080p on: 2^20 colours (16 MB, 32 MB above 10 bits), 2^22 pairs (48 MB; 2^21 and 48 MB above 10 bits)
    this.cache = new LabCache(format.bitDepth, slotBitsFor(pixels, 12, 20));
    this.pairs = new DeltaECache(format.bitDepth, slotBitsFor(pixels, 12, format.bitDepth <= 10 ? 22 : 21));
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    if (!this.cache) throw new Error("ciede: extract before init");
    const sum = this.deltaESum(frame.ref, frame.dist);
    collector.append(CIEDE_FEATURE, index, ciedeScore(sum, frame.ref.width * frame.ref.height));
  }

  /** Σ ΔE00 over the frame, in libvmaf's order (rows, then columns). */
  deltaESum(ref: Picture, dist: Picture): number {
    const cache = this.cache!;
    const lab = cache.lab;
    const pairs = this.pairs!;
    const keyScale = 2 ** ref.bitDepth;
    const up = this.upsampling!;
    const [rY, rU, rV] = ref.planes as [Picture["planes"][0], Picture["planes"][0], Picture["planes"][0]];
    const [dY, dU, dV] = dist.planes as [Picture["planes"][0], Picture["planes"][0], Picture["planes"][0]];
    const rCols = up.columnOffsets(rU.stride);
    const dCols = up.columnOffsets(dU.stride);
    const ry = rY.data, ru = rU.data, rv = rV.data;
    const dy = dY.data, du = dU.data, dv = dV.data;
    const width = ref.width;
    let sum = 0;
    // The previous pixel's pair and ΔE: flat areas repeat pairs, and ΔE depends on nothing else.
    let pRy = -1, pRu = -1, pRv = -1, pDy = -1, pDu = -1, pDv = -1, pDe = 0;
    for (let i = 0; i < ref.height; i++) {
      const rRow = i * rY.stride;
      const dRow = i * dY.stride;
      const rcRow = (i >> up.rowShift) * rU.stride;
      const dcRow = (i >> up.rowShift) * dU.stride;
      for (let j = 0; j < width; j++) {
        const y1 = ry[rRow + j]!;
        const y2 = dy[dRow + j]!;
        const rc = rCols[j]!;
        const dc = dCols[j]!;
        const u1 = rc < 0 ? 0 : ru[rcRow + rc]!;
        const v1 = rc < 0 ? 0 : rv[rcRow + rc]!;
        const u2 = dc < 0 ? 0 : du[dcRow + dc]!;
        const v2 = dc < 0 ? 0 : dv[dcRow + dc]!;
        if (y1 === y2 && u1 === u2 && v1 === v2) continue; // equal colours: ΔE00 = 0 exactly
        if (y1 !== pRy || u1 !== pRu || v1 !== pRv || y2 !== pDy || u2 !== pDu || v2 !== pDv) {
          const k1 = colourKey(y1, u1, v1, keyScale);
          const k2 = colourKey(y2, u2, v2, keyScale);
          const slot = pairs.slot(y1, u1, v1, y2, u2, v2);
          pDe = pairs.lookup(slot, k1, k2);
          if (pDe < 0) {
            const a = cache.find(y1, u1, v1);
            const l1 = lab[a]!, a1 = lab[a + 1]!, b1 = lab[a + 2]!;
            const b = cache.find(y2, u2, v2);
            pDe = deltaE2000(l1, a1, b1, lab[b]!, lab[b + 1]!, lab[b + 2]!);
            pairs.store(slot, k1, k2, pDe);
          }
          pRy = y1; pRu = u1; pRv = v1; pDy = y2; pDu = u2; pDv = v2;
        }
        sum += pDe;
      }
    }
    return sum;
  }

  flush(_collector: FeatureCollector): void {}

  close(): void {}
}

export function createCiedeCpu(options: Partial<CiedeOptions> = {}): CiedeCpu {
  return new CiedeCpu(ciedeOptions.resolve(options));
}
