/** What the page can score on here: "gpu" when the browser gives a WebGPU adapter, else "cpu". */
export async function probeBackend(): Promise<{ backend: "gpu" | "cpu"; adapter?: string }> {
  const gpu = (navigator as Navigator & { gpu?: GPU }).gpu;
  if (!gpu) return { backend: "cpu" };
  try {
    const adapter = await gpu.requestAdapter({ powerPreference: "high-performance" });
    if (!adapter) return { backend: "cpu" };
    const i = adapter.info;
    return { backend: "gpu", adapter: [i.vendor, i.architecture, i.description].filter(Boolean).join(" ") || "unknown adapter" };
  } catch {
    return { backend: "cpu" };
  }
}
