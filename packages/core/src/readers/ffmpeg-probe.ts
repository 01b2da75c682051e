import type { PictureFormat } from "../picture.ts";
import { trackChildProcess } from "./child-processes.ts";

/**
 * ffprobe beside the ffmpeg in use: `--ffmpeg /opt/x/bin/ffmpeg` → `/opt/x/bin/ffprobe`
 * (`ffmpeg-6` → `ffprobe-6`), plain `ffmpeg` → `ffprobe` on PATH. Every ffmpeg build and
 * package (Debian's included) ships the two together. (No node:path: @vq/core is bundled
 * for browsers too.)
 */
export function ffprobeBeside(ffmpeg = "ffmpeg"): string {
  const slash = ffmpeg.lastIndexOf("/");
  const name = ffmpeg.slice(slash + 1);
  const probe = name.replace(/ffmpeg/i, "ffprobe");
  if (probe === name) return "ffprobe";
  return ffmpeg.slice(0, slash + 1) + probe;
}

/** ffprobe's JSON answer, the fields read. */
interface ProbeJson {
  streams?: { nb_frames?: string; avg_frame_rate?: string; duration?: string; pix_fmt?: string; tags?: Record<string, string> }[];
  format?: { duration?: string };
}

/**
 * Frames in the first video stream as the container tells it: mp4/mov's sample count, a
 * NUMBER_OF_FRAMES tag (mkvmerge), or else duration × average rate (Matroska/WebM written
 * by ffmpeg, which store neither). For a progress total: a decode may differ by a frame.
 */
export function frameCountFromProbe(json: ProbeJson): number | undefined {
  const stream = json.streams?.[0];
  if (!stream) return undefined;
  const counted = Number(stream.nb_frames ?? stream.tags?.NUMBER_OF_FRAMES);
  if (Number.isInteger(counted) && counted > 0) return counted;
  const rate = /^(\d+)\/(\d+)$/.exec(stream.avg_frame_rate ?? "");
  const duration = seconds(stream.duration) ?? seconds(stream.tags?.DURATION) ?? seconds(json.format?.duration);
  if (!rate || Number(rate[2]) === 0 || duration === undefined) return undefined;
  const estimate = Math.round((duration * Number(rate[1])) / Number(rate[2]));
  return estimate > 0 ? estimate : undefined;
}

/** `1.000000` or Matroska's `00:00:01.000000000`. */
function seconds(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const hms = /^(\d+):(\d+):(\d+(?:\.\d+)?)$/.exec(text);
  const s = hms ? Number(hms[1]) * 3600 + Number(hms[2]) * 60 + Number(hms[3]) : Number(text);
  return Number.isFinite(s) && s > 0 ? s : undefined;
}

/**
 * A decoded stream's layout when ffmpeg's Y4M output carries it as it is (the planar YUV
 * and gray formats the yuv4mpegpipe muxer takes without converting): what vq would read
 * from the full decode. Anything else (full-range yuvj*, semi-planar, RGB, alpha) is
 * converted by ffmpeg on the way, so undefined.
 */
export function layoutOfPixFmt(pixFmt: string | undefined): Pick<PictureFormat, "pixelFormat" | "bitDepth"> | undefined {
  const m = /^(?:yuv(420|422|444)p|(gray))(?:(9|10|12|16)le)?$/.exec(pixFmt ?? "");
  if (!m) return undefined;
  return { pixelFormat: m[2] ? "400" : (m[1] as "420" | "422" | "444"), bitDepth: m[3] ? Number(m[3]) : 8 };
}

/**
 * The stream's pixel format when ffmpeg's Y4M muxer takes it: what a hardware decoder's
 * frames (NV12, P010, which the muxer refuses) are converted back to. yuvj* and 4:1:1 go
 * to Y4M as they are, though vq reads no layout from them.
 */
export function y4mPixFmt(pixFmt: string | undefined): string | undefined {
  return /^(?:yuvj(?:420|422|444)p|yuv411p|yuva444p|(?:yuv(?:420|422|444)p|gray)(?:(?:9|10|12|14|16)le)?)$/.test(pixFmt ?? "") ? pixFmt : undefined;
}

/** What ffprobe tells of the first video stream: the frame count (a progress total), the decoded layout and pixel format. */
export interface VideoProbe {
  frameCount?: number;
  layout?: Pick<PictureFormat, "pixelFormat" | "bitDepth">;
  /** y4mPixFmt of the stream's pixel format. */
  pixFmt?: string;
}

/** Gives up on a probe that hangs (a network mount): the decode, not the total, is what matters. */
const PROBE_TIMEOUT_MS = 5000;

/**
 * ffprobe's answer for `path`'s first video stream; empty when ffprobe is missing, fails or
 * cannot tell. Never an error: what it gives only saves work (a progress total, a
 * luma-only decode).
 */
export async function probeVideo(path: string, ffmpeg?: string): Promise<VideoProbe> {
  const { execFile } = await import("node:child_process");
  const args = ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=nb_frames,avg_frame_rate,duration,pix_fmt:stream_tags=NUMBER_OF_FRAMES,DURATION:format=duration", "-of", "json", path];
  return new Promise((resolve) => {
    const child = execFile(ffprobeBeside(ffmpeg), args, { timeout: PROBE_TIMEOUT_MS, maxBuffer: 1 << 20 }, (error, stdout) => {
      if (error) return resolve({});
      try {
        const json = JSON.parse(stdout) as ProbeJson;
        const pixFmt = json.streams?.[0]?.pix_fmt;
        resolve({ frameCount: frameCountFromProbe(json), layout: layoutOfPixFmt(pixFmt), pixFmt: y4mPixFmt(pixFmt) });
      } catch {
        resolve({});
      }
    });
    trackChildProcess(child);
  });
}
