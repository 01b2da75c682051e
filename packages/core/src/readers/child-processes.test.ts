import { afterAll, expect, test } from "bun:test";
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { killChildProcesses, STOP_GRACE_MS, stopChildProcess, trackChildProcess } from "./child-processes.ts";
import { openWithFfmpeg } from "./ffmpeg-reader.ts";

const dir = mkdtempSync(join(tmpdir(), "vq-children-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const exited = (child: ChildProcess) => new Promise<string | number>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code!)));
// A process that ignores SIGTERM, as ffmpeg does while it waits in open() on a FIFO.
const stubborn = () => spawn("sh", ["-c", "trap '' TERM; exec sleep 30"], { stdio: "ignore" });

test("a child that ignores SIGTERM is killed after the grace period", async () => {
  const child = stubborn();
  await Bun.sleep(50); // the trap set
  const t0 = performance.now();
  stopChildProcess(child);
  expect(await exited(child)).toBe("SIGKILL");
  expect(performance.now() - t0).toBeGreaterThanOrEqual(STOP_GRACE_MS - 50);
}, 10_000);

test("every tracked child still running is killed at once (vq's exit)", async () => {
  const children = [stubborn(), stubborn()];
  children.forEach(trackChildProcess);
  const ends = children.map(exited);
  killChildProcesses();
  expect(await Promise.all(ends)).toEqual(["SIGKILL", "SIGKILL"]);
});

test("closing an ffmpeg reader stops an ffmpeg that ignores SIGTERM", async () => {
  // a stand-in ffmpeg: a Y4M header, then nothing, deaf to SIGTERM; it records its pid
  const ffmpeg = join(dir, "ffmpeg");
  const pidFile = join(dir, "pid");
  writeFileSync(ffmpeg, `#!/bin/sh\ntrap '' TERM\necho $$ > "${pidFile}"\nprintf 'YUV4MPEG2 W4 H2 F25:1 C420\\n'\nexec sleep 30\n`);
  chmodSync(ffmpeg, 0o755);
  const input = join(dir, "input.mp4");
  writeFileSync(input, "");
  const reader = await openWithFfmpeg(input, { ffmpeg, probe: false });
  const pid = Number(await Bun.file(pidFile).text());
  await reader.close();
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const end = Date.now() + STOP_GRACE_MS + 2000;
  while (alive() && Date.now() < end) await Bun.sleep(50);
  expect(alive()).toBe(false);
}, 10_000);
