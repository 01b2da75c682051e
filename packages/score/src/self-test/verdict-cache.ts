import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** What a verdict was reached on: the adapter, its driver, vq's version and the kernel set. */
export interface VerdictKey {
  readonly adapter: string;
  readonly driver: string;
  readonly vq: string;
  readonly kernelSet: string;
}

/** A cached verdict: the self-test's outcome for one key (only outcomes that a rerun would repeat). */
export interface CachedVerdict extends VerdictKey {
  readonly verdict: "pass" | "mismatch";
  /** The first differing value, for a mismatch. */
  readonly detail?: string;
  /** When it was reached (ISO 8601), for people reading the file. */
  readonly at: string;
}

/** The file under the cache directory. */
export const VERDICT_FILE = "gpu-self-test.json";

/** Verdicts kept, newest first: adapters, drivers and versions come and go. */
const KEPT = 256;

/** vq's cache directory: $VQ_CACHE_DIR, else $XDG_CACHE_HOME/vq, else ~/.cache/vq. */
export function cacheDirectory(env: NodeJS.ProcessEnv = process.env): string {
  if (env.VQ_CACHE_DIR) return env.VQ_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "vq");
}

const sameKey = (a: VerdictKey, b: VerdictKey) => a.adapter === b.adapter && a.driver === b.driver && a.vq === b.vq && a.kernelSet === b.kernelSet;

function isVerdict(v: unknown): v is CachedVerdict {
  const r = v as Record<string, unknown>;
  return (
    typeof r === "object" &&
    r !== null &&
    ["adapter", "driver", "vq", "kernelSet", "at"].every((k) => typeof r[k] === "string") &&
    (r.verdict === "pass" || r.verdict === "mismatch") &&
    (r.detail === undefined || typeof r.detail === "string")
  );
}

/**
 * The self-test's verdicts in one small JSON file. A missing, unreadable or corrupt file is
 * an empty cache (the next save rewrites it); a failed save is ignored: the cache only saves
 * time, and the self-test runs again next time.
 */
export class VerdictCache {
  private verdicts: CachedVerdict[];

  constructor(readonly directory: string = cacheDirectory()) {
    this.verdicts = this.read();
  }

  get path(): string {
    return join(this.directory, VERDICT_FILE);
  }

  private read(): CachedVerdict[] {
    try {
      const parsed = JSON.parse(readFileSync(this.path, "utf8")) as { verdicts?: unknown };
      return Array.isArray(parsed?.verdicts) ? parsed.verdicts.filter(isVerdict) : [];
    } catch {
      return [];
    }
  }

  get(key: VerdictKey): CachedVerdict | undefined {
    return this.verdicts.find((v) => sameKey(v, key));
  }

  /** Records verdicts and writes the file atomically (a temporary file renamed over it). */
  save(reached: readonly CachedVerdict[]): void {
    if (!reached.length) return;
    this.verdicts = [...reached, ...this.verdicts.filter((v) => !reached.some((r) => sameKey(r, v)))].slice(0, KEPT);
    const temporary = `${this.path}.${process.pid}.tmp`;
    try {
      mkdirSync(this.directory, { recursive: true });
      writeFileSync(temporary, `${JSON.stringify({ verdicts: this.verdicts }, null, 1)}\n`);
      renameSync(temporary, this.path);
    } catch {
      try {
        rmSync(temporary, { force: true });
      } catch {}
    }
  }
}
