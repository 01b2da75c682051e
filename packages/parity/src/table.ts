import { afterAll, describe, expect, test } from "bun:test";
import { CpuBackend, scoreVideos, Y4mReader, type ExtractionBackend, type ExtractorDefinition, type FeatureCollector, type FeatureExtractor } from "@vq/core";
import { goldenOutput, goldenPairs, goldenPath, goldenRun, type GoldenPair, type GoldenRun } from "@vq/core/golden";
import { GpuBackend, type FrameRunnerOptions, type GpuContext, type GpuStage } from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { addTally, emptyTally, expectParity, type ParityTally } from "./compare.ts";
import type { Tolerance } from "./contract.ts";
import { goldenOptionSets, runsWithKeys } from "./golden-options.ts";

export type ParityBackend = "cpu" | "gpu";

/** One extractor's parity with libvmaf, as data. */
export interface FeatureParity {
  /** Its definition (libvmaf's name, options, output names) and how to build it per backend (a FeatureEntry fits). */
  readonly feature: {
    readonly definition: ExtractorDefinition<any>;
    readonly cpu: (options: any) => FeatureExtractor;
    readonly gpu?: (options: any) => GpuStage;
  };
  /** Its keys in libvmaf's output, with or without option suffixes. */
  readonly keys: RegExp;
  /**
   * The golden runs compared, each with the options its `vmaf` arguments give the extractor;
   * `with-keys`: every run whose output has such keys.
   */
  readonly runs: readonly string[] | "with-keys";
  /** Model features (feature_names) whose feature_opts_dicts configure the extractor in model runs. */
  readonly modelFeature?: RegExp;
  /**
   * Options added to every scoring pass, for options that only add outputs (debug): runs
   * whose options then agree share one pass, each compared on its own keys.
   */
  readonly scoreWith?: Readonly<Record<string, string>>;
  readonly tolerance: Tolerance | { readonly cpu: Tolerance; readonly gpu: Tolerance };
  readonly backends: readonly ParityBackend[];
}

export interface ParityTable {
  /** The metric, for test names and the summary line. */
  readonly title: string;
  readonly features: readonly FeatureParity[];
  /** Frame runner options of the GPU passes (batch size). */
  readonly gpuRunner?: FrameRunnerOptions;
  /** Per test (one golden pair, every feature of the table), in ms. */
  readonly timeoutMs?: Partial<Record<ParityBackend, number>>;
}

/** One run of one feature under one of the option sets it registers. */
interface Use {
  readonly spec: FeatureParity;
  readonly run: GoldenRun;
  /** The names these options write (the run's keys of this extractor, or some of them). */
  readonly names: string[];
}

/** One extractor instance: its options (with scoreWith) and the uses it serves. */
interface Pass {
  readonly spec: FeatureParity;
  readonly options: unknown;
  readonly names: string[];
  readonly uses: Use[];
}

function toleranceOf(spec: FeatureParity, backend: ParityBackend): Tolerance {
  const t = spec.tolerance;
  return "cpu" in t ? t[backend] : (t as Tolerance);
}

function runsOf(spec: FeatureParity, pair: GoldenPair): GoldenRun[] {
  return spec.runs === "with-keys" ? runsWithKeys(pair, spec.keys) : spec.runs.map((r) => goldenRun(pair, r));
}

/**
 * The passes that cover every run of every feature on `pair`: one per distinct option set,
 * after checking that each run's names are exactly libvmaf's keys for the run.
 */
function planPasses(features: readonly FeatureParity[], pair: GoldenPair): Pass[] {
  const passes = new Map<string, Pass>();
  for (const [index, spec] of features.entries()) {
    const { definition } = spec.feature;
    for (const run of runsOf(spec, pair)) {
      const sets = goldenOptionSets(run, definition.name, spec.modelFeature);
      expect(sets.length, `${run.run}: ${definition.name} registered`).toBeGreaterThan(0);
      const distinct = new Map(sets.map((s) => [JSON.stringify(definition.options.parseStrings(s)), s]));
      const uses = [...distinct.values()].map((set) => {
        const names = definition.providedFeatures(definition.options.parseStrings(set));
        const options = definition.options.parseStrings({ ...set, ...spec.scoreWith });
        const key = `${index} ${JSON.stringify(options)}`;
        let pass = passes.get(key);
        if (!pass) passes.set(key, (pass = { spec, options, names: definition.providedFeatures(options), uses: [] }));
        const use = { spec, run, names };
        pass.uses.push(use);
        return use;
      });
      const golden = Object.keys(goldenOutput(run, true).frames[0]?.metrics ?? {}).filter((k) => spec.keys.test(k));
      const ours = uses.flatMap((u) => u.names);
      // one option set: libvmaf's names in its order; several: the same set of names
      if (uses.length === 1) expect(ours, `${run.run}: ${definition.name} names`).toEqual(golden);
      else expect([...new Set(ours)].sort(), `${run.run}: ${definition.name} names`).toEqual([...golden].sort());
    }
  }
  return [...passes.values()];
}

