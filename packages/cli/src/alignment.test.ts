import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPath } from "@vq/core/golden";
import { ffmpegInstalled, ffmpegOrThrow as ffmpeg, runVq } from "./testing/cli-run.ts";

// Inputs cut and re-encoded by ffmpeg from one golden pair (24 frames, 576x324, 24 fps);
// without ffmpeg, one test fails naming what to install, and the others do not run.
const dir = mkdtempSync(join(tmpdir(), "vq-align-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const f = (name: string) => join(dir, name);


const vq = (args: string[]) => runVq([...args, "--backend", "cpu", "-n", "--feature", "psnr"]);

/** A Y4M file of `source`'s frames in the order given (a frame listed twice is repeated). */
function reorderY4m(source: string, order: number[], out: string): void {
  const bytes = readFileSync(source);
  const headerEnd = bytes.indexOf(0x0a) + 1;
  const header = bytes.subarray(0, headerEnd).toString();
  const [w, h] = [Number(/ W(\d+)/.exec(header)![1]), Number(/ H(\d+)/.exec(header)![1])];
  const frameBytes = 6 + w * h * 1.5; // 4:2:0, 8-bit, plain FRAME markers
  const frames = order.map((i) => bytes.subarray(headerEnd + i * frameBytes, headerEnd + (i + 1) * frameBytes));
  writeFileSync(out, Buffer.concat([bytes.subarray(0, headerEnd), ...frames]));
}

const REF = goldenPath("vectors/nat_576x324.ref.y4m");
const DIST = goldenPath("vectors/nat_576x324.x264crf30.y4m");
const OTHER = goldenPath("vectors/syn_576x324.ref.y4m");
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

test("ffmpeg is installed (Debian: apt-get install ffmpeg)", () => {
  expect(ffmpegInstalled, "no ffmpeg on PATH: npm test installs it, or apt-get install ffmpeg").toBe(true);
});

beforeAll(() => {
  reorderY4m(DIST, range(3, 24), f("late.y4m")); // the encode without its first three frames
  reorderY4m(DIST, range(0, 20), f("short.y4m"));
  reorderY4m(DIST, [...range(0, 10), 9, ...range(11, 24)], f("repeat.y4m")); // frame 10 lost, 9 shown twice
  if (ffmpegInstalled) ffmpeg("-i", f("late.y4m"), "-c:v", "libx264", "-crf", "18", f("late.mkv"));
});

describe("--align auto", () => {
  for (const format of ["--json", "--xml"]) {
    test(`on a distorted input missing its first three frames, writes what --frame_skip_ref 3 writes (${format})`, async () => {
      const aligned = await vq(["-r", REF, "-d", f("late.y4m"), "--align", "auto", format, "-o", f(`aligned${format}`)]);
      expect(aligned.code).toBe(0);
      expect(aligned.stderr).toContain("vq: aligned: distorted frame 0 of");
      expect(aligned.stderr).toContain("matches reference frame 3 (--frame_skip_ref 3;");
      const skipped = await vq(["-r", REF, "-d", f("late.y4m"), "--frame_skip_ref", "3", format, "-o", f(`skipped${format}`)]);
      expect(skipped.code).toBe(0);
      const withoutFps = (p: string) => readFileSync(p, "utf8").replace(/"fps": [\d.]+|fps="[\d.]+"/, "fps");
      expect(withoutFps(f(`aligned${format}`))).toBe(withoutFps(f(`skipped${format}`)));
      expect(withoutFps(f(`aligned${format}`))).toContain("frameNum");
    });
  }

  test("the reference missing frames: the distorted ones are skipped; auto=N limits the search", async () => {
    const r = await vq(["-r", f("late.y4m"), "-d", DIST, "--align", "auto=5", "--json"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("(--frame_skip_dist 3;");
    expect(JSON.parse(r.stdout).frames).toHaveLength(21);
    const narrow = await vq(["-r", f("late.y4m"), "-d", DIST, "--align", "auto=2", "--json"]);
    expect(narrow.code).toBe(1);
    expect(narrow.stderr).toContain("no offset within ±2 frames matches");
  });

  test.skipIf(!ffmpegInstalled)("an encode read through ffmpeg is aligned the same way", async () => {
    const r = await vq(["-r", REF, "-d", f("late.mkv"), "--align", "auto", "--json"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("(--frame_skip_ref 3;");
  });

  test("unrelated videos: an error saying no offset matches, and no output", async () => {
    const r = await vq(["-r", REF, "-d", OTHER, "--align", "auto", "--json", "-o", f("unrelated.json")]);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("no offset within ±30 frames matches");
    expect(r.stderr).toContain("are they the same video?");
    expect(existsSync(f("unrelated.json"))).toBe(false);
  });

  test("bad arguments", async () => {
    expect((await vq(["-r", REF, "-d", DIST, "--align", "manual"])).stderr).toContain('invalid argument "manual" for --align');
    expect((await vq(["-r", REF, "-d", DIST, "--align", "auto", "--frame_skip_dist", "2"])).stderr).toContain("without --frame_skip_ref and --frame_skip_dist");
  });
});

describe("lengths and repeated frames", () => {
  test("different lengths: the common part and a warning, or with --strict-length an error", async () => {
    const loose = await vq(["-r", REF, "-d", f("short.y4m"), "--json"]);
    expect(loose.code).toBe(0);
    expect(loose.stderr).toContain("short.y4m ended before");
    expect(JSON.parse(loose.stdout).frames).toHaveLength(20);
    const strict = await vq(["-r", REF, "-d", f("short.y4m"), "--json", "--strict-length", "-o", f("strict.json")]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toBe(`vq: ${f("short.y4m")} ended before ${REF} (20 frames in common) and --strict-length asks for equal lengths\n`);
    expect(existsSync(f("strict.json"))).toBe(false);
    expect((await vq(["-r", REF, "-d", DIST, "--json", "--strict-length"])).code).toBe(0);
  });

  test("a distorted frame repeated while the reference moves on is named in a warning", async () => {
    const r = await vq(["-r", REF, "-d", f("repeat.y4m"), "--json"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`vq: ${f("repeat.y4m")}: frame 10 repeats the frame before while the reference changes: duplicated or dropped frames?\n`);
    expect((await vq(["-r", REF, "-d", DIST, "--json"])).stderr).toBe("");
    // with --threads the workers read the frames (adr/0041): the main thread still looks at each
    expect((await vq(["-r", REF, "-d", f("repeat.y4m"), "--json", "--backend", "cpu", "--threads", "2"])).stderr).toBe(r.stderr);
  });
});

describe("with several distorted inputs (a ladder)", () => {
  test("--strict-length fails the input of another length, the others are written; --align is refused", async () => {
    const out = (name: string) => f(`ladder-${name}.json`);
    const r = await vq(["-r", REF, "-d", DIST, "-d", f("short.y4m"), "--strict-length", "--json", "-o", f("ladder-{name}.json")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`vq: ${f("short.y4m")} ended before ${REF} (20 frames in common) and --strict-length asks for equal lengths\n`);
    expect(existsSync(out("short"))).toBe(false);
    expect(JSON.parse(readFileSync(out("nat_576x324.x264crf30"), "utf8")).frames).toHaveLength(24);
    const aligned = await vq(["-r", REF, "-d", DIST, "-d", f("late.y4m"), "--align", "auto", "--json", "-o", f("ladder-{name}.json")]);
    expect(aligned.code).toBe(1);
    expect(aligned.stderr).toContain("--align auto aligns one distorted input: give one -d with it");
  });

  test("each input's repeated frames are named", async () => {
    const r = await vq(["-r", REF, "-d", DIST, "-d", f("repeat.y4m"), "--json", "-o", f("ladder-{n}.json")]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`vq: ${f("repeat.y4m")}: frame 10 repeats the frame before while the reference changes: duplicated or dropped frames?\n`);
  });
});
