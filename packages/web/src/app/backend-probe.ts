/** Adapters that run WebGPU on the CPU, as `vq --backend auto` tells them (gpu-core's isSoftware). */
const SOFTWARE = /llvmpipe|lavapipe|swiftshader|software/i;

export interface BackendProbe {
  /** What "best available" picks: the GPU when the browser gives a hardware WebGPU adapter, else the CPU. */
  backend: "gpu" | "cpu";
  /** The adapter's description, when there is one. */
  adapter?: string;
  /** The adapter renders in software (slower than vq's CPU path, so not picked unless asked for). */
  software: boolean;
}

export async function probeBackend(): Promise<BackendProbe> {
  const gpu = (navigator as Navigator & { gpu?: GPU }).gpu;
  if (!gpu) return { backend: "cpu", software: false };
  try {
    const adapter = await gpu.requestAdapter({ powerPreference: "high-performance" });
    if (!adapter) return { backend: "cpu", software: false };
    const i = adapter.info;
    const description = [i.vendor, i.architecture, i.description].filter(Boolean).join(" ") || "unknown adapter";
    const software = Boolean((i as GPUAdapterInfo & { isFallbackAdapter?: boolean }).isFallbackAdapter) || SOFTWARE.test(description);
    return { backend: software ? "cpu" : "gpu", adapter: description, software };
  } catch {
    return { backend: "cpu", software: false };
  }
}
