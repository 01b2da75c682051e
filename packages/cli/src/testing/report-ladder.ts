import { readFileSync } from "node:fs";
import { join } from "node:path";
import { goldenPath } from "@vq/core/golden";
import { parseArgs, type CliSettings } from "../args.ts";
import { main } from "../main.ts";
import type { ScoredRun } from "../report/scoring-report.ts";

/** The golden reference the test ladders are encoded from (576×324, 24 fps, 24 frames). */
export const LADDER_REFERENCE = goldenPath("vectors/nat_576x324.ref.y4m");
const FRAMES = 8;

/** Renditions: name, size, x264 CRF. The smallest is scored with --scale like a real ladder's low rungs. */
export const RENDITIONS = [
  { name: "576p-crf22", width: 576, height: 324, crf: 22 },
  { name: "576p-crf34", width: 576, height: 324, crf: 34 },
  { name: "288p-crf30", width: 288, height: 162, crf: 30 },
] as const;

/** Encodes the first FRAMES reference frames per rendition into `dir` (H.264 in MP4, ffmpeg). */
export function encodeLadder(dir: string): string[] {
  return RENDITIONS.map((r) => {
    const out = join(dir, `${r.name}.mp4`);
    const args = ["-v", "error", "-y", "-i", LADDER_REFERENCE, "-frames:v", String(FRAMES), "-vf", `scale=${r.width}:${r.height}`, "-c:v", "libx264", "-preset", "veryfast", "-crf", String(r.crf), "-pix_fmt", "yuv420p", out];
    const p = Bun.spawnSync({ cmd: ["ffmpeg", ...args], stderr: "pipe" });
    if (p.exitCode !== 0) throw new Error(`ffmpeg failed for ${r.name}: ${p.stderr.toString()}`);
    return out;
  });
}

export interface ScoredLadder {
  settings: CliSettings;
  argv: string[];
  runs: ScoredRun[];
  /** The JSON result files, one per rendition. */
  jsons: string[];
}

/**
 * Scores each rendition with the vq command in-process (CPU, the bootstrap model so the
 * report has intervals), one JSON each: what a ladder run hands to scoringReport.
 */
export async function scoreLadder(dir: string, distorted: readonly string[], extra: readonly string[] = []): Promise<ScoredLadder> {
  const common = ["-r", LADDER_REFERENCE, "--scale", "--model", "version=vmaf_b_v0.6.3", "--backend", "cpu", "--json", "-q", ...extra];
  const runs: ScoredRun[] = [];
  const jsons: string[] = [];
  for (const d of distorted) {
    const json = join(dir, `${d.replace(/^.*\//, "").replace(/\.\w+$/, "")}.json`);
    let stderr = "";
    const code = await main([...common, "-d", d, "-o", json], { stdout: () => {}, stderr: (t) => void (stderr += t), stderrIsTty: false });
    if (code !== 0) throw new Error(`vq failed on ${d}: ${stderr}`);
    jsons.push(json);
    runs.push({ distorted: d, json: readFileSync(json, "utf8"), source: json, result: { width: 576, height: 324, backend: "cpu" } });
  }
  const argv = [...common, ...distorted.flatMap((d) => ["-d", d]), "--report", join(dir, "ladder.html")];
  return { settings: parseArgs(argv), argv, runs, jsons };
}
