import type { FeatureCollector, PictureFormat } from "@vq/core";
import { FLOAT_SSIM_NAMES, type FloatSsimOptions } from "../float-ssim-definition.ts";
import { maxDb, toDb } from "./ssim-db.ts";
import type { SsimMeans } from "./ssim-statistics.ts";

/** Writes float_ssim (and with enable_lcs its l, c, s means) from one frame's SSIM means; shared by CPU and GPU. */
export class FloatSsimScorer {
  private readonly maxDb: number;

  constructor(private readonly options: FloatSsimOptions, format: PictureFormat) {
    this.maxDb = maxDb(options.clip_db, format.bitDepth, format.width, format.height);
  }

  write(means: SsimMeans, index: number, collector: FeatureCollector): void {
    const n = FLOAT_SSIM_NAMES;
    collector.append(n.ssim, index, this.options.enable_db ? toDb(means.ssim, this.maxDb) : means.ssim);
    if (!this.options.enable_lcs) return;
    collector.append(n.l, index, means.l);
    collector.append(n.c, index, means.c);
    collector.append(n.s, index, means.s);
  }
}
