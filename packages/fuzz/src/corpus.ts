import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import type { CaseFile } from "./target.ts";

/** The checked-in regression corpus: fuzz-corpus/<target>/NNN-what.<ext>, one file per failure found and fixed. */
export const CORPUS_DIR = join(import.meta.dir, "../fuzz-corpus");

/** A target's corpus files, by name. */
export function corpusFiles(target: string): { name: string; file: CaseFile }[] {
  const dir = join(CORPUS_DIR, target);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => !n.startsWith("."))
    .sort()
    .map((name) => ({ name, file: { extension: extname(name).slice(1), bytes: new Uint8Array(readFileSync(join(dir, name))) } }));
}
