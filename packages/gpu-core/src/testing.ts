import { acquireGpu, isNoAdapterError, sharedGpu, type GpuContext } from "./device.ts";

/**
 * The GPU for a test file, or null to skip its GPU tests. With VQ_REQUIRE_GPU=1 (as CI
 * sets it) a missing adapter fails the run instead of skipping.
 */
export async function gpuForTests(options: { fresh?: boolean } = {}): Promise<GpuContext | null> {
  try {
    return options.fresh ? await acquireGpu() : await sharedGpu();
  } catch (e) {
    if (process.env.VQ_REQUIRE_GPU === "1" || !isNoAdapterError(e)) throw e;
    console.warn(`skipping GPU tests: ${(e as Error).message}`);
    return null;
  }
}
