// The H.264 pair the decoding benches score (bench-decode, bench-ingest, bench-batch): a
// testsrc2 clip encoded by x264 at CRF 12 as the reference and re-encoded at CRF 30 as the
// distorted video, made with ffmpeg once per folder. Benchmark input only.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

export function h264Pair(ffmpeg: string, dir: string, frames: number, size = "1920x1080"): { reference: string; distorted: string } {
  const make = (args: string[]) => {
    const r = spawnSync(ffmpeg, ["-v", "error", "-y", ...args]);
    if (r.status !== 0) throw new Error(`${ffmpeg} ${args.join(" ")}: ${r.stderr}`);
  };
  const reference = join(dir, `ref-${size}-${frames}.mp4`);
  const distorted = join(dir, `dist-${size}-${frames}.mp4`);
  if (!existsSync(reference)) make(["-f", "lavfi", "-i", `testsrc2=s=${size}:r=24:d=${frames / 24}`, "-c:v", "libx264", "-preset", "veryfast", "-crf", "12", "-pix_fmt", "yuv420p", reference]);
  if (!existsSync(distorted)) make(["-i", reference, "-c:v", "libx264", "-preset", "veryfast", "-crf", "30", distorted]);
  return { reference, distorted };
}
