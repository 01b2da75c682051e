import { Uint64Sum, type FeatureCollector, type PictureFormat } from "@vq/core";
import { APSNR_NAMES, MSE_NAMES, PSNR_NAMES, scoredPlanes, type PsnrOptions } from "./definition.ts";

/**
 * Turns per-plane sums of squared errors into libvmaf's psnr scores. The CPU and GPU
 * twins differ only in how they compute the sums; everything from the sums on is here.
 */
export class PsnrScorer {
  readonly planes: number;
  private readonly peak: number;
  private readonly psnrMax: number[] = [];
  private readonly pixels: number[];
  private readonly apsnrSse = [new Uint64Sum(), new Uint64Sum(), new Uint64Sum()];
  private readonly apsnrPixels = [0n, 0n, 0n];

  constructor(private readonly options: PsnrOptions, readonly format: PictureFormat, planeSizes: readonly { width: number; height: number }[]) {
    const bpc = format.bitDepth;
    this.planes = scoredPlanes(options, format);
    this.peak = options.reduced_hbd_peak ? 255 << (bpc - 8) : (1 << bpc) - 1;
    // libvmaf sizes the min_sse bound with w / 2 (truncated) for subsampled chroma.
    const ssHor = format.pixelFormat !== "444";
    const ssVer = format.pixelFormat === "420";
    for (let i = 0; i < 3; i++) {
      if (options.min_sse !== 0) {
        const w = i && ssHor ? Math.floor(format.width / 2) : format.width;
        const h = i && ssVer ? Math.floor(format.height / 2) : format.height;
        const mse = options.min_sse / ((w * h) >>> 0);
        this.psnrMax.push(Math.ceil(10 * Math.log10(((this.peak * this.peak) >>> 0) / mse)));
      } else {
        this.psnrMax.push(6 * bpc + 12);
      }
    }
    this.pixels = planeSizes.map((s) => s.width * s.height);
  }

  /** Writes psnr (and mse) of plane `p` for frame `index` given its exact SSE (a double, or BigInt-rounded). */
  score(p: number, sse: Uint64Sum, index: number, collector: FeatureCollector): void {
    const n = this.pixels[p]!;
    if (this.options.enable_apsnr) {
      this.apsnrSse[p]!.addParts(sse.hi, sse.lo);
      this.apsnrPixels[p]! += BigInt(n);
    }
    const mse = sse.toNumber() / n;
    // libvmaf's 8-bit path uses a constant peak of 255, its high-bit-depth path s->peak.
    const peak = this.format.bitDepth === 8 ? 255 : this.peak;
    const peakSquared = (peak * peak) >>> 0;
    const psnr = Math.min(10 * Math.log10(peakSquared / Math.max(mse, 1e-16)), this.psnrMax[p]!);
    collector.append(PSNR_NAMES[p]!, index, psnr);
    if (this.options.enable_mse) collector.append(MSE_NAMES[p]!, index, mse);
  }

  /** APSNR over the whole run, as libvmaf's flush writes it (for all three planes). */
  flush(collector: FeatureCollector): void {
    if (!this.options.enable_apsnr) return;
    const peakSquared = (this.peak * this.peak) >>> 0;
    for (let i = 0; i < 3; i++) {
      const nPixels = Number(this.apsnrPixels[i]!);
      const apsnr = 10 * (Math.log10(peakSquared) + Math.log10(nPixels) - Math.log10(this.apsnrSse[i]!.toNumber()));
      const bound = Number((BigInt(peakSquared) * this.apsnrPixels[i]! * 2n) & 0xffffffffffffffffn);
      const maxApsnr = Math.ceil(10 * Math.log10(bound));
      collector.setAggregate(APSNR_NAMES[i]!, apsnr < maxApsnr ? apsnr : maxApsnr);
    }
  }
}
