import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { VqError } from "@vq/core";
import { jsonCase } from "./json-case.ts";
import { judge } from "./outcome.ts";
import { shareCases } from "./plan.ts";
import { caseSeed, Prng } from "./prng.ts";
import { fuzzTarget, minimize, runCase, type Failure } from "./runner.ts";
import { shrinkBytes } from "./shrink.ts";
import type { FuzzTarget } from "./target.ts";
import { makeContext, type RunContext } from "./temp-dir.ts";

let ctx: RunContext;
beforeAll(() => {
  ctx = makeContext();
});
afterAll(() => ctx.remove());

/** A target whose product is `run`: for checking that the harness calls each outcome what it is. */
function fake(run: (input: Uint8Array) => Promise<unknown>, extra: Partial<FuzzTarget<Uint8Array>> = {}): FuzzTarget<Uint8Array> {
  return { name: "fake", description: "", weight: 1, generate: (rng) => rng.bytes(rng.int(40)), run, save: (bytes) => ({ extension: "bin", bytes }), load: (f) => f.bytes, ...extra };
}

test("outcomes: success and one-line VqErrors are fine; anything else fails", () => {
  expect(judge({ threw: false, value: { a: [1, 2] } })).toBeUndefined();
  expect(judge({ threw: true, error: new VqError("x.y4m: bad W") })).toBeUndefined();
  expect(judge({ threw: true, error: new TypeError("undefined is not an object") })).toContain("TypeError");
  expect(judge({ threw: true, error: new RangeError("Out of memory") })).toContain("RangeError");
  expect(judge({ threw: true, error: "a string" })).toContain("not a VqError");
  expect(judge({ threw: true, error: new VqError("internal error: oops") })).toContain("internal error");
  expect(judge({ threw: true, error: new VqError("bad at run (/repo/packages/core/src/x.ts:12:5)") })).toContain("stack");
  expect(judge({ threw: true, error: new VqError('x.y4m: frame 0: expected a FRAME marker at byte 19, found "F60:1:1"') })).toBeUndefined();
  const long = Object.assign(new VqError("x"), { message: "y".repeat(301) });
  expect(judge({ threw: true, error: long })).toContain("301 characters");
  const control = Object.assign(new VqError("x"), { message: "a\rb" });
  expect(judge({ threw: true, error: control })).toContain("control byte");
  expect(judge({ threw: false, value: { vmaf: [1, NaN] } })).toBe("result.vmaf[1] (NaN) is not a finite number");
  expect(judge({ threw: false, value: { vmaf: null } })).toBe("result.vmaf is not a finite number");
});

test("the PRNG and case seeds are deterministic", () => {
  const a = new Prng(caseSeed(7, "y4m", 12));
  const b = new Prng(caseSeed(7, "y4m", 12));
  expect([a.u32(), a.int(10), a.range(3, 5)]).toEqual([b.u32(), b.int(10), b.range(3, 5)]);
  expect(caseSeed(7, "y4m", 12)).not.toBe(caseSeed(7, "y4m", 13));
  expect(caseSeed(7, "y4m", 12)).not.toBe(caseSeed(7, "yuv", 12));
});

test("a run's cases: the slow targets their few, the rest by weight", () => {
  const t = (name: string, weight: number, perHundredThousand?: number) => ({ ...fake(async () => 0), name, weight, perHundredThousand });
  const share = shareCases([t("a", 3), t("b", 1), t("slow", 0, 20)], 100_000);
  expect([share.get("a"), share.get("b"), share.get("slow")]).toEqual([74_985, 24_995, 20]);
  expect(shareCases([t("slow", 0, 20)], 50).get("slow")).toBe(50);
});

test("a case that throws a TypeError, hangs or leaves a file fails; the failure names seed and case and is saved", async () => {
  expect(await runCase(fake(async () => (undefined as unknown as { x: () => void }).x()), new Uint8Array(), ctx)).toContain("TypeError");
  expect(await runCase(fake(() => new Promise(() => {})), new Uint8Array(), ctx, 50)).toBe("ran over 0.05 s");
  expect(await runCase(fake(async () => writeFileSync(join(ctx.caseDir, "x.tmp"), "")), new Uint8Array(), ctx)).toBe("left files behind: x.tmp");
  ctx.clean();
  const failures: Failure[] = [];
  const tally = await fuzzTarget(fake(async (b) => (b.length > 30 ? Promise.reject(new RangeError("Out of memory")) : 0)), 3, 0, 50, ctx, (f) => failures.push(f), join(ctx.dir, "failures"));
  expect(tally.failures).toBeGreaterThan(0);
  expect(failures[0]).toMatchObject({ target: "fake", seed: 3 });
  expect(failures[0]!.saved).toBe(join(ctx.dir, "failures", `fake-s3-c${failures[0]!.index}.bin`));
});

test("a failure is minimized while it fails alike", async () => {
  const target = fake(async (b) => (b.includes(7) ? Promise.reject(new TypeError("seven")) : 0), { shrink: shrinkBytes });
  const small = await minimize(target, Uint8Array.from([1, 2, 3, 7, 4, 5, 6, 8, 9]), "threw TypeError, not a VqError: seven", ctx);
  expect([...small]).toEqual([7]);
});

test("saved JSON cases keep NaN, the infinities and -0", () => {
  const input = { a: NaN, b: Infinity, c: -Infinity, d: -0, e: [1.5] };
  const back = jsonCase.load<typeof input>(jsonCase.save(input));
  expect(back.a).toBeNaN();
  expect([back.b, back.c, Object.is(back.d, -0), back.e]).toEqual([Infinity, -Infinity, true, [1.5]]);
});
