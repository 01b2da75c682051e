import { expect, test } from "bun:test";
import { isVqError } from "@vq/core";
import { DAWN_PACKAGE, isNoAdapterError, loadDawn } from "./device.ts";

// An install without the optional `webgpu` peer: the GPU's absence is one line that names
// the package to install, and counts as "no WebGPU" (so `--backend auto` computes on the CPU).
test("a missing Dawn package is a one-line error naming the package to install", async () => {
  const error = await loadDawn("vq-not-installed-dawn").then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isVqError(error)).toBe(true);
  expect((error as Error).message).toBe('no WebGPU: the GPU needs the "vq-not-installed-dawn" package (Dawn), which is not installed: npm install vq-not-installed-dawn');
  expect(isNoAdapterError(error)).toBe(true);
});

test("the Dawn package is webgpu, and loads where it is installed", async () => {
  expect(DAWN_PACKAGE).toBe("webgpu");
  const dawn = await loadDawn();
  expect(typeof dawn.create).toBe("function");
});
