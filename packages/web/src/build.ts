// Builds the page into a folder any static host can serve: index.html, main.js (the page)
// and score-worker.js (decoding and scoring, models and WGSL included: nothing is fetched
// from anywhere else).   bun packages/web/src/build.ts [OUTDIR]
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const webDir = resolve(import.meta.dir, "..");
/** Where `vq web` serves the page from. */
export const WEB_DIST = join(webDir, "dist");
/** The files the build writes. */
export const WEB_FILES = ["index.html", "main.js", "score-worker.js"] as const;

export async function buildWeb(out: string = WEB_DIST): Promise<string[]> {
  rmSync(out, { recursive: true, force: true });
  // One build per entry: built together, the modules they share lose their tree shaking (main.js 140 → 314 kB).
  for (const entry of ["src/app/main.ts", "src/worker/score-worker.ts"]) {
    const result = await Bun.build({
      entrypoints: [join(webDir, entry)],
      outdir: out,
      target: "browser",
      format: "esm",
      // One file per entry, everything inlined: the page requests nothing once loaded.
      splitting: false,
      minify: true,
      naming: { entry: "[name].js", asset: "[name]-[hash].[ext]" },
    });
    if (!result.success) throw new AggregateError(result.logs, `the web page did not build (${entry})`);
  }
  mkdirSync(out, { recursive: true });
  copyFileSync(join(webDir, "src/index.html"), join(out, "index.html"));
  const files = readdirSync(out).sort();
  const missing = WEB_FILES.filter((f) => !files.includes(f));
  if (missing.length) throw new Error(`the web page build: ${missing.join(", ")} not written (got ${files.join(", ")})`);
  return files;
}

/** The newest modification time under `dir` (its .ts, .wgsl, .json and .html files), 0 when none. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist" || entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.(ts|wgsl|json|html)$/.test(entry.name) && !entry.name.endsWith(".test.ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** True when `out` lacks the page or is older than the sources it is built from (the monorepo's packages and shaders). */
export function webBuildIsStale(out: string = WEB_DIST): boolean {
  let built: number;
  try {
    built = Math.min(...WEB_FILES.map((f) => statSync(join(out, f)).mtimeMs));
  } catch {
    return true;
  }
  const root = resolve(webDir, "../..");
  return [join(root, "packages"), join(root, "shaders")].some((d) => newestSource(d) > built);
}

if (import.meta.main) {
  const out = resolve(process.argv[2] ?? WEB_DIST);
  const files = await buildWeb(out);
  console.log(`@vq/web: ${files.join(", ")} in ${out}`);
}
