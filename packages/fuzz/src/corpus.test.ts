import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { corpusFiles } from "./corpus.ts";
import { TARGETS } from "./registry.ts";
import { runCase } from "./runner.ts";
import { makeContext, type RunContext } from "./temp-dir.ts";

// Every failure the fuzzer found, replayed: each must now be a success or a clean VqError.
let ctx: RunContext;
beforeAll(() => {
  ctx = makeContext();
});
afterAll(() => ctx.remove());

describe.each(TARGETS.filter((t) => corpusFiles(t.name).length).map((t) => [t.name, t] as const))("corpus %s", (_, target) => {
  test.each(corpusFiles(target.name).map((c) => [c.name, c.file] as const))("%s", async (_name, file) => {
    await target.setup?.(ctx);
    expect(await runCase(target, target.load(file), ctx)).toBeUndefined();
  });
});
