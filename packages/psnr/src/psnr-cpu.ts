import { packedLayout, Uint64Sum, type FeatureCollector, type FeatureExtractor, type PictureFormat, type PicturePair, type Plane } from "@vq/core";
import { psnrDefinition, psnrOptions, type PsnrOptions } from "./definition.ts";
import { PsnrScorer } from "./psnr-score.ts";

const TWO_32 = 4294967296;

/** Sum of squared errors of one plane, exactly as libvmaf's integer psnr sums it. */
export function planeSse(ref: Plane, dist: Plane, bitDepth: number, out: Uint64Sum): Uint64Sum {
  out.reset();
  const r = ref.data;
  const d = dist.data;
  for (let y = 0; y < ref.height; y++) {
    let row = 0; // exact: a row of 16-bit errors stays below 2^53
    let i = y * ref.stride;
    let j = y * dist.stride;
    const end = i + ref.width;
    for (; i < end; i++, j++) {
      const e = r[i]! - d[j]!;
      row += e * e;
    }
    // 8-bit rows are summed in a uint32_t by libvmaf: wrap like it.
    out.add(bitDepth === 8 ? row % TWO_32 : row);
  }
  return out;
}

export class PsnrCpu implements FeatureExtractor<PicturePair> {
  readonly definition = psnrDefinition;
  private scorer?: PsnrScorer;
  private readonly sse = new Uint64Sum();

  constructor(readonly options: PsnrOptions) {}

  init(format: PictureFormat): void {
    psnrDefinition.checkFormat?.(this.options, format);
    this.scorer = new PsnrScorer(this.options, format, packedLayout(format).planes);
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    if (!this.scorer) throw new Error("psnr: extract before init");
    for (let p = 0; p < this.scorer.planes; p++) {
      planeSse(frame.ref.planes[p]!, frame.dist.planes[p]!, frame.ref.bitDepth, this.sse);
      this.scorer.score(p, this.sse, index, collector);
    }
  }

  flush(collector: FeatureCollector): void {
    this.scorer?.flush(collector);
  }

  close(): void {}
}

export function createPsnrCpu(options: Partial<PsnrOptions> = {}): PsnrCpu {
  return new PsnrCpu(psnrOptions.resolve(options));
}
