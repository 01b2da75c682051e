import { spawnSync } from "node:child_process";
import { accessSync, constants, mkdirSync } from "node:fs";
import { availableParallelism, release } from "node:os";
import { delimiter, join } from "node:path";
import { ffprobeBeside, LIMITS, VqError } from "@vq/core";
import { isNoAdapterError, sharedGpu, type GpuContext } from "@vq/gpu-core";
import { adapterIdentity, cacheDirectory, everyGpuKernelSet, selfTestGpu, VERDICT_FILE } from "@vq/score";
import { DOCTOR_USAGE } from "./args.ts";
import type { CliIo } from "./run-setup.ts";
import { VERSION } from "./version.ts";

/**
 * `vq doctor`: what vq runs on and whether it works (docs/gpu-self-test.md). Broken is what
 * vq needs and cannot use (a GPU that fails its self-test or cannot be opened, an ffmpeg that
 * does not run); absent is fine (no GPU: the CPU computes; no ffmpeg: Y4M and raw YUV only).
 * Returns 0 when nothing is broken, else 1 with each problem on stderr.
 */
export async function doctorCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { help, ffmpeg } = parseDoctorArgs(argv);
  if (help) {
    io.stdout(DOCTOR_USAGE);
    return 0;
  }
  const problems: string[] = [];
  const say = (line: string) => io.stdout(`${line}\n`);
  say(`vq ${VERSION}`);
  say(`runtime: ${runtime()}, ${process.platform} ${release()} ${process.arch}`);
  say(`threads: ${availableParallelism()} CPUs; vq uses 1 worker unless --threads N (at most ${LIMITS.threads}, never more than frames)`);
  say(`cache: ${await cacheLine()}`);
  say(`ffmpeg: ${ffmpegLines(ffmpeg, problems).join("\n  ")}`);
  say(`GPU: ${(await gpuLines(problems)).join("\n  ")}`);
  for (const p of problems) io.stderr(`vq: doctor: ${p}\n`);
  say(problems.length ? `not well: ${problems.length} problem${problems.length > 1 ? "s" : ""} (on stderr)` : "all well");
  return problems.length ? 1 : 0;
}

function parseDoctorArgs(argv: readonly string[]): { help: boolean; ffmpeg: string } {
  let help = false;
  let ffmpeg = "ffmpeg";
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help") help = true;
    else if (arg === "--ffmpeg" || arg.startsWith("--ffmpeg=")) {
      const v = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[++i];
      if (!v) throw new VqError("option --ffmpeg needs a value (vq doctor --ffmpeg PATH)");
      ffmpeg = v;
    } else throw new VqError(`unknown argument ${arg} for vq doctor (see vq doctor --help)`);
  }
  return { help, ffmpeg };
}

function runtime(): string {
  const deno = (globalThis as { Deno?: { version: { deno: string } } }).Deno;
  if (deno) return `Deno ${deno.version.deno}`;
  const { bun, node } = process.versions as { bun?: string; node: string };
  return bun ? `Bun ${bun} (Node ${node} compatible)` : `Node ${node}`;
}

async function cacheLine(): Promise<string> {
  const dir = (await cacheDirectory())!;
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return `${dir} (GPU self-test verdicts in ${VERDICT_FILE})`;
  } catch (e) {
    // Not broken: the self-test then runs on every GPU run.
    return `${dir} is not writable (${(e as Error).message.split("\n")[0]}): the GPU self-test will run on every GPU run; set VQ_CACHE_DIR`;
  }
}

/** A program's path as the shell would find it (a name without a slash: on PATH). */
function onPath(program: string): string | undefined {
  const found = (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (program.includes("/")) return found(program) ? program : undefined;
  return (process.env.PATH ?? "").split(delimiter).map((d) => join(d || ".", program)).find(found);
}

function ffmpegLines(ffmpeg: string, problems: string[]): string[] {
  const path = onPath(ffmpeg);
  if (!path) return [`${ffmpeg} not found (optional: without it vq reads Y4M and raw YUV only; --ffmpeg PATH names one)`];
  const version = spawnSync(path, ["-hide_banner", "-version"], { encoding: "utf8", timeout: 10_000 });
  const first = version.stdout?.split("\n")[0] ?? "";
  if (version.status !== 0 || !first.startsWith("ffmpeg version")) {
    const why = version.error?.message ?? (version.stderr?.trim().split("\n")[0] || `exit status ${version.status}`);
    problems.push(`ffmpeg ${path} does not run: ${why}`);
    return [`${path} does not run: ${why}`];
  }
  const hw = spawnSync(path, ["-hide_banner", "-hwaccels"], { encoding: "utf8", timeout: 10_000 });
  const methods = (hw.stdout ?? "").split("\n").slice(1).map((l) => l.trim()).filter(Boolean);
  const probe = onPath(ffprobeBeside(path));
  return [
    `${path}, ${first.replace(/^ffmpeg version /, "version ").split(" Copyright")[0]}`,
    `hwaccels: ${methods.length ? methods.join(", ") : "none"}`,
    `ffprobe: ${probe ?? `${ffprobeBeside(path)} not found (optional: the progress line then has no total)`}`,
  ];
}

const mib = (n: number) => (n >= 1 << 30 ? `${(n / 2 ** 30).toFixed(0)} GiB` : `${(n / 2 ** 20).toFixed(0)} MiB`);

/** The limits that decide the largest frame and batch vq can put on the adapter. */
function limitsLine(gpu: GpuContext): string {
  const l = gpu.device.limits;
  return `limits: storage binding ${mib(l.maxStorageBufferBindingSize)}, buffer ${mib(l.maxBufferSize)}, workgroup storage ${l.maxComputeWorkgroupStorageSize} bytes, ${l.maxComputeInvocationsPerWorkgroup} invocations a workgroup`;
}

async function gpuLines(problems: string[]): Promise<string[]> {
  let gpu: GpuContext;
  try {
    gpu = await sharedGpu();
  } catch (e) {
    const message = (e as Error).message ?? String(e);
    if (isNoAdapterError(e)) return [`none (${message.split(".")[0]}); vq computes on the CPU`];
    problems.push(`the GPU cannot be opened: ${message}`);
    return [`cannot be opened: ${message}`];
  }
  const { adapter, driver } = adapterIdentity(gpu);
  const lines = [
    `${gpu.description}${gpu.isSoftware ? " (a software renderer: --backend auto computes on the CPU, --backend gpu uses it)" : ""}`,
    `adapter: ${adapter}; driver: ${driver}`,
    `features vq uses: ${[...gpu.features].join(", ") || "none"}`,
    limitsLine(gpu),
  ];
  const report = await selfTestGpu(gpu, await everyGpuKernelSet(), { fresh: true });
  for (const o of report.outcomes) {
    const name = o.kernelSet.split(":")[0];
    lines.push(o.verdict.status === "pass" ? `self-test ${name}: pass (${o.ms.toFixed(0)} ms)` : `self-test ${name}: ${o.verdict.status}: ${o.verdict.detail}`);
  }
  if (report.failure) problems.push(report.failure);
  return lines;
}
