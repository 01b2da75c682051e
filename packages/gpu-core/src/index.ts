export { acquireGpu, sharedGpu, isNoAdapterError, retainedInstanceCount, NO_ADAPTER_HELP, WANTED_FEATURES } from "./device.ts";
export type { GpuContext, AcquireOptions } from "./device.ts";
export { computePipeline, pipelineCacheSize } from "./pipeline-cache.ts";
export type { KernelSpec } from "./pipeline-cache.ts";
export { BufferPool } from "./buffer-pool.ts";
export { GpuFrameRunner } from "./frame-runner.ts";
export type { GpuFeatureEntry, GpuFrame, GpuStage, PassRecorder, FrameRunnerOptions } from "./frame-runner.ts";
export { planeUniforms } from "./plane-uniforms.ts";
export { GpuBackend } from "./gpu-backend.ts";
