import { describe, expect, test } from "bun:test";
import { ffprobeBeside, frameCountFromProbe } from "./ffmpeg-probe.ts";

describe("the ffmpeg probe", () => {
  test("ffprobe is looked for beside the ffmpeg given", () => {
    expect(ffprobeBeside()).toBe("ffprobe");
    expect(ffprobeBeside("/opt/ff/bin/ffmpeg")).toBe("/opt/ff/bin/ffprobe");
    expect(ffprobeBeside("ffmpeg-6")).toBe("ffprobe-6");
    expect(ffprobeBeside("/usr/local/bin/my-decoder")).toBe("ffprobe");
  });

  test("the frame count: the container's count first, else duration × average rate", () => {
    // ffprobe's answers for the same 24 frames in mp4 and in ffmpeg's Matroska
    expect(frameCountFromProbe({ streams: [{ nb_frames: "24", avg_frame_rate: "24/1", duration: "1.000000" }] })).toBe(24);
    expect(frameCountFromProbe({ streams: [{ avg_frame_rate: "24/1", tags: { DURATION: "00:00:01.000000000" } }], format: { duration: "1.000000" } })).toBe(24);
    expect(frameCountFromProbe({ streams: [{ avg_frame_rate: "30000/1001", tags: { NUMBER_OF_FRAMES: "300" } }] })).toBe(300);
    expect(frameCountFromProbe({ streams: [{ avg_frame_rate: "30000/1001" }], format: { duration: "10.010000" } })).toBe(300);
    expect(frameCountFromProbe({ streams: [{ avg_frame_rate: "0/0" }], format: { duration: "1.0" } })).toBeUndefined();
    expect(frameCountFromProbe({ streams: [] })).toBeUndefined();
  });
});
