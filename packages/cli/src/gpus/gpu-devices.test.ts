import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gpuEnvironment, listGpus, parseGpus } from "./gpu-devices.ts";

const sysfs = mkdtempSync(join(tmpdir(), "vq-sysfs-"));
afterAll(() => rmSync(sysfs, { recursive: true, force: true }));

function device(busId: string, cls: string, vendor = "0x10de"): void {
  mkdirSync(join(sysfs, busId));
  writeFileSync(join(sysfs, busId, "class"), `${cls}\n`);
  writeFileSync(join(sysfs, busId, "vendor"), `${vendor}\n`);
}

describe("GPUs of a host", () => {
  device("0000:00:08.0", "0x030200"); // a datacenter GPU: 3D controller
  device("0000:00:07.0", "0x030200");
  device("0000:00:02.0", "0x030000", "0x8086"); // VGA
  device("0000:00:03.0", "0x020000", "0x1af4"); // a network card
  const gpus = listGpus(sysfs);

  test("display controllers on the PCI bus, in bus order", () => {
    expect(gpus).toEqual([
      { busId: "0000:00:02.0", vendor: "0x8086" },
      { busId: "0000:00:07.0", vendor: "0x10de" },
      { busId: "0000:00:08.0", vendor: "0x10de" },
    ]);
    expect(listGpus(join(sysfs, "absent"))).toEqual([]);
  });

  test("--gpus all, a count, indexes or bus ids; anything else one line naming the host's GPUs", () => {
    expect(parseGpus("all", gpus)).toEqual(gpus);
    expect(parseGpus("2", gpus)).toEqual(gpus.slice(0, 2));
    expect(parseGpus("2,0000:00:07.0", gpus)).toEqual([gpus[2]!, gpus[1]!]);
    expect(parseGpus("00:08.0", gpus)).toEqual([gpus[2]!]);
    expect(() => parseGpus("4", gpus)).toThrow(`invalid argument "4" for --gpus: this host has 3 GPUs`);
    expect(() => parseGpus("0,9", gpus)).toThrow(`invalid argument "0,9" for --gpus: no GPU "9" (this host's: 0=0000:00:02.0, 1=0000:00:07.0, 2=0000:00:08.0)`);
    expect(() => parseGpus("1,0000:00:07.0", gpus)).toThrow("a GPU is named twice");
    expect(() => parseGpus("all", [])).toThrow("--gpus all: this host lists no GPU on its PCI bus (use one process, without --gpus)");
  });

  test("a process is pinned to its GPU through Mesa's device-select layer", () => {
    expect(gpuEnvironment(gpus[1]!)).toEqual({ DRI_PRIME: "pci-0000_00_07_0", MESA_VK_DEVICE_SELECT_FORCE_DEFAULT_DEVICE: "1" });
  });
});
