import { describe, expect, test } from "bun:test";
import { FeatureCollector, Y4mReader, type ExtractorDefinition, type FeatureExtractor, type PicturePair } from "@vq/core";
import { compareWithGolden, goldenOutput, goldenPairs, goldenPath, type GoldenPair, type GoldenRun, type ParityReport } from "@vq/core/golden";
import { goldenOptionSets } from "./golden-option-sets.ts";
import { floatMotionFeature, motionFeature } from "./index.ts";

/** The two extractors checked, with how to recognise their keys in libvmaf's output (with or without option suffixes). */
const FEATURES = {
  motion: { entry: motionFeature, keys: /^(integer_motion|VMAF_integer_feature_motion)/ },
  float_motion: { entry: floatMotionFeature, keys: /^motion[23]?($|_)/ },
} as const;
type FeatureName = keyof typeof FEATURES;

interface Check {
  run: GoldenRun;
  feature: FeatureName;
  definition: ExtractorDefinition<any>;
  extractor: FeatureExtractor<PicturePair> & { readonly options: any };
  collector: FeatureCollector;
}

function checksFor(run: GoldenRun): Check[] {
  const checks: Check[] = [];
  for (const feature of Object.keys(FEATURES) as FeatureName[]) {
    const { entry } = FEATURES[feature];
    const unique = new Map(goldenOptionSets(run, feature).map((dict) => {
      const options = entry.definition.options.parseStrings(dict);
      return [JSON.stringify(options), options] as const;
    }));
    for (const options of unique.values()) {
      const extractor = entry.cpu(options as never) as Check["extractor"];
      checks.push({ run, feature, definition: entry.definition, extractor, collector: new FeatureCollector() });
    }
  }
  return checks;
}

/** Reads the pair once and feeds every extractor, each with its own collector (runs write the same names). */
async function scorePair(pair: GoldenPair, checks: Check[]): Promise<number> {
  const ref = await Y4mReader.open(goldenPath(pair.reference));
  const dist = await Y4mReader.open(goldenPath(pair.distorted));
  for (const c of checks) c.extractor.init(ref.format);
  let frames = 0;
  for (;;) {
    const [r, d] = await Promise.all([ref.read(), dist.read()]);
    if (!r || !d) break;
    for (const c of checks) c.extractor.extract({ ref: r, dist: d }, frames, c.collector);
    ref.release(r);
    dist.release(d);
    frames++;
  }
  for (const c of checks) c.extractor.flush(c.collector);
  await ref.close();
  await dist.close();
  return frames;
}

function describeReport(report: ParityReport): string {
  return report.keys
    .filter((k) => k.differing)
    .map((k) => `${k.key}: ${k.differing}/${k.compared} differ (max abs ${k.maxAbs}, rel ${k.maxRel})`)
    .join("; ");
}

const tally = { pairs: 0, runs: 0, keys: 0, values: 0, differing: 0 };

describe("motion and float_motion match libvmaf bit for bit (out_full)", () => {
  for (const pair of goldenPairs()) {
    const runs = pair.runs.filter((run) => {
      const keys = Object.keys(goldenOutput(run, true).frames[0]?.metrics ?? {});
      return Object.values(FEATURES).some((f) => keys.some((k) => f.keys.test(k)));
    });

    test(pair.pair, async () => {
      // the runs the golden README names for motion must all be here
      expect(runs.map((r) => r.run)).toEqual(expect.arrayContaining(["all", "debug", "vmaf_v1_3d0h", "vmaf_v1_5d0h", "vmaf_v1_1d5h_2160", "vmaf_v1_hfr_3d0h"]));
      const checks = runs.flatMap(checksFor);
      const frames = await scorePair(pair, checks);
      expect(frames).toBe(pair.frame_count);
      tally.pairs++;
      for (const run of runs) {
        tally.runs++;
        const golden = goldenOutput(run, true);
        for (const feature of Object.keys(FEATURES) as FeatureName[]) {
          const mine = checks.filter((c) => c.run === run && c.feature === feature);
          const goldenKeys = Object.keys(golden.frames[0]!.metrics).filter((k) => FEATURES[feature].keys.test(k));
          const ours = mine.flatMap((c) => c.definition.providedFeatures(c.extractor.options));
          expect([...new Set(ours)].sort(), `${run.run}: ${feature} names`).toEqual(goldenKeys.sort());
          for (const c of mine) {
            const names = new Set(c.definition.providedFeatures(c.extractor.options));
            const report = compareWithGolden(c.collector, golden, (k) => names.has(k), frames);
            expect(report.missing, `${run.run}: missing`).toEqual([]);
            // every name: each frame plus the four pooled values
            for (const name of names) expect(report.keys.find((k) => k.key === name)?.compared, `${run.run}: ${name} compared`).toBe(frames);
            for (const k of report.keys) {
              tally.values += k.compared;
              tally.differing += k.differing;
            }
            tally.keys += names.size;
            expect(report.keys.filter((k) => k.differing), `${run.run}: ${describeReport(report)}`).toEqual([]);
          }
        }
      }
    }, 120_000); // float_motion at 1080p takes seconds on a loaded 2-core machine
  }

  test("tally", () => {
    console.log(`motion parity: ${tally.pairs} pairs, ${tally.runs} runs, ${tally.keys} (run, key) series, ${tally.values} values (per-frame + pooled) compared, ${tally.differing} differ`);
  });
});
