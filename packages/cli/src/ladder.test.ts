import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPairs, goldenPath } from "@vq/core/golden";
import { gpuForTests } from "@vq/gpu-core/testing";
import { runVq } from "./testing/cli-run.ts";

// nat_576x324's three renditions: a three-rung ladder.
const rungs = goldenPairs().filter((p) => p.reference.endsWith("nat_576x324.ref.y4m"));
const REF = goldenPath(rungs[0]!.reference);
const DISTS = rungs.map((p) => goldenPath(p.distorted));
const dir = mkdtempSync(join(tmpdir(), "vq-ladder-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const gpu = await gpuForTests();

const vq = runVq;

/** An XML result without its fps attribute, the one thing a ladder's file may differ in. */
const withoutFps = (path: string) => readFileSync(path, "utf8").replace(/ fps="[^"]*"/, "");

describe.each(gpu ? ["cpu", "gpu"] : ["cpu"])("vq -r REF -d A -d B -d C on the %s", (backend) => {
  test("writes one file per distorted input, each what a single run writes", async () => {
    const common = ["-r", REF, "--feature", "psnr", "--feature", "float_ssim", "--backend", backend, "--precision", "max"];
    const r = await vq([...common, ...DISTS.flatMap((d) => ["-d", d]), "-o", join(dir, `${backend}-{name}.xml`)]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    for (const [i, rung] of rungs.entries()) {
      const single = join(dir, `${backend}-single-${i}.xml`);
      expect((await vq([...common, "-d", DISTS[i]!, "-o", single])).code).toBe(0);
      const name = rung.distorted.replace(/^.*\//, "").replace(/\.y4m$/, "");
      expect(withoutFps(join(dir, `${backend}-${name}.xml`))).toBe(withoutFps(single));
    }
  }, 240_000);
});

describe("a ladder on the command line", () => {
  test("without -o: one summary line per distorted input on stdout", async () => {
    const r = await vq(["-r", REF, "-d", DISTS[0]!, "-d", DISTS[1]!, "--backend", "cpu", "--frame_cnt", "3"]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")).toEqual([expect.stringMatching(new RegExp(`^${DISTS[0]}: vmaf_v0\\.6\\.1: \\d+\\.\\d{6}$`)), expect.stringMatching(new RegExp(`^${DISTS[1]}: vmaf_v0\\.6\\.1: \\d+\\.\\d{6}$`)), ""]);
  }, 60_000);

  test("an input that fails is reported in one line; the others are written; exit 1", async () => {
    const missing = join(dir, "missing-720p.y4m");
    const r = await vq(["-r", REF, "-d", missing, "-d", DISTS[2]!, "--backend", "cpu", "--frame_cnt", "2", "--json", "-o", join(dir, "fail-{n}.json")]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual([expect.stringContaining(missing)]);
    expect(existsSync(join(dir, "fail-1.json"))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, "fail-2.json"), "utf8")).frames).toHaveLength(2);
  }, 60_000);

  test("-o without {name} or {n}, or two inputs of one name, is refused before anything runs", async () => {
    const one = await vq(["-r", REF, "-d", DISTS[0]!, "-d", DISTS[1]!, "-o", join(dir, "one.json")]);
    expect(one.code).toBe(1);
    expect(one.stderr).toContain("put {name}");
    const same = await vq(["-r", REF, "-d", DISTS[0]!, "-d", DISTS[0]!, "-o", join(dir, "{name}.json")]);
    expect(same.code).toBe(1);
    expect(same.stderr).toMatch(/^vq: distorted inputs .* have the same name "nat_576x324.x264crf30"/);
    expect(existsSync(join(dir, "one.json"))).toBe(false);
  });
});
