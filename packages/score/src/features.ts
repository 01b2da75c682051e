import { VqError, type OptionValues } from "@vq/core";
import type { GpuFeatureEntry } from "@vq/gpu-core";
import type { FeatureRequest } from "./feature-request.ts";

type Loader = () => Promise<GpuFeatureEntry>;
const pick = <T>(load: () => Promise<T>, from: (m: T) => unknown): Loader => () => load().then((m) => from(m) as GpuFeatureEntry);

/**
 * Every feature extractor vq has, by libvmaf's name. A metric package is imported only when
 * a run names one of its extractors: a VMAF v0.6.1 run loads vif, adm and motion, not the
 * other seven (module loading is a cold start's first cost).
 */
const LOADERS: ReadonlyMap<string, Loader> = new Map([
  ["psnr", pick(() => import("@vq/psnr"), (m) => m.psnrFeature)],
  ["adm", pick(() => import("@vq/adm"), (m) => m.admFeature)],
  ["vif", pick(() => import("@vq/vif"), (m) => m.vifFeature)],
  ["motion", pick(() => import("@vq/motion"), (m) => m.motionFeature)],
  ["cambi", pick(() => import("@vq/cambi"), (m) => m.cambiFeature)],
  ["float_ssim", pick(() => import("@vq/ssim"), (m) => m.ssimFeature)],
  ["float_ms_ssim", pick(() => import("@vq/ssim"), (m) => m.msSsimFeature)],
  ["speed_chroma", pick(() => import("@vq/speed"), (m) => m.speedChromaFeature)],
  ["speed_temporal", pick(() => import("@vq/speed"), (m) => m.speedTemporalFeature)],
  ["ciede", pick(() => import("@vq/ciede"), (m) => m.ciedeFeature)],
  ["psnr_hvs", pick(() => import("@vq/psnr-hvs"), (m) => m.psnrHvsFeature)],
  ["float_adm", pick(() => import("@vq/adm"), (m) => m.floatAdmFeature)],
  ["float_vif", pick(() => import("@vq/vif"), (m) => m.floatVifFeature)],
  ["float_motion", pick(() => import("@vq/motion"), (m) => m.floatMotionFeature)],
  ["float_psnr", pick(() => import("@vq/psnr"), (m) => m.floatPsnrFeature)],
  ["float_ansnr", pick(() => import("@vq/psnr"), (m) => m.floatAnsnrFeature)],
  ["float_moment", pick(() => import("@vq/psnr"), (m) => m.floatMomentFeature)],
]);

/** libvmaf's names of the extractors vq has. */
export const FEATURE_NAMES: readonly string[] = [...LOADERS.keys()];

/** One extractor by libvmaf's name (its package loaded on first use); undefined if vq has none. */
export async function featureEntry(name: string): Promise<GpuFeatureEntry | undefined> {
  const entry = await LOADERS.get(name)?.();
  if (entry && entry.definition.name !== name) throw new Error(`features: "${name}" loads the extractor "${entry.definition.name}"`);
  return entry;
}

/** Every extractor, each package loaded (for tools and tests that list them all). */
export async function allFeatures(): Promise<ReadonlyMap<string, GpuFeatureEntry>> {
  return new Map(await Promise.all(FEATURE_NAMES.map(async (n) => [n, (await featureEntry(n))!] as const)));
}

export interface ResolvedFeature {
  entry: GpuFeatureEntry;
  options: OptionValues<any>;
}

/** Validates feature requests; identical requests collapse into one (libvmaf does the same). */
export async function resolveFeatures(requests: readonly FeatureRequest[]): Promise<ResolvedFeature[]> {
  const entries = await Promise.all(requests.map((r) => featureEntry(r.name)));
  const seen = new Set<string>();
  const out: ResolvedFeature[] = [];
  requests.forEach((r, i) => {
    const entry = entries[i];
    if (!entry) throw new VqError(`unknown feature "${r.name}" (available: ${FEATURE_NAMES.join(", ")})`);
    // Identical runs collapse, as libvmaf keys them: the name plus non-default feature parameters and options.
    const options = entry.definition.options.parseStrings(r.options);
    const key = `${r.name}:${JSON.stringify(options)}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ entry, options });
  });
  return out;
}
