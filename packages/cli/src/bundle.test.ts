import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { goldenPath } from "@vq/core/golden";
import { gpuForTests } from "@vq/gpu-core/testing";
import { buildCliBundle } from "../../../tools/build-cli-bundle.ts";
import { main } from "./main.ts";
import { VERSION } from "./version.ts";

// The published `vq` is the bundle (adr/0021-cli-bundle.md): it must write what the sources
// write. Built inside the package, so that it finds Dawn's `webgpu` in node_modules as the
// installed package does.
mkdirSync(join(import.meta.dir, "../test-output"), { recursive: true });
const dir = mkdtempSync(join(import.meta.dir, "../test-output/bundle-"));
const bundle = join(dir, "vq");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await buildCliBundle(bundle);
}, 120_000);

const gpu = await gpuForTests();
const quiet = { stdout: () => {}, stderr: () => {}, stderrIsTty: false };
const withoutFps = (path: string) => readFileSync(path, "utf8").replace(/^ {2}"fps": .*\n/m, "");
const runBundle = (args: string[]) => spawnSync(process.execPath, [join(bundle, "cli.js"), ...args], { encoding: "utf8" });
const pair = ["-r", goldenPath("vectors/odd_321x241_444.ref.y4m"), "-d", goldenPath("vectors/odd_321x241_444.x264crf32.y4m")];

test("the bundle prints the version", () => {
  const r = runBundle(["--version"]);
  expect(r.status).toBe(0);
  expect(r.stdout).toBe(`vq ${VERSION}\n`);
});

for (const [name, backend, extra] of [
  // the extraction workers start from the bundle's own worker entry
  ["VMAF v0.6.1 and psnr on the CPU, two worker threads", "cpu", ["--feature", "psnr", "--threads", "2"]],
  ["VMAF v0.6.1, float_ssim and ciede2000 on the GPU", "gpu", ["--feature", "float_ssim", "--feature", "ciede"]],
] as const) {
  test.skipIf(backend === "gpu" && !gpu)(`the bundle writes what the sources write: ${name}`, async () => {
    const args = [...pair, "--json", "--precision", "max", "--backend", backend, ...extra];
    const fromSources = join(dir, `${backend}-sources.json`);
    const fromBundle = join(dir, `${backend}-bundle.json`);
    expect(await main([...args, "-o", fromSources], quiet)).toBe(0);
    const r = runBundle([...args, "-o", fromBundle]);
    expect(r.stderr).not.toContain("internal error");
    expect(r.status).toBe(0);
    const written = withoutFps(fromBundle);
    expect(written).toContain('"vmaf"');
    expect(written).toBe(withoutFps(fromSources));
  }, 120_000);
}

test("the bundle reports a bad input as the sources do: one line, exit code 1", () => {
  const r = runBundle(["-r", join(dir, "missing.y4m"), "-d", join(dir, "missing.y4m"), "--backend", "cpu"]);
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(/^vq: .*missing\.y4m/);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
});