/** Passes grouped so that none in a group writes a name another writes: each group is one read of the videos, one collector. */
function batches(passes: Pass[]): Pass[][] {
  const groups: Pass[][] = [];
  for (const pass of passes) {
    const group = groups.find((g) => g.every((o) => !o.names.some((n) => pass.names.includes(n))));
    if (group) group.push(pass);
    else groups.push([pass]);
  }
  return groups;
}

async function score(pair: GoldenPair, backend: ExtractionBackend): Promise<{ collector: FeatureCollector; frames: number }> {
  const ref = await Y4mReader.open(goldenPath(pair.reference));
  const dist = await Y4mReader.open(goldenPath(pair.distorted));
  try {
    return await scoreVideos(ref, dist, backend);
  } finally {
    await ref.close();
    await dist.close();
  }
}

function backendFor(kind: ParityBackend, group: Pass[], gpu: GpuContext | null, runner?: FrameRunnerOptions): ExtractionBackend {
  if (kind === "cpu") return new CpuBackend(group.map((p) => p.spec.feature.cpu(p.options)));
  return new GpuBackend(
    gpu!,
    group.map((p) => {
      const make = p.spec.feature.gpu;
      if (!make) throw new Error(`${p.spec.feature.definition.name} has no GPU twin`);
      return make(p.options);
    }),
    runner,
  );
}

/**
 * Registers the parity tests of a table: per backend, one test per golden pair that scores
 * every feature's runs (each distinct option set once) and holds every per-frame and
 * pooled value to the feature's tolerance; then a check that every pair was compared and a
 * summary line. GPU tests skip without an adapter, and fail under VQ_REQUIRE_GPU=1.
 */
export async function parityTests(table: ParityTable): Promise<void> {
  const kinds = (["cpu", "gpu"] as const).filter((k) => table.features.some((f) => f.backends.includes(k)));
  const gpu = kinds.includes("gpu") ? await gpuForTests() : null;
  const pairs = goldenPairs();
  /** Per backend and extractor: (run, option set) checks and what they compared. */
  const summary = new Map<string, { runs: number; tally: ParityTally }>();
  for (const kind of kinds) {
    const features = table.features.filter((f) => f.backends.includes(kind));
    const done = { pairs: 0 };
    describe.skipIf(kind === "gpu" && !gpu)(`${table.title} matches libvmaf (${kind})`, () => {
      for (const pair of pairs) {
        const names = features.map((f) => `${f.feature.definition.name} ${f.runs === "with-keys" ? "(every run with its keys)" : f.runs.join(", ")}`);
        test(
          `${pair.pair}: ${names.join("; ")}`,
          async () => {
            const passes = planPasses(features, pair);
            for (const group of batches(passes)) {
              const { collector, frames } = await score(pair, backendFor(kind, group, gpu, table.gpuRunner));
              expect(frames).toBe(pair.frame_count);
              for (const use of group.flatMap((p) => p.uses)) {
                const t = expectParity({ collector, run: use.run, names: use.names, frames, tolerance: toleranceOf(use.spec, kind), label: `${kind} ${pair.pair} ${use.spec.feature.definition.name}` });
                const line = `${use.spec.feature.definition.name} (${kind})`;
                const s = summary.get(line) ?? { runs: 0, tally: emptyTally() };
                summary.set(line, s);
                addTally(s.tally, t);
                s.runs++;
              }
            }
            done.pairs++;
          },
          table.timeoutMs?.[kind] ?? (kind === "gpu" ? 900_000 : 300_000),
        );
      }
      test("every golden pair was compared", () => expect(done.pairs).toBe(pairs.length));
    });
  }
  afterAll(() => {
    for (const [line, { runs, tally: t }] of summary) {
      console.log(
        `${line} parity: ${runs} (pair, run, option set) checks, ${t.series} series, ${t.values} values; ` +
          `${t.differing} differ from out_full (max |Δ| ${t.maxAbsFull.toExponential(2)}), max |Δ| to out/ ${t.maxAbsPrinted.toExponential(2)}`,
      );
    }
  });
}
