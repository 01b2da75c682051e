import { afterAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { EXTRACTORS } from "@vq/score";
import { DOCTOR_USAGE } from "./args.ts";
import { ffmpegInstalled } from "./testing/cli-run.ts";

const cli = join(import.meta.dir, "cli.ts");
const work = mkdtempSync(join(tmpdir(), "vq-doctor-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Environment without the GPU: Vulkan's loader given no driver, so Dawn finds no adapter (a machine without a GPU). */
const NO_GPU = { VK_ICD_FILENAMES: join(work, "no-driver.json") };

function doctor(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [cli, "doctor", ...args], { encoding: "utf8", timeout: 120_000, env: { ...process.env, VQ_CACHE_DIR: join(work, "cache"), ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.split("\n").filter((l) => l.startsWith("vq:")) };
}

describe("vq doctor", () => {
  test.skipIf(!ffmpegInstalled)("on this machine (lavapipe, Debian's ffmpeg): runtime, threads, cache, ffmpeg, the adapter and a passing self-test of every GPU kernel set; exit 0", () => {
    const r = doctor([]);
    expect(r.stderr).toEqual([]);
    expect(r.code).toBe(0);
    const ffmpegVersion = spawnSync("ffmpeg", ["-version"], { encoding: "utf8" }).stdout.split("\n")[0]!.split(" ")[2]!;
    expect(r.stdout).toContain(`runtime: Bun ${Bun.version}`);
    expect(r.stdout).toContain(`threads: ${availableParallelism()} CPUs; vq uses 1 worker unless --threads N (at most 256`);
    expect(r.stdout).toContain(`cache: ${join(work, "cache")} (GPU self-test verdicts in gpu-self-test.json)`);
    expect(r.stdout).toMatch(new RegExp(`ffmpeg: /\\S+/ffmpeg, version ${ffmpegVersion.replace(/[.+]/g, "\\$&")}\n  hwaccels: .+\n  ffprobe: /\\S+/ffprobe\n`));
    expect(r.stdout).toMatch(/\nGPU: .*llvmpipe.* \(a software renderer: --backend auto computes on the CPU, --backend gpu uses it\)\n  adapter: .+; driver: .+\n  features vq uses: .+\n  limits: storage binding \d+ [MG]iB/);
    const gpuSets = EXTRACTORS.filter((e) => e.load.gpu).map((e) => e.name);
    for (const name of gpuSets) expect(r.stdout).toMatch(new RegExp(`\n  self-test ${name}: pass \\(\\d+ ms\\)\n`));
    expect(r.stdout.endsWith("all well\n")).toBe(true);
    // the verdicts it reached are the cache's: a GPU run after it pays nothing
    const cached = JSON.parse(readFileSync(join(work, "cache", "gpu-self-test.json"), "utf8")).verdicts as { kernelSet: string; verdict: string }[];
    expect(cached.map((v) => v.kernelSet.split(":")[0]).sort()).toEqual([...gpuSets].sort());
    expect(cached.every((v) => v.verdict === "pass")).toBe(true);
  }, 120_000);

  test("no GPU and no ffmpeg are well: they are optional (the CPU computes; Y4M and raw YUV only); the cache is under XDG_CACHE_HOME", () => {
    const xdg = join(work, "xdg");
    const r = doctor(["--ffmpeg", join(work, "no-ffmpeg")], { ...NO_GPU, VQ_CACHE_DIR: "", XDG_CACHE_HOME: xdg });
    expect(r.stderr).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`cache: ${join(xdg, "vq")} (`);
    expect(r.stdout).toContain(`ffmpeg: ${join(work, "no-ffmpeg")} not found (optional: without it vq reads Y4M and raw YUV only; --ffmpeg PATH names one)\n`);
    expect(r.stdout).toContain("GPU: none (no WebGPU adapter found); vq computes on the CPU\n");
    expect(r.stdout.endsWith("all well\n")).toBe(true);
  });

  test("an ffmpeg that does not run is broken: exit 1, the problem named on stderr in one line", () => {
    const broken = join(work, "ffmpeg");
    writeFileSync(broken, "#!/bin/sh\necho 'error while loading shared libraries: libavdevice.so.59' >&2\nexit 127\n");
    chmodSync(broken, 0o755);
    const r = doctor(["--ffmpeg", broken], NO_GPU);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([`vq: doctor: ffmpeg ${broken} does not run: error while loading shared libraries: libavdevice.so.59`]);
    expect(r.stdout.endsWith("not well: 1 problem (on stderr)\n")).toBe(true);
  });

  test("--help prints its usage; an unknown argument is an error", () => {
    expect(doctor(["--help"])).toEqual({ code: 0, stdout: DOCTOR_USAGE, stderr: [] });
    expect(doctor(["--json"])).toEqual({ code: 1, stdout: "", stderr: ["vq: unknown argument --json for vq doctor (see vq doctor --help)"] });
  });
});
