import { describe, expect, test } from "bun:test";
import { aliasOf } from "@vq/core";
import { EXTRACTORS } from "./catalogue.ts";
import { allFeatures } from "./features.ts";

const FEATURES = await allFeatures();
const format = { width: 64, height: 64, bitDepth: 8, pixelFormat: "420" } as const;

/** Each entry says what its package's code does: the code takes its facts from the entry. */
describe("the catalogue and the extractors it loads agree", () => {
  for (const e of EXTRACTORS) {
    test(e.name, async () => {
      const { definition } = FEATURES.get(e.name)!;
      expect(definition.name).toBe(e.name);
      expect(definition.options).toBe(e.options);
      expect(definition.temporal).toBe(e.temporal);
      // what the code writes with default options is among the entry's provided names (as printed)
      const printed = new Set(e.provides.map((n) => aliasOf(e, n)));
      for (const key of definition.providedFeatures(e.options.defaults, format)) expect(printed.has(key), key).toBe(true);
      // a GPU twin exactly where the entry says there is one
      const gpu = await e.load.gpu?.();
      expect(Boolean(gpu?.gpu)).toBe(Boolean(e.load.gpu));
    });
  }

  test("every name once, in libvmaf's registration order for the ones models use", () => {
    const names = EXTRACTORS.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.indexOf("float_adm")).toBeLessThan(names.indexOf("adm"));
    expect(names.indexOf("float_vif")).toBeLessThan(names.indexOf("vif"));
  });
});
