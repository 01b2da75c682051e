// The browser test's page: WebCodecs VideoFrames in, vq's library API on the CPU, the
// pooled scores out into the DOM (read back through chromium --dump-dom).
import { videoFrameReader } from "@vq/core";
import { score } from "@vq/score";
import { syntheticFrames } from "./synthetic-frames.ts";
import { BROWSER_CASE } from "./browser-case.ts";

declare const VideoFrame: new (data: Uint8Array, init: { format: string; codedWidth: number; codedHeight: number; timestamp: number }) => import("@vq/core").VideoFrameLike;

const { width, height, frames, features } = BROWSER_CASE;
const asVideoFrames = (distorted: boolean) =>
  syntheticFrames(width, height, frames, distorted).map((data, i) => new VideoFrame(data, { format: "I420", codedWidth: width, codedHeight: height, timestamp: i * 40_000 }));

const out = document.getElementById("result")!;
try {
  const run = score({ reference: await videoFrameReader("reference", asVideoFrames(false)), distorted: await videoFrameReader("distorted", asVideoFrames(true)), features: [...features], backend: "cpu" });
  let perFrame = 0;
  for await (const _ of run) perFrame++;
  out.textContent = JSON.stringify({ perFrame, pooled: (await run.result).pooled });
} catch (e) {
  out.textContent = JSON.stringify({ error: String((e as Error)?.stack ?? e) });
}
