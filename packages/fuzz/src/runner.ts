import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CASE_TIME_LIMIT_MS, judge } from "./outcome.ts";
import { caseSeed, Prng } from "./prng.ts";
import type { FuzzContext, FuzzTarget } from "./target.ts";

export interface Failure {
  target: string;
  seed: number;
  index: number;
  reason: string;
  /** Where the (minimized) reproducer was saved, when it was. */
  saved?: string;
}

export interface TargetTally {
  target: string;
  cases: number;
  /** Cases the product refused with a VqError (the rest it accepted, or failed on). */
  refused: number;
  failures: number;
  ms: number;
}

/** How a case ended: what it returned or threw, and the failure reason if it is one. */
export async function runCase<I>(target: FuzzTarget<I>, input: I, ctx: FuzzContext & { leftovers(): string[] }, limitMs = CASE_TIME_LIMIT_MS): Promise<string | undefined> {
  return (await runCaseOutcome(target, input, ctx, limitMs)).reason;
}

/** A case's failure reason (if any), and whether the product refused the input (a VqError) rather than accepting it. */
export async function runCaseOutcome<I>(target: FuzzTarget<I>, input: I, ctx: FuzzContext & { leftovers(): string[] }, limitMs = CASE_TIME_LIMIT_MS): Promise<{ reason?: string; refused: boolean }> {
  let refused = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<"hang">((resolve) => {
    timer = setTimeout(() => resolve("hang"), limitMs);
  });
  let reason: string | undefined;
  try {
    const value = await Promise.race([target.run(input, ctx), hang]);
    reason = value === "hang" ? `ran over ${limitMs / 1000} s` : judge({ threw: false, value });
  } catch (error) {
    refused = true;
    reason = judge({ threw: true, error });
  } finally {
    clearTimeout(timer);
  }
  const left = ctx.leftovers();
  if (left.length && !reason) reason = `left files behind: ${left.slice(0, 3).join(", ")}`;
  return { reason, refused };
}

/** The case's input made smaller while it still fails for the same kind of reason (bounded tries). */
export async function minimize<I>(target: FuzzTarget<I>, input: I, reason: string, ctx: FuzzContext & { leftovers(): string[]; clean(): void }, budget = 300): Promise<I> {
  if (!target.shrink) return input;
  const kind = reasonKind(reason);
  let best = input;
  let tries = 0;
  for (let improved = true; improved && tries < budget; ) {
    improved = false;
    for (const candidate of target.shrink(best)) {
      if (++tries > budget) break;
      const r = await runCase(target, candidate, ctx);
      ctx.clean();
      if (r && reasonKind(r) === kind) {
        best = candidate;
        improved = true;
        break;
      }
    }
  }
  return best;
}

/** A failure's kind without its numbers and quoted input, so a smaller input failing alike counts. */
function reasonKind(reason: string): string {
  return reason.replace(/"[^"]*"/g, "").replace(/\d+/g, "#").slice(0, 60);
}

/** Saves a failing case where the run's temp dir is not (that one is removed): the reproducer outlives the run. */
export function saveReproducer<I>(target: FuzzTarget<I>, input: I, seed: number, index: number, dir = join(tmpdir(), "vq-fuzz-failures")): string {
  mkdirSync(dir, { recursive: true });
  const file = target.save(input);
  const path = join(dir, `${target.name}-s${seed}-c${index}.${file.extension}`);
  writeFileSync(path, file.bytes);
  return path;
}

/** Cases `from` .. `to` − 1 of one target; each case's seed comes from the run seed, the target and its index. */
export async function fuzzTarget<I>(
  target: FuzzTarget<I>,
  seed: number,
  from: number,
  to: number,
  ctx: FuzzContext & { leftovers(): string[]; clean(): void },
  onFailure: (f: Failure) => void,
  failuresDir?: string,
): Promise<TargetTally> {
  const t0 = performance.now();
  let failures = 0;
  let refused = 0;
  for (let index = from; index < to; index++) {
    let input: I;
    try {
      input = target.generate(new Prng(caseSeed(seed, target.name, index)), ctx);
    } catch (e) {
      // the harness's own bug: reported like a failure, so the run goes on and the case can be rerun
      failures++;
      onFailure({ target: target.name, seed, index, reason: `the generator threw: ${(e as Error).message}` });
      continue;
    }
    const outcome = await runCaseOutcome(target, input, ctx);
    if (outcome.refused) refused++;
    const reason = outcome.reason;
    if (!reason) continue;
    ctx.clean();
    failures++;
    // a process per try: a slow target gets a few tries, an in-process one a few hundred
    const small = await minimize(target, input, reason, ctx, target.perHundredThousand === undefined ? 300 : 20);
    onFailure({ target: target.name, seed, index, reason, saved: saveReproducer(target, small, seed, index, failuresDir) });
  }
  return { target: target.name, cases: to - from, refused, failures, ms: performance.now() - t0 };
}
