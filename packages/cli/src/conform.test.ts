import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPath } from "@vq/core/golden";
import { main } from "./main.ts";
import { ffmpegInstalled, ffmpegOrThrow as ffmpeg, runVq } from "./testing/cli-run.ts";

// Encodes made by ffmpeg from one golden reference (24 frames, 576x324, 8-bit 4:2:0, 24 fps);
// without ffmpeg, one test fails naming what to install, and the others do not run.
const dir = mkdtempSync(join(tmpdir(), "vq-conform-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const f = (name: string) => join(dir, name);


async function vq(args: string[]) {
  const r = await runVq([...args, "--backend", "cpu", "-n", "--feature", "psnr", "--json", "--precision", "max"]);
  return { ...r, json: r.code === 0 ? JSON.parse(r.stdout) : undefined };
}

/** What ffmpeg makes of `input` with the filters docs/getting-started.md gives for --conform. */
function conformedByHand(input: string, filters: string, out: string): string {
  ffmpeg("-i", input, "-vf", filters, "-f", "yuv4mpegpipe", "-strict", "-1", f(out));
  return f(out);
}

const REF = goldenPath("vectors/nat_576x324.ref.y4m");

test("ffmpeg is installed (Debian: apt-get install ffmpeg)", () => {
  expect(ffmpegInstalled, "no ffmpeg on PATH: npm test installs it, or apt-get install ffmpeg").toBe(true);
});

beforeAll(() => {
  if (!ffmpegInstalled) return;
  ffmpeg("-i", REF, "-vf", "fps=12", "-c:v", "libx264", "-crf", "23", f("12fps.mp4"));
  ffmpeg("-i", REF, "-pix_fmt", "yuv420p10le", "-c:v", "libx264", "-crf", "23", f("10bit.mp4"));
  ffmpeg("-i", REF, "-vf", "scale=288:162", "-pix_fmt", "yuv444p", "-c:v", "libx264", "-crf", "23", f("small444.mkv"));
});

describe.skipIf(!ffmpegInstalled)("--conform", () => {
  test("a 12 fps encode against its 24 fps reference: refused naming both rates and files; --conform scores it", async () => {
    const refused = await vq(["-r", REF, "-d", f("12fps.mp4")]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trimEnd().split("\n")).toHaveLength(1);
    for (const s of [REF, f("12fps.mp4"), "frame rates differ: 24 fps vs 12 fps", "--conform"]) expect(refused.stderr).toContain(s);
    const conformed = await vq(["-r", REF, "-d", f("12fps.mp4"), "--conform"]);
    expect(conformed.code).toBe(0);
    expect(conformed.stderr).toContain("by ffmpeg -vf fps=24/1\n");
    // each 12 fps frame shown twice, as ffmpeg's fps filter makes it: the same scores as that stream in Y4M
    const byHand = await vq(["-r", REF, "-d", conformedByHand(f("12fps.mp4"), "fps=24/1", "12to24.y4m")]);
    expect(conformed.json.frames.length).toBeGreaterThanOrEqual(23);
    expect(conformed.json.frames).toEqual(byHand.json.frames);
  });

  test("a 10-bit encode against its 8-bit reference: refused without --conform, scored with it", async () => {
    const refused = await vq(["-r", REF, "-d", f("10bit.mp4")]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("bit depths differ: 8 vs 10");
    expect(refused.stderr).toContain("--conform");
    const conformed = await vq(["-r", REF, "-d", f("10bit.mp4"), "--conform"]);
    expect(conformed.code).toBe(0);
    expect(conformed.json.frames).toHaveLength(24);
    const byHand = await vq(["-r", REF, "-d", conformedByHand(f("10bit.mp4"), "scale=576:324:flags=bicubic,format=yuv420p", "10to8.y4m")]);
    expect(conformed.json.frames).toEqual(byHand.json.frames);
    expect(conformed.json.pooled_metrics.psnr_y.mean).toBeGreaterThan(35);
  });

  test("size and chroma subsampling with --scaler: ffmpeg's scale with those flags", async () => {
    expect((await vq(["-r", REF, "-d", f("small444.mkv")])).stderr).toContain("sizes differ: 576x324 vs 288x162; pixel formats differ: 420 vs 444");
    const lanczos = await vq(["-r", REF, "-d", f("small444.mkv"), "--conform", "--scaler", "lanczos"]);
    expect(lanczos.code).toBe(0);
    const byHand = await vq(["-r", REF, "-d", conformedByHand(f("small444.mkv"), "scale=576:324:flags=lanczos,format=yuv420p", "lanczos.y4m")]);
    expect(lanczos.json.frames).toEqual(byHand.json.frames);
    const bicubic = await vq(["-r", REF, "-d", f("small444.mkv"), "--conform"]);
    expect(bicubic.json.pooled_metrics.psnr_y.mean).not.toBe(lanczos.json.pooled_metrics.psnr_y.mean);
    expect((await vq(["-r", REF, "-d", f("small444.mkv"), "--conform", "--scaler", "area"])).stderr).toContain('invalid argument "area" for --scaler');
  });

  test("--scaler applies to --scale too", async () => {
    ffmpeg("-i", f("small444.mkv"), "-pix_fmt", "yuv420p", "-c:v", "libx264", "-crf", "23", f("small.mp4"));
    const scaled = await vq(["-r", REF, "-d", f("small.mp4"), "--scale", "--scaler", "neighbor"]);
    expect(scaled.code).toBe(0);
    const byHand = await vq(["-r", REF, "-d", conformedByHand(f("small.mp4"), "scale=576:324:flags=neighbor", "neighbor.y4m")]);
    expect(scaled.json.frames).toEqual(byHand.json.frames);
  });
});

describe.skipIf(!ffmpegInstalled)("--conform with several distorted inputs (a ladder)", () => {
  test("each input is refused or converted on its own", async () => {
    let stderr = "";
    const refused = await main(["-r", REF, "-d", REF, "-d", f("10bit.mp4"), "--backend", "cpu", "-n", "--feature", "psnr", "--json", "-o", f("ladder-{n}.json")], { stdout: () => {}, stderr: (t) => void (stderr += t), stderrIsTty: false });
    expect(refused).toBe(1);
    expect(stderr).toContain("bit depths differ: 8 vs 10; --conform converts");
    stderr = "";
    const conformed = await main(["-r", REF, "-d", REF, "-d", f("10bit.mp4"), "--conform", "--backend", "cpu", "-n", "--feature", "psnr", "--json", "--precision", "max", "-o", f("ladder-{n}.json")], { stdout: () => {}, stderr: (t) => void (stderr += t), stderrIsTty: false });
    expect(conformed).toBe(0);
    expect(stderr).toContain("by ffmpeg -vf scale=576:324:flags=bicubic,format=yuv420p\n");
    const alone = await vq(["-r", REF, "-d", f("10bit.mp4"), "--conform"]);
    expect(JSON.parse(readFileSync(f("ladder-2.json"), "utf8")).frames).toEqual(alone.json.frames);
  });
});
