import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { goldenPath } from "@vq/core/golden";
import { gpuForTests } from "@vq/gpu-core/testing";
import { buildCliBundle } from "../../../tools/build-cli-bundle.ts";
import { buildWeb } from "../../web/src/build.ts";
import { main } from "./main.ts";
import { VERSION } from "./version.ts";

// The published `vq` is bin/vq.js over the bundle (adr/0021-cli-bundle.md), run by whichever
// runtime starts it: it must write what the sources write, under Bun and under Node. Laid
// out as the package is (bin/, dist/vq/, no src/) inside this package, so that it finds
// Dawn's `webgpu` in node_modules as the installed package does.
mkdirSync(join(import.meta.dir, "../test-output"), { recursive: true });
const dir = mkdtempSync(join(import.meta.dir, "../test-output/bundle-"));
const bin = join(dir, "bin/vq.js");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await buildCliBundle(join(dir, "dist/vq"));
  await buildWeb(join(dir, "dist/web")); // the page as the package's build publishes it, for vq web
  cpSync(join(import.meta.dir, "../bin"), join(dir, "bin"), { recursive: true }); // bin/ as published: vq.js and its modules
}, 120_000);

const gpu = await gpuForTests();
const quiet = { stdout: () => {}, stderr: () => {}, stderrIsTty: false };
const withoutFps = (path: string) => readFileSync(path, "utf8").replace(/^ {2}"fps": .*\n/m, "");
const runtimes = { bun: process.execPath, node: "node" } as const;
const runBundle = (runtime: string, args: string[]) => spawnSync(runtime, [bin, ...args], { encoding: "utf8" });
const pair = ["-r", goldenPath("vectors/odd_321x241_444.ref.y4m"), "-d", goldenPath("vectors/odd_321x241_444.x264crf32.y4m")];

for (const [name, runtime] of Object.entries(runtimes)) {
  test(`${name}: the bundle prints the version`, () => {
    const r = runBundle(runtime, ["--version"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`vq ${VERSION}\n`);
  });

  for (const [what, backend, extra] of [
    // the extraction workers start from the bundle's own worker entry
    ["VMAF v0.6.1 and psnr on the CPU, two worker threads", "cpu", ["--feature", "psnr", "--threads", "2"]],
    ["VMAF v0.6.1, float_ssim and ciede2000 on the GPU", "gpu", ["--feature", "float_ssim", "--feature", "ciede"]],
  ] as const) {
    test.skipIf(backend === "gpu" && !gpu)(`${name}: the bundle writes what the sources write: ${what}`, async () => {
      const args = [...pair, "--json", "--precision", "max", "--backend", backend, ...extra];
      const fromSources = join(dir, `${name}-${backend}-sources.json`);
      const fromBundle = join(dir, `${name}-${backend}-bundle.json`);
      expect(await main([...args, "-o", fromSources], quiet)).toBe(0);
      const r = runBundle(runtime, [...args, "-o", fromBundle]);
      expect(r.stderr).not.toContain("internal error");
      expect(r.status).toBe(0);
      const written = withoutFps(fromBundle);
      expect(written).toContain('"vmaf"');
      expect(written).toBe(withoutFps(fromSources));
    }, 120_000);
  }

  test(`${name}: vq web serves the page the package was published with`, async () => {
    const vq = spawn(runtime, [bin, "web", "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = "";
        vq.stdout!.on("data", (d: Buffer) => (out += d) && out.includes("\n") && resolve(out));
        vq.once("exit", (code) => reject(new Error(`vq web exited with ${code}`)));
      });
      const url = /^vq web: (http:\/\/127\.0\.0\.1:\d+\/) /.exec(line)?.[1];
      expect(url, line).toBeDefined();
      const page = await fetch(url!);
      expect(page.status).toBe(200);
      expect(await page.text()).toBe(readFileSync(join(dir, "dist/web/index.html"), "utf8"));
      const worker = await fetch(new URL("score-worker.js", url));
      expect((await worker.arrayBuffer()).byteLength).toBe(readFileSync(join(dir, "dist/web/score-worker.js")).byteLength);
      expect((await fetch(new URL("bin/vq.js", url))).status).toBe(404);
      const exited = new Promise((resolve) => vq.once("exit", resolve));
      vq.kill("SIGINT");
      expect(await exited).toBe(130);
    } finally {
      vq.kill("SIGKILL");
    }
  }, 60_000);

  test(`${name}: the bundle reports a bad input as the sources do: one line, exit code 1`, () => {
    const r = runBundle(runtime, ["-r", join(dir, "missing.y4m"), "-d", join(dir, "missing.y4m"), "--backend", "cpu"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^vq: .*missing\.y4m/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  test(`${name}: the bundle with -q prints nothing on stderr, Dawn's notices included`, () => {
    const r = runBundle(runtime, [...pair, "--frame_cnt", "2", "--backend", "auto", "-q", "-o", join(dir, `${name}-quiet.xml`)]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
  }, 120_000);
}
