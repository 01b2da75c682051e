import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryReader } from "@vq/core";
import { BROWSER_CASE } from "./browser/browser-case.ts";
import { syntheticFrames } from "./browser/synthetic-frames.ts";
import { score } from "@vq/score";
import { browse, chromium, chromiumRequired } from "./testing/headless-chromium.ts";

/**
 * The library in a real browser: the page is bundled for the browser, fed WebCodecs
 * VideoFrames, and scores VMAF, PSNR and SSIM on the CPU; the result must be what the
 * same frames give in Bun (1e-12 relative: V8's exp/log10 may round differently from
 * JavaScriptCore's in the last bit, ADR 0003).
 */
const dir = mkdtempSync(join(tmpdir(), "vq-browser-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!chromium && !chromiumRequired)("in headless Chromium", () => {
  test("VideoFrames in, the same scores as in Bun", async () => {
    expect(chromium).toBeDefined(); // in CI a missing browser fails here
    const build = await Bun.build({ entrypoints: [join(import.meta.dir, "browser/page.ts")], target: "browser", format: "esm", minify: false });
    expect(build.logs.filter((l) => l.level === "error")).toEqual([]);
    const js = await build.outputs[0]!.text();
    expect(js).not.toContain('from "webgpu"'); // Dawn's native addon stays out of browser bundles
    // A module script may not be inline-imported from file://, so the bundle is inlined.
    const page = join(dir, "page.html");
    writeFileSync(page, `<!doctype html><meta charset="utf-8"><pre id="result">pending</pre><script type="module">${js.replaceAll("</script", "<\\/script")}</script>`);
    // The virtual-time budget lets the page's promise chain finish before the DOM is dumped.
    const dom = browse(page, ["--virtual-time-budget=60000", "--dump-dom"]);
    const text = /<pre id="result">([^<]*)<\/pre>/.exec(dom)?.[1] ?? "";
    const browser = JSON.parse(text.replaceAll("&quot;", '"').replaceAll("&amp;", "&"));
    expect(browser.error).toBeUndefined();
    expect(browser.perFrame).toBe(BROWSER_CASE.frames);

    const { width, height, frames, features } = BROWSER_CASE;
    const format = { width, height, bitDepth: 8, pixelFormat: "420" } as const;
    const run = score({ reference: memoryReader("reference", format, syntheticFrames(width, height, frames, false)), distorted: memoryReader("distorted", format, syntheticFrames(width, height, frames, true)), features: [...features], backend: "cpu" });
    const ours = (await run.result).pooled;
    expect(Object.keys(browser.pooled).sort()).toEqual(Object.keys(ours).sort());
    expect(Object.keys(ours)).toContain("vmaf");
    for (const [key, pooled] of Object.entries(ours)) {
      for (const [stat, v] of Object.entries(pooled)) {
        const theirs = browser.pooled[key][stat] as number;
        if (theirs !== v) expect(Math.abs(theirs - v) / Math.abs(v)).toBeLessThanOrEqual(1e-12);
      }
    }
  }, 300_000);
});
