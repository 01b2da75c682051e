import { afterAll, describe, expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPath } from "../golden.ts";
import type { PictureFormat } from "../picture.ts";
import { decodeArguments, decodeInThisThread, openWithFfmpeg, type FfmpegOptions } from "./ffmpeg-reader.ts";
import type { VideoReader } from "./video-reader.ts";

// Luma-only decoding (adr/0043-luma-only-decoding.md): ffmpeg's luma plane alone where the
// stream's layout is one its Y4M output keeps, the same samples as a full decode's luma;
// every plane, as before, where it is not or ffprobe cannot tell.
const ffmpegPath = spawnSync("sh", ["-c", "command -v ffmpeg"]).stdout.toString().trim();
const dir = mkdtempSync(join(tmpdir(), "vq-luma-only-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const f = (name: string) => join(dir, name);
const encode = (from: string, to: string, ...args: string[]) => execFileSync("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", goldenPath(from), "-frames:v", "3", ...args, f(to)]);

async function lumaPlanes(reader: VideoReader): Promise<{ format: PictureFormat; sourceFormat?: PictureFormat; planes: Uint8Array[] }> {
  const planes: Uint8Array[] = [];
  try {
    for (let p = await reader.read(); p; p = await reader.read()) {
      const y = p.planes[0]!;
      planes.push(new Uint8Array(y.data.buffer, y.data.byteOffset, y.data.byteLength).slice());
      reader.release(p);
    }
  } finally {
    await reader.close();
  }
  return { format: reader.format, sourceFormat: reader.sourceFormat, planes };
}

describe.skipIf(!ffmpegPath)("luma-only decoding", () => {
  test.each([
    ["H.264 4:2:0 8-bit", "nat_576x324.x264crf30.y4m", "h264.mp4", ["-c:v", "libx264", "-crf", "20", "-pix_fmt", "yuv420p"], { pixelFormat: "420", bitDepth: 8 }],
    ["FFV1 4:2:0 10-bit", "grad_960x540_10b.ref.y4m", "ffv1-10.mkv", ["-c:v", "ffv1", "-pix_fmt", "yuv420p10le"], { pixelFormat: "420", bitDepth: 10 }],
    ["FFV1 4:4:4 8-bit, odd size", "odd_321x241_444.ref.y4m", "ffv1-444.mkv", ["-c:v", "ffv1", "-pix_fmt", "yuv444p"], { pixelFormat: "444", bitDepth: 8 }],
  ] as const)("%s: the luma plane alone, as a full decode's, the file's format kept", async (_, golden, file, args, layout) => {
    encode(`vectors/${golden}`, file, ...args);
    const full = await lumaPlanes(await decodeInThisThread(f(file)));
    const luma = await lumaPlanes(await decodeInThisThread(f(file), { lumaOnly: true }));
    expect(full.format).toMatchObject(layout);
    expect(full.sourceFormat).toBeUndefined();
    expect(luma.format).toEqual({ ...full.format, pixelFormat: "400" });
    expect(luma.sourceFormat).toEqual(full.format);
    expect(luma.planes).toHaveLength(3);
    expect(luma.planes).toEqual(full.planes);
  }, 30_000);

  test("read on a worker thread, the file's format comes along", async () => {
    encode("vectors/nat_576x324.ref.y4m", "worker.mp4", "-c:v", "libx264", "-crf", "20", "-pix_fmt", "yuv420p");
    const luma = await lumaPlanes(await openWithFfmpeg(f("worker.mp4"), { lumaOnly: true }));
    expect(luma.format.pixelFormat).toBe("400");
    expect(luma.sourceFormat).toEqual({ width: 576, height: 324, pixelFormat: "420", bitDepth: 8 });
  }, 30_000);

  const wholeDecodes = async (file: string, options: FfmpegOptions = {}) => {
    const full = await lumaPlanes(await decodeInThisThread(f(file), options));
    const asked = await lumaPlanes(await decodeInThisThread(f(file), { ...options, lumaOnly: true }));
    expect(asked.sourceFormat).toBeUndefined();
    expect(asked.format).toEqual(full.format);
    expect(asked.planes).toEqual(full.planes);
    return asked.format;
  };

  test("with a hardware decoder (its frames converted back to the stream's format first): the luma plane alone, as a full decode's", async () => {
    encode("vectors/grad_960x540_10b.ref.y4m", "hw-10.mkv", "-c:v", "ffv1", "-pix_fmt", "yuv420p10le");
    const full = await lumaPlanes(await decodeInThisThread(f("hw-10.mkv")));
    const luma = await lumaPlanes(await decodeInThisThread(f("hw-10.mkv"), { hwaccel: "auto", lumaOnly: true }));
    expect(luma.format).toEqual({ ...full.format, pixelFormat: "400" });
    expect(luma.sourceFormat).toEqual(full.format);
    expect(luma.planes).toEqual(full.planes);
  }, 30_000);

  test.each([
    ["P010 (10-bit)", "grad_960x540_10b.ref.y4m", "p010le", "yuv420p10le", 960, 540],
    ["NV12 (8-bit)", "nat_576x324.ref.y4m", "nv12", "yuv420p", 576, 324],
  ] as const)("a hardware decoder's %s frames, converted back as vq asks ffmpeg, are the stream's samples exactly", (_, golden, hardware, stream, width, height) => {
    // the frames as the hardware hands them over, then vq's filter for them
    execFileSync("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", goldenPath(`vectors/${golden}`), "-frames:v", "3", "-pix_fmt", hardware, "-f", "rawvideo", f(`${hardware}.raw`)]);
    const args = decodeArguments(f(`${hardware}.raw`), { hwaccel: "cuda" }, stream);
    const filter = args[args.indexOf("-vf") + 1]!;
    expect(filter).toBe(`format=${stream}`);
    const raw = ["-f", "rawvideo", "-pix_fmt", hardware, "-s", `${width}x${height}`];
    const back = execFileSync("ffmpeg", ["-v", "error", "-nostdin", ...raw, "-i", f(`${hardware}.raw`), "-vf", filter, "-f", "rawvideo", "-"], { maxBuffer: 1 << 26 });
    const original = execFileSync("ffmpeg", ["-v", "error", "-nostdin", "-i", goldenPath(`vectors/${golden}`), "-frames:v", "3", "-f", "rawvideo", "-"], { maxBuffer: 1 << 26 });
    expect(back.length).toBe(original.length);
    expect(Buffer.compare(back, original)).toBe(0);
  }, 30_000);

  test("a layout ffmpeg converts on the way (full-range JPEG's yuvj420p): every plane, as before", async () => {
    encode("vectors/nat_576x324.ref.y4m", "mjpeg.mkv", "-c:v", "mjpeg", "-pix_fmt", "yuvj420p");
    expect((await wholeDecodes("mjpeg.mkv")).pixelFormat).toBe("420");
  }, 30_000);

  test("filters change what ffmpeg outputs, and without ffprobe nothing tells the layout: every plane", async () => {
    encode("vectors/nat_576x324.ref.y4m", "plain.mp4", "-c:v", "libx264", "-crf", "20", "-pix_fmt", "yuv420p");
    await wholeDecodes("plain.mp4", { filters: ["format=yuv444p"] });
    // an ffmpeg with no ffprobe beside it
    mkdirSync(f("bin"));
    symlinkSync(ffmpegPath, f("bin/ffmpeg"));
    expect(await wholeDecodes("plain.mp4", { ffmpeg: f("bin/ffmpeg") })).toMatchObject({ pixelFormat: "420" });
  }, 30_000);
});
