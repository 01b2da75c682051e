import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FuzzContext } from "./target.ts";

/** The run's one temp dir (fixtures) with a case dir inside that must be empty after each case. */
export type RunContext = FuzzContext & { remove(): void; leftovers(): string[]; clean(): void };

export function makeContext(): RunContext {
  const dir = mkdtempSync(join(tmpdir(), "vq-fuzz-"));
  const caseDir = join(dir, "case");
  mkdirSync(caseDir);
  return {
    dir,
    caseDir,
    /** What a case left behind (hidden temporaries included). */
    leftovers: () => readdirSync(caseDir),
    /** Empties the case dir after a failing case, so the next case starts clean. */
    clean: () => {
      for (const f of readdirSync(caseDir)) rmSync(join(caseDir, f), { recursive: true, force: true });
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
