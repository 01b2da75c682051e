import { describe, expect, test } from "bun:test";
import { MAX_MESSAGE_LENGTH, printableLine, VqError } from "./errors.ts";

describe("VqError messages", () => {
  test("control bytes an input put in a message come out escaped: one printable line", () => {
    const e = new VqError('in.y4m: bad tag "a\r\x1b[31mb\0c\n\x7f\x85"');
    expect(e.message).toBe('in.y4m: bad tag "a\\r\\x1b[31mb\\0c\\n\\x7f\\x85"');
  });

  test(`a message is at most ${MAX_MESSAGE_LENGTH} characters, its start kept`, () => {
    const e = new VqError(`in.y4m: ${"x".repeat(4000)}`);
    expect(e.message).toHaveLength(MAX_MESSAGE_LENGTH);
    expect(e.message).toStartWith("in.y4m: xxx");
    expect(e.message).toEndWith("...");
  });

  test("printable text, accents included, is left as it is", () => {
    expect(printableLine("café.y4m: frame 3 is truncated")).toBe("café.y4m: frame 3 is truncated");
  });
});
