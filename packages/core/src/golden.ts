import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { FeatureCollector } from "./extraction/feature-collector.ts";
import { poolFeature, POOL_METHODS } from "./pooling.ts";

/**
 * The oracle: libvmaf 3.2's own outputs for the golden vectors (../shared/golden beside
 * the project, or $VQ_GOLDEN_DIR). Parity tests compare against these files only.
 */
export function goldenDir(): string {
  const fromEnv = process.env.VQ_GOLDEN_DIR;
  const dir = fromEnv ? resolve(fromEnv) : join(repoRoot(), "..", "shared", "golden");
  if (!existsSync(join(dir, "manifest.json"))) {
    throw new Error(`golden data not found at ${dir} (set VQ_GOLDEN_DIR to the folder holding manifest.json)`);
  }
  return dir;
}

function repoRoot(): string {
  let dir = import.meta.dir ?? dirname(new URL(import.meta.url).pathname);
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, "utf8")).workspaces) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error("cannot find the vq repository root");
    dir = up;
  }
}

export interface GoldenRun {
  run: string;
  vmaf_args: string[];
  output: string;
  output_full: string;
}

export interface GoldenPair {
  pair: string;
  reference: string;
  distorted: string;
  width: number;
  height: number;
  pixel_format: string;
  bit_depth: number;
  frame_count: number;
  runs: GoldenRun[];
}

export interface LibvmafJson {
  version: string;
  frames: { frameNum: number; metrics: Record<string, number | null> }[];
  pooled_metrics: Record<string, Record<string, number | null>>;
  aggregate_metrics: Record<string, number | null>;
}

/**
 * Every golden pair, or those named in $VQ_GOLDEN_PAIRS (comma-separated): the GPU
 * machine gets only the vectors that fit in what travels there.
 */
export function goldenPairs(): GoldenPair[] {
  const manifest = JSON.parse(readFileSync(join(goldenDir(), "manifest.json"), "utf8"));
  const pairs = manifest.pairs as GoldenPair[];
  const only = process.env.VQ_GOLDEN_PAIRS?.split(",").filter(Boolean);
  if (!only?.length) return pairs;
  const unknown = only.filter((n) => !pairs.some((p) => p.pair === n));
  if (unknown.length) throw new Error(`VQ_GOLDEN_PAIRS names unknown pairs: ${unknown.join(", ")}`);
  return pairs.filter((p) => only.includes(p.pair));
}

export function goldenPath(relative: string): string {
  return join(goldenDir(), relative);
}

export function goldenRun(pair: GoldenPair, run: string): GoldenRun {
  const r = pair.runs.find((x) => x.run === run);
  if (!r) throw new Error(`golden pair ${pair.pair} has no run ${run}`);
  return r;
}

/** libvmaf's JSON for a run: `full` = printed with %.17g (bit-exactness), else the stock 6 decimals. */
export function goldenOutput(run: GoldenRun, full: boolean): LibvmafJson {
  return JSON.parse(readFileSync(join(goldenDir(), full ? run.output_full : run.output), "utf8"));
}

export interface KeyParity {
  key: string;
  compared: number;
  /** Values that are not the identical double. */
  differing: number;
  maxAbs: number;
  maxRel: number;
}

export interface ParityReport {
  keys: KeyParity[];
  /** Keys or frames libvmaf wrote that we did not. */
  missing: string[];
}

/**
 * Compares our scores with libvmaf's, per frame and pooled, for the keys `select` picks.
 * null in libvmaf's JSON (an infinite score) must be a non-finite number here.
 */
export function compareWithGolden(collector: FeatureCollector, golden: LibvmafJson, select: (key: string) => boolean, frameCount: number): ParityReport {
  const stats = new Map<string, KeyParity>();
  const missing: string[] = [];
  const note = (key: string, ours: number, theirs: number | null) => {
    let s = stats.get(key);
    if (!s) stats.set(key, (s = { key, compared: 0, differing: 0, maxAbs: 0, maxRel: 0 }));
    s.compared++;
    if (theirs === null) {
      if (Number.isFinite(ours)) {
        s.differing++;
        s.maxAbs = Infinity;
        s.maxRel = Infinity;
      }
      return;
    }
    if (ours !== theirs) {
      s.differing++;
      const abs = Math.abs(ours - theirs);
      s.maxAbs = Math.max(s.maxAbs, Number.isNaN(abs) ? Infinity : abs);
      // NaN (ours NaN, or an infinity against a number) counts as the worst difference
      const rel = abs / Math.max(Math.abs(theirs), 1e-300);
      s.maxRel = Math.max(s.maxRel, Number.isNaN(rel) ? Infinity : rel);
    }
  };
  for (const f of golden.frames) {
    for (const [key, v] of Object.entries(f.metrics)) {
      if (!select(key)) continue;
      const ours = collector.get(key, f.frameNum);
      if (ours === undefined) missing.push(`${key}@${f.frameNum}`);
      else note(key, ours, v);
    }
  }
  for (const [key, pooled] of Object.entries(golden.pooled_metrics)) {
    if (!select(key)) continue;
    const ours = poolFeature(collector, key, frameCount);
    if (!ours) {
      missing.push(`${key}@pooled`);
      continue;
    }
    for (const m of POOL_METHODS) if (m in pooled) note(`${key}.${m}`, ours[m], pooled[m] ?? null);
  }
  return { keys: [...stats.values()], missing };
}
