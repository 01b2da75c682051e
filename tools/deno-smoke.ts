// Smoke test on Deno's built-in WebGPU (navigator.gpu, wgpu underneath): gpu-core finds
// the adapter, and PSNR on the GPU matches libvmaf's full-precision output on a golden
// pair. It imports the packages' built dist/ (kernels inlined), as a Deno user of the
// published packages would. Run: npm run build && deno run -A --unstable-webgpu tools/deno-smoke.ts
import { scoreVideos, Y4mReader } from "@vq/core";
import { compareWithGolden, goldenOutput, goldenPairs, goldenPath, goldenRun } from "@vq/core/golden";
import { GpuBackend, sharedGpu } from "@vq/gpu-core";
import { PsnrGpu, psnrOptions } from "@vq/psnr";

const gpu = await sharedGpu();
console.log(`deno ${Deno.version.deno}: WebGPU adapter ${gpu.description}`);
let failures = 0;
for (const name of ["nat_576x324.x264crf30", "grad_960x540_10b.q8bit"]) {
  const pair = goldenPairs().find((p) => p.pair === name)!;
  const ref = await Y4mReader.open(goldenPath(pair.reference));
  const dist = await Y4mReader.open(goldenPath(pair.distorted));
  const result = await scoreVideos(ref, dist, new GpuBackend(gpu, [new PsnrGpu(psnrOptions.parseStrings({ enable_mse: "true" }))]));
  await ref.close();
  await dist.close();
  const report = compareWithGolden(result.collector, goldenOutput(goldenRun(pair, "debug"), true), (k) => /^(psnr|mse)_/.test(k), result.frames);
  const bad = report.missing.length + report.keys.filter((k) => k.maxRel > 1e-12).length;
  const differing = report.keys.reduce((n, k) => n + k.differing, 0);
  console.log(`${name}: ${result.frames} frames, ${report.keys.length} keys, ${differing} values not identical, ${bad} problems`);
  failures += bad + (report.keys.length === 0 ? 1 : 0);
}
if (failures) {
  console.error("deno smoke test FAILED");
  Deno.exit(1);
}
console.log("deno smoke test passed");
Deno.exit(0);
