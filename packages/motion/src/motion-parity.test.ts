import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { FeatureCollector, Y4mReader } from "@vq/core";
import { compareWithGolden, goldenOutput, goldenPairs, goldenPath, type GoldenPair, type GoldenRun, type ParityReport } from "@vq/core/golden";
import { motionDefinition, motionOptions, type MotionOptions } from "./definition.ts";
import { MotionCpu } from "./motion-cpu.ts";

/** Integer motion keys in libvmaf's output, with or without option suffixes (float_motion writes motion, motion2, motion3). */
const INTEGER_MOTION_KEY = /^(integer_motion|VMAF_integer_feature_motion)/;

/**
 * The motion option sets a run's `vmaf` arguments register: one per model that uses an
 * integer motion feature (its feature_opts_dicts entry) and one per `--feature motion[=...]`.
 */
function motionOptionSets(run: GoldenRun): MotionOptions[] {
  const sets: MotionOptions[] = [];
  const args = run.vmaf_args;
  for (let i = 0; i < args.length - 1; i++) {
    const value = args[i + 1]!;
    if (args[i] === "--model") {
      const path = value.split(":").find((kv) => kv.startsWith("path="))!.slice(5);
      const json = JSON.parse(readFileSync(goldenPath(path), "utf8"));
      // a bootstrap collection ("0", "1", ...) holds one model per key
      const models = json.model_dict ? [json.model_dict] : Object.values(json).map((m: any) => m.model_dict);
      for (const model of models) {
        const names: string[] = model.feature_names;
        const at = names.findIndex((n) => n.startsWith("VMAF_integer_feature_motion"));
        if (at < 0) continue;
        const dict: Record<string, unknown> = model.feature_opts_dicts?.[at] ?? {};
        sets.push(motionOptions.parseStrings(Object.fromEntries(Object.entries(dict).map(([k, v]) => [k, String(v)]))));
      }
    } else if (args[i] === "--feature" && (value === "motion" || value.startsWith("motion="))) {
      const dict = Object.fromEntries(value.split("=").length > 1 ? value.slice("motion=".length).split(":").map((kv) => kv.split("=") as [string, string]) : []);
      sets.push(motionOptions.parseStrings(dict));
    }
  }
  // libvmaf registers an extractor once per distinct option set
  return [...new Map(sets.map((o) => [JSON.stringify(o), o])).values()];
}

interface RunCheck {
  run: GoldenRun;
  extractors: MotionCpu[];
  collectors: FeatureCollector[];
}

/** Reads the pair once and feeds every run's extractors, each with its own collector (runs write the same names). */
async function scorePair(pair: GoldenPair, runs: GoldenRun[]): Promise<{ checks: RunCheck[]; frames: number }> {
  const checks = runs.map((run) => {
    const extractors = motionOptionSets(run).map((o) => new MotionCpu(o));
    return { run, extractors, collectors: extractors.map(() => new FeatureCollector()) };
  });
  const all = checks.flatMap((c) => c.extractors.map((e, i) => [e, c.collectors[i]!] as const));
  const ref = await Y4mReader.open(goldenPath(pair.reference));
  const dist = await Y4mReader.open(goldenPath(pair.distorted));
  for (const [e] of all) e.init(ref.format);
  let frames = 0;
  for (;;) {
    const [r, d] = await Promise.all([ref.read(), dist.read()]);
    if (!r || !d) break;
    for (const [e, c] of all) e.extract({ ref: r, dist: d }, frames, c);
    ref.release(r);
    dist.release(d);
    frames++;
  }
  for (const [e, c] of all) e.flush(c);
  await ref.close();
  await dist.close();
  return { checks, frames };
}

function describeReport(report: ParityReport): string {
  return report.keys
    .filter((k) => k.differing)
    .map((k) => `${k.key}: ${k.differing}/${k.compared} differ (max abs ${k.maxAbs}, rel ${k.maxRel})`)
    .join("; ");
}

const pairs = goldenPairs();

describe("integer motion matches libvmaf bit for bit (out_full)", () => {
  for (const pair of pairs) {
    // every run that wrote integer motion keys: all, debug, the v0.6.1 model runs and the four v1 runs
    const runs = pair.runs.filter((run) => Object.keys(goldenOutput(run, true).frames[0]?.metrics ?? {}).some((k) => INTEGER_MOTION_KEY.test(k)));

    test(`${pair.pair}`, async () => {
      expect(runs.map((r) => r.run)).toEqual(expect.arrayContaining(["all", "debug", "vmaf_v1_3d0h", "vmaf_v1_5d0h", "vmaf_v1_1d5h_2160", "vmaf_v1_hfr_3d0h"]));
      const { checks, frames } = await scorePair(pair, runs);
      expect(frames).toBe(pair.frame_count);
      for (const { run, extractors, collectors } of checks) {
        const golden = goldenOutput(run, true);
        const goldenKeys = new Set(Object.keys(golden.frames[0]!.metrics).filter((k) => INTEGER_MOTION_KEY.test(k)));
        const ours = new Set(extractors.flatMap((e) => motionDefinition.providedFeatures(e.options)));
        expect([...ours].sort(), `${run.run}: feature names`).toEqual([...goldenKeys].sort());
        for (const [i, e] of extractors.entries()) {
          const names = new Set(motionDefinition.providedFeatures(e.options));
          const report = compareWithGolden(collectors[i]!, golden, (k) => names.has(k), frames);
          expect(report.missing, `${run.run}: missing`).toEqual([]);
          // per name: every frame plus the 4 pooled values
          for (const name of names) expect(report.keys.find((k) => k.key === name)?.compared, `${run.run}: ${name} compared`).toBe(frames);
          expect(report.keys.filter((k) => k.differing), `${run.run}: ${describeReport(report)}`).toEqual([]);
        }
      }
    });
  }
});
