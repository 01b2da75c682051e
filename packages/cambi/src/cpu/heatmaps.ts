import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { VqError } from "@vq/core";
import { NUM_SCALES, type CambiPlan } from "../numerics/cambi-plan.ts";

/**
 * libvmaf's cambi heatmaps: per scale one file of raw 16-bit little-endian gray frames,
 * `cambi_heatmap_scale_<s>_<w>x<h>_16b.gray` (sizes named from the encoding size halved
 * per scale), each c-value scaled so that the largest possible one maps to 65535. Frame
 * n sits at its own offset, so frames may arrive in any order.
 */
export class Heatmaps {
  private readonly files: number[] = [];
  private readonly row: Uint16Array;

  constructor(private readonly plan: CambiPlan) {
    const dir = plan.heatmapsPath;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o770 });
      let w = plan.enc.width;
      let h = plan.enc.height;
      for (let scale = 0; scale < NUM_SCALES; scale++) {
        this.files.push(openSync(join(dir, `cambi_heatmap_scale_${scale}_${w}x${h}_16b.gray`), "w"));
        w = (w + 1) >> 1;
        h = (h + 1) >> 1;
      }
    } catch (e) {
      this.close();
      throw new VqError(`feature cambi: could not open heatmaps_path ${dir}: ${(e as Error).message}`, { cause: e });
    }
    this.row = new Uint16Array(plan.enc.width);
  }

  write(cValues: Float32Array, width: number, height: number, scale: number, windowSize: number, frame: number): void {
    let maxWeight = this.plan.diffWeights[0]!;
    for (const w of this.plan.diffWeights) if (w > maxWeight) maxWeight = w;
    const maxCValue = Math.trunc((maxWeight * windowSize * windowSize) / 4);
    const scaling = 65535 / maxCValue;
    const row = this.row;
    const bytes = new Uint8Array(row.buffer, 0, width * 2);
    for (let i = 0; i < height; i++) {
      // C's (uint16_t) of a double on x86: truncate to int, keep the low 16 bits
      for (let j = 0; j < width; j++) row[j] = Math.trunc(scaling * cValues[i * width + j]!) & 0xffff;
      writeSync(this.files[scale]!, bytes, 0, bytes.length, (frame * height + i) * width * 2);
    }
  }

  close(): void {
    for (const fd of this.files.splice(0)) closeSync(fd);
  }
}
