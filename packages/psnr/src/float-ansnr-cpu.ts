import type { FeatureCollector, FeatureExtractor, PictureFormat, PicturePair } from "@vq/core";
import { ansnrEnergies, ansnrFilter2d, ansnrRowSumsLength, ANSNR_DIS_KERNEL, ANSNR_REF_KERNEL } from "./ansnr-filter.ts";
import { FLOAT_ANSNR_NAMES, floatAnsnrDefinition, floatAnsnrOptions, floatPeak, type FloatAnsnrOptions } from "./float-definitions.ts";
import { mirroredLuma } from "./float-picture.ts";
import { FLOAT_PSNR_EPS } from "./float-psnr-cpu.ts";

/** Padding of the float pictures: the 5×5 kernel's radius. */
const PAD = 2;
/** float_ansnr's picture_copy shifts samples by −128 (centred around zero). */
const OFFSET = -128;

/**
 * libvmaf's `float_ansnr` on the CPU: the luma planes (−128, scaled to 8 bits) filtered
 * in float (reference 3×3, distorted 5×5), then float_ansnr = 10·log10(Σref² / Σ(ref−dis)²)
 * and float_anpsnr = the PSNR of that noise, capped per bit depth.
 */
export class FloatAnsnrCpu implements FeatureExtractor<PicturePair> {
  readonly definition = floatAnsnrDefinition;
  private peak = 255;
  private psnrMax = 60;
  private bitDepth = 8;
  private width = 0;
  private height = 0;
  private padded = new Float32Array(0);
  private refFiltered = new Float32Array(0);
  private disFiltered = new Float32Array(0);
  private rowSums = new Float32Array(0);

  constructor(readonly options: FloatAnsnrOptions = floatAnsnrOptions.defaults) {}

  init(format: PictureFormat): void {
    floatAnsnrDefinition.checkFormat?.(this.options, format);
    ({ peak: this.peak, psnrMax: this.psnrMax } = floatPeak(format.bitDepth));
    this.bitDepth = format.bitDepth;
    this.width = format.width;
    this.height = format.height;
    this.padded = new Float32Array((format.width + 2 * PAD) * (format.height + 2 * PAD));
    this.refFiltered = new Float32Array(format.width * format.height);
    this.disFiltered = new Float32Array(format.width * format.height);
    this.rowSums = new Float32Array(ansnrRowSumsLength(2 * PAD + 1, format.width, format.height));
  }

  extract(frame: PicturePair, index: number, collector: FeatureCollector): void {
    const { width: w, height: h } = this;
    mirroredLuma(frame.ref.planes[0]!, this.bitDepth, OFFSET, PAD, this.padded);
    ansnrFilter2d(ANSNR_REF_KERNEL, this.padded, PAD, w, h, this.refFiltered, this.rowSums);
    mirroredLuma(frame.dist.planes[0]!, this.bitDepth, OFFSET, PAD, this.padded);
    ansnrFilter2d(ANSNR_DIS_KERNEL, this.padded, PAD, w, h, this.disFiltered, this.rowSums);
    const { signal, noise } = ansnrEnergies(this.refFiltered, this.disFiltered, w, h);
    // both energies are floats in libvmaf, so their ratio is a float division
    const ansnr = noise === 0 ? this.psnrMax : 10 * Math.log10(Math.fround(signal / noise));
    const anpsnr = Math.min(10 * Math.log10((this.peak * this.peak * w * h) / Math.max(noise, FLOAT_PSNR_EPS)), this.psnrMax);
    collector.append(FLOAT_ANSNR_NAMES[0], index, ansnr);
    collector.append(FLOAT_ANSNR_NAMES[1], index, anpsnr);
  }

  flush(): void {}

  close(): void {
    this.padded = this.refFiltered = this.disFiltered = this.rowSums = new Float32Array(0);
  }
}

export function createFloatAnsnrCpu(): FloatAnsnrCpu {
  return new FloatAnsnrCpu(floatAnsnrOptions.resolve({}));
}
