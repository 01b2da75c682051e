import { readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { VqError } from "@vq/core";

/** The file system calls an atomic write makes; tests inject failures through it. */
export interface OutputFs {
  writeFileSync(path: string, text: string): void;
  renameSync(from: string, to: string): void;
  rmSync(path: string, options: { force: true }): void;
}

const nodeFs: OutputFs = { writeFileSync, renameSync, rmSync };

/** `.NAME.PID.tmp` next to the output: the PID tells a live writer's file from a dead one's. */
export function temporaryPath(path: string, pid = process.pid): string {
  return join(dirname(path), `.${basename(path)}.${pid}.tmp`);
}

/** The one-line cause of a failed write: `ENOSPC: no space left on device, write`. */
export function writeFailure(path: string, what: string, e: unknown): VqError {
  return new VqError(`${path}: cannot write ${what}: ${(e as Error).message}`, { cause: e });
}

/** Writes through a temporary file, so a failed run leaves no half-written output. */
export function writeAtomically(path: string, text: string, what = "the output", fs: OutputFs = nodeFs): void {
  if (isSpecialFile(path)) {
    // /dev/null, a FIFO, /dev/stdout: renaming over them would replace the device node
    try {
      fs.writeFileSync(path, text);
    } catch (e) {
      throw writeFailure(path, what, e);
    }
    return;
  }
  removeStaleTemporaries(path);
  const tmp = temporaryPath(path);
  try {
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, path);
  } catch (e) {
    // Best effort: a directory that refused the write may refuse the removal too (ENOTDIR,
    // EROFS), and that second error must not hide the first.
    try {
      fs.rmSync(tmp, { force: true });
    } catch {}
    throw writeFailure(path, what, e);
  }
}

/**
 * Removes the `.NAME.PID.tmp` files that writers of `path` killed mid-write (kill -9, power
 * loss) left behind: only those whose process is gone, never a live writer's.
 */
export function removeStaleTemporaries(path: string, isAlive: (pid: number) => boolean = processIsAlive): void {
  const name = basename(path);
  const prefix = `.${name}.`;
  let entries: string[];
  try {
    entries = readdirSync(dirname(path));
  } catch {
    return; // no directory (yet) or not listable: nothing of ours to clean
  }
  for (const entry of entries) {
    if (!entry.startsWith(prefix) || !entry.endsWith(".tmp")) continue;
    const digits = entry.slice(prefix.length, -".tmp".length);
    if (!/^[1-9]\d{0,9}$/.test(digits)) continue;
    const pid = Number(digits);
    if (pid === process.pid || isAlive(pid)) continue;
    try {
      rmSync(join(dirname(path), entry), { force: true });
    } catch {}
  }
}

/** Signal 0 checks a process exists; EPERM means it does, run by another user. */
function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function isSpecialFile(path: string): boolean {
  try {
    const s = statSync(path);
    return !s.isFile() && !s.isDirectory();
  } catch {
    return false; // does not exist yet: a regular file it will be
  }
}
