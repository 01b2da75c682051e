import { VqError } from "@vq/core";
import { loadBuiltInModel, readModelFile, requiredExtractors, type LoadedModel } from "@vq/model";
import type { FeatureRequest } from "./args.ts";

export interface ModelArgument {
  /** Per extractor, options overriding the model's (`adm.adm_enhn_gain_limit=1`). */
  overloads: Record<string, Record<string, string>>;
  version?: string;
  path?: string;
  name?: string;
  enableTransform: boolean;
  disableClip: boolean;
}

/** `--model version=NAME|path=FILE[:name=..:enable_transform[=true]:disable_clip[=true]]`, as libvmaf reads it. */
export function parseModelArgument(arg: string): ModelArgument {
  const m: ModelArgument = { enableTransform: false, disableClip: false, overloads: {} };
  for (const kv of arg.split(":")) {
    const [key, value, ...rest] = kv.split("=");
    if (!key || rest.length) throw new VqError(`invalid --model "${arg}": bad option "${kv}"`);
    switch (key) {
      case "version":
      case "path":
      case "name":
        if (!value) throw new VqError(`invalid --model "${arg}": ${key} needs a value`);
        m[key] = value;
        break;
      case "enable_transform":
      case "disable_clip": {
        const v = value ?? "true";
        if (v !== "true" && v !== "false") throw new VqError(`invalid --model "${arg}": ${key}=${v} (expected true or false)`);
        if (key === "enable_transform") m.enableTransform = v === "true";
        else m.disableClip = v === "true";
        break;
      }
      default: {
        const dot = key.indexOf(".");
        if (dot > 0 && dot < key.length - 1 && value !== undefined) {
          (m.overloads[key.slice(0, dot)] ??= {})[key.slice(dot + 1)] = value;
          break;
        }
        throw new VqError(`invalid --model "${arg}": unknown key "${key}" (version, path, name, enable_transform, disable_clip, EXTRACTOR.option=value)`);
      }
    }
  }
  if (!m.version === !m.path) throw new VqError(`invalid --model "${arg}": give exactly one of version= or path=`);
  return m;
}

/** The models of a run; libvmaf's default (vmaf_v0.6.1) when none is given. */
export async function loadModels(args: readonly string[]): Promise<LoadedModel[]> {
  const parsed = (args.length ? args : ["version=vmaf_v0.6.1"]).map(parseModelArgument);
  const out: LoadedModel[] = [];
  for (const m of parsed) {
    const config = { name: m.name, enableTransform: m.enableTransform, disableClip: m.disableClip, overloads: m.overloads };
    out.push(m.version ? await loadBuiltInModel(m.version, config) : await readModelFile(m.path!, config));
  }
  return out;
}

/** The extractor runs the models need, as feature requests (libvmaf registers them before --feature ones). */
export function modelFeatureRequests(models: readonly LoadedModel[]): FeatureRequest[] {
  return requiredExtractors(models).map((r) => ({ name: r.extractor, options: { ...r.options } }));
}
