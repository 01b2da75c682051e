import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { VqError } from "@vq/core";
import { parseWebArgs, WEB_USAGE } from "./args.ts";
import type { CliIo } from "./run-setup.ts";

/** The page's files and their types; nothing else is served (no directory listing, no path walking). */
const CONTENT_TYPES: Record<string, string> = { "index.html": "text/html; charset=utf-8", "main.js": "text/javascript; charset=utf-8", "score-worker.js": "text/javascript; charset=utf-8" };

/** @vq/web's folder: beside the CLI's sources in the monorepo (src/, or dist/vq/ of a local build). */
export function webPackageDir(from: string = import.meta.dir): string {
  const found = [resolve(from, "../../web"), resolve(from, "../../../web")].find((d) => existsSync(join(d, "src/build.ts")));
  if (!found) throw new VqError("vq web needs the page's sources (packages/web of the vq repository), which this installation lacks; build it there with: bun packages/web/src/build.ts");
  return found;
}

interface WebBuild {
  WEB_DIST: string;
  buildWeb(out?: string): Promise<string[]>;
  webBuildIsStale(out?: string): boolean;
}

/** The page's build folder, built first when missing or older than its sources. */
export async function builtWebPage(io: Pick<CliIo, "stderr">, dir: string = webPackageDir()): Promise<string> {
  if (typeof Bun === "undefined") throw new VqError("vq web builds the page with Bun's bundler: run it with bun (npx vq in the monorepo does)");
  const build = (await import(join(dir, "src/build.ts"))) as WebBuild;
  if (build.webBuildIsStale()) {
    io.stderr("vq: building the web page...\n");
    await build.buildWeb();
  }
  return build.WEB_DIST;
}

/** Serves the built page on 127.0.0.1 only: the page is for this machine's browser. `onRequest` sees every request's path (tests count them). */
export function serveWebPage(dist: string, port: number, onRequest?: (path: string) => void): { url: string; stop(): void } {
  let server: ReturnType<typeof Bun.serve>;
  try {
    server = Bun.serve({
      hostname: "127.0.0.1",
      port,
      fetch(request) {
        const path = new URL(request.url).pathname;
        onRequest?.(path);
        const name = path === "/" ? "index.html" : path.slice(1);
        const type = CONTENT_TYPES[name];
        if (!type) return new Response("not found", { status: 404 });
        return new Response(Bun.file(join(dist, name)), { headers: { "content-type": type, "cache-control": "no-cache" } });
      },
    });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "EADDRINUSE") throw new VqError(`port ${port} is in use: give another with --port (0: any free port)`, { cause: e });
    throw new VqError(`cannot serve on 127.0.0.1:${port}: ${(e as Error).message}`, { cause: e });
  }
  return { url: `http://127.0.0.1:${server.port}/`, stop: () => void server.stop(true) };
}

/** `vq web [--port P]`: builds the page if needed, serves it, prints its address; runs until a signal (signals.ts) stops the process. */
export async function webCommand(argv: readonly string[], io: CliIo): Promise<number | void> {
  const w = parseWebArgs(argv);
  if (w.help) {
    io.stdout(WEB_USAGE);
    return;
  }
  const { url } = serveWebPage(await builtWebPage(io), w.port);
  io.stdout(`vq web: ${url}  (Ctrl-C stops it)\n`);
  await new Promise<never>(() => {});
}
