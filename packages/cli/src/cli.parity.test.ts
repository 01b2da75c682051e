import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { formatLibvmaf } from "@vq/core";
import { goldenDir, goldenOutput, goldenPairs, type GoldenRun, type LibvmafJson } from "@vq/core/golden";
import { gpuForTests } from "@vq/gpu-core/testing";
import { TOLERANCE_CLASSES } from "@vq/parity";
import { main } from "./main.ts";
import { catalogueEntry, loadModels, modelFeatureRequests } from "@vq/score";


/**
 * End to end through the CLI: each golden run's own libvmaf arguments, minus the models
 * and features vq does not have yet (plus -n when a model had to go); on the GPU backend
 * only what has a GPU twin. Every key vq writes must match libvmaf's: exactly in
 * out_full/ (1e-12 relative where only libm's log10 or exp may round differently), and
 * printed with libvmaf's rule it must read as out/ does.
 */
const gpu = await gpuForTests();
const dir = mkdtempSync(join(tmpdir(), "vq-parity-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A golden run's libvmaf arguments, reduced to what vq has: null when nothing is left. */
async function argsFor(run: GoldenRun, backend: "cpu" | "gpu", out: string): Promise<string[] | null> {
  // The GPU runs cover what has a GPU twin; the rest is the CPU runs' job.
  // the catalogue says where a GPU twin is (a CPU entry need not carry it)
  const available = (name: string) => Boolean(backend === "cpu" ? catalogueEntry(name) : catalogueEntry(name)?.load.gpu);
  const g = goldenDir();
  const args: string[] = [];
  const src = run.vmaf_args;
  let models = 0;
  let features = 0;
  let droppedModel = false;
  for (let i = 0; i < src.length; i++) {
    const a = src[i]!;
    if (a === "-o" || a === "--output") {
      i++;
      continue;
    }
    if (a === "--model" || a === "-m") {
      const m = src[++i]!.replace(/(^|:)path=([^:]+)/, (_, pre, p) => `${pre}path=${isAbsolute(p) ? p : join(g, p)}`);
      const needs = modelFeatureRequests(await loadModels([m]));
      if (needs.every((f) => available(f.name))) {
        args.push(a, m);
        models++;
      } else droppedModel = true;
      continue;
    }
    if (a === "--feature") {
      const f = src[++i]!;
      if (available(f.split("=")[0]!)) {
        args.push(a, f);
        features++;
      }
      continue;
    }
    if (a === "-r" || a === "-d") {
      const p = src[++i]!;
      args.push(a, isAbsolute(p) ? p : join(g, p));
      continue;
    }
    args.push(a);
  }
  if (!models && !features) return null;
  if (droppedModel && !models && !args.includes("-n")) args.push("-n");
  return [...args, "--backend", backend, "--precision", "max", "-o", out];
}

/** ADR 0003's bounds: float extractors within 5e-5 of out/; 1e-12 relative where only libm rounds differently. */
const FLOAT = TOLERANCE_CLASSES.float.bound;
const LIBM = TOLERANCE_CLASSES.libm.bound;
/** Outputs of libvmaf's integer extractors and the models: held to identical doubles. Float extractors: 5e-5. */
const isExactKey = (k: string) => /^(integer_|VMAF_integer_|psnr_(y|cb|cr)$|mse_|apsnr_|vmaf|cambi)/.test(k);

const RUNS = ["all", "debug", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1", "vmaf_b_v0.6.3", "vmaf_phone", "vmaf_noclip", "vmaf_v1_3d0h", "vmaf_v1_5d0h", "vmaf_v1_1d5h_2160", "vmaf_v1_hfr_3d0h"];

// Only runs of which vq can compute something become tests.
const cases: { backend: "cpu" | "gpu"; pair: string; run: GoldenRun }[] = [];
for (const backend of ["cpu", "gpu"] as const) {
  for (const pair of goldenPairs()) {
    // Both backends take every run; a model whose features lack a GPU twin is left out of the GPU case.
    for (const run of pair.runs.filter((r) => RUNS.includes(r.run))) {
      if (await argsFor(run, backend, "x")) cases.push({ backend, pair: pair.pair, run });
    }
  }
}

for (const backend of ["cpu", "gpu"] as const) {
  describe.skipIf(backend === "gpu" && !gpu)(`vq ${backend} reproduces libvmaf`, () => {
    test("has runs to compare", () => expect(cases.filter((c) => c.backend === backend).length).toBeGreaterThan(0));
    for (const { pair, run } of cases.filter((c) => c.backend === backend)) {
      test(`${pair} ${run.run}`, async () => {
        const out = join(dir, `${pair}.${run.run}.${backend}.json`);
        let errors = "";
        const io = { stdout: () => {}, stderr: (t: string) => void (errors += t), stderrIsTty: false };
        expect(await main((await argsFor(run, backend, out))!, io)).toBe(0);
        expect(errors).toBe("");
        const ours: LibvmafJson = JSON.parse(readFileSync(out, "utf8"));
        const full = goldenOutput(run, true);
        const stock = goldenOutput(run, false);
        expect(ours.frames.length).toBe(full.frames.length);
        // On the CPU vq has every extractor and model libvmaf ran: the same keys, per frame and pooled.
        if (backend === "cpu") {
          expect(Object.keys(ours.frames[0]!.metrics).sort()).toEqual(Object.keys(full.frames[0]!.metrics).sort());
          expect(Object.keys(ours.pooled_metrics).sort()).toEqual(Object.keys(full.pooled_metrics).sort());
        }
        let keys = 0;
        for (const [i, f] of ours.frames.entries()) {
          for (const [k, v] of Object.entries(f.metrics)) {
            keys++;
            const theirs = full.frames[i]!.metrics[k];
            expect(theirs).toBeDefined();
            if (!isExactKey(k)) {
              // float extractors: within 5e-5 of libvmaf's stock output
              expect(Math.abs(v! - stock.frames[i]!.metrics[k]!)).toBeLessThanOrEqual(FLOAT);
              continue;
            }
            // what libvmaf's own writer prints for our value is what it printed for its own
            expect(v === null ? null : Number(formatLibvmaf(v))).toBe(stock.frames[i]!.metrics[k]!);
            if (v === theirs) continue;
            expect(Math.abs(v! - theirs!) / Math.abs(theirs!)).toBeLessThanOrEqual(LIBM);
            expect(k).toMatch(/^(psnr_|vmaf)/); // only log10 (psnr) and exp (SVM) results may differ at all
          }
        }
        expect(keys).toBeGreaterThan(0);
        for (const [k, pooled] of Object.entries(ours.pooled_metrics)) {
          for (const [m, v] of Object.entries(pooled)) {
            const theirs = full.pooled_metrics[k]![m]!;
            if (!isExactKey(k)) expect(Math.abs(v! - stock.pooled_metrics[k]![m]!)).toBeLessThanOrEqual(FLOAT);
            else if (v !== theirs) expect(Math.abs(v! - theirs) / Math.abs(theirs)).toBeLessThanOrEqual(LIBM);
          }
        }
      }, 300_000); // a loaded 2-core machine runs a GPU case for well over bun's default 5 s
    }
  });
}
