import { afterAll, beforeAll, expect, test } from "bun:test";
import { TARGETS } from "./registry.ts";
import { fuzzTarget, type Failure } from "./runner.ts";
import { makeContext, type RunContext } from "./temp-dir.ts";

// A small seeded run per target (the package's test script then runs 100,000 cases): the
// harness works end to end for each target, and those cases stay clean.
const CASES: Record<string, number> = { ffmpeg: 4, cli: 3 };

let ctx: RunContext;
beforeAll(() => {
  ctx = makeContext();
});
afterAll(() => ctx.remove());

test.each(TARGETS.map((t) => [t.name, t] as const))("%s: a seeded run finds nothing", async (_, target) => {
  await target.setup?.(ctx);
  const failures: Failure[] = [];
  const tally = await fuzzTarget(target, 1, 0, CASES[target.name] ?? 300, ctx, (f) => failures.push(f));
  expect(failures).toEqual([]);
  expect(tally.cases).toBe(CASES[target.name] ?? 300);
  // the mutators reach past the first check: some inputs accepted, some refused (spawned runs report no refusals)
  if (tally.cases >= 300) expect(tally.refused).toBeGreaterThan(0);
  if (tally.cases >= 300) expect(tally.refused).toBeLessThan(tally.cases);
}, 120_000);
