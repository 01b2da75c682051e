import { expect, test } from "bun:test";
import { mutateBytes, mutateText } from "./mutators.ts";
import { Prng } from "./prng.ts";

test("the mutators never edit their input, a Buffer included (a case must not change the next one's seed)", () => {
  for (const input of [Buffer.from("YUV4MPEG2 W8 H8\nFRAME\n" + "x".repeat(96)), new Uint8Array(64).fill(7)]) {
    const before = Uint8Array.from(input);
    for (let seed = 0; seed < 2000; seed++) mutateBytes(new Prng(seed), input, 8);
    expect(Uint8Array.from(input)).toEqual(before);
  }
  const text = "W176 H144 F25:1";
  for (let seed = 0; seed < 200; seed++) mutateText(new Prng(seed), text);
  expect(text).toBe("W176 H144 F25:1");
});
