import { afterAll, describe, expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lumaView, Y4mReader, type VideoReader } from "@vq/core";
import { goldenPath } from "@vq/core/golden";
import { loggingFfmpeg } from "@vq/core/testing";
import { EXTRACTORS } from "./catalogue.ts";
import { mergeChunks, planChunks, scoreChunk } from "./chunks.ts";
import { scoreLadder } from "./ladder.ts";
import { planRun, readsLumaOnly, score, scoreRequestSchema, type FrameScores, type ScoreRequest, type ScoreSummary } from "./score.ts";

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

const ffmpegInstalled = spawnSync("ffmpeg", ["-version"]).status === 0;

describe.skipIf(!ffmpegInstalled)("runs that decode luma alone", () => {
  const dir = mkdtempSync(join(tmpdir(), "vq-luma-runs-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const f = (name: string) => join(dir, name);
  const ffmpeg = (...args: string[]) => execFileSync("ffmpeg", ["-v", "error", "-nostdin", "-y", ...args]);
  const everything = (s: ScoreSummary) => ({ names: s.collector.names(), frames: Array.from({ length: s.frames }, (_, i) => s.collector.frame(i)), pooled: s.pooled, frameCount: s.frames });

  test("a ladder (one rendition in a layout ffmpeg converts, read whole) and a run in chunks score as the same frames in Y4M", async () => {
    ffmpeg("-i", goldenPath("vectors/nat_576x324.ref.y4m"), "-frames:v", "9", "-c:v", "libx264", "-crf", "16", "-pix_fmt", "yuv420p", f("ref.mp4"));
    ffmpeg("-i", goldenPath("vectors/nat_576x324.x264crf45.y4m"), "-frames:v", "9", "-c:v", "libx264", "-crf", "30", "-pix_fmt", "yuv420p", f("a.mp4"));
    ffmpeg("-i", goldenPath("vectors/nat_576x324.x264crf30.y4m"), "-frames:v", "9", "-c:v", "mjpeg", "-pix_fmt", "yuvj420p", f("b.mkv"));
    // the same frames, decoded whole by the same ffmpeg
    for (const name of ["ref.mp4", "a.mp4", "b.mkv"]) ffmpeg("-i", f(name), "-f", "yuv4mpegpipe", "-strict", "-1", f(`${name}.y4m`));
    // an ffmpeg that notes its arguments, its ffprobe beside it
    const logging = await loggingFfmpeg(dir);
    const decodes = logging.decodes;
    const request = (distorted: string): ScoreRequest => ({ reference: f("ref.mp4"), distorted, backend: "cpu", ffmpeg: logging.path });
    const fromY4m = async (distorted: string) => everything(await score({ reference: f("ref.mp4.y4m"), distorted: f(`${distorted}.y4m`), backend: "cpu" }).result);

    const ladder = await scoreLadder({ reference: f("ref.mp4"), distorted: [f("a.mp4"), f("b.mkv")], backend: "cpu", ffmpeg: logging.path }).result;
    // luma alone for each input; b.mkv's yuvj420p, which ffmpeg converts, then decoded whole
    expect(decodes().map((l) => `${/-i (\S+)/.exec(l)![1]!.replace(/^.*\//, "")}${l.includes("extractplanes=y") ? " luma" : " whole"}`).sort()).toEqual(["a.mp4 luma", "b.mkv luma", "b.mkv whole", "ref.mp4 luma"]);
    expect(ladder.map((o) => o.error)).toEqual([undefined, undefined]);
    expect(everything(ladder[0]!.summary!)).toEqual(await fromY4m("a.mp4"));
    expect(everything(ladder[1]!.summary!)).toEqual(await fromY4m("b.mkv"));
    expect(everything(ladder[0]!.summary!).frameCount).toBe(9);

    logging.clear();
    const chunks = await Promise.all(planChunks(9, 4).map((range) => scoreChunk(request(f("a.mp4")), range)));
    expect(everything(await mergeChunks(request(f("a.mp4")), chunks))).toEqual(await fromY4m("a.mp4"));
    expect(decodes().length).toBeGreaterThanOrEqual(6);
    expect(decodes().every((l) => l.includes("extractplanes=y"))).toBe(true);
  }, 120_000);
});
