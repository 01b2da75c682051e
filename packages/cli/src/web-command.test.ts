import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { isVqError } from "@vq/core";
import { parseWebArgs, USAGE, WEB_DEFAULT_PORT, WEB_USAGE } from "./args.ts";
import { main } from "./main.ts";
import { serveWebPage, webPackageDir, webPageDir } from "./web-command.ts";

const CLI = resolve(import.meta.dir, "cli.ts");

function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(isVqError(e)).toBe(true);
    return (e as Error).message;
  }
  throw new Error("no error");
}

describe("vq web", () => {
  test("arguments: --port P, its default, and one-line errors", () => {
    expect(parseWebArgs([])).toEqual({ port: WEB_DEFAULT_PORT, help: false });
    expect(parseWebArgs(["--port", "0"]).port).toBe(0);
    expect(parseWebArgs(["--port=9000"]).port).toBe(9000);
    expect(errorOf(() => parseWebArgs(["--port"]))).toBe("option --port needs a port number, 0 to 65535 (got nothing)");
    expect(errorOf(() => parseWebArgs(["--port", "http"]))).toBe('option --port needs a port number, 0 to 65535 (got "http")');
    expect(errorOf(() => parseWebArgs(["--port", "70000"]))).toContain('(got "70000")');
    expect(errorOf(() => parseWebArgs(["page.html"]))).toBe("unknown argument page.html for vq web (see vq web --help)");
  });

  test("vq web --help prints its usage; vq --help names it", async () => {
    let out = "";
    expect(await main(["web", "--help"], { stdout: (t) => void (out += t), stderr: () => {}, stderrIsTty: false })).toBe(0);
    expect(out).toBe(WEB_USAGE);
    expect(out).toContain(`--port P                the port (default ${WEB_DEFAULT_PORT}; 0: any free port)`);
    expect(USAGE).toContain("       vq web [--port P]\n");
    let err = "";
    expect(await main(["web", "--port", "x"], { stdout: () => {}, stderr: (t) => void (err += t), stderrIsTty: false })).toBe(1);
    expect(err).toBe('vq: option --port needs a port number, 0 to 65535 (got "x")\n');
  });

  test("a port in use is one line naming it", async () => {
    const taken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    try {
      const error = await serveWebPage(resolve(webPackageDir()!, "dist"), taken.port!).then(() => undefined, (e: unknown) => e);
      expect(isVqError(error)).toBe(true);
      expect((error as Error).message).toBe(`port ${taken.port} is in use: give another with --port (0: any free port)`);
    } finally {
      void taken.stop(true);
    }
  });

  test("an installed package without the page: one line saying how to build it", async () => {
    const error = await webPageDir({ stderr: () => {} }, "/nonexistent/dist/vq").then(() => undefined, (e: unknown) => e);
    expect((error as Error).message).toBe("vq web: this installation has no built page (dist/web of @vq/cli); build it in the vq repository with: bun packages/web/src/build.ts");
  });

  test("builds the page when needed, serves only its files on 127.0.0.1, prints the address, and Ctrl-C stops it", async () => {
    const vq = Bun.spawn({ cmd: [process.execPath, CLI, "web", "--port", "0"], stdout: "pipe", stderr: "pipe" });
    try {
      const reader = vq.stdout.getReader();
      let out = "";
      while (!/\n/.test(out)) {
        const { value, done } = await reader.read();
        if (done) break;
        out += new TextDecoder().decode(value);
      }
      const url = /^vq web: (http:\/\/127\.0\.0\.1:\d+\/) {2}\(Ctrl-C stops it\)\n$/.exec(out)?.[1];
      expect(url, out).toBeDefined();
      const page = await fetch(url!);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toStartWith("text/html");
      const html = await page.text();
      expect(html).toContain('<input type="file" id="reference"');
      expect(html).toContain('<script type="module" src="./main.js">');
      for (const file of ["main.js", "score-worker.js"]) {
        const r = await fetch(new URL(file, url));
        expect([r.status, r.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);
        expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
      }
      for (const other of ["package.json", "src/build.ts", "%2e%2e/package.json", "dist/index.html"]) expect((await fetch(new URL(other, url))).status).toBe(404);
      vq.kill("SIGINT");
      expect(await vq.exited).toBe(130);
    } finally {
      vq.kill();
    }
  }, 120_000);
});
