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

type Env = Readonly<Record<string, string | undefined>>;
const processEnv = (): Env => (globalThis as { process?: { env: Env } }).process?.env ?? {};

/**
 * Node's file modules, imported on first use under specifiers bundlers leave alone: @vq/score
 * is bundled for browsers too, which have no file system (their verdicts stay in memory).
 */
interface NodeFiles {
  fs: typeof import("node:fs");
  os: typeof import("node:os");
  path: typeof import("node:path");
}
const NODE_MODULES = ["node:fs", "node:os", "node:path"];
let nodeFiles: Promise<NodeFiles | undefined> | undefined;
function files(): Promise<NodeFiles | undefined> {
  nodeFiles ??= Promise.all(NODE_MODULES.map((m) => import(m))).then(
    ([fs, os, path]) => ({ fs, os, path }),
    () => undefined,
  );
  return nodeFiles;
}

/** vq's cache directory: $VQ_CACHE_DIR, else $XDG_CACHE_HOME/vq, else ~/.cache/vq; undefined without a file system. */
export async function cacheDirectory(env: Env = processEnv()): Promise<string | undefined> {
  if (env.VQ_CACHE_DIR) return env.VQ_CACHE_DIR;
  const node = await files();
  if (!node) return undefined;
  return node.path.join(env.XDG_CACHE_HOME || node.path.join(node.os.homedir(), ".cache"), "vq");
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

/** Verdicts of a process without a file system (a browser page). */
const inMemory: CachedVerdict[] = [];

/**
 * The self-test's verdicts in one small JSON file. A missing, unreadable or corrupt file is
 * an empty cache (the next save rewrites it); a failed save is ignored: the cache only saves
 * time, and the self-test runs again next time.
 */
export class VerdictCache {
  private constructor(
    private readonly node: NodeFiles | undefined,
    /** The file, or undefined: verdicts in memory. */
    readonly path: string | undefined,
    private verdicts: CachedVerdict[],
  ) {}

  static async open(directory?: string): Promise<VerdictCache> {
    const node = await files();
    const dir = directory ?? (await cacheDirectory());
    if (!node || !dir) return new VerdictCache(undefined, undefined, inMemory);
    const path = node.path.join(dir, VERDICT_FILE);
    let verdicts: CachedVerdict[] = [];
    try {
      const parsed = JSON.parse(node.fs.readFileSync(path, "utf8")) as { verdicts?: unknown };
      if (Array.isArray(parsed?.verdicts)) verdicts = parsed.verdicts.filter(isVerdict);
    } catch {}
    return new VerdictCache(node, path, verdicts);
  }

  get(key: VerdictKey): CachedVerdict | undefined {
    return this.verdicts.find((v) => sameKey(v, key));
  }

  /** Records verdicts and writes the file atomically (a temporary file renamed over it). */
  save(reached: readonly CachedVerdict[]): void {
    if (!reached.length) return;
    const kept = [...reached, ...this.verdicts.filter((v) => !reached.some((r) => sameKey(r, v)))].slice(0, KEPT);
    if (!this.node || !this.path) {
      inMemory.splice(0, inMemory.length, ...kept);
      return;
    }
    this.verdicts = kept;
    const { fs, path } = this.node;
    const temporary = `${this.path}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(path.dirname(this.path), { recursive: true });
      fs.writeFileSync(temporary, `${JSON.stringify({ verdicts: kept }, null, 1)}\n`);
      fs.renameSync(temporary, this.path);
    } catch {
      try {
        fs.rmSync(temporary, { force: true });
      } catch {}
    }
  }
}
