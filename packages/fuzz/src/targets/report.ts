import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../../cli/src/main.ts";
import { readReportData } from "../../../cli/src/report/report-file.ts";
import { reportHtml } from "../../../cli/src/report/report-html.ts";
import { jsonText, mutateJson } from "../json-mutations.ts";
import { jsonCase } from "../json-case.ts";
import { mutateText } from "../mutators.ts";
import type { Prng } from "../prng.ts";
import type { FuzzContext, FuzzTarget } from "../target.ts";

const SAMPLES = join(import.meta.dir, "../../../../samples");
/** Real --json results of the sample pair (the default model; features with extended pooling), made once per run. */
let seeds: unknown[] = [];

async function setup(): Promise<void> {
  if (seeds.length) return;
  for (const extra of [[], ["-n", "--feature", "psnr", "--feature", "float_ssim", "--pool", "extended", "--subsample", "2"]]) {
    let out = "";
    const code = await main(["-r", join(SAMPLES, "sample.ref.y4m"), "-d", join(SAMPLES, "sample.dist.y4m"), "--backend", "cpu", "--frame_cnt", "4", "--json", "-q", ...extra], {
      stdout: (t) => void (out += t),
      stderr: () => {},
      stderrIsTty: false,
    });
    if (code !== 0) throw new Error(`vq could not score the sample pair for the report target (exit ${code})`);
    seeds.push(JSON.parse(out));
  }
}

/** One or two result files (a report, or a comparison), each a real result with a few edits. */
export function generateResults(rng: Prng): string[] {
  return Array.from({ length: rng.chance(0.7) ? 1 : 2 }, () => {
    let r = structuredClone(rng.pick(seeds));
    for (let n = rng.int(4); n > 0; n--) r = mutateJson(rng, r);
    const text = jsonText(r);
    return rng.chance(0.05) ? mutateText(rng, text) : text;
  });
}

/** Numbers the page draws with: a geometry attribute holding NaN or Infinity is a plot gone wrong (a key may be called anything). */
const BAD_NUMBER = /\s(?:x|y|x1|x2|y1|y2|cx|cy|r|width|height|d|points|viewBox|transform|data-x0|data-x1|data-left|data-right)="[^"]*(?<!\w)(?:NaN|Infinity)/;

/** `vq report A.json [B.json]` in process: the files read as the command reads them, the page rendered. */
export async function renderReports(texts: string[], ctx: FuzzContext): Promise<unknown> {
  const paths = texts.map((_, i) => join(ctx.caseDir, `result${i}.json`));
  texts.forEach((t, i) => writeFileSync(paths[i]!, t));
  try {
    const html = await reportHtml(paths.map(readReportData), "vq fuzz");
    const bad = BAD_NUMBER.exec(html);
    if (bad) throw new Error(`the page has a non-finite number: ...${html.slice(Math.max(0, bad.index - 80), bad.index + 40)}...`);
    return { bytes: html.length };
  } finally {
    for (const p of paths) rmSync(p, { force: true });
  }
}

export const reportTarget: FuzzTarget<string[]> = {
  name: "report",
  description: "vq report's input: --json result files of the sample pair with numbers made odd (1e999, -0, huge), fields dropped or of the wrong type, frames added or removed; one file's report or two compared, rendered in process",
  weight: 4,
  setup,
  generate: generateResults,
  run: renderReports,
  save: jsonCase.save,
  load: (f) => jsonCase.load<string[]>(f),
};
