import { expect, test } from "bun:test";
import { msSsimFeature, ssimFeature } from "./index.ts";

test("the feature entries build both twins from one definition", () => {
  expect(ssimFeature.definition.name).toBe("float_ssim");
  expect(msSsimFeature.definition.name).toBe("float_ms_ssim");
  const options = msSsimFeature.definition.options.parseStrings({ enable_lcs: "true" });
  expect(msSsimFeature.cpu(options).definition).toBe(msSsimFeature.definition);
  // the frame runner sizes results before init: fixed word counts (8 per SSIM scale)
  expect(msSsimFeature.gpu!(options).resultWords).toBe(40);
  expect(ssimFeature.gpu!(ssimFeature.definition.options.defaults).resultWords).toBe(8);
});
