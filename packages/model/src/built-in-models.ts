import { VqError } from "@vq/core";
import { parseModel } from "./model-reader.ts";
import type { LoadedModel, ModelConfig } from "./vmaf-model.ts";

type JsonModule = Promise<{ default: unknown }>;

/**
 * libvmaf's built-in model table (model.c, a build with float features), in its order.
 * The files in ../models are libvmaf's model/ files, unchanged; each loads on first use.
 */
const BUILT_IN: ReadonlyMap<string, () => JsonModule> = new Map<string, () => JsonModule>([
  ["vmaf_float_v0.6.1", () => import("../models/vmaf_float_v0.6.1.json", { with: { type: "json" } })],
  ["vmaf_float_b_v0.6.3", () => import("../models/vmaf_float_b_v0.6.3.json", { with: { type: "json" } })],
  ["vmaf_float_v0.6.1neg", () => import("../models/vmaf_float_v0.6.1neg.json", { with: { type: "json" } })],
  ["vmaf_float_4k_v0.6.1", () => import("../models/vmaf_float_4k_v0.6.1.json", { with: { type: "json" } })],
  ["vmaf_v0.6.1", () => import("../models/vmaf_v0.6.1.json", { with: { type: "json" } })],
  ["vmaf_b_v0.6.3", () => import("../models/vmaf_b_v0.6.3.json", { with: { type: "json" } })],
  ["vmaf_v0.6.1neg", () => import("../models/vmaf_v0.6.1neg.json", { with: { type: "json" } })],
  ["vmaf_4k_v0.6.1", () => import("../models/vmaf_4k_v0.6.1.json", { with: { type: "json" } })],
  ["vmaf_4k_v0.6.1neg", () => import("../models/vmaf_4k_v0.6.1neg.json", { with: { type: "json" } })],
  ["vmaf_v1.0.16_3d0h", () => import("../models/vmaf_v1.0.16_3d0h.json", { with: { type: "json" } })],
  ["vmaf_v1.0.16_3d0h_2160", () => import("../models/vmaf_v1.0.16_3d0h_2160.json", { with: { type: "json" } })],
  ["vmaf_v1.0.16_5d0h", () => import("../models/vmaf_v1.0.16_5d0h.json", { with: { type: "json" } })],
  ["vmaf_v1.0.16_1d5h_2160", () => import("../models/vmaf_v1.0.16_1d5h_2160.json", { with: { type: "json" } })],
  ["vmaf_v1.0.16_hfr_3d0h", () => import("../models/vmaf_v1.0.16_hfr_3d0h.json", { with: { type: "json" } })],
  ["vmaf_v1.0.16_hfr_3d0h_2160", () => import("../models/vmaf_v1.0.16_hfr_3d0h_2160.json", { with: { type: "json" } })],
  ["vmaf_v1.0.16_hfr_5d0h", () => import("../models/vmaf_v1.0.16_hfr_5d0h.json", { with: { type: "json" } })],
  ["vmaf_v1.0.16_hfr_1d5h_2160", () => import("../models/vmaf_v1.0.16_hfr_1d5h_2160.json", { with: { type: "json" } })],
]);

/** Names accepted by loadBuiltInModel (libvmaf's `--model version=NAME`). */
export const BUILT_IN_MODELS: readonly string[] = [...BUILT_IN.keys()];

/** The built-in names that share the longest start with `name`, at most 5: the full list is too long for one line. */
export function nearestModels(name: string): string[] {
  const shared = (m: string) => {
    let i = 0;
    while (i < m.length && m[i] === name[i]) i++;
    return i;
  };
  return [...BUILT_IN_MODELS].sort((a, b) => shared(b) - shared(a)).slice(0, 5);
}

/** Loads a built-in model or bootstrap collection by libvmaf's version name. */
export async function loadBuiltInModel(version: string, config: ModelConfig): Promise<LoadedModel> {
  const load = BUILT_IN.get(version);
  if (!load) throw new VqError(`no built-in model "${version}" (nearest of the ${BUILT_IN_MODELS.length} built in: ${nearestModels(version).join(", ")}; docs/metrics/vmaf.md lists them all)`);
  const json = (await load()).default;
  return parseModel(json, `built-in model ${version}`, config);
}
