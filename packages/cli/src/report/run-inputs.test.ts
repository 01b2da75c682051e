import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPath } from "@vq/core/golden";
import { encodeLadder, scoreLadder, type ScoredLadder } from "../testing/report-ladder.ts";
import { parseReportData, type ReportData } from "./report-data.ts";
import { inspectRunInputs } from "./run-inputs.ts";
import { scoringRunSettings } from "./scoring-report.ts";

const dir = mkdtempSync(join(tmpdir(), "vq-run-inputs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let ladder: ScoredLadder;
let runs: ReportData[];
beforeAll(async () => {
  ladder = await scoreLadder(dir, encodeLadder(dir).slice(0, 1));
  runs = ladder.runs.map((r) => parseReportData(JSON.parse(r.json), r.source, scoringRunSettings(ladder.settings, ladder.argv, r)));
}, 120_000);

/** `data`'s settings with other inputs (the same scores: only what is read again changes). */
const withInputs = (data: ReportData, change: Partial<NonNullable<ReportData["run"]>>): ReportData => ({ ...data, run: { ...data.run!, ...change } });

describe("inspectRunInputs: the inputs read again after scoring", () => {
  test("an MP4 through ffmpeg: size, frames counted, frame rate from its stream, thumbnails of the frames asked for", async () => {
    const inputs = (await inspectRunInputs(runs[0]!, [0, 5]))!;
    const d = ladder.runs[0]!.distorted;
    expect(inputs.notes).toEqual([]);
    expect(inputs.rate).toEqual({ bytes: statSync(d).size, frames: 8, frameRate: { num: 24, den: 1 } });
    expect(inputs.bitsPerSecond).toBe((statSync(d).size * 8 * 24) / 8);
    expect([...inputs.thumbnails.keys()]).toEqual([0, 5]);
    for (const t of inputs.thumbnails.values()) {
      expect(t.reference).toStartWith("data:image/png;base64,");
      expect(t.distorted).toStartWith("data:image/png;base64,");
      expect(t.reference).not.toBe(t.distorted);
    }
  }, 60_000);

  test("a Y4M: frames from its size, with the run's skipped frames honoured", async () => {
    const y4m = goldenPath("vectors/nat_576x324.x264crf30.y4m");
    const plain = (await inspectRunInputs(withInputs(runs[0]!, { distorted: y4m }), [2]))!;
    expect(plain.rate).toEqual({ bytes: statSync(y4m).size, frames: 24, frameRate: { num: 24, den: 1 } });
    const skipped = (await inspectRunInputs(withInputs(runs[0]!, { distorted: y4m, skipRef: 2, skipDist: 2 }), [0]))!;
    // frame 0 of a run that skipped 2 on both sides is frame 2 of each file
    expect(skipped.thumbnails.get(0)).toEqual(plain.thumbnails.get(2)!);
  }, 60_000);

  test("--conform to another rate: thumbnails of the frames as scored, the bitrate over the file's duration", async () => {
    // a 12 fps encode of the 24 fps reference: --conform scored it through fps=24/1
    const y4m = goldenPath("vectors/nat_576x324.x264crf30.y4m");
    const slow = join(dir, "12fps.mp4");
    const conformed = join(dir, "12fps-as-24.mp4"); // lossless, decoded as the other
    for (const args of [["-i", y4m, "-vf", "fps=12", "-c:v", "libx264", "-qp", "0", slow], ["-i", slow, "-vf", "fps=24/1", "-c:v", "libx264", "-qp", "0", conformed]]) {
      expect(spawnSync("ffmpeg", ["-v", "error", "-y", ...args]).status).toBe(0);
    }
    const asScored = (await inspectRunInputs(withInputs(runs[0]!, { reference: y4m, distorted: conformed }), [3, 4]))!;
    const inputs = (await inspectRunInputs(withInputs(runs[0]!, { reference: y4m, distorted: slow, conform: true }), [3, 4]))!;
    expect(inputs.thumbnails.get(3)!.distorted).toBe(asScored.thumbnails.get(3)!.distorted);
    expect(inputs.thumbnails.get(4)!.distorted).toBe(asScored.thumbnails.get(4)!.distorted);
    expect(inputs.rate).toEqual({ bytes: statSync(slow).size, frames: 24, frameRate: { num: 24, den: 1 } });
  }, 60_000);

  test("what cannot be read is a note, never a failure", async () => {
    const gone = (await inspectRunInputs(withInputs(runs[0]!, { distorted: join(dir, "gone.mp4") }), [0]))!;
    expect(gone.notes).toHaveLength(1);
    expect(gone.notes[0]).toContain("gone.mp4");
    expect(gone.thumbnails.size).toBe(0);
    expect(gone.bitsPerSecond).toBeUndefined();
    // raw YUV carries no frame rate, and neither does a raw reference
    const yuv = join(dir, "frames.yuv");
    const raw = { width: 576, height: 324, pixelFormat: "420", bitDepth: 8 };
    writeFileSync(yuv, new Uint8Array(576 * 324 * 1.5 * 2).fill(128));
    const noRate = (await inspectRunInputs(withInputs(runs[0]!, { reference: yuv, distorted: yuv, raw }), [1]))!;
    expect(noRate.notes.join(" ")).toContain("frame rate");
    expect(noRate.bitsPerSecond).toBeUndefined();
    expect(noRate.thumbnails.size).toBe(1);
    // a pipe the run read (a FIFO with no writer now, standard input): a note at once, not a wait for a writer
    const fifo = join(dir, "reference");
    spawnSync("mkfifo", [fifo]);
    for (const reference of [fifo, "-"]) {
      const pipe = (await inspectRunInputs(withInputs(runs[0]!, { reference }), [0]))!;
      expect(pipe.notes).toEqual([`${reference === "-" ? "standard input" : fifo} is a pipe, read once by the run: no bitrate or thumbnails`]);
    }
    // a JSON result alone names no inputs
    expect(await inspectRunInputs({ ...runs[0]!, run: undefined }, [0])).toBeUndefined();
  }, 60_000);
});
