// The lean install (issue 16, item 7): packs @vq/score and the @vq packages it needs with
// `npm pack` (each tarball built by its prepack script), installs the tarballs into an
// empty directory without optional or peer dependencies (so no `webgpu`; zod from the npm
// registry or its cache), and there:
// - node_modules stays within 25 MB;
// - a strict TypeScript consumer compiles with no `types` setting;
// - one script scores VMAF v0.6.1 on a golden pair with two worker threads under Node, Bun
//   and Deno: the pooled mean is libvmaf's (out_full/), the identical double;
// - asking for the GPU without `webgpu` is a one-line error that names the package, and
//   `auto` computes on the CPU.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPairs, goldenOutput, goldenPath, goldenRun, type GoldenPair } from "@vq/core/golden";

const root = join(import.meta.dir, "../../..");
/** @vq/score and its @vq dependencies, dependencies first (each build reads the dist types before it). */
const PACKED = ["core", "gpu-core", "model", "psnr", "motion", "vif", "adm", "cambi", "ssim", "speed", "ciede", "psnr-hvs", "score"];
const MAX_NODE_MODULES_BYTES = 25 * 1024 * 1024;
/** A strict consumer that sets no `types` (nor `lib`: the target's default) and checks every declaration. */
const CONSUMER_TSCONFIG = { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: false, noEmit: true };
/** The pair the issue names, and one where V8's own Math.exp (Node, Deno) once moved the mean off libvmaf's. */
const PAIRS = ["nat_576x324.x264crf30", "odd_321x241_444.x264crf32"];

const work = mkdtempSync(join(tmpdir(), "vq-score-pack-install-"));
const app = join(work, "app");
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(command: string, args: string[], cwd: string): string {
  const r = spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false", NO_COLOR: "1" } });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} (in ${cwd}) failed with ${r.error?.message ?? `exit code ${r.status}`}:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

function pack(dir: string): string {
  const out = run("npm", ["pack", "--json", "--pack-destination", work], join(root, "packages", dir));
  // The prepack build prints to stdout too; npm's JSON report comes last.
  const [info] = JSON.parse(out.slice(out.search(/^\[/m))) as { filename: string }[];
  return join(work, info!.filename);
}

/** Disk use as `du` counts it (allocated blocks), links not followed. */
function diskBytes(path: string): number {
  const s = lstatSync(path);
  if (!s.isDirectory()) return s.blocks * 512;
  return readdirSync(path).reduce((sum, name) => sum + diskBytes(join(path, name)), s.blocks * 512);
}

const runtimes = {
  node: ["node"],
  bun: [process.execPath],
  deno: [join(root, "node_modules/.bin/deno"), "run", "--allow-read", "--allow-env", "--allow-sys"],
} as const;

beforeAll(() => {
  const tarballs = PACKED.map(pack);
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "vq-score-pack-install", private: true, type: "module" }));
  run("npm", ["install", "--omit=optional", "--omit=peer", "--prefer-offline", "--no-audit", "--no-fund", "--no-package-lock", ...tarballs], app);
  const consumer = readFileSync(join(import.meta.dir, "pack-install-consumer.ts"), "utf8");
  writeFileSync(join(app, "consumer.ts"), consumer);
  writeFileSync(join(app, "consumer.mjs"), new Bun.Transpiler({ loader: "ts" }).transformSync(consumer));
  writeFileSync(
    join(app, "main.mjs"),
    [
      `import process from "node:process";`,
      `import { vmafMean } from "./consumer.mjs";`,
      `const [reference, distorted, backend] = process.argv.slice(2);`,
      `console.log(JSON.stringify(await vmafMean(reference, distorted, backend)));`,
    ].join("\n"),
  );
}, 600_000);

test("the CPU-only install has no webgpu and fits in 25 MB of node_modules", () => {
  const modules = join(app, "node_modules");
  expect(existsSync(join(modules, "@vq/score/dist/index.js"))).toBe(true);
  expect(existsSync(join(modules, "webgpu"))).toBe(false);
  expect(existsSync(join(modules, "bun"))).toBe(false);
  const bytes = diskBytes(modules);
  console.log(`node_modules of the CPU-only install: ${(bytes / 1024 / 1024).toFixed(1)} MB`);
  expect(bytes).toBeLessThanOrEqual(MAX_NODE_MODULES_BYTES);
});

test("a strict TypeScript consumer compiles against the published declarations with no types setting", () => {
  writeFileSync(join(app, "tsconfig.json"), JSON.stringify({ compilerOptions: CONSUMER_TSCONFIG, files: ["consumer.ts"] }));
  run("node", [join(root, "node_modules/typescript/bin/tsc"), "-p", "."], app);
}, 120_000);

for (const [name, command] of Object.entries(runtimes)) {
  test(`${name}: VMAF v0.6.1 with two worker threads is libvmaf's pooled mean, and the GPU without webgpu one line naming it`, () => {
    const [bin, ...args] = command;
    const score = (pair: GoldenPair, backend: string) => JSON.parse(run(bin!, [...args, "main.mjs", goldenPath(pair.reference), goldenPath(pair.distorted), backend], app).trim().split("\n").at(-1)!);
    const pairs = goldenPairs().filter((p) => PAIRS.includes(p.pair));
    expect(pairs).toHaveLength(PAIRS.length);
    for (const pair of pairs) {
      const expected = goldenOutput(goldenRun(pair, "all"), true).pooled_metrics["vmaf"]!["mean"];
      expect({ pair: pair.pair, ...score(pair, "cpu") }).toEqual({ pair: pair.pair, vmaf: expected });
    }
    // Deno has WebGPU of its own (navigator.gpu): no Dawn to miss there.
    if (name === "deno") return;
    expect(score(pairs[0]!, "gpu")).toEqual({ error: 'no WebGPU: the GPU needs the "webgpu" package (Dawn), which is not installed: npm install webgpu' });
    // auto without Dawn computes on the CPU
    const expected = goldenOutput(goldenRun(pairs[0]!, "all"), true).pooled_metrics["vmaf"]!["mean"];
    expect(score(pairs[0]!, "auto")).toEqual({ vmaf: expected });
  }, 180_000);
}
