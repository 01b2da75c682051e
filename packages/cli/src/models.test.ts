import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

  // Such a model once wrote `"vmaf": 100` (an overflow the clip pinned) on every frame, exit 0.
  test("a score that is not a finite number stops the run naming the model and the frame, writing nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vq-models-"));
    const json = JSON.parse(readFileSync(new URL("../../model/models/vmaf_v0.6.1.json", import.meta.url), "utf8"));
    json.model_dict.slopes[0] = 1e-320; // finite, but the prediction divided by it is not
    const model = join(dir, "overflow.json");
    writeFileSync(model, JSON.stringify(json));
    let err = "";
    const io = { stdout: () => {}, stderr: (t: string) => void (err += t), stderrIsTty: false };
    const out = join(dir, "out.json");
    const pair = ["-r", goldenPath("vectors/odd_321x241_444.ref.y4m"), "-d", goldenPath("vectors/odd_321x241_444.noise.y4m")];
    expect(await main([...pair, "--model", `path=${model}`, "--json", "-o", out, "--backend", "cpu"], io)).toBe(1);
    expect(err).toBe(`vq: model vmaf (${model}): frame 0: the prediction is Infinity, not a finite number (check the model's numbers)\n`);
    expect(readdirSync(dir).sort()).toEqual(["overflow.json"]);
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
