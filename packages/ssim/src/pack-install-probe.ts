// float_ssim on two small in-memory pictures, written against the modules it is handed
// rather than imports: pack-install.test.ts runs this very code on the monorepo's
// sources and, transpiled, on the packed packages installed alone (Node and Bun).
import type * as Core from "@vq/core";
import type * as GpuCore from "@vq/gpu-core";
import type * as Ssim from "@vq/ssim";

export interface ProbeModules {
  core: typeof Core;
  gpuCore: typeof GpuCore;
  ssim: typeof Ssim;
}

export interface ProbeScores {
  cpu: number[];
  /** What a CPU run selects (ssimFeature.cpu: the WebAssembly SIMD kernels where they run), and its scores. */
  selected: { extractor: string; scores: number[] };
  /** null: no WebGPU adapter here. */
  gpu: number[] | null;
  adapter: string | null;
}

/** Scores a 2-frame 64x48 4:2:0 8-bit pair on the CPU and, where an adapter exists, on the GPU. */
export async function probeSsim({ core, gpuCore, ssim }: ProbeModules, useGpu: boolean): Promise<ProbeScores> {
  const format = { width: 64, height: 48, bitDepth: 8, pixelFormat: "420" } as const;
  const frameBytes = (format.width * format.height * 3) / 2;
  // Reference: a diagonal ramp; distorted: the ramp plus a fixed pseudo-random wobble.
  const frames = (distorted: boolean) =>
    [0, 1].map((f) => {
      const bytes = new Uint8Array(frameBytes);
      let seed = 12345 + f;
      for (let i = 0; i < bytes.length; i++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        const ramp = (i % format.width) * 3 + Math.floor(i / format.width) + f * 7;
        bytes[i] = Math.max(0, Math.min(255, (ramp & 255) + (distorted ? (seed >>> 28) - 8 : 0)));
      }
      return bytes;
    });
  const options = ssim.floatSsimOptions.resolve({});
  const run = async (backend: Core.ExtractionBackend) => {
    const result = await core.scoreVideos(core.memoryReader("ref", format, frames(false)), core.memoryReader("dist", format, frames(true)), backend);
    return [0, 1].map((i) => result.collector.get("float_ssim", i)!);
  };
  const cpu = await run(new core.CpuBackend([new ssim.FloatSsimCpu(options)]));
  const extractor = ssim.ssimFeature.cpu(options);
  const selected = { extractor: extractor.constructor.name, scores: await run(new core.CpuBackend([extractor])) };
  if (!useGpu) return { cpu, selected, gpu: null, adapter: null };
  let gpu: GpuCore.GpuContext;
  try {
    gpu = await gpuCore.sharedGpu();
  } catch (e) {
    if (gpuCore.isNoAdapterError(e)) return { cpu, selected, gpu: null, adapter: null };
    throw e;
  }
  return { cpu, selected, gpu: await run(new gpuCore.GpuBackend(gpu, [new ssim.FloatSsimGpu(options)])), adapter: gpu.description };
}
