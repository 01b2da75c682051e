import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { goldenDir, goldenOutput, goldenPairs, type GoldenRun, type LibvmafJson } from "@vq/core/golden";
import { gpuForTests } from "@vq/gpu-core/testing";
import { main } from "./main.ts";
import { FEATURES } from "./features.ts";

/**
 * End to end through the CLI: each golden run's own libvmaf arguments, minus the models
 * and the features vq does not have yet, plus -n. Every key vq writes must match
 * libvmaf's: exactly in out_full/ (--precision max; 1e-12 relative where only libm's
 * log10 may round differently) and digit for digit in out/ (default precision).
 */
const gpu = await gpuForTests();
const dir = mkdtempSync(join(tmpdir(), "vq-parity-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function argsFor(run: GoldenRun, backend: string, precision: string, out: string): string[] {
  const g = goldenDir();
  const args: string[] = [];
  const src = run.vmaf_args;
  for (let i = 0; i < src.length; i++) {
    const a = src[i]!;
    if (a === "--model" || a === "-m" || a === "-o" || a === "--output") {
      i++;
      continue;
    }
    if (a === "--feature") {
      const f = src[++i]!;
      if (FEATURES.has(f.split("=")[0]!)) args.push(a, f);
      continue;
    }
    if (a === "-r" || a === "-d") {
      const p = src[++i]!;
      args.push(a, isAbsolute(p) ? p : join(g, p));
      continue;
    }
    args.push(a);
  }
  return [...args, "-n", "--backend", backend, "--precision", precision, "-o", out];
}

const RUNS = ["all", "debug"];

for (const backend of ["cpu", "gpu"]) {
  describe.skipIf(backend === "gpu" && !gpu)(`vq ${backend} reproduces libvmaf`, () => {
    for (const pair of goldenPairs()) {
      for (const run of pair.runs.filter((r) => RUNS.includes(r.run))) {
        test(`${pair.pair} ${run.run}`, async () => {
          const outFull = join(dir, `${pair.pair}.${run.run}.${backend}.full.json`);
          const outStock = join(dir, `${pair.pair}.${run.run}.${backend}.json`);
          const io = { stdout: () => {}, stderr: (t: string) => void (errors += t), stderrIsTty: false };
          let errors = "";
          expect(await main(argsFor(run, backend, "max", outFull), io)).toBe(0);
          expect(await main(argsFor(run, backend, "6", outStock), io)).toBe(0);
          expect(errors).toBe("");
          const ours: LibvmafJson = JSON.parse(readFileSync(outFull, "utf8"));
          const oursStock: LibvmafJson = JSON.parse(readFileSync(outStock, "utf8"));
          const full = goldenOutput(run, true);
          const stock = goldenOutput(run, false);
          expect(ours.frames.length).toBe(full.frames.length);
          let keys = 0;
          for (const [i, f] of ours.frames.entries()) {
            for (const [k, v] of Object.entries(f.metrics)) {
              keys++;
              const theirs = full.frames[i]!.metrics[k];
              expect(theirs).toBeDefined();
              if (v === theirs) continue;
              expect(Math.abs(v! - theirs!) / Math.abs(theirs!)).toBeLessThanOrEqual(1e-12);
              expect(k).toStartWith("psnr_"); // only the log10 results may differ at all
            }
            for (const [k, v] of Object.entries(oursStock.frames[i]!.metrics)) expect(v).toBe(stock.frames[i]!.metrics[k]!);
          }
          expect(keys).toBeGreaterThan(0);
          for (const [k, pooled] of Object.entries(oursStock.pooled_metrics)) expect(pooled).toEqual(stock.pooled_metrics[k]!);
        });
      }
    }
  });
}
