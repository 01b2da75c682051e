import type { FuzzTarget } from "./target.ts";

/**
 * How a run's cases are shared: a slow target (spawns, ffmpeg) gets its fixed few per
 * 100,000 (at least one); the fast ones share the rest by weight. Asked for alone, a
 * target gets every case.
 */
export function shareCases(targets: readonly FuzzTarget<any>[], cases: number): Map<string, number> {
  const out = new Map<string, number>();
  if (targets.length === 1) return out.set(targets[0]!.name, cases);
  let left = cases;
  for (const t of targets) {
    if (t.perHundredThousand === undefined) continue;
    const n = Math.min(left, Math.max(1, Math.round((cases * t.perHundredThousand) / 100_000)));
    out.set(t.name, n);
    left -= n;
  }
  const fast = targets.filter((t) => t.perHundredThousand === undefined);
  const total = fast.reduce((s, t) => s + t.weight, 0);
  let given = 0;
  fast.forEach((t, i) => {
    const n = i === fast.length - 1 ? left - given : Math.floor((left * t.weight) / total);
    out.set(t.name, n);
    given += n;
  });
  return out;
}
