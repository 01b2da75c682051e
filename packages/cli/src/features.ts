import { VqError, type OptionValues } from "@vq/core";
import type { GpuFeatureEntry } from "@vq/gpu-core";
import { admFeature, floatAdmFeature } from "@vq/adm";
import { cambiFeature } from "@vq/cambi";
import { ciedeFeature } from "@vq/ciede";
import { psnrHvsFeature } from "@vq/psnr-hvs";
import { speedChromaFeature, speedTemporalFeature } from "@vq/speed";
import { msSsimFeature, ssimFeature } from "@vq/ssim";
import { floatMotionFeature, motionFeature } from "@vq/motion";
import { floatAnsnrFeature, floatMomentFeature, floatPsnrFeature, psnrFeature } from "@vq/psnr";
import { floatVifFeature, vifFeature } from "@vq/vif";
import type { FeatureRequest } from "./args.ts";

/** Every feature extractor vq has, by libvmaf's name. */
export const FEATURES: ReadonlyMap<string, GpuFeatureEntry> = new Map<string, GpuFeatureEntry>(
  [psnrFeature, admFeature, vifFeature, motionFeature, cambiFeature, ssimFeature, msSsimFeature, speedChromaFeature, speedTemporalFeature, ciedeFeature, psnrHvsFeature, floatAdmFeature, floatVifFeature, floatMotionFeature, floatPsnrFeature, floatAnsnrFeature, floatMomentFeature].map((f) => [f.definition.name, f as GpuFeatureEntry]),
);

export interface ResolvedFeature {
  entry: GpuFeatureEntry;
  options: OptionValues<any>;
}

/** Validates `--feature` requests; identical requests collapse into one (libvmaf does the same). */
export function resolveFeatures(requests: readonly FeatureRequest[]): ResolvedFeature[] {
  const seen = new Set<string>();
  const out: ResolvedFeature[] = [];
  for (const r of requests) {
    const entry = FEATURES.get(r.name);
    if (!entry) throw new VqError(`unknown feature "${r.name}" (available: ${[...FEATURES.keys()].join(", ")})`);
    // Identical runs collapse, as libvmaf keys them: the name plus non-default feature parameters and options.
    const options = entry.definition.options.parseStrings(r.options);
    const key = `${r.name}:${JSON.stringify(options)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ entry, options });
  }
  return out;
}
