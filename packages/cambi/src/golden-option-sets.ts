import { readFileSync } from "node:fs";
import { formatG } from "@vq/core";
import { goldenPath, type GoldenRun } from "@vq/core/golden";

/**
 * Test support: the cambi option sets (as libvmaf option strings) a golden run's `vmaf`
 * arguments register: one per `--feature cambi[=opt=val:...]` and one per model that uses
 * Cambi_feature_cambi_score (its feature_opts_dicts entry). Model numbers go through
 * libvmaf's dictionary as strtof then "%g" (17.0 becomes "17").
 */
export function cambiOptionSets(run: GoldenRun): Record<string, string>[] {
  const sets: Record<string, string>[] = [];
  const args = run.vmaf_args;
  for (let i = 0; i < args.length - 1; i++) {
    const value = args[i + 1]!;
    if (args[i] === "--model") {
      const path = value.split(":").find((kv) => kv.startsWith("path="))!.slice(5);
      const json = JSON.parse(readFileSync(goldenPath(path), "utf8"));
      const models = json.model_dict ? [json.model_dict] : Object.values(json).map((m: any) => m.model_dict);
      for (const model of models) {
        const at = (model.feature_names as string[]).indexOf("Cambi_feature_cambi_score");
        if (at < 0) continue;
        const dict: Record<string, unknown> = model.feature_opts_dicts?.[at] ?? {};
        sets.push(Object.fromEntries(Object.entries(dict).map(([k, v]) => [k, typeof v === "number" ? formatG(Math.fround(v)) : String(v)])));
      }
    } else if (args[i] === "--feature" && (value === "cambi" || value.startsWith("cambi="))) {
      const opts = value.slice("cambi".length + 1);
      sets.push(Object.fromEntries(opts ? opts.split(":").map((kv) => kv.split("=") as [string, string]) : []));
    }
  }
  return sets;
}
