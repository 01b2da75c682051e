import { cambi } from "./cambi-extractor.ts";
import { floatAdm, floatMotion, floatVif } from "./float-extractors.ts";
import { integerAdm, integerMotion, integerVif } from "./integer-extractors.ts";
import type { ModelExtractor } from "./model-extractor.ts";
import { ciede, floatAnsnr, floatMoment, floatMsSsim, floatPsnr, floatSsim, psnr } from "./other-extractors.ts";
import { speedChroma, speedTemporal } from "./speed-extractors.ts";

/**
 * libvmaf's feature_extractor_list (float extractors enabled, no CUDA), in its order: a
 * model's feature name goes to the first extractor that provides it.
 */
export const LIBVMAF_EXTRACTORS: readonly ModelExtractor[] = [
  floatPsnr, floatAnsnr, floatAdm, floatVif, floatMotion, floatMoment,
  speedChroma, speedTemporal, floatMsSsim, floatSsim, ciede, psnr,
  integerAdm, integerMotion, integerVif, cambi,
];

export function extractorProviding(feature: string, extractors: readonly ModelExtractor[] = LIBVMAF_EXTRACTORS): ModelExtractor | undefined {
  return extractors.find((e) => e.provides.includes(feature));
}
