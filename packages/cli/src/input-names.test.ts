import { expect, test } from "bun:test";
import { inputNames } from "./input-names.ts";

test("the inputs of a command line, for a message about the whole run", () => {
  expect(inputNames(["-r", "a.y4m", "-d", "b.y4m", "--threads", "4"])).toBe("a.y4m and b.y4m");
  expect(inputNames(["--reference=a.y4m", "--distorted", "b.y4m", "-d", "c.y4m"])).toBe("a.y4m and b.y4m and c.y4m");
  expect(inputNames(["--version"])).toBe("the input");
});
