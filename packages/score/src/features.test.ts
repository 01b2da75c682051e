import { describe, expect, test } from "bun:test";
import { LIBVMAF_EXTRACTORS } from "@vq/model";
import { allFeatures } from "./features.ts";

const FEATURES = await allFeatures();

/**
 * @vq/model reads models without depending on every metric package, so it carries
 * libvmaf's option tables for the extractors a model may name. Where vq has the
 * extractor itself, both tables must agree, or a model's feature keys would drift from
 * what the extractor writes.
 */
describe("model catalogue and extractor definitions agree", () => {
  // Only extractors a model can name are catalogued (psnr_hvs, for one, is not).
  for (const [name, entry] of FEATURES) {
    const catalogued = LIBVMAF_EXTRACTORS.find((e) => e.name === name);
    if (!catalogued) continue;
    test(name, () => {
      const strip = (defs: Record<string, object>) => Object.fromEntries(Object.entries(defs).map(([k, d]) => [k, { ...d, help: undefined }]));
      expect(strip(catalogued!.options.defs)).toEqual(strip(entry.definition.options.defs));
    });
  }
});
