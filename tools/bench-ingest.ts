// Ingest benchmark: how fast do ffmpeg-decoded frames reach vq, with nothing scored? Reads
// every frame of an H.264 pair through vq's ffmpeg reader (both inputs at once, as a run
// reads them) and compares with ffmpeg decoding the same files alone to /dev/null.
//   bun tools/bench-ingest.ts [--ffmpeg PATH] [--frames N] [--size WxH] [--dir DIR]
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openWithFfmpeg } from "@vq/core";
import { benchArgs } from "./bench-args.ts";
import { h264Pair } from "./h264-pair.ts";
import { mainThreadCpu } from "./bench-process.ts";

const { get } = benchArgs(process.argv.slice(2));
const ffmpeg = get("--ffmpeg", "ffmpeg");
const frames = Number(get("--frames", "480"));
const size = get("--size", "1920x1080");
const dir = get("--dir", "") || mkdtempSync(join(tmpdir(), "vq-ingest-bench-"));
mkdirSync(dir, { recursive: true });

const { reference: ref, distorted: dist } = h264Pair(ffmpeg, dir, frames, size);

function decodeOnly(file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn(ffmpeg, ["-v", "error", "-nostdin", "-i", file, "-map", "0:v:0", "-f", "yuv4mpegpipe", "-strict", "-1", "-y", "/dev/null"], { stdio: "ignore" });
    p.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}`))));
  });
}
async function ingest(file: string, readOn: "worker" | "here"): Promise<number> {
  const reader = await openWithFfmpeg(file, { ffmpeg, probe: false, readOn });
  let n = 0;
  try {
    for (let p = await reader.read(); p; p = await reader.read()) {
      reader.release(p);
      n++;
    }
  } finally {
    await reader.close();
  }
  return n;
}
const timed = async (f: () => Promise<unknown>) => {
  const t0 = performance.now();
  await f();
  return (performance.now() - t0) / 1000;
};
// ffmpeg's pipe read on a worker thread per input (the default) and on the main thread
const modes = ["worker", "here"] as const;
const decodeS: number[] = [];
const ingestS: Record<(typeof modes)[number], number[]> = { worker: [], here: [] };
/** The main thread's CPU seconds per mode, over all runs: what it spends per frame bounds the rate. */
const mainCpu = { worker: 0, here: 0 };
for (let r = 0; r < 3; r++) {
  decodeS.push(await timed(() => Promise.all([decodeOnly(ref), decodeOnly(dist)])));
  for (const mode of modes) {
    const cpu0 = mainThreadCpu() ?? 0;
    ingestS[mode].push(
      await timed(async () => {
        const counts = await Promise.all([ingest(ref, mode), ingest(dist, mode)]);
        if (counts.some((c) => c !== frames)) throw new Error(`read ${counts.join(" and ")} frames, expected ${frames}`);
      }),
    );
    mainCpu[mode] += (mainThreadCpu() ?? 0) - cpu0;
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
const d = frames / median(decodeS);
console.log(`${frames} frames of ${size} H.264, both inputs at once, ${typeof Bun === "undefined" ? "Node" : "Bun"}`);
console.log(`  ffmpeg decoding alone: ${d.toFixed(0)} fps   [${decodeS.map((x) => x.toFixed(2)).join(", ")} s]`);
for (const mode of modes) {
  const i = frames / median(ingestS[mode]);
  console.log(`  vq reading the frames (pipe read ${mode === "worker" ? "on a worker per input" : "on the main thread"}): ${i.toFixed(0)} fps, ratio ${(i / d).toFixed(2)}; main thread ${((mainCpu[mode] / (3 * frames)) * 1000).toFixed(2)} ms CPU a frame   [${ingestS[mode].map((x) => x.toFixed(2)).join(", ")} s]`);
}
