import { readFileSync } from "node:fs";
import { formatG } from "@vq/core";
import { goldenOutput, goldenPath, type GoldenPair, type GoldenRun } from "@vq/core/golden";

/**
 * The option sets (as libvmaf option strings) that a golden run's `vmaf` arguments register
 * for extractor `name`: one per `--feature name[=opt=val:...]` and one per model feature
 * matching `modelFeature` (its feature_opts_dicts entry; a bootstrap collection holds one
 * model per key). libvmaf reads a model's numbers as strtof and prints them with %g into
 * its option dictionary (17.0 becomes "17"). Duplicates are left for the caller, which
 * collapses them after parsing.
 */
export function goldenOptionSets(run: GoldenRun, name: string, modelFeature?: RegExp): Record<string, string>[] {
  const sets: Record<string, string>[] = [];
  const args = run.vmaf_args;
  for (let i = 0; i < args.length - 1; i++) {
    const value = args[i + 1]!;
    if (args[i] === "--model" && modelFeature) {
      const path = value.split(":").find((kv) => kv.startsWith("path="))!.slice("path=".length);
      const json = JSON.parse(readFileSync(goldenPath(path), "utf8"));
      const models = json.model_dict ? [json.model_dict] : Object.values(json).map((m: any) => m.model_dict);
      for (const model of models) {
        (model.feature_names as string[]).forEach((feature, k) => {
          if (!modelFeature.test(feature)) return;
          const dict: Record<string, unknown> = model.feature_opts_dicts?.[k] ?? {};
          sets.push(Object.fromEntries(Object.entries(dict).map(([key, v]) => [key, typeof v === "number" ? formatG(Math.fround(v)) : String(v)])));
        });
      }
    } else if (args[i] === "--feature" && (value === name || value.startsWith(`${name}=`))) {
      const opts = value.slice(name.length + 1);
      sets.push(Object.fromEntries(opts ? opts.split(":").map((kv) => kv.split("=") as [string, string]) : []));
    }
  }
  return sets;
}

/** The runs of `pair` whose libvmaf output has a key that `keys` matches. */
export function runsWithKeys(pair: GoldenPair, keys: RegExp): GoldenRun[] {
  return pair.runs.filter((run) => Object.keys(goldenOutput(run, true).frames[0]?.metrics ?? {}).some((k) => keys.test(k)));
}
