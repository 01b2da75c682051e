import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenPath } from "@vq/core/golden";

// SIGINT, SIGTERM and SIGHUP stop a run at once, whichever vq process gets them: the
// command itself, or the bin wrapper that runs it in a child (under Node, and with -q).
// The run is held mid-way on a FIFO fed by the test, with ffmpeg decoding the other input
// and two extraction worker threads, so that there are children to stop and an output that
// must not appear.
const dir = mkdtempSync(join(tmpdir(), "vq-signals-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cli = join(import.meta.dir, "cli.ts");
const bin = join(import.meta.dir, "../bin/vq.js");
const ref = readFileSync(goldenPath("vectors/syn_576x324.ref.y4m"));
const dist = join(dir, "dist.mp4");
// the header and two frames: vq is then scoring, waiting for the third
const firstFrames = ref.subarray(0, ref.indexOf("\n") + 1 + 2 * (6 + (576 * 324 * 3) / 2));

beforeAll(() => {
  execFileSync("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", goldenPath("vectors/syn_576x324.x264crf35.y4m"), "-c:v", "libx264", "-crf", "20", dist]);
});

/** Processes (other than this test) whose command line names the test's folder: vq, its Bun child, ffmpeg. */
function processesNaming(path: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      if (cmd.includes(path)) found.push(`${pid}: ${cmd}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

async function until(what: string, done: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

const exited = (child: ChildProcess) => new Promise<number | string>((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal!)));

const launchers = {
  "bun cli.ts": [process.execPath, cli],
  "node bin/vq.js": ["node", bin],
  "bun bin/vq.js -q": [process.execPath, bin, "-q"],
} as const;
const signals = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;

for (const [launcher, [runtime, ...pre]] of Object.entries(launchers)) {
  for (const [signal, code] of Object.entries(signals)) {
    if (launcher === "bun bin/vq.js -q" && signal !== "SIGTERM") continue; // the same forwarding as under Node
    test(`${launcher}: ${signal} mid-run exits ${code}, kills ffmpeg and leaves no output`, async () => {
      const run = mkdtempSync(join(dir, "run-"));
      const fifo = join(run, "reference"); // no .y4m: a stream is recognised by what it is
      execFileSync("mkfifo", [fifo]);
      const output = join(run, "out.json");
      const vq = spawn(runtime, [...pre, "-r", fifo, "-d", dist, "--backend", "cpu", "--threads", "2", "--json", "-o", output], { stdio: ["ignore", "ignore", "pipe"] });
      const exit = exited(vq);
      let writer: FileHandle | undefined;
      try {
        writer = await open(fifo, "w"); // returns once vq opens the FIFO
        await writer.write(firstFrames);
        await until("ffmpeg", () => processesNaming(dist).some((p) => p.includes("ffmpeg ")));
        vq.kill(signal as NodeJS.Signals);
        // a vq that ignored the signal would finish once given the rest, and write its output
        const late = setTimeout(() => writer?.write(ref.subarray(firstFrames.length)).then(() => writer?.close()).catch(() => {}), 5000);
        expect(await exit).toBe(code);
        clearTimeout(late);
      } finally {
        vq.kill("SIGKILL");
        await writer?.close().catch(() => {});
      }
      expect(readdirSync(run)).toEqual(["reference"]); // no output, no temporary file
      await until("children to go", () => processesNaming(run).length === 0 && processesNaming(dist).length === 0, 1000).catch(() => {});
      expect([...processesNaming(run), ...processesNaming(dist)]).toEqual([]);
    }, 60_000);
  }
}

test("standard input: SIGTERM mid-run exits 143 and kills ffmpeg", async () => {
  const run = mkdtempSync(join(dir, "stdin-"));
  const vq = spawn(process.execPath, [cli, "-r", "-", "-d", dist, "--backend", "cpu", "--json", "-o", join(run, "out.json")], { stdio: ["pipe", "ignore", "pipe"] });
  const exit = exited(vq);
  vq.stdin!.on("error", () => {});
  vq.stdin!.write(firstFrames);
  await until("ffmpeg", () => processesNaming(dist).some((p) => p.includes("ffmpeg ")));
  vq.kill("SIGTERM");
  expect(await exit).toBe(143);
  expect(readdirSync(run)).toEqual([]);
  await until("ffmpeg to go", () => processesNaming(dist).length === 0, 1000).catch(() => {});
  expect(processesNaming(dist)).toEqual([]);
}, 60_000);

/** The run's pooled scores in its JSON output, without the speed. */
function scores(path: string): string {
  return readFileSync(path, "utf8").replace(/^ {2}"fps": .*\n/m, "");
}

test("a Y4M stream through a FIFO, `-` or /dev/stdin scores as the file does", () => {
  const run = mkdtempSync(join(dir, "streams-"));
  const refPath = goldenPath("vectors/odd_321x241_444.ref.y4m");
  const distPath = goldenPath("vectors/odd_321x241_444.x264crf32.y4m");
  const vq = (reference: string, out: string, shell = "") =>
    spawnSync("sh", ["-c", `${shell}"$0" "$1" -r "$2" -d "$3" --backend cpu --json -o "$4"`, process.execPath, cli, reference, distPath, join(run, out)], { encoding: "utf8", timeout: 60_000 });
  expect(vq(refPath, "file.json").status).toBe(0);
  const fifo = join(run, "reference");
  execFileSync("mkfifo", [fifo]);
  for (const [reference, out, shell] of [
    [fifo, "fifo.json", `cat "${refPath}" > "${fifo}" & `],
    ["-", "dash.json", `exec < "${refPath}"; `],
    ["/dev/stdin", "stdin.json", `cat "${refPath}" | `],
  ] as const) {
    const r = vq(reference, out, shell);
    expect({ reference, status: r.status, stderr: r.stderr }).toEqual({ reference, status: 0, stderr: "" });
    expect(scores(join(run, out))).toBe(scores(join(run, "file.json")));
  }
}, 120_000);

test("a FIFO that is not Y4M is refused at once with a clear error, not a hang", () => {
  const run = mkdtempSync(join(dir, "not-y4m-"));
  const fifo = join(run, "input");
  execFileSync("mkfifo", [fifo]);
  const r = spawnSync("sh", ["-c", `head -c 100000 "$2" > "$1" & exec "$0" "$3" -r "$1" -d "$2" --backend cpu`, process.execPath, fifo, dist, cli], { encoding: "utf8", timeout: 20_000 });
  expect(r.status).toBe(1);
  expect(r.stderr).toBe(`vq: ${fifo}: a pipe is read as a Y4M stream, and this one does not start with "YUV4MPEG2": convert it first (ffmpeg -i INPUT -f yuv4mpegpipe -strict -1 -), or give a file\n`);
  expect(processesNaming(run)).toEqual([]);
}, 30_000);

test("a stream cannot be read twice: --align on standard input is refused", () => {
  const r = spawnSync("sh", ["-c", `exec < "$2"; exec "$0" "$1" -r - -d "$2" --align auto --backend cpu`, process.execPath, cli, goldenPath("vectors/odd_321x241_444.ref.y4m")], { encoding: "utf8", timeout: 20_000 });
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(/^vq: standard input: a pipe can be read only once.*give a file\n$/);
}, 30_000);

test("a file that shrinks mid-run is an error naming the first missing frame, and nothing is written", async () => {
  const run = mkdtempSync(join(dir, "shrink-"));
  const fifo = join(run, "reference");
  execFileSync("mkfifo", [fifo]);
  const distorted = join(run, "distorted.y4m");
  writeFileSync(distorted, ref);
  const output = join(run, "out.json");
  const vq = spawn(process.execPath, [cli, "-r", fifo, "-d", distorted, "--backend", "cpu", "--json", "-o", output], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  vq.stderr!.on("data", (d) => (stderr += d));
  const exit = exited(vq);
  const writer = await open(fifo, "w");
  try {
    await writer.write(firstFrames);
    // the reference held back until the distorted file is open, its size (24 frames) taken: then it shrinks to 2
    await until("the distorted file open", () => readdirSync(`/proc/${vq.pid}/fd`).some((fd) => readlinkOr(`/proc/${vq.pid}/fd/${fd}`) === distorted));
    truncateSync(distorted, firstFrames.length);
    await writer.write(ref.subarray(firstFrames.length)).catch(() => {});
  } finally {
    await writer.close().catch(() => {});
  }
  expect(await exit).toBe(1);
  expect(stderr).toBe(`vq: ${distorted}: frame 2: the file ended early (its size promised 24 frames); was it changed while vq read it?\n`);
  expect(readdirSync(run).sort()).toEqual(["distorted.y4m", "reference"]);
}, 60_000);

function readlinkOr(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

test("a FIFO with no writer yet: SIGTERM still stops vq at once (the open waits off the event loop)", async () => {
  const run = mkdtempSync(join(dir, "no-writer-"));
  const fifo = join(run, "reference");
  execFileSync("mkfifo", [fifo]);
  const vq = spawn(process.execPath, [cli, "-r", fifo, "-d", dist, "--backend", "cpu", "-o", join(run, "out.xml")], { stdio: "ignore" });
  const exit = exited(vq);
  try {
    // one of its threads waits in the FIFO's open() for a writer (the kernel's wait_for_partner)
    await until("vq waiting for the FIFO", () => waitsForFifo(vq.pid!));
    vq.kill("SIGTERM");
    expect(await exit).toBe(143);
  } finally {
    vq.kill("SIGKILL");
  }
  expect(readdirSync(run)).toEqual(["reference"]);
}, 30_000);

/** Whether a thread of process `pid` waits for the other end of a FIFO. */
function waitsForFifo(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some((tid) => readFileSync(`/proc/${pid}/task/${tid}/wchan`, "utf8") === "wait_for_partner");
  } catch {
    return false;
  }
}
