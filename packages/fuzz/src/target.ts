import type { Prng } from "./prng.ts";

/** What a target gets for a run: one temp dir for every file the run writes (removed at the end). */
export interface FuzzContext {
  /** The run's temp dir; targets put shared fixtures here. */
  readonly dir: string;
  /** A dir that must be empty after every case: a case's own input files go here and are removed by the target. */
  readonly caseDir: string;
}

/** A saved case: a file's bytes and its extension (the corpus and reproducer format). */
export interface CaseFile {
  readonly extension: string;
  readonly bytes: Uint8Array;
}

/**
 * One input surface of vq. A case is generated from a seeded PRNG (so a run seed and a case
 * index reproduce it), runs through the product's own code path, and is saved as a file for
 * the corpus. `run` resolves on success and throws what the product threw; it may return
 * numbers the product computed, which the outcome checker requires to be finite.
 */
export interface FuzzTarget<I = unknown> {
  readonly name: string;
  /** What the target exercises, for --list and the docs. */
  readonly description: string;
  /** Share of a run's cases, relative to the other targets' weights. */
  readonly weight: number;
  /** At most this many cases per 100,000 of a run (slow targets: spawns, ffmpeg). */
  readonly perHundredThousand?: number;
  /** Fixtures made once per run (an encode, real features); `ctx.dir` is the run's temp dir. */
  setup?(ctx: FuzzContext): Promise<void>;
  generate(rng: Prng, ctx: FuzzContext): I;
  run(input: I, ctx: FuzzContext): Promise<unknown>;
  save(input: I): CaseFile;
  load(file: CaseFile): I;
  /** Smaller inputs to try while minimizing a failure, largest cut first. */
  shrink?(input: I): Iterable<I>;
  teardown?(ctx: FuzzContext): Promise<void>;
}
