import { VqError } from "@vq/core";

/** One extractor run as asked for: libvmaf's name and its options as libvmaf strings. */
export interface FeatureRequest {
  name: string;
  options: Record<string, string>;
  /** Who asked, for messages: `features` (the default) or `models`. */
  from?: string;
}

/**
 * libvmaf's `name=opt=val:opt=val` feature syntax. `what` names the option in messages:
 * `features` for the library, `--feature` for the command line.
 */
export function parseFeatureString(arg: string, what = "features entry"): FeatureRequest {
  const eq = arg.indexOf("=");
  const name = eq < 0 ? arg : arg.slice(0, eq);
  if (!name) throw new VqError(`invalid ${what} "${arg}": no feature name`);
  const options: Record<string, string> = {};
  if (eq >= 0) {
    for (const kv of arg.slice(eq + 1).split(":")) {
      const [key, value, ...rest] = kv.split("=");
      if (!key || value === undefined || rest.length) {
        throw new VqError(`invalid ${what} "${arg}": bad option "${kv}" (expected opt=value)`);
      }
      options[key] = value;
    }
  }
  return { name, options };
}
