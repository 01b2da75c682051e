import type { FuzzTarget } from "./target.ts";
import { y4mTarget } from "./targets/y4m.ts";
import { yuvTarget } from "./targets/yuv.ts";
import { modelTarget } from "./targets/model.ts";
import { argsTarget } from "./targets/args.ts";
import { videoFrameTarget } from "./targets/video-frame.ts";
import { ffmpegTarget } from "./targets/ffmpeg.ts";
import { cliSpawnedTarget } from "./targets/cli-spawned.ts";
import { reportTarget } from "./targets/report.ts";
import { jobsTarget } from "./targets/jobs.ts";

/** Every fuzz target, in the order a run reports them. A new input surface is one module in targets/ and one line here. */
export const TARGETS: readonly FuzzTarget<any>[] = [y4mTarget, yuvTarget, modelTarget, argsTarget, videoFrameTarget, reportTarget, jobsTarget, ffmpegTarget, cliSpawnedTarget];

export function targetNamed(name: string): FuzzTarget<any> {
  const t = TARGETS.find((x) => x.name === name);
  if (!t) throw new Error(`no fuzz target "${name}" (targets: ${TARGETS.map((x) => x.name).join(", ")})`);
  return t;
}
