import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPath } from "@vq/core/golden";
import { main } from "./main.ts";

const dir = mkdtempSync(join(tmpdir(), "vq-threads-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const quiet = { stdout: () => {}, stderr: () => {}, stderrIsTty: false };
const withoutFps = (path: string) => readFileSync(path, "utf8").replace(/^ {2}"fps": .*\n/m, "");

// --threads spreads frames over workers; the output must be byte for byte what one thread writes.
for (const [name, extra] of [
  ["VMAF v0.6.1 with psnr and APSNR", ["--feature", "psnr=enable_apsnr=true"]],
  ["bootstrap model, subsampled", ["--model", "version=vmaf_b_v0.6.3", "--subsample", "3"]],
  // cambi's "not set" defaults lie outside their ranges: workers must take them as resolved
  ["cambi with full_ref", ["-n", "--feature", "cambi=full_ref=true"]],
] as const) {
  test(`--threads 2 and 3 write what --threads 1 writes: ${name}`, async () => {
    const base = ["-r", goldenPath("vectors/odd_321x241_444.ref.y4m"), "-d", goldenPath("vectors/odd_321x241_444.x264crf32.y4m"), "--json", "--precision", "max", "--backend", "cpu", ...extra];
    const outs = [1, 2, 3].map((t) => join(dir, `${name.length}-${t}.json`));
    for (const [i, out] of outs.entries()) expect(await main([...base, "--threads", String(i + 1), "-o", out], quiet)).toBe(0);
    const one = withoutFps(outs[0]!);
    expect(one).toContain(name.startsWith("cambi") ? '"cambi_source"' : '"vmaf');
    expect(withoutFps(outs[1]!)).toBe(one);
    expect(withoutFps(outs[2]!)).toBe(one);
  });
}
