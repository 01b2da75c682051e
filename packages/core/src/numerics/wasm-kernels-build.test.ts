import { expect, test } from "bun:test";
import { readFile } from "node:fs/promises";
import { buildKernels, KERNELS } from "../../../../tools/build-wasm.ts";

/**
 * The committed kernel modules (ADR 0040) are the build of their AssemblyScript sources:
 * an edited source without `bun tools/build-wasm.ts` fails here.
 */
for (const kernels of KERNELS) {
  test(`${kernels.module} is the build of ${kernels.source}`, async () => {
    const committed = await readFile(new URL(`../../../../${kernels.module}`, import.meta.url), "utf8");
    expect(committed).toBe(await buildKernels(kernels));
  }, 60_000);
}
