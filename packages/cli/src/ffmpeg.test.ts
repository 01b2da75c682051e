import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPath } from "@vq/core/golden";
import { loggingFfmpeg } from "@vq/core/testing";
import { main } from "./main.ts";
import { ffmpegInstalled, ffmpegOrThrow as ffmpeg, runVq } from "./testing/cli-run.ts";

// Needs Debian's ffmpeg to make and decode the test files (`npm test` installs it). Without
// it, one test fails naming what to install, and the others do not run.
const dir = mkdtempSync(join(tmpdir(), "vq-ffmpeg-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));


const vq = runVq;

const REF = goldenPath("vectors/nat_576x324.ref.y4m");
const DIST = goldenPath("vectors/nat_576x324.x264crf30.y4m");
const f = (name: string) => join(dir, name);

test("ffmpeg is installed (Debian: apt-get install ffmpeg)", () => {
  expect(ffmpegInstalled, "no ffmpeg on PATH: npm test installs it, or apt-get install ffmpeg").toBe(true);
});

beforeAll(() => {
  if (!ffmpegInstalled) return;
  ffmpeg("-i", REF, "-frames:v", "8", "-c:v", "libx264", "-crf", "18", "-pix_fmt", "yuv420p", f("ref.mp4"));
  ffmpeg("-i", DIST, "-frames:v", "8", "-c:v", "libx265", "-crf", "28", "-pix_fmt", "yuv420p", f("dist.mkv"));
  // the same frames as Y4M, decoded by the same ffmpeg
  ffmpeg("-i", f("ref.mp4"), "-f", "yuv4mpegpipe", f("ref.y4m"));
  ffmpeg("-i", f("dist.mkv"), "-f", "yuv4mpegpipe", f("dist.y4m"));
  ffmpeg("-i", DIST, "-frames:v", "8", "-vf", "scale=288:162", "-c:v", "libx264", "-crf", "18", "-pix_fmt", "yuv420p", f("small.mp4"));
  ffmpeg("-f", "lavfi", "-i", "sine=frequency=440:duration=1", f("audio.m4a"));
  writeFileSync(f("text.mp4"), "this is not a video\n");
  mkdirSync(f("folder.mkv"));
});

describe.skipIf(!ffmpegInstalled)("inputs decoded by ffmpeg", () => {
  test("--hwaccel goes to ffmpeg: auto (software here) scores as without it; one ffmpeg cannot start is one line naming it", async () => {
    const common = ["-r", f("ref.mp4"), "-d", f("dist.mkv"), "--json", "--precision", "max", "--backend", "cpu", "--frame_cnt", "3"];
    const plain = await vq([...common, "-o", f("plain.json")]);
    const auto = await vq([...common, "--hwaccel", "auto", "-o", f("auto.json")]);
    expect(plain.code).toBe(0);
    expect(auto.code).toBe(0);
    const frames = (name: string) => JSON.parse(readFileSync(f(name), "utf8")).frames;
    expect(frames("auto.json")).toEqual(frames("plain.json"));
    // Debian's ffmpeg knows vaapi; this machine has no VA-API device
    const vaapi = await vq([...common, "--hwaccel", "vaapi", "-o", f("vaapi.json")]);
    expect(vaapi.code).toBe(1);
    expect(vaapi.stderr).toMatch(new RegExp(`^vq: ${f("ref.mp4")}: ffmpeg cannot decode it with -hwaccel vaapi: [^\\n]+\\n$`));
    const bad = await vq([...common, "--hwaccel", "cuda;rm"]);
    expect(bad.stderr).toBe(`vq: invalid argument "cuda;rm" for --hwaccel: expected an ffmpeg hwaccel name such as cuda, vaapi, qsv or videotoolbox\n`);
    expect(bad.code).toBe(1);
  });

  test("--hwaccel: the hardware's frames (NV12, P010, which Y4M refuses) go back to the stream's own format first; luma alone still; no ffprobe is one line", async () => {
    const logging = await loggingFfmpeg(dir);
    const common = ["-r", f("ref.mp4"), "-d", f("dist.mkv"), "--json", "--precision", "max", "--backend", "cpu", "--frame_cnt", "3"];
    const plain = await vq([...common, "-o", f("hw-plain.json")]);
    expect(plain.code).toBe(0);
    const hw = await vq([...common, "--ffmpeg", logging.path, "--hwaccel", "auto", "-o", f("hw-auto.json")]);
    expect(hw.stderr).toBe("");
    expect(hw.code).toBe(0);
    const decodes = logging.decodes();
    expect(decodes).toHaveLength(2);
    // VMAF reads luma alone: converted back, then the plane taken
    for (const d of decodes) expect(d).toContain("-hwaccel auto -i ");
    for (const d of decodes) expect(d).toContain("-vf format=yuv420p,extractplanes=y");
    const frames = (name: string) => JSON.parse(readFileSync(f(name), "utf8")).frames;
    expect(frames("hw-auto.json")).toEqual(frames("hw-plain.json"));
    // without ffprobe the stream's format is unknown: refused, not guessed (a 10-bit stream's P010 is not yuv420p)
    const alone = join(dir, "alone-hw");
    mkdirSync(alone);
    symlinkSync(spawnSync("sh", ["-c", "command -v ffmpeg"]).stdout.toString().trim(), join(alone, "ffmpeg"));
    const blind = await vq([...common, "--ffmpeg", join(alone, "ffmpeg"), "--hwaccel", "auto"]);
    expect(blind.stderr).toBe(`vq: ${f("ref.mp4")}: --hwaccel auto: ffprobe (beside ffmpeg) told no pixel format that Y4M carries, which the hardware decoder's frames must be converted back to: install ffprobe, or decode without --hwaccel\n`);
    expect(blind.code).toBe(1);
  }, 60_000);

  test("H.264 (mp4) against HEVC (mkv) scores exactly as the same frames in Y4M", async () => {
    const a = await vq(["-r", f("ref.mp4"), "-d", f("dist.mkv"), "--json", "-o", f("a.json"), "--precision", "max", "--backend", "cpu", "--feature", "psnr"]);
    const b = await vq(["-r", f("ref.y4m"), "-d", f("dist.y4m"), "--json", "-o", f("b.json"), "--precision", "max", "--backend", "cpu", "--feature", "psnr"]);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    const ja = JSON.parse(readFileSync(f("a.json"), "utf8"));
    const jb = JSON.parse(readFileSync(f("b.json"), "utf8"));
    expect(ja.frames).toHaveLength(8);
    expect(ja.frames).toEqual(jb.frames);
    expect(ja.pooled_metrics).toEqual(jb.pooled_metrics);
  });

  test("VMAF alone reads luma only: ffmpeg gives the luma planes, scored exactly as the same frames in Y4M, on both backends; chroma layouts still checked", async () => {
    // an ffmpeg that notes its arguments, with its ffprobe beside it
    const logging = await loggingFfmpeg(dir);
    const wrapper = logging.path;
    const frames = (name: string) => JSON.parse(readFileSync(f(name), "utf8")).frames;
    for (const backend of ["cpu", "gpu"]) {
      logging.clear();
      const common = ["--json", "--precision", "max", "--backend", backend, "--feature", "float_ssim"];
      const a = await vq(["-r", f("ref.mp4"), "-d", f("dist.mkv"), "--ffmpeg", wrapper, ...common, "-o", f(`luma-${backend}.json`)]);
      const b = await vq(["-r", f("ref.y4m"), "-d", f("dist.y4m"), ...common, "-o", f(`whole-${backend}.json`)]);
      expect(a.stderr).toBe("");
      expect(a.code).toBe(0);
      expect(b.code).toBe(0);
      const decodes = logging.decodes();
      expect(decodes).toHaveLength(2);
      for (const d of decodes) expect(d).toContain("-vf extractplanes=y");
      expect(frames(`luma-${backend}.json`)).toHaveLength(8);
      expect(frames(`luma-${backend}.json`)).toEqual(frames(`whole-${backend}.json`));
    }
    // a 4:4:4 distorted video against the 4:2:0 reference is refused as before, by the files' formats
    ffmpeg("-i", DIST, "-frames:v", "8", "-c:v", "libx264", "-crf", "18", "-pix_fmt", "yuv444p", f("dist444.mkv"));
    const r = await vq(["-r", f("ref.mp4"), "-d", f("dist444.mkv"), "--backend", "cpu"]);
    expect(r.stderr).toMatch(/^vq: reference .*ref\.mp4 \(576x324 420 8-bit, 24 fps\) and distorted .*dist444\.mkv \(576x324 444 8-bit, 24 fps\) do not match: pixel formats differ: 420 vs 444; --conform converts/);
    expect(r.code).toBe(1);
   }, 60_000);

  test("different sizes: a clear error naming both, or --scale", async () => {
    const r = await vq(["-r", f("ref.mp4"), "-d", f("small.mp4"), "--feature", "psnr", "-n", "--backend", "cpu"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("576x324 vs 288x162");
    const scaled = await vq(["-r", f("ref.mp4"), "-d", f("small.mp4"), "--feature", "psnr", "-n", "--backend", "cpu", "--scale", "--json"]);
    expect(scaled.code).toBe(0);
    expect(JSON.parse(scaled.stdout).frames).toHaveLength(8);
  });

  test("the progress line has a total from ffprobe (mp4's count, Matroska's duration x rate); without ffprobe, a count", async () => {
    const progress = async (extra: string[]) => {
      let stderr = "";
      const code = await main(["-r", f("ref.mp4"), "-d", f("dist.mkv"), "--feature", "psnr", "-n", "--backend", "cpu", "--json", "-o", f("p.json"), ...extra], { stdout: () => {}, stderr: (t) => void (stderr += t), stderrIsTty: true });
      expect(code).toBe(0);
      return stderr;
    };
    expect(await progress([])).toContain("\r8/8 frames");
    // an ffmpeg with no ffprobe beside it
    const alone = join(dir, "alone");
    mkdirSync(alone);
    symlinkSync(spawnSync("sh", ["-c", "command -v ffmpeg"]).stdout.toString().trim(), join(alone, "ffmpeg"));
    const counted = await progress(["--ffmpeg", join(alone, "ffmpeg")]);
    expect(counted).toContain("\r8 frames");
    expect(counted).not.toContain("/8 frames");
  });

  test("a missing file beside one ffmpeg decodes, on the default backend: one line, no GPU notice before it (the GPU starts only once both files open)", () => {
    // a process of its own: Dawn writes its notices (lavapipe's limits) straight to file descriptor 2
    const missing = f("missing.mp4");
    const r = spawnSync(process.execPath, [new URL("./cli.ts", import.meta.url).pathname, "-r", f("ref.mp4"), "-d", missing, "--feature", "psnr", "-n", "--json", "-o", f("missing.json")], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`vq: ${missing}: no such file\n`);
  });

  for (const [what, args, says] of [
    ["a file ffmpeg cannot decode", () => ["-r", f("text.mp4"), "-d", f("dist.mkv")], "text.mp4: ffmpeg cannot decode it"],
    ["an audio-only file", () => ["-r", f("audio.m4a"), "-d", f("dist.mkv")], "audio.m4a: has no video stream"],
    ["a directory", () => ["-r", f("folder.mkv"), "-d", f("dist.mkv")], "folder.mkv: is a directory"],
    ["a missing ffmpeg", () => ["-r", f("ref.mp4"), "-d", f("dist.mkv"), "--ffmpeg", f("no-such-ffmpeg")], "ffmpeg is needed to read this file but was not found"],
  ] as const) {
    test(what, async () => {
      const r = await vq([...args(), "--feature", "psnr", "-n", "--backend", "cpu"]);
      expect(r.code).toBe(1);
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(says);
    });
  }
});
