// Ladder benchmark: an encoding ladder scored in one `vq` run (the reference decoded once,
// the renditions decoded side by side, one GPU upload of the reference per frame) against
// the same renditions scored by separate `vq` runs, one after the other, as a script would.
// Whole processes, wall time, the median of the repeats; the outputs of both ways must be
// identical apart from fps. Usage:
//   bun tools/bench-ladder.ts [--ffmpeg PATH] [--frames N] [--repeat N] [--dir DIR] [-- extra vq args]
// It makes its inputs in DIR (default a temporary folder) with ffmpeg: 1080p24 testsrc2 as
// the reference (x264 CRF 12) and six renditions of it, 1080p, 720p, 540p, 480p, 432p and
// 360p (x264 CRF 26), each scored with --scale.
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchArgs } from "./bench-args.ts";
import { jsonWithoutFps, timedRun } from "./bench-process.ts";

const { get, extra } = benchArgs(process.argv.slice(2));
const ffmpeg = get("--ffmpeg", "ffmpeg");
const frames = Number(get("--frames", "240"));
const repeat = Number(get("--repeat", "2"));
const dir = get("--dir", "") || mkdtempSync(join(tmpdir(), "vq-ladder-bench-"));
mkdirSync(dir, { recursive: true });
const cli = new URL("../packages/cli/src/cli.ts", import.meta.url).pathname;
const HEIGHTS = [1080, 720, 540, 480, 432, 360];

const run = timedRun;

const reference = join(dir, "ref.mp4");
if (!existsSync(reference)) {
  run(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", `testsrc2=s=1920x1080:r=24:d=${frames / 24}`, "-c:v", "libx264", "-preset", "veryfast", "-crf", "12", "-pix_fmt", "yuv420p", reference]);
}
const renditions = HEIGHTS.map((h) => join(dir, `r${h}p.mp4`));
for (const [i, h] of HEIGHTS.entries()) {
  if (!existsSync(renditions[i]!)) run(ffmpeg, ["-v", "error", "-y", "-i", reference, "-vf", `scale=-2:${h}`, "-c:v", "libx264", "-preset", "veryfast", "-crf", "26", renditions[i]!]);
}
// Decoding alone, for scale: the reference and every rendition (scaled as --scale does) to nothing, one after the other.
const decodeMs = [reference, ...renditions].reduce((ms, input, i) => ms + run(ffmpeg, ["-v", "error", "-i", input, ...(i ? ["-vf", "scale=1920:1080:flags=bicubic"] : []), "-f", "null", "-"]), 0);

const common = ["-r", reference, "--scale", "--ffmpeg", ffmpeg, "--json", "-q", ...extra];
const separate: number[] = [];
const ladder: number[] = [];
for (let r = 0; r < repeat; r++) {
  // alternated, so that neither way always runs on a warmer machine
  const runSeparate = () => separate.push(renditions.reduce((ms, d, i) => ms + run(process.execPath, [cli, ...common, "-d", d, "-o", join(dir, `separate-${i + 1}.json`)]), 0));
  const runLadder = () => ladder.push(run(process.execPath, [cli, ...common, ...renditions.flatMap((d) => ["-d", d]), "-o", join(dir, "ladder-{n}.json")]));
  if (r % 2) (runLadder(), runSeparate());
  else (runSeparate(), runLadder());
}
const withoutFps = jsonWithoutFps;
const identical = renditions.every((_, i) => withoutFps(join(dir, `separate-${i + 1}.json`)) === withoutFps(join(dir, `ladder-${i + 1}.json`)));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = median(separate) / 1000;
const l = median(ladder) / 1000;
console.log(`ladder of ${renditions.length} renditions, ${frames} frames of 1080p each (--scale), ${extra.join(" ") || "VMAF v0.6.1"}`);
console.log(`  separate runs: ${s.toFixed(2)} s   [${separate.map((x) => (x / 1000).toFixed(2)).join(", ")}]`);
console.log(`  one ladder run: ${l.toFixed(2)} s   [${ladder.map((x) => (x / 1000).toFixed(2)).join(", ")}]`);
console.log(`  ladder / separate: ${(l / s).toFixed(3)}   outputs identical apart from fps: ${identical}`);
console.log(`  ffmpeg decoding alone (reference + renditions scaled, one after the other): ${(decodeMs / 1000).toFixed(2)} s`);
if (!identical) process.exit(1);
