// The published form of @vq/ssim: packs it and the @vq packages it needs with `npm pack`
// (each tarball built by its prepack script), installs the tarballs alone in an empty
// directory with `webgpu`, the optional peer a GPU user adds (it and zod from the npm
// registry or cache), and computes float_ssim there on Node and on Bun. Both must print
// exactly what the monorepo's sources give here.
import { afterAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as core from "@vq/core";
import * as gpuCore from "@vq/gpu-core";
import { gpuForTests } from "@vq/gpu-core/testing";
import * as ssim from "@vq/ssim";
import { probeSsim, type ProbeScores } from "./pack-install-probe.ts";

const packagesDir = join(import.meta.dir, "../..");
/** @vq/ssim and its @vq dependencies, dependencies first (each build reads the dist types before it). */
const PACKED = ["core", "gpu-core", "ssim"];

/** A strict Node ESM consumer: WebGPU's types come with @vq/gpu-core's declarations, no `types` setting. */
const CONSUMER_TSCONFIG = { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2022", "DOM"], strict: true, skipLibCheck: false, noEmit: true };
/** Dawn for Node and Bun, as @vq/gpu-core's optional peer names it. */
const WEBGPU = `webgpu@${JSON.parse(readFileSync(join(packagesDir, "gpu-core/package.json"), "utf8")).peerDependencies.webgpu}`;

const work = mkdtempSync(join(tmpdir(), "vq-pack-install-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(command: string, args: string[], cwd: string): string {
  const r = spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false" } });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} (in ${cwd}) failed with ${r.error?.message ?? `exit code ${r.status}`}:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

function pack(dir: string): string {
  const out = run("npm", ["pack", "--json", "--pack-destination", work], join(packagesDir, dir));
  // The prepack build prints to stdout too; npm's JSON report comes last.
  const [info] = JSON.parse(out.slice(out.search(/^\[/m))) as { filename: string; files: { path: string }[] }[];
  const files = info!.files.map((f) => f.path);
  // What a consumer gets: built JavaScript and types, never the TypeScript sources.
  expect(files).toContain("dist/index.js");
  expect(files).toContain("dist/index.d.ts");
  expect(files).toContain("CHANGELOG.md");
  expect(files.filter((f) => f.startsWith("src/"))).toEqual([]);
  return join(work, info!.filename);
}

test(
  "@vq/ssim packed with npm pack and installed alone computes float_ssim on Node and on Bun",
  async () => {
    const tarballs = PACKED.map(pack);
    const app = join(work, "app");
    mkdirSync(app);
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "vq-pack-install-probe", private: true, type: "module" }));
    run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--no-package-lock", ...tarballs, WEBGPU], app);
    expect(existsSync(join(app, "node_modules/@vq/ssim/src"))).toBe(false);

    // The same probe code as below, typechecked strictly against the installed types (the
    // declarations too: no path back into the monorepo), transpiled, fed the installed packages.
    const probeSource = readFileSync(join(import.meta.dir, "pack-install-probe.ts"), "utf8");
    writeFileSync(join(app, "probe.ts"), probeSource);
    writeFileSync(join(app, "tsconfig.json"), JSON.stringify({ compilerOptions: CONSUMER_TSCONFIG, files: ["probe.ts"] }));
    run("node", [Bun.resolveSync("typescript/bin/tsc", import.meta.dir), "-p", "."], app);
    writeFileSync(join(app, "probe.mjs"), new Bun.Transpiler({ loader: "ts" }).transformSync(probeSource));
    writeFileSync(
      join(app, "main.mjs"),
      [
        `import * as core from "@vq/core";`,
        `import * as gpuCore from "@vq/gpu-core";`,
        `import * as ssim from "@vq/ssim";`,
        `import { probeSsim } from "./probe.mjs";`,
        `console.log(JSON.stringify(await probeSsim({ core, gpuCore, ssim }, process.argv[2] === "gpu")));`,
        // Dawn keeps the event loop alive.
        `process.exit(0);`,
      ].join("\n"),
    );

    const gpu = await gpuForTests();
    const expected = await probeSsim({ core, gpuCore, ssim }, gpu !== null);
    expect(expected.cpu.every((s) => s > 0.5 && s < 1)).toBe(true);
    // the packed WebAssembly kernels run on both runtimes, with the TypeScript code's doubles
    expect(expected.selected).toEqual({ extractor: core.cpuKernels() === "ts" ? "FloatSsimCpu" : "FloatSsimWasm", scores: expected.cpu });
    const mode = gpu ? "gpu" : "cpu";
    for (const runtime of ["node", process.execPath]) {
      const printed = JSON.parse(run(runtime, ["main.mjs", mode], app).trim().split("\n").at(-1)!) as ProbeScores;
      expect({ runtime: runtime === "node" ? "node" : "bun", ...printed }).toEqual({ runtime: runtime === "node" ? "node" : "bun", ...expected });
    }
  },
  180_000,
);
