import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPairs, goldenPath } from "@vq/core/golden";
import { main } from "./main.ts";

const dir = mkdtempSync(join(tmpdir(), "vq-threshold-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function vq(args: string[], stderrIsTty = false) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), stderrIsTty });
  return { code, stdout, stderr };
}

const pair = goldenPairs().find((p) => p.pair === "nat_576x324.x264crf45")!;
const RUN = ["-r", goldenPath(pair.reference), "-d", goldenPath(pair.distorted), "--backend", "cpu", "--frame_cnt", "4", "--json"];
let outputs = 0;
const output = () => join(dir, `out-${++outputs}.json`);
const withoutFps = (text: string) => text.replace(/^ {2}"fps": .*\n/m, "");

/** The run's own pooled scores (with --pool extended), to set thresholds just above and below them. */
const measured = await (async () => {
  const out = output();
  expect((await vq([...RUN, "--pool", "extended", "--feature", "psnr", "-o", out])).code).toBe(0);
  return JSON.parse(readFileSync(out, "utf8")).pooled_metrics as Record<string, Record<string, number>>;
})();

describe("--threshold", () => {
  test("passing thresholds: exit 0, nothing on stderr, the output as without them", async () => {
    const [plain, gated] = [output(), output()];
    expect((await vq([...RUN, "-o", plain])).code).toBe(0);
    const vmaf = measured.vmaf!;
    const r = await vq([...RUN, "-o", gated, "--threshold", `vmaf.mean>=${vmaf.mean! - 0.5}`, "--threshold", `vmaf.p5>${vmaf.p5! - 0.5}`, "--threshold", `vmaf.stdev<${vmaf.stdev! + 0.5}`]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    // thresholds on extended statistics do not put them in the output (no --pool extended)
    expect(withoutFps(readFileSync(gated, "utf8"))).toBe(withoutFps(readFileSync(plain, "utf8")));
  });

  test("a failed threshold: exit 3, one line per failure with the measured value, the output still written", async () => {
    const out = output();
    const vmaf = measured.vmaf!;
    const above = (vmaf.mean! + 0.5).toFixed(3);
    const r = await vq([...RUN, "-o", out, "-q", "--feature", "psnr", "--threshold", `vmaf.mean>=${above}`, "--threshold", `vmaf.min>0`, "--threshold", `psnr_y.p95<=${measured.psnr_y!.p95! - 0.5}`]);
    expect(r.code).toBe(3);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      `vq: threshold failed: vmaf.mean>=${above} (measured ${vmaf.mean!.toFixed(6)})`,
      `vq: threshold failed: psnr_y.p95<=${measured.psnr_y!.p95! - 0.5} (measured ${measured.psnr_y!.p95!.toFixed(6)})`,
    ]);
    expect(JSON.parse(readFileSync(out, "utf8")).pooled_metrics.vmaf.mean).toBe(vmaf.mean);
  });

  test("on a terminal, the failures come before libvmaf's closing summary line", async () => {
    const r = await vq([...RUN, "-o", output(), "--threshold", `vmaf.max<${measured.vmaf!.max! - 0.5}`], true);
    expect(r.code).toBe(3);
    const lines = r.stderr.trimEnd().split("\n").slice(-2);
    expect(lines[0]).toStartWith("vq: threshold failed: vmaf.max<");
    expect(lines[1]).toBe(`vmaf_v0.6.1: ${measured.vmaf!.mean!.toFixed(6)}`);
  });

  test("a model's name= is its metric", async () => {
    const r = await vq([...RUN, "-o", output(), "-m", "version=vmaf_v0.6.1:name=gate", "--threshold", `gate.mean<${measured.vmaf!.mean! - 0.5}`]);
    expect(r.code).toBe(3);
    expect(r.stderr).toStartWith("vq: threshold failed: gate.mean<");
  });
});

describe("--threshold with several distorted inputs", () => {
  test("each input is checked; a failure names its input; every output is written; exit 3", async () => {
    const good = goldenPairs().find((p) => p.pair === "nat_576x324.x264crf30")!;
    const ladder = ["-r", goldenPath(pair.reference), "-d", goldenPath(good.distorted), "-d", goldenPath(pair.distorted), "--backend", "cpu", "--frame_cnt", "3", "--json", "--pool", "extended"];
    const first = await vq([...ladder, "-o", join(dir, "ladder-{n}.json")]);
    expect(first.code).toBe(0);
    const [better, worse] = [1, 2].map((n) => JSON.parse(readFileSync(join(dir, `ladder-${n}.json`), "utf8")).pooled_metrics.vmaf);
    expect(Object.keys(better)).toContain("p5");
    // a gate between the two renditions' 5th percentiles
    const gate = ((better.p5 + worse.p5) / 2).toFixed(3);
    const r = await vq([...ladder, "-o", join(dir, "gated-{n}.json"), "--threshold", `vmaf.p5>=${gate}`]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(`vq: ${goldenPath(pair.distorted)}: threshold failed: vmaf.p5>=${gate} (measured ${worse.p5.toFixed(6)})\n`);
    for (const n of [1, 2]) expect(existsSync(join(dir, `gated-${n}.json`))).toBe(true);
  });
});

/** An error before scoring: exit 1, one line naming `names`, no output file. */
async function expectRefused(args: string[], ...names: string[]) {
  const out = output();
  const r = await vq([...RUN, "-o", out, ...args]);
  expect(r.code).toBe(1);
  expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  for (const n of names) expect(r.stderr).toContain(n);
  expect(existsSync(out)).toBe(false);
}

describe("--threshold errors, before scoring", () => {
  test("an expression that does not parse", async () => {
    await expectRefused(["--threshold", "vmaf.mean=>93"], 'invalid --threshold "vmaf.mean=>93"', 'unknown operator "=>"');
    await expectRefused(["--threshold", "vmaf.average>=93"], 'unknown statistic "average"');
    await expectRefused(["--threshold", "vmaf.mean>=high"], '"high" is not a number');
  });

  test("a metric the run does not compute", async () => {
    await expectRefused(["--threshold", "psnr_y.min>30"], '--threshold "psnr_y.min>30": this run computes no "psnr_y"', "vmaf");
    await expectRefused(["-m", "version=vmaf_v0.6.1:name=gate", "--threshold", "vmaf.mean>=93"], 'computes no "vmaf"', "gate");
    await expectRefused(["-n", "--feature", "psnr", "--threshold", "vmaf.mean>=93"], 'computes no "vmaf"');
    // before any input is opened: the missing file is not what is reported
    const r = await vq(["-r", goldenPath(pair.reference), "-d", join(dir, "missing.y4m"), "--backend", "cpu", "--threshold", "psnr_y.min>30"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toStartWith('vq: --threshold "psnr_y.min>30": this run computes no "psnr_y"');
  });

  test("--pool takes libvmaf or extended", async () => {
    await expectRefused(["--pool", "all"], 'invalid argument "all" for --pool: expected libvmaf or extended');
  });
});
