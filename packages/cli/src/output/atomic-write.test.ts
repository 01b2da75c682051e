import { expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { VqError } from "@vq/core";
import { removeStaleTemporaries, temporaryPath, writeAtomically, type OutputFs } from "./atomic-write.ts";

test("a regular file is replaced whole", () => {
  const path = join(mkdtempSync(join(tmpdir(), "vq-write-")), "out.json");
  writeAtomically(path, "first");
  writeAtomically(path, "second");
  expect(readFileSync(path, "utf8")).toBe("second");
});

// `-o /dev/null` as root once renamed the temporary file over the device node.
test("a FIFO or device is written to, never renamed over", async () => {
  const fifo = join(mkdtempSync(join(tmpdir(), "vq-write-")), "pipe");
  expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
  const reader = spawn("cat", [fifo]);
  let got = "";
  reader.stdout.on("data", (d) => (got += d));
  const closed = new Promise((resolve) => reader.on("close", resolve));
  writeAtomically(fifo, "scores");
  await closed;
  expect(got).toBe("scores");
  expect(statSync(fifo).isFIFO()).toBe(true);
});

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "vq-write-"));
}

// As root a chmod 555 directory still takes writes: a path under a regular file refuses
// them for anyone (ENOTDIR), and the temporary file's removal fails the same way.
test("a directory that refuses the write gives the write's cause, not the cleanup's", () => {
  const notDir = join(tempDir(), "file");
  writeFileSync(notDir, "");
  const path = join(notDir, "out.json");
  expect(() => writeAtomically(path, "scores")).toThrow(new VqError(`${path}: cannot write the output: ENOTDIR: not a directory, open '${temporaryPath(path)}'`));
});

test("a failed write removes its temporary file, and a failed removal hides nothing", () => {
  const calls: string[] = [];
  const errno = (code: string, text: string) => Object.assign(new Error(`${code}: ${text}`), { code });
  const fs: OutputFs = {
    writeFileSync: (p) => {
      calls.push(`write ${p}`);
      throw errno("ENOSPC", "no space left on device, write");
    },
    renameSync: () => calls.push("rename"),
    rmSync: (p) => {
      calls.push(`rm ${p}`);
      throw errno("EROFS", "read-only file system, unlink");
    },
  };
  const path = join(tempDir(), "out.json");
  expect(() => writeAtomically(path, "scores", "the report", fs)).toThrow(new VqError(`${path}: cannot write the report: ENOSPC: no space left on device, write`));
  expect(calls).toEqual([`write ${temporaryPath(path)}`, `rm ${temporaryPath(path)}`]);
});

test("temporary files of dead writers are removed, a live writer's are kept", async () => {
  const dir = tempDir();
  const path = join(dir, "out.json");
  const dead = spawnSync("true").pid!; // exited and reaped: its PID names no process
  const live = spawn("sleep", ["30"]);
  try {
    const names = [`.out.json.${dead}.tmp`, `.out.json.${live.pid}.tmp`, `.other.json.${dead}.tmp`, `.out.json.x${dead}.tmp`];
    for (const n of names) writeFileSync(join(dir, n), "partial");
    writeAtomically(path, "scores");
    expect(readdirSync(dir).sort()).toEqual(["out.json", ...names.slice(1)].sort());
  } finally {
    live.kill();
  }
});

test("stale temporary files are found by the PID in their name", () => {
  const dir = tempDir();
  const path = join(dir, "out.json");
  for (const pid of [4000001, 4000002, process.pid]) writeFileSync(temporaryPath(path, pid), "");
  removeStaleTemporaries(path, (pid) => pid === 4000002);
  expect(readdirSync(dir).sort()).toEqual([basename(temporaryPath(path, 4000002)), basename(temporaryPath(path))].sort());
});
