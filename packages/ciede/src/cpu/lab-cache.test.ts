import { expect, test } from "bun:test";
import { LabCache } from "./lab-cache.ts";
import { LabConverter } from "../colour/lab-color.ts";

test("the Lab cache hands out exactly the converter's values, also after collisions evict slots", () => {
  for (const bitDepth of [8, 10, 16]) {
    const cache = new LabCache(bitDepth, 4); // 16 slots: constant eviction
    const converter = new LabConverter(bitDepth);
    const expected = new Float32Array(3);
    const max = (1 << bitDepth) - 1;
    let seed = bitDepth;
    const sample = () => ((seed = (Math.imul(seed, 1103515245) + 12345) | 0) >>> 8) % (max + 1);
    for (let i = 0; i < 20000; i++) {
      // revisit a small set often so hits, misses and evictions all happen
      const y = i % 3 ? sample() : i % 7, u = i % 3 ? sample() : max - (i % 5), v = i % 3 ? sample() : 128;
      const at = cache.find(y, u, v);
      converter.convert(y, u, v, expected, 0);
      expect([cache.lab[at], cache.lab[at + 1], cache.lab[at + 2]]).toEqual([expected[0], expected[1], expected[2]]);
    }
  }
});
