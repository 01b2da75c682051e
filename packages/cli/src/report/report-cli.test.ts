import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPairs, goldenPath, goldenRun } from "@vq/core/golden";
import { REPORT_USAGE } from "../args.ts";
import { main } from "../main.ts";

const dir = mkdtempSync(join(tmpdir(), "vq-report-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REF = goldenPath("vectors/odd_321x241_444.ref.y4m");
const DIST = goldenPath("vectors/odd_321x241_444.noise.y4m");
const GOLDEN = goldenPath(goldenRun(goldenPairs()[0]!, "all").output);

async function vq(args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), stderrIsTty: false });
  return { code, stdout, stderr };
}

/** Exit 1, one line on stderr naming `names`, no stack. */
function expectOneLineError(r: { code: number; stderr: string }, ...names: string[]) {
  expect(r.code).toBe(1);
  expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(r.stderr).toStartWith("vq: ");
  expect(r.stderr).not.toContain("    at ");
  for (const n of names) expect(r.stderr).toContain(n);
}

/** libvmaf's JSON less its fps line (a timing). */
const withoutFps = (text: string) => text.replace(/\n {2}"fps": [^\n]*\n/, "\n");

describe("vq report RESULT.json", () => {
  test("writes the HTML file, or to standard output without -o", async () => {
    const out = join(dir, "golden.html");
    const r = await vq(["report", GOLDEN, "-o", out]);
    expect([r.code, r.stderr, r.stdout]).toEqual([0, "", ""]);
    const html = readFileSync(out, "utf8");
    expect(html).toStartWith("<!doctype html>");
    expect(html).toContain('data-key="vmaf"');
    const toStdout = await vq(["report", GOLDEN]);
    expect(toStdout.code).toBe(0);
    expect(toStdout.stdout).toBe(html);
  });

  test("--help, and the scoring usage mentions it", async () => {
    expect((await vq(["report", "--help"])).stdout).toBe(REPORT_USAGE);
    const usage = (await vq(["--help"])).stdout;
    expect(usage).toContain("vq report RESULT.json");
    expect(usage).toContain("--report PATH");
  });

  test("a bad file: one line naming the file and the field, no report written", async () => {
    const bad = join(dir, "bad.json");
    const json = JSON.parse(readFileSync(GOLDEN, "utf8"));
    json.frames[1].metrics.vmaf = "high";
    writeFileSync(bad, JSON.stringify(json));
    const out = join(dir, "bad.html");
    expectOneLineError(await vq(["report", bad, "-o", out]), "bad.json", "frames[1].metrics.vmaf");
    expect(existsSync(out)).toBe(false);
    expectOneLineError(await vq(["report", join(dir, "missing.json"), "-o", out]), "missing.json", "no such file");
    writeFileSync(join(dir, "text.json"), "VMAF score = 93\n");
    expectOneLineError(await vq(["report", join(dir, "text.json"), "-o", out]), "text.json", "not a JSON result file");
    expect(existsSync(out)).toBe(false);
  });

  test("bad arguments", async () => {
    expectOneLineError(await vq(["report"]), "needs a JSON result file");
    expectOneLineError(await vq(["report", GOLDEN, "--json"]), "unknown option --json");
    expectOneLineError(await vq(["report", GOLDEN, "-o"]), "--output needs a value");
  });
});

describe("vq ... --report PATH", () => {
  test("writes the report beside an unchanged output, with the run's settings", async () => {
    const args = ["-r", REF, "-d", DIST, "--feature", "psnr=enable_mse=true", "-n", "--json", "--backend", "cpu"];
    const plain = join(dir, "plain.json");
    const withReport = join(dir, "with-report.json");
    const report = join(dir, "run.html");
    expect((await vq([...args, "-o", plain])).code).toBe(0);
    const r = await vq([...args, "-o", withReport, "--report", report]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(withoutFps(readFileSync(withReport, "utf8"))).toBe(withoutFps(readFileSync(plain, "utf8")));
    const html = readFileSync(report, "utf8");
    expect(html).toContain("<title>VMAF report: odd_321x241_444.ref.y4m vs odd_321x241_444.noise.y4m</title>");
    expect(html).toContain(`<td>reference</td><td>${REF}</td>`);
    expect(html).toContain(`<td>distorted</td><td>${DIST}</td>`);
    expect(html).toContain("<td>models</td><td>none (-n)</td>");
    expect(html).toContain("<td>extra features</td><td>psnr=enable_mse=true</td>");
    expect(html).toContain("<td>backend</td><td>cpu</td>");
    expect(html).toContain(`--report ${report}`);
    expect(html).toContain("Worst frames (lowest <code>psnr_y</code>)");
  });

  test("with another output format and standard output", async () => {
    const report = join(dir, "xml-run.html");
    const r = await vq(["-r", REF, "-d", DIST, "--feature", "psnr", "-n", "--backend", "cpu", "--report", report]);
    expect(r.code).toBe(0);
    expect(r.stdout).toStartWith("<VMAF version=");
    expect(readFileSync(report, "utf8")).toContain("<td>result file</td><td>standard output</td>");
  });

  test("an unwritable path: one line, and neither file is left", async () => {
    const out = join(dir, "never.json");
    const r = await vq(["-r", REF, "-d", DIST, "--feature", "psnr", "-n", "--json", "--backend", "cpu", "-o", out, "--report", join(dir, "no-such-dir", "r.html")]);
    expectOneLineError(r, "no-such-dir", "cannot write the report");
    expect(existsSync(out)).toBe(false);
    const report = join(dir, "never.html");
    const r2 = await vq(["-r", REF, "-d", DIST, "--feature", "psnr", "-n", "--json", "--backend", "cpu", "-o", join(dir, "no-such-dir", "o.json"), "--report", report]);
    expectOneLineError(r2, "no-such-dir", "cannot write the output");
    expect(existsSync(report)).toBe(false);
  });
});
