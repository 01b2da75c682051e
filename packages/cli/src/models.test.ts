import { describe, expect, test } from "bun:test";
import { goldenOutput, goldenPairs, goldenPath, goldenRun } from "@vq/core/golden";
import { main } from "./main.ts";

describe("--model", () => {
  test("a bad --model is named in the command line's words", async () => {
    let err = "";
    const io = { stdout: () => {}, stderr: (t: string) => void (err += t), stderrIsTty: false };
    expect(await main(["-r", "a.y4m", "-d", "b.y4m", "--model", "version=vmaf_v0.6.1:colour=red"], io)).toBe(1);
    expect(err).toStartWith('vq: invalid --model "version=vmaf_v0.6.1:colour=red"');
  });

  test("an unknown model name and a bad model file are one-line errors", async () => {
    let err = "";
    const io = { stdout: () => {}, stderr: (t: string) => void (err += t), stderrIsTty: false };
    const pair = ["-r", goldenPath("vectors/odd_321x241_444.ref.y4m"), "-d", goldenPath("vectors/odd_321x241_444.noise.y4m")];
    expect(await main([...pair, "--model", "version=vmaf_v9"], io)).toBe(1);
    expect(err).toContain('no built-in model "vmaf_v9"');
    err = "";
    expect(await main([...pair, "--model", `path=${goldenPath("manifest.json")}`], io)).toBe(1);
    expect(err.trimEnd().split("\n")).toHaveLength(1);
    expect(err).toContain("manifest.json");
  });

  // libvmaf's vmaf_v0.6.1neg model sets vif and adm's enhancement gain limit to 1: the same
  // options given as overloads on vmaf_v0.6.1 must give libvmaf's features of that run.
  test("feature overloads reproduce the neg model's features", async () => {
    const pair = goldenPairs().find((p) => p.pair === "odd_321x241_444.x264crf32")!;
    let out = "";
    const io = { stdout: (t: string) => void (out += t), stderr: () => {}, stderrIsTty: false };
    const args = ["-r", goldenPath(pair.reference), "-d", goldenPath(pair.distorted), "--json", "--precision", "max", "--backend", "cpu"];
    expect(await main([...args, "--model", "version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=1:vif.vif_enhn_gain_limit=1"], io)).toBe(0);
    const ours = JSON.parse(out);
    const golden = goldenOutput(goldenRun(pair, "vmaf_v0.6.1neg"), true);
    let compared = 0;
    for (const [i, f] of golden.frames.entries()) {
      for (const [k, v] of Object.entries(f.metrics)) {
        if (!k.endsWith("_egl_1")) continue;
        expect(ours.frames[i].metrics[k]).toBe(v);
        compared++;
      }
    }
    expect(compared).toBe(golden.frames.length * 11);
  });
});
