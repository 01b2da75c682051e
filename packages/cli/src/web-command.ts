import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { VqError } from "@vq/core";
import { parseWebArgs, WEB_USAGE } from "./args.ts";
import type { CliIo } from "./run-setup.ts";

/** The page's files and their types; nothing else is served (no directory listing, no path walking). */
const CONTENT_TYPES: Record<string, string> = { "index.html": "text/html; charset=utf-8", "main.js": "text/javascript; charset=utf-8", "score-worker.js": "text/javascript; charset=utf-8" };

const here = dirname(fileURLToPath(import.meta.url));

/** @vq/web's folder beside the CLI's sources in the monorepo (from src/, or dist/vq/ of a local build); undefined in an installed package. */
export function webPackageDir(from: string = here): string | undefined {
  return [resolve(from, "../../web"), resolve(from, "../../../web")].find((d) => existsSync(join(d, "src/build.ts")));
}

interface WebBuild {
  WEB_DIST: string;
  buildWeb(out?: string): Promise<string[]>;
  webBuildIsStale(out?: string): boolean;
}

/**
 * The page's folder. In the monorepo, under Bun: packages/web's build, built first when
 * missing or older than its sources. Otherwise the page the package was published with
 * (`dist/web`, built by @vq/cli's build), served as it is by Node, Bun or Deno.
 */
export async function webPageDir(io: Pick<CliIo, "stderr">, from: string = here): Promise<string> {
  const sources = webPackageDir(from);
  if (sources && typeof Bun !== "undefined") {
    const build = (await import(join(sources, "src/build.ts"))) as WebBuild;
    if (build.webBuildIsStale()) {
      io.stderr("vq: building the web page...\n");
      await build.buildWeb();
    }
    return build.WEB_DIST;
  }
  const published = [resolve(from, "../web"), resolve(from, "../dist/web")].find((d) => existsSync(join(d, "index.html")));
  if (published) return published;
  if (sources) throw new VqError("vq web builds the page with Bun's bundler: run it with bun (npx vq in the monorepo does)");
  throw new VqError("vq web: this installation has no built page (dist/web of @vq/cli); build it in the vq repository with: bun packages/web/src/build.ts");
}

/** Serves the built page on 127.0.0.1 only: the page is for this machine's browser. `onRequest` sees every request's path (tests count them). */
export function serveWebPage(dist: string, port: number, onRequest?: (path: string) => void): Promise<{ url: string; stop(): void }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    onRequest?.(path);
    const name = path === "/" ? "index.html" : path.slice(1);
    const type = CONTENT_TYPES[name];
    const notFound = () => response.writeHead(404, { "content-type": "text/plain" }).end("not found");
    if (!type || (request.method !== "GET" && request.method !== "HEAD")) return notFound();
    readFile(join(dist, name)).then(
      (body) => response.writeHead(200, { "content-type": type, "content-length": body.length, "cache-control": "no-cache" }).end(request.method === "HEAD" ? undefined : body),
      notFound,
    );
  });
  return new Promise((resolvePromise, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EADDRINUSE") reject(new VqError(`port ${port} is in use: give another with --port (0: any free port)`, { cause: e }));
      else reject(new VqError(`cannot serve on 127.0.0.1:${port}: ${e.message}`, { cause: e }));
    });
    server.listen(port, "127.0.0.1", () => {
      const { port: bound } = server.address() as AddressInfo;
      resolvePromise({
        url: `http://127.0.0.1:${bound}/`,
        stop: () => {
          server.close();
          server.closeAllConnections();
        },
      });
    });
  });
}

/** `vq web [--port P]`: builds the page if needed, serves it, prints its address; runs until a signal (signals.ts) stops the process. */
export async function webCommand(argv: readonly string[], io: CliIo): Promise<number | void> {
  const w = parseWebArgs(argv);
  if (w.help) {
    io.stdout(WEB_USAGE);
    return;
  }
  const { url } = await serveWebPage(await webPageDir(io), w.port);
  io.stdout(`vq web: ${url}  (Ctrl-C stops it)\n`);
  await new Promise<never>(() => {});
}
