import { basename, extname } from "node:path";
import { VqError } from "@vq/core";

/** A distorted input's `{name}`: its file's base name without the extension. */
export function renditionName(path: string): string {
  const base = basename(path);
  return base.slice(0, base.length - extname(base).length) || base;
}

/**
 * The output path of each distorted input of a ladder, from a template holding `{name}`
 * (renditionName) or `{n}` (1-based index). Checked before anything runs: a template
 * without either, or two inputs whose names (and so outputs) coincide, is an error.
 */
export function renditionOutputs(template: string | undefined, distorted: readonly string[], option = "-o/--output"): string[] | undefined {
  const names = distorted.map(renditionName);
  const usesIndex = template?.includes("{n}") ?? false;
  if (!usesIndex) {
    const seen = new Map<string, string>();
    for (const [i, name] of names.entries()) {
      const other = seen.get(name);
      if (other !== undefined) throw new VqError(`distorted inputs ${other} and ${distorted[i]} have the same name "${name}": rename one, or use {n} in ${option}`);
      seen.set(name, distorted[i]!);
    }
  }
  if (template === undefined) return undefined;
  if (!template.includes("{name}") && !usesIndex) {
    throw new VqError(`${option} "${template}" names one file for ${distorted.length} distorted inputs: put {name} (the distorted file's name) or {n} (its number) in it`);
  }
  return names.map((name, i) => template.replaceAll("{name}", name).replaceAll("{n}", String(i + 1)));
}
