import { afterAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPath } from "@vq/core/golden";

// -q leaves only errors on stderr: no progress, no notes (a CPU fallback), and none of the
// notices Dawn prints from native code when it opens an adapter ("Warning: max...
// artificially reduced ..."), which bin/vq.js filters out of a child's stderr.
const dir = mkdtempSync(join(tmpdir(), "vq-quiet-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bin = join(import.meta.dir, "../bin/vq.js");
const pair = ["-r", goldenPath("vectors/odd_321x241_444.ref.y4m"), "-d", goldenPath("vectors/odd_321x241_444.x264crf32.y4m"), "--frame_cnt", "2"];

for (const runtime of [process.execPath, "node"]) {
  const name = runtime === "node" ? "node" : "bun";
  test(`${name}: vq -q with the GPU asked for prints nothing on stderr, and still reports an error`, () => {
    const vq = (args: string[]) => spawnSync(runtime, [bin, ...args], { encoding: "utf8", timeout: 300_000 });
    // auto opens the adapter (Dawn's notices), and on a software one falls back with a note
    const loud = vq([...pair, "--backend", "auto", "-o", join(dir, `${name}-loud.xml`)]);
    expect(loud.status).toBe(0);
    const quiet = vq([...pair, "--backend", "auto", "-q", "-o", join(dir, `${name}-quiet.xml`)]);
    expect(quiet.status).toBe(0);
    expect(quiet.stderr).toBe("");
    if (loud.stderr) console.log(`without -q (${name}):\n${loud.stderr}`);
    const failed = vq(["-r", join(dir, "missing.y4m"), "-d", join(dir, "missing.y4m"), "-q"]);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/^vq: .*missing\.y4m.*\n$/);
  }, 600_000);
}
