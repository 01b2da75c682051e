import { describe, expect, test } from "bun:test";
import { ffprobeBeside, frameCountFromProbe, layoutOfPixFmt, y4mPixFmt } from "./ffmpeg-probe.ts";

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

  test("the layouts ffmpeg's Y4M output keeps as decoded; none for those it converts", () => {
    expect(layoutOfPixFmt("yuv420p")).toEqual({ pixelFormat: "420", bitDepth: 8 });
    expect(layoutOfPixFmt("yuv422p10le")).toEqual({ pixelFormat: "422", bitDepth: 10 });
    expect(layoutOfPixFmt("yuv444p12le")).toEqual({ pixelFormat: "444", bitDepth: 12 });
    expect(layoutOfPixFmt("gray")).toEqual({ pixelFormat: "400", bitDepth: 8 });
    expect(layoutOfPixFmt("gray16le")).toEqual({ pixelFormat: "400", bitDepth: 16 });
    for (const converted of ["yuvj420p", "nv12", "p010le", "gbrp", "rgb24", "yuva420p", "yuv420p10be", "yuv411p", "yuv440p", undefined]) {
      expect(layoutOfPixFmt(converted)).toBeUndefined();
    }
  });

  test("the pixel formats a hardware decoder's frames go back to: those ffmpeg's Y4M muxer takes, never a semi-planar one", () => {
    for (const taken of ["yuv420p", "yuv420p10le", "yuv422p12le", "yuv444p16le", "gray", "gray10le", "yuvj420p", "yuv411p", "yuva444p"]) {
      expect(y4mPixFmt(taken)).toBe(taken);
    }
    for (const refused of ["nv12", "p010le", "yuv420p10be", "rgb24", "gbrp", "yuva420p", "yuv440p", "", undefined]) {
      expect(y4mPixFmt(refused)).toBeUndefined();
    }
  });
});
