import { afterAll, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPath } from "@vq/core/golden";
import { closeOnExec } from "./standard-output.ts";

// The command as a user runs it, in a child: only a real process has a standard output
// that can be full, closed or gone.
const CLI = join(import.meta.dir, "..", "cli.ts");
const BIN = join(import.meta.dir, "..", "..", "bin", "vq.js");
const ARGS = ["-r", goldenPath("vectors/odd_321x241_444.ref.y4m"), "-d", goldenPath("vectors/odd_321x241_444.noise.y4m"), "--feature", "psnr", "-n", "--json", "--backend", "cpu"];
const dir = mkdtempSync(join(tmpdir(), "vq-outputs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Outcome {
  code: number | null;
  stderr: string;
}

/** Runs `command` with `stdout` as its standard output; "gone" is a pipe whose reader left before vq wrote. */
function run(command: string[], stdout: number | "gone"): Promise<Outcome> {
  const child = spawn(command[0]!, command.slice(1), { stdio: ["ignore", stdout === "gone" ? "pipe" : stdout, "pipe"] });
  if (stdout === "gone") child.stdout!.destroy();
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
}

function withDevice<T>(path: string, use: (fd: number) => Promise<T>): Promise<T> {
  const fd = openSync(path, "w");
  return use(fd).finally(() => closeSync(fd));
}

function expectOneLine(r: Outcome, ...parts: string[]): void {
  expect(r.code).toBe(1);
  expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
  for (const p of parts) expect(r.stderr).toContain(p);
}

test("--json to a full standard output is exit 1 with the cause", async () => {
  const r = await withDevice("/dev/full", (fd) => run([process.execPath, CLI, ...ARGS], fd));
  expectOneLine(r, "vq: standard output: cannot write the output: ENOSPC");
});

test("a standard output whose reader went away is exit 1 with the cause", async () => {
  const r = await run([process.execPath, CLI, ...ARGS], "gone");
  expectOneLine(r, "vq: standard output: cannot write the output: EPIPE");
});

test("a standard output closed at start is refused before scoring", async () => {
  // sh closes descriptor 1 (>&-) and execs vq with none; Bun puts /dev/null there
  const r = await run(["sh", "-c", 'exec "$0" "$@" >&-', process.execPath, CLI, ...ARGS], 1);
  expectOneLine(r, "vq: standard output is closed: nowhere to write the output (give -o FILE)");
});

test("an output directory that refuses the file is exit 1 naming the write's cause", async () => {
  const notDir = join(dir, "a-file");
  writeFileSync(notDir, "");
  const r = await run([process.execPath, CLI, ...ARGS, "-o", join(notDir, "out.json")], 1);
  expectOneLine(r, `${join(notDir, "out.json")}: cannot write the output: ENOTDIR`);
});

test("the bin wrapper passes the exit code of a failed write on", async () => {
  // under Node the wrapper runs the sources in a Bun child: its exit code must come through
  const r = await withDevice("/dev/full", (fd) => run(["node", BIN, ...ARGS], fd));
  expectOneLine(r, "vq: standard output: cannot write the output: ENOSPC");
});

test("start-up removes a dead run's temporary output, even when this run fails", async () => {
  const at = mkdtempSync(join(dir, "stale-"));
  const stale = join(at, `.out.json.${spawnSync("true").pid}.tmp`); // that process has exited: the PID names none
  writeFileSync(stale, "partial");
  const r = await run([process.execPath, CLI, "-r", join(at, "missing.y4m"), "-d", join(at, "missing.y4m"), "-o", join(at, "out.json")], 1);
  expectOneLine(r, "missing.y4m");
  expect(readdirSync(at)).toEqual([]);
});

test("close-on-exec is read from fdinfo's octal flags", () => {
  const info = (flags: string) => {
    const p = join(dir, `fdinfo-${flags}`);
    writeFileSync(p, `pos:\t0\nflags:\t${flags}\nmnt_id:\t25\n`);
    return p;
  };
  expect(closeOnExec(info("02100002"))).toBe(true); // /dev/null opened by Bun for a closed descriptor
  expect(closeOnExec(info("0100001"))).toBe(false); // inherited from a shell's >
  expect(closeOnExec(join(dir, "no-such-fdinfo"))).toBe(false);
});
