import { readFileSync } from "node:fs";
import { goldenPath, type GoldenRun } from "@vq/core/golden";

/**
 * Test support: the option sets (as libvmaf option strings) that a golden run's `vmaf`
 * arguments register for an extractor: one per model using an integer motion feature (its
 * feature_opts_dicts entry) and one per `--feature NAME[=opt=val:...]`. libvmaf registers an
 * extractor once per distinct option set; callers collapse duplicates after parsing.
 */
export function goldenOptionSets(run: GoldenRun, extractor: "motion" | "float_motion"): Record<string, string>[] {
  const sets: Record<string, string>[] = [];
  const args = run.vmaf_args;
  for (let i = 0; i < args.length - 1; i++) {
    const value = args[i + 1]!;
    if (args[i] === "--model" && extractor === "motion") {
      const path = value.split(":").find((kv) => kv.startsWith("path="))!.slice(5);
      const json = JSON.parse(readFileSync(goldenPath(path), "utf8"));
      // a bootstrap collection ("0", "1", ...) holds one model per key
      const models = json.model_dict ? [json.model_dict] : Object.values(json).map((m: any) => m.model_dict);
      for (const model of models) {
        const at = (model.feature_names as string[]).findIndex((n) => n.startsWith("VMAF_integer_feature_motion"));
        if (at < 0) continue;
        const dict: Record<string, unknown> = model.feature_opts_dicts?.[at] ?? {};
        sets.push(Object.fromEntries(Object.entries(dict).map(([k, v]) => [k, String(v)])));
      }
    } else if (args[i] === "--feature" && (value === extractor || value.startsWith(`${extractor}=`))) {
      const opts = value.slice(extractor.length + 1);
      sets.push(Object.fromEntries(opts ? opts.split(":").map((kv) => kv.split("=") as [string, string]) : []));
    }
  }
  return sets;
}
