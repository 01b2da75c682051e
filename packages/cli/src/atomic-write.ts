import { renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { VqError } from "@vq/core";

/** Writes through a temporary file, so a failed run leaves no half-written output. */
export function writeAtomically(path: string, text: string, what = "the output"): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new VqError(`${path}: cannot write ${what}: ${(e as Error).message}`, { cause: e });
  }
}
