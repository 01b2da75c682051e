#!/usr/bin/env node
// The `vq` command. The published package runs its bundle (dist/vq, adr/0021-cli-bundle.md)
// on whichever runtime started this file: Node >= 20, Bun or Deno. In the monorepo it runs
// the TypeScript sources (never a stale build), which need Bun: under another runtime it
// starts the Bun of the monorepo's devDependencies.
// With -q the command runs in a child whose stderr is filtered: Dawn (the GPU under Node
// and Bun) prints notices such as "Warning: maxDynamicUniformBuffersPerPipelineLayout
// artificially reduced ..." from native code straight to file descriptor 2, where no
// JavaScript can stop them, and -q leaves only errors on stderr.
// Under Bun, a run that may hold several sets of CPU extractors (threads, a ladder's rungs)
// runs in a child too, with more fast WebAssembly memories than Bun's default 8
// (fast-memories.js, adr/0044-bun-fast-wasm-memories.md).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { FAST_MEMORIES_VARIABLE, mayHoldManyExtractors, withFastMemories } from "./fast-memories.js";

const source = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const fromSources = existsSync(source);
const entry = fromSources ? source : fileURLToPath(new URL("../dist/vq/cli.js", import.meta.url));
const args = process.argv.slice(2);
const isBun = typeof globalThis.Bun !== "undefined";
// Deno's WebGPU is its own (navigator.gpu), not Dawn: nothing to filter there.
const isDeno = typeof globalThis.Deno !== "undefined";
const quiet = args.includes("-q") || args.includes("--quiet");
const needsBun = fromSources && !isBun;
const raiseFastMemories = isBun && !process.env[FAST_MEMORIES_VARIABLE] && mayHoldManyExtractors(args);

if (!needsBun && !(quiet && !isDeno) && !raiseFastMemories) {
  await import(entry);
} else {
  // Loaded only here: under Bun these modules would lengthen every start-up
  const [{ spawn }, { createRequire }] = await Promise.all([import("node:child_process"), import("node:module")]);
  let runtime = process.execPath;
  if (needsBun) {
    try {
      runtime = createRequire(import.meta.url).resolve("bun/bin/bun.exe");
    } catch {
      process.stderr.write("vq: the monorepo's sources run under Bun, which is missing; run npm install\n");
      process.exit(1);
    }
  }
  const env = isBun || needsBun ? withFastMemories(process.env) : process.env;
  const child = spawn(runtime, [entry, ...args], { env, stdio: ["inherit", "inherit", quiet ? "pipe" : "inherit"] });
  if (quiet) {
    const { dawnNoticeFilter } = await import("./dawn-notices.js");
    const keep = dawnNoticeFilter();
    let pending = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop();
      const kept = lines.filter(keep);
      if (kept.length) process.stderr.write(kept.map((l) => l + "\n").join(""));
    });
    child.stderr.on("end", () => {
      if (pending && keep(pending)) process.stderr.write(pending);
    });
  }
  // The signals that stop a run are passed on (a kill, npx's forwarding, a closed terminal),
  // and this process waits for the child's exit code (128 + n: src/signals.ts). A terminal's
  // Ctrl-C reaches both (one process group); the child stops at the first.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("error", (e) => {
    process.stderr.write(`vq: cannot start ${runtime}: ${e.message}\n`);
    process.exit(1);
  });
  child.on("close", async (code, signal) => {
    if (signal) {
      const { constants } = await import("node:os");
      process.exit(128 + (constants.signals[signal] ?? 0));
    }
    process.exit(code ?? 1);
  });
}
