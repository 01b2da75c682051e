import { VqError } from "@vq/core";
import { loadBuiltInModel, readModelFile, requiredExtractors, type LoadedModel } from "@vq/model";
import { EXTRACTORS } from "./catalogue.ts";
import type { FeatureRequest } from "./feature-request.ts";

export interface ModelArgument {
  /** Per extractor, options overriding the model's (`adm.adm_enhn_gain_limit=1`). */
  overloads: Record<string, Record<string, string>>;
  version?: string;
  path?: string;
  name?: string;
  enableTransform: boolean;
  disableClip: boolean;
}

/**
 * `version=NAME|path=FILE[:name=..:enable_transform[=true]:disable_clip[=true]]`, libvmaf's
 * `--model` syntax. `what` names the option in messages: `models` for the library, `--model`
 * for the command line.
 */
export function parseModelArgument(arg: string, what = "models entry"): ModelArgument {
  const m: ModelArgument = { enableTransform: false, disableClip: false, overloads: {} };
  for (const kv of arg.split(":")) {
    const [key, value, ...rest] = kv.split("=");
    if (!key || rest.length) throw new VqError(`invalid ${what} "${arg}": bad option "${kv}"`);
    switch (key) {
      case "version":
      case "path":
      case "name":
        if (!value) throw new VqError(`invalid ${what} "${arg}": ${key} needs a value`);
        m[key] = value;
        break;
      case "enable_transform":
      case "disable_clip": {
        const v = value ?? "true";
        if (v !== "true" && v !== "false") throw new VqError(`invalid ${what} "${arg}": ${key}=${v} (expected true or false)`);
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
        throw new VqError(`invalid ${what} "${arg}": unknown key "${key}" (version, path, name, enable_transform, disable_clip, EXTRACTOR.option=value)`);
      }
    }
  }
  if (!m.version === !m.path) throw new VqError(`invalid ${what} "${arg}": give exactly one of version= or path=`);
  return m;
}

/** The models of a run; libvmaf's default (vmaf_v0.6.1) when none is given. */
export async function loadModels(args: readonly string[]): Promise<LoadedModel[]> {
  const parsed = (args.length ? args : ["version=vmaf_v0.6.1"]).map((a) => parseModelArgument(a));
  const out: LoadedModel[] = [];
  for (const m of parsed) {
    const config = { name: m.name, enableTransform: m.enableTransform, disableClip: m.disableClip, overloads: m.overloads, extractors: EXTRACTORS };
    out.push(m.version ? await loadBuiltInModel(m.version, config) : await readModelFile(m.path!, config));
  }
  return out;
}

/** The extractor runs the models need, as feature requests (libvmaf registers them before --feature ones). */
export function modelFeatureRequests(models: readonly LoadedModel[]): FeatureRequest[] {
  return requiredExtractors(models).map((r) => ({ name: r.extractor, options: { ...r.options }, from: "models" }));
}
