import { describe, expect, test } from "bun:test";
import { isVqError } from "./errors.ts";
import { asAllocationError, checkPictureSize, isAllocationFailure, LIMITS } from "./limits.ts";

describe("limits", () => {
  test("a picture within the limits passes; one side or the area beyond them is refused, naming the limit", () => {
    expect(() => checkPictureSize("a.y4m", 16384, 16384)).not.toThrow();
    expect(() => checkPictureSize("a.y4m", 65536, 4096)).not.toThrow();
    expect(() => checkPictureSize("a.y4m", 65537, 1)).toThrow("a.y4m: picture size 65537x1 is over vq's limit of 65536 samples a side (docs/limits.md)");
    expect(() => checkPictureSize("a.y4m", 16385, 16384)).toThrow(`over vq's limit of ${LIMITS.pictureSamples} samples`);
  });

  test("the engine's allocation failures become a VqError naming the input; other errors stay as they are", () => {
    const failures: unknown[] = [];
    for (const allocate of [() => new Int32Array(65536 * 65536), () => new Uint8Array(2 ** 53), () => new Array(-1), () => new ArrayBuffer(2 ** 53)]) {
      try {
        allocate();
      } catch (e) {
        failures.push(e);
      }
    }
    expect(failures).toHaveLength(4);
    for (const f of failures) {
      expect(isAllocationFailure(f)).toBe(true);
      const e = asAllocationError(f, "ref.y4m and dist.y4m");
      expect(isVqError(e)).toBe(true);
      expect((e as Error).message).toStartWith("ref.y4m and dist.y4m: not enough memory (");
    }
    const bug = new TypeError("x is undefined");
    expect(asAllocationError(bug, "ref.y4m")).toBe(bug);
    expect(isAllocationFailure(new RangeError("Maximum call stack size exceeded"))).toBe(false);
  });
});
