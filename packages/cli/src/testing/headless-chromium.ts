import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** Debian's chromium (or Chrome) on PATH, or the binary VQ_CHROMIUM names. */
export const chromium: string | undefined = process.env.VQ_CHROMIUM ?? ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"].map((b) => Bun.which(b)).find((p): p is string => Boolean(p));

/** In CI (or when asked) a missing browser fails the browser tests instead of skipping them. */
export const chromiumRequired = process.env.CI === "true" || process.env.VQ_REQUIRE_CHROMIUM === "1";

/**
 * Runs headless Chromium on a local page and returns its standard output (the DOM with
 * `--dump-dom`). Each run gets its own profile, so parallel runs do not collide.
 */
export function browse(page: string, flags: string[]): string {
  if (!chromium) throw new Error("chromium is not installed (Debian: apt-get install chromium; or set VQ_CHROMIUM)");
  const profile = mkdtempSync(join(tmpdir(), "vq-chromium-"));
  try {
    const r = Bun.spawnSync({
      cmd: [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", `--user-data-dir=${profile}`, ...flags, pathToFileURL(page).href],
      timeout: 180_000,
      stdout: "pipe",
      stderr: "pipe",
    });
    if (r.exitCode !== 0) throw new Error(`chromium exited with ${r.exitCode}: ${r.stderr.toString().slice(-2000)}`);
    return r.stdout.toString();
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}
