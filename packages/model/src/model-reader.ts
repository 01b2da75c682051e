// node:fs, not node:fs/promises: the latter costs ~9 ms to load under Bun (a cold start's budget)
import { readFile } from "node:fs";
import { VqError } from "@vq/core";
import { parseLibsvmModel } from "./libsvm-model.ts";
import { resolveModelFeature } from "./model-features.ts";
import { modelFileSchema, type ModelDict } from "./model-schema.ts";
import { describeFirstIssue, jsonPath } from "./schema-issues.ts";
import type { BootstrapCollection, LoadedModel, ModelConfig, ModelFeature, ScoreTransform, VmafModel } from "./vmaf-model.ts";

const DEFAULT_NAME = "vmaf";

/** libvmaf's score_transform reading; enable_transform only switches on a transform the file has. */
function readTransform(d: ModelDict, config: ModelConfig): ScoreTransform | undefined {
  const t = d.score_transform;
  if (!t || !(t.enabled || config.enableTransform)) return undefined;
  const term = (v: number | null | undefined) => (typeof v === "number" ? v : undefined);
  return {
    p0: term(t.p0),
    p1: term(t.p1),
    p2: term(t.p2),
    knots: t.knots ?? undefined,
    outLteIn: t.out_lte_in === "true",
    outGteIn: t.out_gte_in === "true",
  };
}

/** The v1 chroma correction needs exactly one adm3 and one speed_chroma input (libvmaf matches substrings). */
function checkChromaCorrection(features: readonly ModelFeature[], at: string): void {
  for (const part of ["adm3", "speed_chroma"]) {
    const n = features.filter((f) => f.name.includes(part)).length;
    if (n !== 1) throw new VqError(`${at}: chroma_correction_parameter needs exactly one feature named *${part}*, found ${n}`);
  }
}

function buildModel(d: ModelDict, name: string, source: string, prefix: readonly PropertyKey[], config: ModelConfig): VmafModel {
  const at = (...path: PropertyKey[]) => `${source}: ${jsonPath([...prefix, "model_dict", ...path])}`;
  const rescale = d.norm_type === "linear_rescale";
  const features = d.feature_names.map((feature, i) =>
    resolveModelFeature(
      {
        name: feature,
        options: d.feature_opts_dicts?.[i] ?? {},
        slope: rescale ? d.slopes![i + 1]! : 0,
        intercept: rescale ? d.intercepts![i + 1]! : 0,
      },
      { name: at("feature_names", i), options: at("feature_opts_dicts", i) },
      config.extractors,
      config.overloads,
    ),
  );
  const chroma = d.chroma_correction_parameter;
  if (chroma !== undefined) {
    // libvmaf silently writes no score for a 0 parameter; say so up front instead.
    if (chroma === 0) throw new VqError(`${at("chroma_correction_parameter")}: must not be 0`);
    checkChromaCorrection(features, at("feature_names"));
  }
  return {
    name,
    source,
    type: d.model_type,
    normalization: d.norm_type,
    slope: rescale ? d.slopes![0]! : 0,
    intercept: rescale ? d.intercepts![0]! : 0,
    features,
    clip: d.score_clip && !config.disableClip ? { min: d.score_clip[0], max: d.score_clip[1] } : undefined,
    transform: readTransform(d, config),
    chromaCorrection: chroma,
    svm: parseLibsvmModel(d.model, at("model")),
  };
}

function parseEntry(entry: unknown, name: string, source: string, prefix: readonly PropertyKey[], config: ModelConfig): VmafModel {
  const r = modelFileSchema.safeParse(entry);
  if (!r.success) throw new VqError(`${source}: ${describeFirstIssue(r.error, entry, prefix)}`);
  return buildModel(r.data.model_dict, name, source, prefix, config);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A bootstrap file ("0", "1", … each a model file): "0" is the model scored under the
 * name, the others form the collection named `<name>_0001`, `<name>_0002`, … (libvmaf's
 * model_collection_parse).
 */
function parseBootstrap(json: Record<string, unknown>, source: string, config: ModelConfig, name: string): LoadedModel {
  const models: VmafModel[] = [];
  for (let i = 0; String(i) in json; i++) {
    const entryName = i === 0 ? name : `${name}_${String(i).padStart(4, "0")}`;
    models.push(parseEntry(json[String(i)], entryName, source, [String(i)], config));
  }
  const [model, ...collection] = models;
  if (!model || collection.length === 0) {
    throw new VqError(`${source}: neither a model ("model_dict") nor a bootstrap collection ("0", "1", …)`);
  }
  const type = collection[0]!.type;
  if (type !== "BOOTSTRAP_LIBSVMNUSVR" && type !== "RESIDUEBOOTSTRAP_LIBSVMNUSVR") {
    throw new VqError(`${source}: 1.model_dict.model_type: a bootstrap collection needs BOOTSTRAP_LIBSVMNUSVR or RESIDUEBOOTSTRAP_LIBSVMNUSVR, got ${type}`);
  }
  const odd = collection.findIndex((m) => m.type !== type);
  if (odd >= 0) throw new VqError(`${source}: ${odd + 1}.model_dict.model_type: ${collection[odd]!.type} differs from the collection's ${type}`);
  const bootstrap: BootstrapCollection = { name, type, models: collection };
  return { model, bootstrap };
}

/**
 * Reads a parsed model file: a single model (`model_dict`) or a bootstrap collection,
 * as libvmaf's vmaf tool does (it tries the model first, then the collection).
 */
export function parseModel(json: unknown, source: string, config: ModelConfig): LoadedModel {
  const name = config.name ?? DEFAULT_NAME;
  if (!isObject(json)) throw new VqError(`${source}: expected a JSON object at the top level`);
  if ("model_dict" in json) return { model: parseEntry(json, name, source, [], config) };
  return parseBootstrap(json, source, config, name);
}

export function parseModelText(text: string, source: string, config: ModelConfig): LoadedModel {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new VqError(`${source}: not valid JSON (${(e as Error).message})`, { cause: e });
  }
  return parseModel(json, source, config);
}

/** Reads a model file (libvmaf's `--model path=…`). */
export async function readModelFile(path: string, config: ModelConfig): Promise<LoadedModel> {
  let text: string;
  try {
    text = await new Promise<string>((resolve, reject) => readFile(path, "utf8", (e, t) => (e ? reject(e) : resolve(t))));
  } catch (e) {
    throw new VqError(`${path}: cannot read the model file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, { cause: e });
  }
  return parseModelText(text, path, config);
}
