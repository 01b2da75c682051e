import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VqError } from "@vq/core";
import { gpuForTests } from "@vq/gpu-core/testing";
import { chooseBackend } from "../backend.ts";
import { resolveFeatures, type ResolvedFeature } from "../features.ts";
import { refuseUntrustedGpu, selfTestGpu } from "./gpu-self-test.ts";
import { VERDICT_FILE } from "./verdict-cache.ts";

const dirs: string[] = [];
const cacheDir = () => {
  const d = mkdtempSync(join(tmpdir(), "vq-self-test-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Cheap kernel sets on lavapipe, one held to `identical` (psnr) and one to the float bound (float_ssim). */
const features = () => resolveFeatures([{ name: "psnr", options: {} }, { name: "float_ssim", options: {} }]);

/**
 * The honest wrong result: psnr's GPU stage built with min_sse far above the test's errors,
 * so the real GPU computes a clamped psnr while its CPU twin computes the true one.
 */
const clampedPsnr = (f: ResolvedFeature) => (f.entry.definition.name === "psnr" ? { ...f.options, min_sse: 1e12 } : f.options);

describe("GPU self-test", async () => {
  const gpu = await gpuForTests();

  test.skipIf(!gpu)("every kernel set agrees with its CPU twin; the second run takes the cached verdicts and runs no kernel", async () => {
    const dir = cacheDir();
    const first = await selfTestGpu(gpu!, await features(), { cacheDir: dir });
    expect(first.failure).toBeUndefined();
    expect(first.outcomes.map((o) => [o.kernelSet.split(":")[0], o.verdict.status, o.cached])).toEqual([
      ["psnr", "pass", false],
      ["float_ssim", "pass", false],
    ]);
    const second = await selfTestGpu(gpu!, await features(), { cacheDir: dir });
    expect(second.outcomes.map((o) => o.cached)).toEqual([true, true]);
    expect(second.outcomes.every((o) => o.ms === 0)).toBe(true);
  });

  test.skipIf(!gpu)("another vq version or another adapter in the cache runs the kernels again", async () => {
    const dir = cacheDir();
    const [psnr] = await resolveFeatures([{ name: "psnr", options: {} }]);
    await selfTestGpu(gpu!, [psnr!], { cacheDir: dir, version: "1.0.0" });
    expect((await selfTestGpu(gpu!, [psnr!], { cacheDir: dir, version: "1.0.0" })).outcomes[0]!.cached).toBe(true);
    expect((await selfTestGpu(gpu!, [psnr!], { cacheDir: dir, version: "1.0.1" })).outcomes[0]!.cached).toBe(false);
    // the file's verdicts said of another adapter (a new GPU in the machine)
    const path = join(dir, VERDICT_FILE);
    const file = JSON.parse(readFileSync(path, "utf8")) as { verdicts: { adapter: string }[] };
    for (const v of file.verdicts) v.adapter = "other vendor other device";
    writeFileSync(path, JSON.stringify(file));
    expect((await selfTestGpu(gpu!, [psnr!], { cacheDir: dir, version: "1.0.1" })).outcomes[0]!.cached).toBe(false);
  });

  test.skipIf(!gpu)("a corrupt cache file is ignored and rewritten; an unwritable cache directory is no error", async () => {
    const dir = cacheDir();
    const [psnr] = await resolveFeatures([{ name: "psnr", options: {} }]);
    writeFileSync(join(dir, VERDICT_FILE), '{"verdicts": [{"adapter": 1}');
    expect((await selfTestGpu(gpu!, [psnr!], { cacheDir: dir })).failure).toBeUndefined();
    expect(JSON.parse(readFileSync(join(dir, VERDICT_FILE), "utf8")).verdicts).toHaveLength(1);
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    expect((await selfTestGpu(gpu!, [psnr!], { cacheDir: join(file, "vq") })).failure).toBeUndefined();
  });

  test.skipIf(!gpu)("a GPU computing something else fails naming the kernel set and the first differing value, and the failure is cached", async () => {
    const dir = cacheDir();
    const report = await selfTestGpu(gpu!, await features(), { cacheDir: dir, gpuOptions: clampedPsnr });
    expect(report.failure).toMatch(/^GPU self-test failed on .+: psnr: psnr_y at frame 0 is -?[\d.]+ on the GPU, [\d.]+ on the CPU$/);
    expect(report.outcomes.map((o) => o.verdict.status)).toEqual(["mismatch", "pass"]);
    // without the seam, the cached mismatch still refuses: no kernel runs
    const again = await selfTestGpu(gpu!, await features(), { cacheDir: dir });
    expect(again.failure).toBe(report.failure);
    expect(again.outcomes[0]!.cached).toBe(true);
  });

  test.skipIf(!gpu)("options under which the CPU twin refuses the test's input leave the set untested (the run then checks its own input): no failure, nothing cached", async () => {
    const dir = cacheDir();
    const [cambi] = await resolveFeatures([{ name: "cambi", options: { enc_width: "180", enc_height: "150" } }]);
    const report = await selfTestGpu(gpu!, [cambi!], { cacheDir: dir });
    expect(report.failure).toBeUndefined();
    expect(report.outcomes[0]!.verdict).toEqual({ status: "untested", detail: expect.stringMatching(/^cambi cannot score the self-test's input with these options: feature cambi: .*scored at 180x150, below cambi.s minimum size/) });
    expect((await selfTestGpu(gpu!, [cambi!], { cacheDir: dir })).outcomes[0]!.cached).toBe(false);
  });

  test.skipIf(!gpu)("writes no cambi heatmaps where the run would: the self-test clears options that write files", async () => {
    const heatmaps = cacheDir();
    const [cambi] = await resolveFeatures([{ name: "cambi", options: { heatmaps_path: heatmaps } }]);
    const report = await selfTestGpu(gpu!, [cambi!], { cacheDir: cacheDir() });
    expect(report.outcomes.map((o) => [o.kernelSet, o.verdict.status])).toEqual([[expect.stringContaining("heatmaps_path=:"), "pass"]]);
    expect(readdirSync(heatmaps)).toEqual([]);
  });

  test.skipIf(!gpu)("a mismatch: --backend gpu is an error, auto computes on the CPU with a note", async () => {
    const selfTest = { cacheDir: cacheDir(), gpuOptions: clampedPsnr };
    const promise = chooseBackend("gpu", await features(), { acquire: async () => gpu!, selfTest });
    await expect(promise).rejects.toThrow(VqError);
    await expect(promise).rejects.toThrow(/^GPU self-test failed on .+: psnr: psnr_y at frame 0 .+ \(use --backend cpu; vq doctor lists every kernel set's verdict\)$/);
    // auto on a software adapter never reaches the self-test (it picks the CPU first): the step place() takes after that
    const note = await refuseUntrustedGpu("auto", gpu!, await features(), selfTest);
    expect(note).toMatch(/^GPU self-test failed on .+: psnr: psnr_y at frame 0 .+; computing on the CPU$/);
    // passing kernel sets: the GPU is used
    const ok = await chooseBackend("gpu", await features(), { acquire: async () => gpu!, selfTest: { cacheDir: cacheDir() } });
    expect(ok.gpuBackend).toBeDefined();
    await ok.backend.close();
  });
});
