import { fstatSync, statSync } from "node:fs";
import { asAllocationError, isVqError, VqError } from "@vq/core";
import { inputNames } from "./input-names.ts";
import { plannedScoreKeys, score } from "@vq/score";
import { parseArgs, parseReportArgs, REPORT_USAGE, USAGE, type CliSettings } from "./args.ts";
import { scoreLadderCommand } from "./ladder-command.ts";
import { removeStaleTemporaries, writeAtomically } from "./output/atomic-write.ts";
import { writeRunOutputs } from "./output/run-outputs.ts";
import { standardOutputWasClosed, writeStandardOutput } from "./output/standard-output.ts";
import { gpuProfileTable } from "./diagnostics/gpu-profile.ts";
import { RunTiming, timingLine } from "./diagnostics/run-timing.ts";
import { runEvents, scoreRequestFor, type CliIo } from "./run-setup.ts";
import { checkThresholdMetrics } from "./thresholds/threshold-expression.ts";
import { VERSION } from "./version.ts";

export { progressLine, type CliIo } from "./run-setup.ts";

const processIo: CliIo = {
  stdout: writeStandardOutput,
  stderr: (t) => process.stderr.write(t),
  stderrIsTty: isTerminal(2),
  checkStdout: () => {
    if (standardOutputWasClosed()) throw new VqError("standard output is closed: nowhere to write the output (give -o FILE)");
  },
};

/**
 * Whether a file descriptor is a terminal, without `process.stderr.isTTY`: under Bun the
 * first touch of process.stderr costs ~15 ms (it loads the stream machinery), which a run
 * that draws no progress should not pay before its first score. A terminal is a character
 * device other than /dev/null.
 */
function isTerminal(fd: number): boolean {
  try {
    const st = fstatSync(fd);
    if (!st.isCharacterDevice()) return false;
    try {
      return st.rdev !== statSync("/dev/null").rdev;
    } catch {
      return true;
    }
  } catch {
    return false;
  }
}

/** Runs vq with libvmaf's `vmaf` arguments; returns the exit code. Errors are one line, no stack. */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  try {
    return (await run(argv, io)) ?? 0;
  } catch (caught) {
    // An allocation that failed anywhere is the input asking too much, not a bug.
    const e = asAllocationError(caught, inputNames(argv));
    if (isVqError(e)) {
      io.stderr(`vq: ${e.message}\n`);
      return 1;
    }
    io.stderr(`vq: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 2;
  }
}

/** One run of the command line; returns the exit code when it is not 0. */
async function run(argv: readonly string[], io: CliIo): Promise<number | void> {
  // Nothing of io.stdout's is returned: process.stdout.write's `true` would become the exit code.
  if (argv[0] === "report") {
    await report(argv.slice(1), io);
    return;
  }
  if (argv[0] === "batch") return (await import("./batch/batch-command.ts")).batchCommand(argv.slice(1), io);
  if (argv[0] === "worker") return (await import("./queue/worker-command.ts")).workerCommand(argv.slice(1), io);
  if (argv[0] === "submit") return (await import("./queue/submit-command.ts")).submitCommand(argv.slice(1), io);
  if (argv[0] === "web") return (await import("./web-command.ts")).webCommand(argv.slice(1), io);
  if (argv[0] === "doctor") return (await import("./doctor.ts")).doctorCommand(argv.slice(1), io);
  const s = parseArgs(argv);
  // Before scoring: a run whose output has nowhere to go fails at once, not after the work.
  if (!s.output) io.checkStdout?.();
  // what a vq killed mid-write (kill -9) left next to the outputs
  for (const path of [s.output, s.report]) if (path) removeStaleTemporaries(path);
  if (s.help || s.version) {
    io.stdout(s.help ? USAGE : `vq ${VERSION}\n`);
    return;
  }
  // Before scoring: a threshold on a key the run does not write is an error.
  if (s.thresholds.length) checkThresholdMetrics(s.thresholds, await plannedScoreKeys({ features: s.features, models: s.models, noPrediction: s.noPrediction }));
  if (s.distorted.length > 1) return scoreLadderCommand(s, io, argv);
  const t0 = performance.now();
  const timing = s.timing ? new RunTiming() : undefined;
  const { progress, events } = runEvents(s, io, t0, (n) => timing?.mark(n));
  const align = s.align === undefined ? undefined : { search: s.align };
  const run = score({ ...scoreRequestFor(s), distorted: s.distorted[0]!, align, profileGpu: s.gpuProfile }, events);
  for await (const frame of run) {
    // a frame is scored when it comes out here (progress counts frames read and sent)
    timing?.scored(frame.frameNum + 1);
  }
  const result = await run.result;
  if (progress) io.stderr("\n");
  const fps = result.frames / ((performance.now() - t0) / 1000);
  if (s.gpuProfile) io.stderr(gpuProfileTable(result.gpuTimeNs, result.frames, result.gpuSpanNs));
  const times = timing?.summary();
  if (times) io.stderr(`vq: ${timingLine(times)}\n`);
  return writeRunOutputs(s, result, fps, argv, io);
}

/** `vq report A.json [B.json ...] [-o report.html]`: the report of one result written earlier, or the comparison of several. */
async function report(argv: readonly string[], io: CliIo): Promise<void> {
  const r = parseReportArgs(argv);
  if (!r.output) io.checkStdout?.();
  if (r.help) return io.stdout(REPORT_USAGE);
  const [{ reportHtml }, { readReportData }] = await Promise.all([import("./report/report-html.ts"), import("./report/report-file.ts")]);
  const html = await reportHtml(r.inputs.map(readReportData), `vq ${VERSION}`);
  if (r.output) writeAtomically(r.output, html, "the report");
  else io.stdout(html);
}
