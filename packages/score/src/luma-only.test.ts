import { describe, expect, test } from "bun:test";
import { lumaView, Y4mReader, type VideoReader } from "@vq/core";
import { goldenPath } from "@vq/core/golden";
import { EXTRACTORS } from "./catalogue.ts";
import { planRun, readsLumaOnly, score, scoreRequestSchema, type FrameScores } from "./score.ts";

// The catalogue's lumaOnly facts (adr/0043-luma-only-decoding.md) decide when ffmpeg is asked
// for the luma plane alone; a wrong one would score without chroma an extractor that reads it.
// Each extractor that says it reads luma only must score its luma planes alone exactly as the
// whole pictures.

const REF = goldenPath("vectors/odd_321x241_444.ref.y4m");
const DIST = goldenPath("vectors/odd_321x241_444.x264crf32.y4m");

async function frames(feature: string, open: (path: string) => Promise<VideoReader>): Promise<FrameScores[]> {
  const run = score({ reference: await open(REF), distorted: await open(DIST), features: [feature], noPrediction: true, backend: "cpu", frameCount: 4 });
  const out: FrameScores[] = [];
  for await (const frame of run) out.push(frame);
  await run.result;
  return out;
}

const lumaOnlyFeatures = [...EXTRACTORS.filter((e) => e.lumaOnly?.(e.options.defaults)).map((e) => e.name), "psnr=enable_chroma=false"];

describe("extractors that read luma only", () => {
  test("they include every extractor of the VMAF models, so a VMAF run decodes luma alone", async () => {
    expect(lumaOnlyFeatures).toEqual(expect.arrayContaining(["vif", "adm", "motion", "float_vif", "float_adm", "float_motion"]));
    const plan = await planRun(scoreRequestSchema.parse({ reference: "r.mp4", distorted: "d.mkv" }));
    expect(readsLumaOnly({ conform: false }, plan, ["r.mp4", "d.mkv"])).toBe(true);
    // a Y4M input is read as it is; conform converts whole pictures
    expect(readsLumaOnly({ conform: false }, plan, ["r.y4m", "d.mkv"])).toBe(false);
    expect(readsLumaOnly({ conform: true }, plan, ["r.mp4", "d.mkv"])).toBe(false);
    // an extractor that reads chroma, beside the model
    const withPsnr = await planRun(scoreRequestSchema.parse({ reference: "r.mp4", distorted: "d.mkv", features: ["psnr"] }));
    expect(readsLumaOnly({ conform: false }, withPsnr, ["r.mp4", "d.mkv"])).toBe(false);
    const withChromaMotion = await planRun(scoreRequestSchema.parse({ reference: "r.mp4", distorted: "d.mkv", features: ["float_motion=motion_add_uv=true"] }));
    expect(readsLumaOnly({ conform: false }, withChromaMotion, ["r.mp4", "d.mkv"])).toBe(false);
  });

  test.each(lumaOnlyFeatures)("%s scores the luma planes alone as the whole 4:4:4 pictures", async (feature) => {
    const whole = await frames(feature, (p) => Y4mReader.open(p));
    const luma = await frames(feature, async (p) => lumaView(await Y4mReader.open(p)));
    expect(whole).toHaveLength(4);
    expect(Object.keys(whole[0]!.metrics).length).toBeGreaterThan(0);
    expect(luma).toEqual(whole);
  });
});
