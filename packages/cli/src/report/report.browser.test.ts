/**
 * The report in a real browser: headless Chromium loads it (scripts run), the DOM is
 * checked and a screenshot is kept for people to look at:
 *   packages/cli/test-output/report.png        (a vq run on samples/, default model)
 *   packages/cli/test-output/report-nulls.png  (a golden libvmaf result with null scores)
 *   packages/cli/test-output/report-comparison.png  (a three-rendition ladder, bootstrap model)
 * beside the HTML files they show. Without Chromium the tests skip, unless CI=true or
 * VQ_REQUIRE_CHROMIUM=1 (then they fail). VQ_CHROMIUM names the binary if it is not on PATH.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { goldenOutput, goldenPairs, goldenPath, goldenRun } from "@vq/core/golden";
import { main } from "../main.ts";
import { encodeLadder, RENDITIONS, scoreLadder } from "../testing/report-ladder.ts";
import { primaryKey } from "./report-data.ts";
import { readReportData } from "./report-file.ts";
import { scoringReport } from "./scoring-report.ts";
import { framesBelowMean } from "./worst-frames.ts";
import { browse, chromium, chromiumRequired } from "../testing/headless-chromium.ts";

const OUTPUT_DIR = resolve(import.meta.dir, "../../test-output");
const SAMPLES = resolve(import.meta.dir, "../../../../samples");
const WINDOW = { width: 1280, height: 2000 };

const required = chromiumRequired;
const work = mkdtempSync(join(tmpdir(), "vq-report-browser-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A PNG's size from its IHDR chunk, after checking the signature. */
function pngSize(path: string): { width: number; height: number; bytes: number } {
  const b = readFileSync(path);
  expect([...b.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(b.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20), bytes: b.length };
}

function screenshot(page: string, png: string, window = WINDOW): void {
  rmSync(png, { force: true });
  browse(page, [`--window-size=${window.width},${window.height}`, `--screenshot=${png}`]);
  expect(existsSync(png)).toBe(true);
  const size = pngSize(png);
  expect([size.width, size.height]).toEqual([window.width, window.height]);
  // A blank or error page compresses to a few kB; a rendered report with plots is far larger.
  expect(size.bytes).toBeGreaterThan(40_000);
}

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

/** The DOM after the page's scripts ran: the plots' paths, the tables, the script's mark. */
function checkDom(page: string, json: string) {
  const dom = browse(page, ["--dump-dom"]);
  const data = readReportData(json);
  expect(dom).toMatch(/<html[^>]* class="js"/);
  expect(dom).toMatch(/<html[^>]* data-ready="true"/);
  for (const k of data.modelKeys) expect(dom).toMatch(new RegExp(`<path class="series[^"]*" data-key="${k}" stroke="#[0-9a-f]+" d="M[^"]+"`));
  expect(count(dom, /<figure data-key=/g)).toBe(data.featureKeys.length);
  expect(count(dom, /<path class="series" data-key="[^"]+" stroke="#[0-9a-f]+" d="M/g)).toBeGreaterThanOrEqual(data.featureKeys.filter((k) => data.values[k]!.some((v) => typeof v === "number")).length);
  const below = framesBelowMean(data, primaryKey(data)!, 10).frames.length;
  const at = dom.indexOf('<table class="worst-frames"');
  expect(at >= 0).toBe(below > 0);
  if (below) expect(count(dom.slice(at, dom.indexOf("</table>", at)), /<tr( class="minimum")?><td class="num">/g)).toBe(below);
  // every inline picture decoded
  expect(dom).not.toContain('data-decoded="false"');
  const pooled = dom.slice(dom.indexOf('<table class="pooled">'), dom.indexOf("</table>", dom.indexOf('<table class="pooled">')));
  expect(count(pooled, /<tr><td class="key">/g)).toBe(Object.keys(data.pooled).length);
  return { dom, data };
}

describe.skipIf(!chromium && !required)("the report in headless Chromium", () => {
  test("Chromium is installed (CI needs it: apt-get install chromium)", () => {
    expect(chromium, "no chromium, chromium-browser or google-chrome on PATH (set VQ_CHROMIUM)").toBeDefined();
  });

  test.skipIf(!chromium)(
    "a vq run on the sample pair with the default model",
    async () => {
      mkdirSync(OUTPUT_DIR, { recursive: true });
      const json = join(work, "sample.json");
      const page = join(OUTPUT_DIR, "report.html");
      const args = ["-r", join(SAMPLES, "sample.ref.y4m"), "-d", join(SAMPLES, "sample.dist.y4m"), "--json", "-o", json, "--report", page, "--backend", "cpu", "-q"];
      let stderr = "";
      expect(await main(args, { stdout: () => {}, stderr: (t) => void (stderr += t), stderrIsTty: false })).toBe(0);
      expect(stderr).toBe("");
      const { dom } = checkDom(page, json);
      expect(dom).toContain("<title>VMAF report: sample.ref.y4m vs sample.dist.y4m</title>");
      expect(count(dom, /<img [^>]*data-decoded="true"/g)).toBeGreaterThan(0);
      screenshot(page, join(OUTPUT_DIR, "report.png"));
    },
    300_000,
  );

  test.skipIf(!chromium)(
    "a golden libvmaf result with null scores",
    () => {
      mkdirSync(OUTPUT_DIR, { recursive: true });
      const pair = goldenPairs().find((p) => goldenOutput(goldenRun(p, "all"), false).frames.some((f) => Object.values(f.metrics).includes(null)));
      expect(pair).toBeDefined();
      const json = goldenPath(goldenRun(pair!, "all").output);
      const page = join(OUTPUT_DIR, "report-nulls.html");
      return main(["report", json, "-o", page], { stdout: () => {}, stderr: () => {}, stderrIsTty: false }).then((code) => {
        expect(code).toBe(0);
        const { dom } = checkDom(page, json);
        expect(count(dom, /<rect class="null-mark"/g)).toBeGreaterThan(0);
        screenshot(page, join(OUTPUT_DIR, "report-nulls.png"));
        expect(statSync(page).size).toBeGreaterThan(0);
      });
    },
    300_000,
  );

  test.skipIf(!chromium)(
    "a ladder's comparison report (three renditions, bootstrap intervals, thumbnails, rate and quality)",
    async () => {
      mkdirSync(OUTPUT_DIR, { recursive: true });
      const ladder = await scoreLadder(work, encodeLadder(work));
      const page = join(OUTPUT_DIR, "report-comparison.html");
      writeFileSync(page, await scoringReport(ladder.runs, ladder.settings, ladder.argv, "vq test"));
      const dom = browse(page, ["--dump-dom"]);
      expect(dom).toMatch(/<html[^>]* class="js"/);
      expect(dom).toMatch(/<html[^>]* data-ready="true"/);
      for (const r of RENDITIONS) {
        const label = `${r.name}.mp4`;
        expect(count(dom, new RegExp(`<path class="series" data-key="${label}" stroke="#[0-9a-f]+" d="M`, "g"))).toBe(3); // per frame, distribution, rate point
        expect(dom).toMatch(new RegExp(`<path class="band" data-key="${label}" fill="#[0-9a-f]+" d="M[^"]+Z"`));
      }
      for (const id of ["runs", "vmaf", "distribution", "rate", "run-1", "run-2", "run-3"]) expect(dom).toContain(`<section id="${id}"`);
      expect(count(dom, /<g class="markers"/g)).toBe(3);
      expect(count(dom, /<table class="worst-frames"/g)).toBe(3);
      expect(count(dom, /<img [^>]*data-decoded="true"/g)).toBeGreaterThanOrEqual(6);
      expect(dom).not.toContain('data-decoded="false"');
      screenshot(page, join(OUTPUT_DIR, "report-comparison.png"), { width: 1280, height: 3000 });
    },
    300_000,
  );
});
