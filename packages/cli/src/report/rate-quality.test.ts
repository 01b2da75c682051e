import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPath } from "@vq/core/golden";
import { bitrate, formatBitrate, formatFrameRate } from "./rate-quality.ts";

const dir = mkdtempSync(join(tmpdir(), "vq-rate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("bitrate: size / (frames / frame rate)", () => {
  test("an x264 encode: within 1% of ffprobe's container bitrate (which counts the last frame's duration alike)", () => {
    const out = join(dir, "enc.mp4");
    const enc = Bun.spawnSync({ cmd: ["ffmpeg", "-v", "error", "-y", "-i", goldenPath("vectors/nat_576x324.ref.y4m"), "-frames:v", "12", "-c:v", "libx264", "-crf", "30", out] });
    expect(enc.exitCode).toBe(0);
    const probe = Bun.spawnSync({ cmd: ["ffprobe", "-v", "error", "-show_entries", "format=bit_rate", "-of", "default=nw=1:nk=1", out] });
    const probed = Number(probe.stdout.toString().trim());
    expect(probed).toBeGreaterThan(0);
    const ours = bitrate({ bytes: statSync(out).size, frames: 12, frameRate: { num: 24, den: 1 } })!;
    expect(Math.abs(ours / probed - 1)).toBeLessThan(0.01);
  });

  test("the arithmetic: fractional rates, and undefined without a usable rate or frames", () => {
    const bytes = 3_000_000;
    // 30000/1001 fps, 600 frames: 20.02 s
    expect(bitrate({ bytes, frames: 600, frameRate: { num: 30000, den: 1001 } })).toBeCloseTo((bytes * 8) / ((600 * 1001) / 30000), 6);
    expect(bitrate({ bytes, frames: 600, frameRate: undefined })).toBeUndefined();
    expect(bitrate({ bytes, frames: 600, frameRate: { num: 0, den: 1 } })).toBeUndefined();
    expect(bitrate({ bytes, frames: 0, frameRate: { num: 24, den: 1 } })).toBeUndefined();
  });

  test("read as people write it", () => {
    expect(formatBitrate(1_509_192)).toBe("1.51 Mbit/s");
    expect(formatBitrate(433_000)).toBe("433 kbit/s");
    expect(formatBitrate(999)).toBe("999 bit/s");
    expect(formatFrameRate({ num: 30000, den: 1001 })).toBe("29.97");
    expect(formatFrameRate({ num: 24, den: 1 })).toBe("24");
  });
});
