// Max |Δ| per key against out_full/ and out/ over every golden pair and the given runs, through the CLI:
//   bun tools/parity-table.ts cpu|gpu all,debug,vmaf_v0.6.1neg,...   (writes its JSON under $TMPDIR/vq-parity-table)
import { mkdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { goldenDir, goldenOutput, goldenPairs } from "../packages/core/src/golden.ts";
import { main } from "../packages/cli/src/main.ts";
import { catalogueEntry } from "../packages/score/src/catalogue.ts";
import { loadModels, modelFeatureRequests } from "../packages/score/src/models.ts";

const backend = process.argv[2] as "cpu" | "gpu";
const RUNS = process.argv[3]!.split(",");
// the catalogue says where a GPU twin is (a CPU entry need not carry it)
const available = (n: string) => Boolean(backend === "cpu" ? catalogueEntry(n) : catalogueEntry(n)?.load.gpu);
const outDir = join(tmpdir(), "vq-parity-table");
mkdirSync(outDir, { recursive: true });
const stats = new Map<string, { n: number; same: number; full: number; out: number }>();
const g = goldenDir();
for (const pair of goldenPairs()) {
  for (const run of pair.runs.filter((r) => RUNS.includes(r.run))) {
    const args: string[] = [];
    const src = run.vmaf_args;
    let models = 0;
    for (let i = 0; i < src.length; i++) {
      const a = src[i]!;
      if (a === "-o") { i++; continue; }
      if (a === "--model") {
        const m = src[++i]!.replace(/(^|:)path=([^:]+)/, (_, pre, p) => `${pre}path=${isAbsolute(p) ? p : join(g, p)}`);
        if (modelFeatureRequests(await loadModels([m])).every((f) => available(f.name))) { args.push(a, m); models++; }
        continue;
      }
      if (a === "--feature") { const f = src[++i]!; if (available(f.split("=")[0]!)) args.push(a, f); continue; }
      if (a === "-r" || a === "-d") { args.push(a, join(g, src[++i]!)); continue; }
      args.push(a);
    }
    if (!models && !args.includes("-n")) args.push("-n");
    const out = `${outDir}/${pair.pair}.${run.run}.${backend}.all.json`;
    const code = await main([...args, "--json", "--precision", "max", "--backend", backend, "-q", "-o", out], { stdout: () => {}, stderr: (t) => process.stderr.write(t), stderrIsTty: false });
    if (code) { console.error(`${pair.pair} ${run.run}: exit ${code}`); continue; }
    const ours = JSON.parse(readFileSync(out, "utf8"));
    const full = goldenOutput(run, true);
    const stock = goldenOutput(run, false);
    const add = (k: string, v: number | null, f: number | null, s: number | null) => {
      const st = stats.get(k) ?? { n: 0, same: 0, full: 0, out: 0 };
      st.n++;
      if (v === f) st.same++;
      else if (v !== null && f !== null) st.full = Math.max(st.full, Math.abs(v - f));
      else st.full = Infinity;
      if (v !== null && s !== null) st.out = Math.max(st.out, Math.abs(v - s));
      stats.set(k, st);
    };
    ours.frames.forEach((fr: any, i: number) => {
      for (const [k, v] of Object.entries(fr.metrics)) add(k, v as any, full.frames[i]!.metrics[k] as any, stock.frames[i]!.metrics[k] as any);
    });
    for (const [k, p] of Object.entries(ours.pooled_metrics)) for (const [m, v] of Object.entries(p as any)) add(k, v as any, (full.pooled_metrics as any)[k][m], (stock.pooled_metrics as any)[k][m]);
  }
}
// Keys with options collapse onto their base name for the table.
const base = (k: string) => k.replace(/_(egl|csf|dlmw|hrs|cmxv|vlt|topk|tvit|enhn|mbf|mbo|mfw|mmv|mfzw|mffw|mma|ks|nnf|snn|wvm|smv|kernelscale)_.*$/, "");
const merged = new Map<string, { n: number; same: number; full: number; out: number }>();
for (const [k, s] of stats) {
  const m = merged.get(base(k)) ?? { n: 0, same: 0, full: 0, out: 0 };
  m.n += s.n; m.same += s.same; m.full = Math.max(m.full, s.full); m.out = Math.max(m.out, s.out);
  merged.set(base(k), m);
}
console.log(`| key (${backend}) | values | identical to out_full | max \\|Δ\\| vs out_full | max \\|Δ\\| vs out/ |\n|---|---|---|---|---|`);
for (const [k, s] of [...merged].sort()) console.log(`| ${k} | ${s.n} | ${s.same} | ${s.full === 0 ? "0" : s.full.toExponential(2)} | ${s.out.toExponential(2)} |`);
