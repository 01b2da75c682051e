/**
 * `npm run fuzz -- --cases N --seed S [--target NAME ...] [--case I] [--replay FILE --target NAME] [--list]`:
 * structure-aware fuzzing of vq's input surfaces (docs/fuzzing.md). Exits 1 when a case fails.
 */
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { shareCases } from "./plan.ts";
import { TARGETS, targetNamed } from "./registry.ts";
import { fuzzTarget, runCase, type Failure, type TargetTally } from "./runner.ts";
import { makeContext } from "./temp-dir.ts";

interface Options {
  cases: number;
  seed: number;
  targets: string[];
  caseIndex?: number;
  replay?: string;
  list: boolean;
}

/** `daily`: the UTC date as a number (20261128), so each day explores new cases and a failure names its seed. */
function parseSeed(v: string): number {
  if (v === "daily") return Number(new Date().toISOString().slice(0, 10).replaceAll("-", ""));
  if (v === "random") return Math.floor(Math.random() * 2 ** 32);
  if (!/^\d+$/.test(v)) throw new Error(`--seed: expected a non-negative integer, daily or random, got "${v}"`);
  return Number(v) >>> 0;
}

function parseOptions(argv: readonly string[]): Options {
  const o: Options = { cases: 10_000, seed: 1, targets: [], list: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--cases") o.cases = Number(value());
    else if (a === "--seed") o.seed = parseSeed(value());
    else if (a === "--target") o.targets.push(...value().split(","));
    else if (a === "--case") o.caseIndex = Number(value());
    else if (a === "--replay") o.replay = value();
    else if (a === "--list") o.list = true;
    else throw new Error(`unknown option ${a} (--cases N --seed S|daily|random --target NAME --case I --replay FILE --list)`);
  }
  if (!Number.isInteger(o.cases) || o.cases < 1) throw new Error("--cases: expected a positive integer");
  return o;
}

export async function fuzzMain(argv: readonly string[]): Promise<number> {
  const o = parseOptions(argv);
  if (o.list) {
    for (const t of TARGETS) console.log(`${t.name.padEnd(12)} ${t.description}`);
    return 0;
  }
  const targets = o.targets.length ? o.targets.map(targetNamed) : [...TARGETS];
  const ctx = makeContext();
  // a run stopped by Ctrl-C or a CI timeout still removes its temp dir
  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
    process.once(signal, () => {
      ctx.remove();
      process.exit(code);
    });
  }
  const failures: Failure[] = [];
  const tallies: TargetTally[] = [];
  const t0 = performance.now();
  try {
    if (o.replay) {
      if (targets.length !== 1) throw new Error("--replay needs one --target");
      const t = targets[0]!;
      const reason = await (async () => {
        await t.setup?.(ctx);
        return runCase(t, t.load({ extension: extname(o.replay!).slice(1), bytes: new Uint8Array(readFileSync(o.replay!)) }), ctx);
      })();
      console.log(reason ? `FAIL ${t.name} ${o.replay}: ${reason}` : `ok ${t.name} ${o.replay}`);
      return reason ? 1 : 0;
    }
    const share = shareCases(targets, o.cases);
    console.log(`vq fuzz: seed ${o.seed}, ${o.caseIndex === undefined ? `${o.cases} cases` : `case ${o.caseIndex}`} (${targets.map((t) => `${t.name} ${o.caseIndex === undefined ? share.get(t.name) : 1}`).join(", ")})`);
    for (const t of targets) {
      const n = share.get(t.name) ?? 0;
      if (!n && o.caseIndex === undefined) continue;
      await t.setup?.(ctx);
      const [from, to] = o.caseIndex === undefined ? [0, n] : [o.caseIndex, o.caseIndex + 1];
      const tally = await fuzzTarget(t, o.seed, from, to, ctx, (f) => {
        failures.push(f);
        const saved = f.saved ? `\n  reproducer: ${f.saved}` : "";
        console.log(`FAIL ${f.target} seed ${f.seed} case ${f.index}: ${f.reason}${saved}\n  rerun: npm run fuzz -- --target ${f.target} --seed ${f.seed} --case ${f.index}`);
      });
      await t.teardown?.(ctx);
      tallies.push(tally);
      console.log(`${t.name}: ${tally.cases} cases, ${tally.failures} failures, ${(tally.ms / 1000).toFixed(1)} s`);
    }
  } finally {
    ctx.remove();
  }
  const seconds = (performance.now() - t0) / 1000;
  console.log(`\n${"target".padEnd(12)} ${"cases".padStart(8)} ${"refused".padStart(8)} ${"failures".padStart(8)} ${"seconds".padStart(8)}`);
  for (const t of tallies) console.log(`${t.target.padEnd(12)} ${String(t.cases).padStart(8)} ${String(t.refused).padStart(8)} ${String(t.failures).padStart(8)} ${(t.ms / 1000).toFixed(1).padStart(8)}`);
  const total = tallies.reduce((s, t) => s + t.cases, 0);
  console.log(`${"total".padEnd(12)} ${String(total).padStart(8)} ${String(tallies.reduce((s, t) => s + t.refused, 0)).padStart(8)} ${String(failures.length).padStart(8)} ${seconds.toFixed(1).padStart(8)}   (seed ${o.seed})`);
  return failures.length ? 1 : 0;
}

if (import.meta.main) {
  try {
    process.exitCode = await fuzzMain(process.argv.slice(2));
  } catch (e) {
    console.error(`vq fuzz: ${(e as Error).message}`);
    process.exitCode = 2;
  }
}
