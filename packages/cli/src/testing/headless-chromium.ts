import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/** Debian's chromium, or the binary named by VQ_CHROMIUM. */
export function findChromium(): string | undefined {
  const candidates = [process.env.VQ_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
  return candidates.find((c): c is string => Boolean(c) && existsSync(c!));
}

/** In CI (or when asked) a missing browser fails the browser tests instead of skipping them. */
export const chromiumRequired = Boolean(process.env.CI) || process.env.VQ_REQUIRE_CHROMIUM === "1";

const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--allow-file-access-from-files"];

/**
 * Loads a page and returns its DOM once the page is idle. `--virtual-time-budget` lets
 * scripts (and the promises they chain) run to completion before the dump.
 */
export function dumpDom(chromium: string, url: string, budgetMs = 60_000): string {
  const r = spawnSync(chromium, [...FLAGS, `--virtual-time-budget=${budgetMs}`, "--dump-dom", url], { encoding: "utf8", timeout: 180_000, maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`chromium --dump-dom ${url} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** Loads a page and writes a PNG screenshot of it. */
export function screenshot(chromium: string, url: string, png: string, size = "1280,2000", budgetMs = 10_000): void {
  const r = spawnSync(chromium, [...FLAGS, `--virtual-time-budget=${budgetMs}`, `--window-size=${size}`, `--screenshot=${png}`, url], { encoding: "utf8", timeout: 180_000 });
  if (r.status !== 0) throw new Error(`chromium --screenshot ${url} exited ${r.status}: ${r.stderr}`);
}
