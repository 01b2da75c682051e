// Every extractor vq has, as light catalogue entries (adr/0022-extractor-catalogue.md).
// Importing this loads no metric implementation: each entry's `load` brings its package's
// code in when a run uses it.
import type { CatalogueEntry } from "@vq/core";
import { floatAdmEntry, admEntry } from "@vq/adm/catalogue";
import { cambiEntry } from "@vq/cambi/catalogue";
import { ciedeEntry } from "@vq/ciede/catalogue";
import { floatMotionEntry, motionEntry } from "@vq/motion/catalogue";
import { floatAnsnrEntry, floatMomentEntry, floatPsnrEntry, psnrEntry } from "@vq/psnr/catalogue";
import { psnrHvsEntry } from "@vq/psnr-hvs/catalogue";
import { speedChromaEntry, speedTemporalEntry } from "@vq/speed/catalogue";
import { floatMsSsimEntry, floatSsimEntry } from "@vq/ssim/catalogue";
import { floatVifEntry, vifEntry } from "@vq/vif/catalogue";

/**
 * In libvmaf's registration order (feature_extractor_list, float extractors on, no CUDA):
 * a model's feature name goes to the first extractor that provides it.
 */
export const EXTRACTORS: readonly CatalogueEntry[] = [
  floatPsnrEntry,
  floatAnsnrEntry,
  floatAdmEntry,
  floatVifEntry,
  floatMotionEntry,
  floatMomentEntry,
  speedChromaEntry,
  speedTemporalEntry,
  floatMsSsimEntry,
  floatSsimEntry,
  ciedeEntry,
  psnrEntry,
  psnrHvsEntry,
  admEntry,
  motionEntry,
  vifEntry,
  cambiEntry,
];

const BY_NAME: ReadonlyMap<string, CatalogueEntry> = new Map(EXTRACTORS.map((e) => [e.name, e]));

/** One extractor by libvmaf's name; undefined if vq has none. */
export function catalogueEntry(name: string): CatalogueEntry | undefined {
  return BY_NAME.get(name);
}

/** libvmaf's names of the extractors vq has, sorted (for messages and help). */
export const FEATURE_NAMES: readonly string[] = EXTRACTORS.map((e) => e.name).sort();
