import { VqError, type CatalogueEntry, type FeatureEntry, type OptionDef, type OptionValues } from "@vq/core";
import { catalogueEntry, EXTRACTORS, FEATURE_NAMES } from "./catalogue.ts";
import type { FeatureRequest } from "./feature-request.ts";

export { FEATURE_NAMES };

/** One extractor's CPU code by libvmaf's name (its package loaded on first use); undefined if vq has none. */
export async function featureEntry(name: string): Promise<FeatureEntry | undefined> {
  const catalogued = catalogueEntry(name);
  if (!catalogued) return undefined;
  const entry = await catalogued.load.cpu();
  if (entry.definition.name !== name) throw new Error(`catalogue: "${name}" loads the extractor "${entry.definition.name}"`);
  return entry;
}

/** Every extractor's CPU code, each package loaded (for tools and tests that run them all). */
export async function allFeatures(): Promise<ReadonlyMap<string, FeatureEntry>> {
  return new Map(await Promise.all(EXTRACTORS.map(async (e) => [e.name, (await featureEntry(e.name))!] as const)));
}

export interface ResolvedFeature {
  /** The catalogue's entry: where the GPU code is, if any. */
  catalogued: CatalogueEntry;
  /** The definition and CPU code. */
  entry: FeatureEntry;
  options: OptionValues<any>;
}

interface Asked {
  request: FeatureRequest;
  catalogued: CatalogueEntry;
  options: Record<string, unknown>;
}

/** Options of two runs that differ, as `name=value` against `name=value`. */
function differences(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return Object.keys(a).filter((k) => a[k] !== b[k]);
}

const by = (r: FeatureRequest) => r.from ?? "features";

/**
 * Two runs of one extractor under one instance name (libvmaf's name plus non-default
 * feature parameters) write the same keys. libvmaf keeps the first and drops the other
 * silently; vq computes one run that gives both what they asked: identical options are one
 * run, options that only add outputs (debug) are merged to the superset (their other
 * outputs are equal, as libvmaf's own debug runs show), anything else is refused.
 */
function merge(first: Asked, next: Asked): void {
  const defs = first.catalogued.options.defs as Record<string, OptionDef>;
  const differing = differences(first.options, next.options);
  const changesScores = differing.filter((k) => !(defs[k]?.type === "bool" && defs[k].addsOutputs));
  if (changesScores.length) {
    const show = (a: Asked) => changesScores.map((k) => `${k}=${String(a.options[k])}`).join(":");
    throw new VqError(
      `feature ${first.request.name} is asked for twice with options that change its scores (${by(first.request)}: ${show(first)}; ${by(next.request)}: ${show(next)}): ask for it once, or give one of them a different feature parameter`,
    );
  }
  for (const k of differing) first.options[k] = true;
}

/**
 * Validates feature requests and makes each extractor run once per instance name, in the
 * order first asked (libvmaf registers a model's extractors before --feature ones).
 */
export async function resolveFeatures(requests: readonly FeatureRequest[]): Promise<ResolvedFeature[]> {
  const runs = new Map<string, Asked>();
  for (const request of requests) {
    const catalogued = catalogueEntry(request.name);
    if (!catalogued) throw new VqError(`unknown feature "${request.name}" (available: ${FEATURE_NAMES.join(", ")})`);
    const options = { ...catalogued.options.parseStrings(request.options) } as Record<string, unknown>;
    const instance = catalogued.options.featureName(catalogued.name, options as OptionValues<any>);
    const asked = { request, catalogued, options };
    const first = runs.get(instance);
    if (first) merge(first, asked);
    else runs.set(instance, asked);
  }
  const entries = await Promise.all([...runs.values()].map((r) => featureEntry(r.catalogued.name)));
  return [...runs.values()].map((r, i) => ({ catalogued: r.catalogued, entry: entries[i]!, options: r.options as OptionValues<any> }));
}
