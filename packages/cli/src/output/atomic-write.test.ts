import { expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeAtomically } from "./atomic-write.ts";

test("a regular file is replaced whole", () => {
  const path = join(mkdtempSync(join(tmpdir(), "vq-write-")), "out.json");
  writeAtomically(path, "first");
  writeAtomically(path, "second");
  expect(readFileSync(path, "utf8")).toBe("second");
});

// `-o /dev/null` as root once renamed the temporary file over the device node.
test("a FIFO or device is written to, never renamed over", async () => {
  const fifo = join(mkdtempSync(join(tmpdir(), "vq-write-")), "pipe");
  expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
  const reader = spawn("cat", [fifo]);
  let got = "";
  reader.stdout.on("data", (d) => (got += d));
  const closed = new Promise((resolve) => reader.on("close", resolve));
  writeAtomically(fifo, "scores");
  await closed;
  expect(got).toBe("scores");
  expect(statSync(fifo).isFIFO()).toBe(true);
});
