import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPath } from "@vq/core/golden";
import { main } from "../main.ts";

// libvmaf's closing summary (`vmaf_v0.6.1: 71.329066`) on a terminal, checked against the
// pooled means libvmaf printed (out/, its own %.6f) for the same pair and models.
const dir = mkdtempSync(join(tmpdir(), "vq-summary-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PAIR = "odd_321x241_444.x264crf32";
const inputs = ["-r", goldenPath("vectors/odd_321x241_444.ref.y4m"), "-d", goldenPath(`vectors/${PAIR}.y4m`), "--backend", "cpu"];

/** The pooled mean of `key` exactly as libvmaf wrote it in out/. */
function libvmafMean(run: string, key: string): string {
  const text = readFileSync(goldenPath(`out/${PAIR}.${run}.json`), "utf8");
  const pooled = text.slice(text.indexOf('"pooled_metrics"'));
  const m = new RegExp(`"${key}": \\{[^}]*"mean": ([-0-9.]+)`).exec(pooled);
  if (!m) throw new Error(`out/${PAIR}.${run}.json has no pooled ${key}`);
  return m[1]!;
}

async function vq(args: string[], stderrIsTty: boolean) {
  let stderr = "";
  const code = await main([...inputs, ...args], { stdout: () => {}, stderr: (t) => void (stderr += t), stderrIsTty });
  return { code, lines: stderr.split(/\r|\n/).filter((l) => l && !l.includes("frames")) };
}

describe("the terminal's closing summary", () => {
  test("default model: libvmaf's line, last", async () => {
    const r = await vq(["--json", "-o", join(dir, "a.json")], true);
    expect(r.code).toBe(0);
    expect(r.lines.at(-1)).toBe(`vmaf_v0.6.1: ${libvmafMean("all", "vmaf")}`);
  });

  test("several models: one line each, labelled by version, scored under their names", async () => {
    const r = await vq(["--model", "version=vmaf_v0.6.1", "--model", "version=vmaf_v0.6.1:name=vmaf_phone:enable_transform", "-o", join(dir, "b.xml")], true);
    expect(r.code).toBe(0);
    expect(r.lines.slice(-2)).toEqual([`vmaf_v0.6.1: ${libvmafMean("all", "vmaf")}`, `vmaf_v0.6.1: ${libvmafMean("vmaf_phone", "vmaf_phone")}`]);
  });

  test("none when stderr is not a terminal, with -q and -o, or with -n", async () => {
    expect((await vq(["-o", join(dir, "c.xml")], false)).lines).toEqual([]);
    expect((await vq(["-q", "-o", join(dir, "d.xml")], true)).lines).toEqual([]);
    expect((await vq(["-n", "--feature", "psnr", "-o", join(dir, "e.xml")], true)).lines).toEqual([]);
  });
});
