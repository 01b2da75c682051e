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
  streams?: { nb_frames?: string; avg_frame_rate?: string; duration?: string; tags?: Record<string, string> }[];
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

/** Gives up on a probe that hangs (a network mount): the decode, not the total, is what matters. */
const PROBE_TIMEOUT_MS = 5000;

/**
 * The frame count of `path`'s first video stream from ffprobe, or undefined when ffprobe is
 * missing, fails or cannot tell. Never an error: the count is only the progress line's total.
 */
export async function probeFrameCount(path: string, ffmpeg?: string): Promise<number | undefined> {
  const { execFile } = await import("node:child_process");
  const args = ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=nb_frames,avg_frame_rate,duration:stream_tags=NUMBER_OF_FRAMES,DURATION:format=duration", "-of", "json", path];
  return new Promise((resolve) => {
    const child = execFile(ffprobeBeside(ffmpeg), args, { timeout: PROBE_TIMEOUT_MS, maxBuffer: 1 << 20 }, (error, stdout) => {
      if (error) return resolve(undefined);
      try {
        resolve(frameCountFromProbe(JSON.parse(stdout) as ProbeJson));
      } catch {
        resolve(undefined);
      }
    });
    trackChildProcess(child);
  });
}
