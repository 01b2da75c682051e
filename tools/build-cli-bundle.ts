// Builds the `vq` command as the published package runs it: one bundle, split into chunks
// that load on use (each metric package, each model, the HTML report), in
// packages/cli/dist/vq/ (adr/0021-cli-bundle.md). Module loading is a GPU cold start's
// first cost: Bun transpiles every source module it loads, and caches the transpiled form
// of large files only, so ~120 small modules cost more than a few large chunks.
//   bun tools/build-cli-bundle.ts [OUTDIR]
// Two things a bundler does not do on its own:
// - the workers, started by `new URL("./extraction-worker.ts", import.meta.url)` and
//   `new URL("./ffmpeg-worker.ts", ...)`, are entry points too, and those URLs are pointed at
//   their .js beside the chunks;
// - Dawn's addon (`webgpu`) stays outside: it is loaded from node_modules at run time.
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const cliDir = resolve(import.meta.dir, "../packages/cli");
/** Where the published package's `bin/vq.js` finds the bundle. */
export const CLI_BUNDLE_DIR = join(cliDir, "dist/vq");
/** Worker modules: their sources, started by URL from the sources' folders. */
const WORKERS = ["../score/src/extraction-worker.ts", "../core/src/readers/ffmpeg-worker.ts"];

export async function buildCliBundle(out: string): Promise<string[]> {
  rmSync(out, { recursive: true, force: true });
  const result = await Bun.build({
    entrypoints: [join(cliDir, "src/cli.ts"), ...WORKERS.map((w) => join(cliDir, w))],
    outdir: out,
    target: "node",
    format: "esm",
    splitting: true,
    // Whitespace and syntax only: names stay, so stack traces of internal errors read.
    minify: { whitespace: true, syntax: true, identifiers: false },
    external: ["webgpu"],
    naming: { entry: "[name].js", chunk: "[name]-[hash].js", asset: "[name]-[hash].[ext]" },
  });
  if (!result.success) throw new AggregateError(result.logs, "the vq bundle did not build");
  // Every output sits in `out` itself, so a worker's URL resolves from whichever chunk starts it.
  for (const worker of WORKERS) {
    const name = worker.slice(worker.lastIndexOf("/") + 1);
    const source = `"./${name}"`;
    const built = `"./${name.replace(/\.ts$/, ".js")}"`;
    let rewritten = 0;
    for (const file of readdirSync(out)) {
      if (!file.endsWith(".js")) continue;
      const path = join(out, file);
      const parts = readFileSync(path, "utf8").split(source);
      if (parts.length === 1) continue;
      rewritten += parts.length - 1;
      writeFileSync(path, parts.join(built));
    }
    if (rewritten !== 1) throw new Error(`the vq bundle: expected one reference to ${source}, found ${rewritten}`);
  }
  return readdirSync(out);
}

if (import.meta.main) {
  const outDir = resolve(process.argv[2] ?? CLI_BUNDLE_DIR);
  const files = await buildCliBundle(outDir);
  console.log(`@vq/cli: the vq bundle, ${files.length} files in ${outDir}`);
}
