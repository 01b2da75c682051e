import { renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { VqError } from "@vq/core";

/** Writes through a temporary file, so a failed run leaves no half-written output. */
export function writeAtomically(path: string, text: string, what = "the output"): void {
  if (isSpecialFile(path)) {
    // /dev/null, a FIFO, /dev/stdout: renaming over them would replace the device node
    try {
      writeFileSync(path, text);
    } catch (e) {
      throw new VqError(`${path}: cannot write ${what}: ${(e as Error).message}`, { cause: e });
    }
    return;
  }
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new VqError(`${path}: cannot write ${what}: ${(e as Error).message}`, { cause: e });
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
