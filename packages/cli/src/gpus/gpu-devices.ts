import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { VqError } from "@vq/core";

/** A GPU of this host as the PCI bus lists it. */
export interface PciGpu {
  /** `0000:00:07.0` */
  busId: string;
  /** `0x10de` (NVIDIA), `0x1002` (AMD), `0x8086` (Intel) */
  vendor: string;
}

/** PCI display controllers (VGA 0x0300, 3D 0x0302, display 0x0380): a host's GPUs, by bus id. */
export function listGpus(sysfs = "/sys/bus/pci/devices"): PciGpu[] {
  let entries: string[];
  try {
    entries = readdirSync(sysfs);
  } catch {
    return []; // not Linux, or no sysfs: no GPU to list
  }
  const read = (d: string, f: string) => {
    try {
      return readFileSync(join(sysfs, d, f), "utf8").trim();
    } catch {
      return "";
    }
  };
  return entries
    .filter((d) => /^0x03(00|02|80)/.test(read(d, "class")))
    .sort()
    .map((busId) => ({ busId, vendor: read(busId, "vendor") }));
}

/**
 * `--gpus all|N|LIST`: every GPU, the first N, or a comma list of indexes (0, 1, ...) or
 * bus ids (`0000:00:07.0`), checked against the host's GPUs.
 */
export function parseGpus(value: string, gpus: readonly PciGpu[]): PciGpu[] {
  if (!gpus.length) throw new VqError(`--gpus ${value}: this host lists no GPU on its PCI bus (use one process, without --gpus)`);
  if (value === "all") return [...gpus];
  if (/^\d+$/.test(value)) {
    const n = Number(value);
    if (n < 1 || n > gpus.length) throw new VqError(`invalid argument "${value}" for --gpus: this host has ${gpus.length} GPU${gpus.length === 1 ? "" : "s"}`);
    return gpus.slice(0, n);
  }
  const chosen = value.split(",").map((item) => {
    const byIndex = /^\d+$/.test(item) ? gpus[Number(item)] : undefined;
    const gpu = byIndex ?? gpus.find((g) => g.busId === item || g.busId === `0000:${item}`);
    if (!gpu) throw new VqError(`invalid argument "${value}" for --gpus: no GPU "${item}" (this host's: ${gpus.map((g, i) => `${i}=${g.busId}`).join(", ")})`);
    return gpu;
  });
  if (new Set(chosen).size !== chosen.length) throw new VqError(`invalid argument "${value}" for --gpus: a GPU is named twice`);
  return chosen;
}

/**
 * The environment that makes a process's WebGPU (Dawn on Vulkan) see only this GPU: Mesa's
 * device-select layer (shipped with Mesa's Vulkan drivers) puts the DRI_PRIME device first
 * and, forced, alone. Dawn lists identical GPUs under one name, so this is how one is picked
 * (ADR 0037).
 */
export function gpuEnvironment(gpu: PciGpu): Record<string, string> {
  const [domain, bus, rest] = gpu.busId.split(":");
  const [device, fn] = rest!.split(".");
  return { DRI_PRIME: `pci-${domain}_${bus}_${device}_${fn}`, MESA_VK_DEVICE_SELECT_FORCE_DEFAULT_DEVICE: "1" };
}
