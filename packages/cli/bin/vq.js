#!/usr/bin/env node
// The `vq` command, run by Bun; under Node this starts the Bun binary that the `bun`
// package installed, with the same arguments and exit code. In the monorepo it runs the
// TypeScript sources (never a stale build); the published package has only dist/, where
// the command is one bundle split into chunks that load on use (adr/0021-cli-bundle.md).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const source = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const entry = existsSync(source) ? source : fileURLToPath(new URL("../dist/vq/cli.js", import.meta.url));
if (typeof globalThis.Bun !== "undefined") {
  await import(entry);
} else {
  // Node only: under Bun these modules would only lengthen the start-up
  const [{ spawnSync }, { createRequire }] = await Promise.all([import("node:child_process"), import("node:module")]);
  const require = createRequire(import.meta.url);
  let bun;
  try {
    bun = require.resolve("bun/bin/bun.exe");
  } catch {
    process.stderr.write("vq: the bun package is missing; run npm install\n");
    process.exit(1);
  }
  const r = spawnSync(bun, [entry, ...process.argv.slice(2)], { stdio: "inherit" });
  if (r.error) {
    process.stderr.write(`vq: cannot start bun: ${r.error.message}\n`);
    process.exit(1);
  }
  process.exit(r.status ?? 1);
}
