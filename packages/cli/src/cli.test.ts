import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenOutput, goldenPairs, goldenPath, goldenRun } from "@vq/core/golden";
import { main } from "./main.ts";

const dir = mkdtempSync(join(tmpdir(), "vq-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function vq(args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), stderrIsTty: false });
  return { code, stdout, stderr };
}

const REF = goldenPath("vectors/odd_321x241_444.ref.y4m");
const DIST = goldenPath("vectors/odd_321x241_444.noise.y4m");

function file(name: string, data: string | Uint8Array): string {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
}

function y4m(header: string, frames: number, frameBytes: number, cut = 0): Uint8Array {
  const head = new TextEncoder().encode(`${header}\n`);
  const frame = new Uint8Array(6 + frameBytes);
  frame.set(new TextEncoder().encode("FRAME\n"));
  const out = new Uint8Array(head.length + frames * frame.length - cut);
  out.set(head);
  for (let i = 0; i < frames; i++) out.set(frame.subarray(0, Math.min(frame.length, out.length - head.length - i * frame.length)), head.length + i * frame.length);
  return out;
}

/** A bad input: exit code 1, one line on stderr naming `names`, no stack, no output file. */
async function expectCleanError(args: string[], ...names: string[]) {
  const out = join(dir, `out-${Math.random().toString(36).slice(2)}.json`);
  const r = await vq([...args, "--json", "-o", out, "--backend", "cpu"]);
  expect(r.code).toBe(1);
  expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(r.stderr).toStartWith("vq: ");
  expect(r.stderr).not.toContain("    at ");
  for (const n of names) expect(r.stderr).toContain(n);
  expect(existsSync(out)).toBe(false);
  return r.stderr;
}

describe("vq command line", () => {
  test("scores a pair and writes libvmaf's JSON structure", async () => {
    const out = join(dir, "ok.json");
    const r = await vq(["-r", REF, "-d", DIST, "--feature", "psnr", "-n", "--json", "-o", out, "--backend", "cpu"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const json = JSON.parse(readFileSync(out, "utf8"));
    expect(Object.keys(json)).toEqual(["version", "fps", "frames", "pooled_metrics", "aggregate_metrics"]);
    expect(json.frames).toHaveLength(6);
    expect(Object.keys(json.frames[0].metrics)).toEqual(["psnr_y", "psnr_cb", "psnr_cr"]);
    expect(Object.keys(json.pooled_metrics.psnr_y)).toEqual(["min", "max", "mean", "harmonic_mean"]);
  });

  test("--help and --version", async () => {
    expect((await vq(["--help"])).stdout).toContain("--backend cpu|gpu|auto");
    expect((await vq(["--version"])).stdout).toMatch(/^vq \d+\.\d+\.\d+/);
  });

  test("--help, --version and vq report --help exit 0 when stdout's write returns a value (as process.stdout.write does)", async () => {
    const io = { stdout: () => true as unknown as void, stderr: () => {}, stderrIsTty: false };
    for (const args of [["--help"], ["--version"], ["report", "--help"]]) expect(await main(args, io)).toBe(0);
  });

  test("a file that is not Y4M", async () => {
    const bad = file("notes.y4m", "hello, this is text\n");
    await expectCleanError(["-r", bad, "-d", DIST, "--feature", "psnr", "-n"], "notes.y4m", "not a Y4M file");
  });

  test("a truncated frame", async () => {
    const ref = file("trunc-ref.y4m", y4m("YUV4MPEG2 W8 H8 F25:1 C444", 3, 192));
    const dist = file("trunc-dist.y4m", y4m("YUV4MPEG2 W8 H8 F25:1 C444", 3, 192, 50));
    await expectCleanError(["-r", ref, "-d", dist, "--feature", "psnr", "-n"], "trunc-dist.y4m", "frame 2 is truncated");
  });

  test("reference and distorted of different sizes", async () => {
    const ref = file("size-ref.y4m", y4m("YUV4MPEG2 W8 H8 F25:1 C444", 1, 192));
    const dist = file("size-dist.y4m", y4m("YUV4MPEG2 W8 H4 F25:1 C444", 1, 96));
    await expectCleanError(["-r", ref, "-d", dist, "--feature", "psnr", "-n"], "size-ref.y4m", "size-dist.y4m", "8x8 vs 8x4");
  });

  test("reference and distorted of different bit depths", async () => {
    const ref = file("depth-ref.y4m", y4m("YUV4MPEG2 W8 H8 F25:1 C444", 1, 192));
    const dist = file("depth-dist.y4m", y4m("YUV4MPEG2 W8 H8 F25:1 C444p10", 1, 384));
    await expectCleanError(["-r", ref, "-d", dist, "--feature", "psnr", "-n"], "bit depths differ: 8 vs 10");
  });

  test("an unknown C tag", async () => {
    const bad = file("ctag.y4m", y4m("YUV4MPEG2 W8 H8 F25:1 C420wat", 1, 96));
    await expectCleanError(["-r", bad, "-d", bad, "--feature", "psnr", "-n"], "ctag.y4m", '"C420wat"');
  });

  test("zero frames", async () => {
    const empty = file("empty.y4m", y4m("YUV4MPEG2 W8 H8 F25:1 C444", 0, 192));
    await expectCleanError(["-r", empty, "-d", empty, "--feature", "psnr", "-n"], "empty.y4m", "zero frames");
  });

  test("raw YUV whose size is not a whole number of frames", async () => {
    const raw = file("odd.yuv", new Uint8Array(8 * 8 * 3 + 17));
    await expectCleanError(["-r", raw, "-d", raw, "-w", "8", "-h", "8", "-p", "444", "-b", "8", "--feature", "psnr", "-n"], "odd.yuv", "not a whole number");
  });

  test("raw YUV without its format", async () => {
    const raw = file("noformat.yuv", new Uint8Array(8 * 8 * 3));
    await expectCleanError(["-r", raw, "-d", raw, "--feature", "psnr", "-n"], "noformat.yuv", "--width");
  });

  test("an unknown feature", async () => {
    await expectCleanError(["-r", REF, "-d", DIST, "--feature", "psnrr", "-n"], '"psnrr"', "available: adm, ", " psnr, ");
  });

  test("an unknown feature option", async () => {
    await expectCleanError(["-r", REF, "-d", DIST, "--feature", "psnr=enable_msee=true", "-n"], "psnr", '"enable_msee"');
  });

  test("an option value of the wrong type or out of range", async () => {
    await expectCleanError(["-r", REF, "-d", DIST, "--feature", "psnr=enable_mse=yes", "-n"], "enable_mse=yes", "true or false");
    await expectCleanError(["-r", REF, "-d", DIST, "--feature", "psnr=min_sse=-1", "-n"], "min_sse");
  });

  test("an unknown command-line option and a missing file", async () => {
    await expectCleanError(["-r", REF, "-d", DIST, "--fature", "psnr", "-n"], "--fature");
    await expectCleanError(["-r", join(dir, "nope.y4m"), "-d", DIST, "--feature", "psnr", "-n"], "nope.y4m: no such file");
  });

  test("a different frame count scores the common prefix and says so", async () => {
    const ref = file("long.y4m", y4m("YUV4MPEG2 W8 H8 F25:1 C444", 3, 192));
    const dist = file("short.y4m", y4m("YUV4MPEG2 W8 H8 F25:1 C444", 2, 192));
    const r = await vq(["-r", ref, "-d", dist, "--feature", "psnr", "-n", "--json", "--backend", "cpu"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("short.y4m ended before");
    expect(JSON.parse(r.stdout).frames).toHaveLength(2);
  });
});

describe("a feature the model also asks for", () => {
  test("--feature vif=debug=true with the default model: one vif run with the debug outputs, libvmaf's numbers", async () => {
    const pair = goldenPairs().find((p) => p.pair === "odd_321x241_444.x264crf32")!;
    const r = await vq(["-r", goldenPath(pair.reference), "-d", goldenPath(pair.distorted), "--feature", "vif=debug=true", "--json", "--precision", "max", "--backend", "cpu"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const ours = JSON.parse(r.stdout);
    const all = goldenOutput(goldenRun(pair, "all"), true);
    const debug = goldenOutput(goldenRun(pair, "debug"), true);
    for (const [i, f] of ours.frames.entries()) {
      expect(f.metrics.vmaf).toBe(all.frames[i]!.metrics.vmaf);
      expect(f.metrics.integer_vif_num_scale0).toBe(debug.frames[i]!.metrics.integer_vif_num_scale0);
      expect(f.metrics.integer_vif_scale3).toBe(all.frames[i]!.metrics.integer_vif_scale3);
    }
  });

  test("options that would change the model's scores are refused in one line", async () => {
    await expectCleanError(["-r", REF, "-d", DIST, "--feature", "psnr", "--feature", "psnr=min_sse=2"], "feature psnr is asked for twice", "min_sse=2");
  });
});

describe("progress", () => {
  test("shows done/total, fps and ETA when the length is known, a count otherwise", async () => {
    const { progressLine } = await import("./main.ts");
    expect(progressLine(120, 480, 10)).toBe("120/480 frames  12.0 fps  ETA 30s");
    expect(progressLine(7, undefined, 2)).toBe("7 frames  3.5 fps");
  });

  test("writes nothing to stderr when it is not a terminal", async () => {
    const r = await vq(["-r", REF, "-d", DIST, "--feature", "psnr", "-n", "--json", "--backend", "cpu"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
  });
});
