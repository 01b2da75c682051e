import { z } from "zod";
import { CompositeLadderBackend, FeatureCollector, scoreLadder as scoreLadderVideos, VqError, type LadderResult, type VideoReader } from "@vq/core";
import { modelScoreKeys } from "@vq/model";
import { chooseLadderBackend } from "./backend.ts";
import { deviceLoss, rereadable, resumeLadderOnCpu, sayOnce } from "./device-loss.ts";
import { changesRate } from "./conform.ts";
import { prepareDistorted } from "./distorted-input.ts";
import { FrameQueue } from "./frame-queue.ts";
import { RepeatedFrames } from "./repeated-frames.ts";
import { RunOutput } from "./run-output.ts";
import { decoding, expectedFeatures, frameTotal, input, openDistorted, openInput, parseRequest, planRun, readsLumaOnly, scoreRequestSchema, type FrameScores, type ScoreEvents, type ScoreRun, type ScoreSummary } from "./score.ts";

/** What `scoreLadder` takes: `score`'s request with several distorted inputs. */
export const ladderRequestSchema = scoreRequestSchema.omit({ profileGpu: true, align: true }).extend({
  distorted: z.array(input).min(1),
});
export type LadderRequest = z.input<typeof ladderRequestSchema>;

/** One distorted input's outcome. */
export type LadderOutcome = { distorted: string | VideoReader; summary: ScoreSummary; error?: undefined } | { distorted: string | VideoReader; summary?: undefined; error: VqError };

/**
 * A ladder run: one ScoreRun per distorted input (each iterable, each with its `result`,
 * which rejects if that input failed), and `result`, every input's outcome once all are
 * done. It never rejects for one input's failure: only for what fails them all (the
 * request, the reference, the device).
 */
export interface LadderRun {
  readonly runs: readonly ScoreRun[];
  readonly result: Promise<LadderOutcome[]>;
}

/**
 * Scores several distorted inputs (an encoding ladder's renditions) against one reference,
 * which is read and decoded once per frame for all of them and, on the GPU, uploaded once.
 * Each input's scores are what `score` gives for it alone.
 */
export function scoreLadder(request: LadderRequest, events: ScoreEvents = {}): LadderRun {
  const count = Array.isArray(request?.distorted) ? request.distorted.length : 0;
  const queues = Array.from({ length: count }, () => new FrameQueue<FrameScores, ScoreSummary>());
  const result = runLadder(request, events, queues);
  const laneResult = (lane: number) => {
    const p = result.then((outcomes) => {
      const o = outcomes[lane]!;
      if (o.error) throw o.error;
      return o.summary;
    });
    p.catch(() => {});
    return p;
  };
  result.then(
    (outcomes) => outcomes.forEach((o, lane) => (o.error ? queues[lane]!.fail(o.error) : queues[lane]!.finish(o.summary))),
    (e: unknown) => queues.forEach((q) => q.fail(e)),
  );
  result.catch(() => {});
  return { runs: queues.map((q, lane) => Object.assign(q.iterator(), { result: laneResult(lane) })), result };
}

async function runLadder(request: LadderRequest, events: ScoreEvents, queues: readonly FrameQueue<FrameScores, ScoreSummary>[]): Promise<LadderOutcome[]> {
  const r = parseRequest(ladderRequestSchema, request);
  const plan = await planRun(r);
  const readers: VideoReader[] = [];
  try {
    const lumaOnly = readsLumaOnly(r, plan, [r.reference, ...r.distorted]);
    const openRef = () => openInput(r.reference, r.raw, decoding(r, lumaOnly));
    const ref = await openRef();
    readers.push(ref);
    // A distorted input that cannot be opened, or does not match the reference (unless conformed), fails alone.
    const conform = r.conform ? { scaler: r.scaler } : undefined;
    const open = (d: string | VideoReader) => openDistorted(d, r, ref.format, lumaOnly);
    const prepare = async (d: string | VideoReader) => prepareDistorted(ref, await open(d), { distorted: typeof d === "string" ? () => open(d) : undefined }, { conform, skipRef: r.skipRef, skipDist: r.skipDist, ffmpeg: decoding(r) }, events.onNote);
    const opened = await Promise.allSettled(r.distorted.map(prepare));
    for (const o of opened) if (o.status === "fulfilled") readers.push(o.value.reader);
    const lanes = opened.flatMap((o, i) => (o.status === "fulfilled" ? [{ lane: i, reader: o.value.reader, filters: o.value.filters, reopen: o.value.reopen }] : []));
    for (const f of plan.features) f.entry.definition.checkFormat?.(f.options, ref.format);
    const outcomes = new Array<LadderOutcome>(r.distorted.length);
    opened.forEach((o, i) => {
      if (o.status === "rejected") outcomes[i] = { distorted: r.distorted[i]!, error: asVqError(o.reason, r.distorted[i]!) };
    });
    if (lanes.length) {
      const { backend, notes, gpu } = await chooseLadderBackend(r.backend, plan.features, lanes.length, { subsample: r.subsample, threads: r.threads, selfTest: r.gpuSelfTest ? {} : false });
      for (const n of notes) events.onNote?.(n);
      const refLength = ref.frameCount === undefined ? undefined : ref.frameCount - r.skipRef;
      const distLengths = lanes.map(({ reader }) => (reader.frameCount === undefined ? undefined : reader.frameCount - r.skipDist));
      // Progress counts the reference's frames: the longest lane's.
      const total = frameTotal([refLength, distLengths.some((n) => n === undefined) ? undefined : Math.max(...(distLengths as number[]))], r.frameCount);
      const expected = expectedFeatures(plan, ref.format);
      const outputs = lanes.map(({ lane }) => new RunOutput(plan.models, expected, r.subsample, r.pool, (f) => queues[lane]!.push(f)));
      const repeated = new RepeatedFrames(ref, lanes.map((l) => l.reader));
      const collectors = lanes.map(() => new FeatureCollector());
      let progress = 0;
      const say = sayOnce(events.onNote);
      const options = {
        frameCount: r.frameCount,
        skipRef: r.skipRef,
        skipDist: r.skipDist,
        strictLength: r.strictLength,
        // Only when backends finish at different times: otherwise features keep libvmaf's first-written order.
        featureOrder: backend instanceof CompositeLadderBackend ? [...expected, ...modelScoreKeys(plan.models)] : undefined,
        onWarning: (_: number, m: string) => say(m),
        onFrame: (n: number) => {
          // a run resumed after a lost GPU goes over frames it had scheduled already
          if (n > progress) events.onProgress?.((progress = n), total);
          // A lane that has ended or failed has no complete frame past its end: it hands out nothing more.
          collectors.forEach((c, k) => outputs[k]!.handOut(c, n, false));
        },
        collectors,
      };
      let result: LadderResult;
      let backendName = backend.name;
      try {
        result = await scoreLadderVideos(repeated.ref, repeated.dists, backend, options);
      } catch (e) {
        const loss = gpu && (await deviceLoss(gpu, e));
        if (!loss) throw e;
        const reopen = async (lost: string): Promise<[VideoReader, VideoReader[]]> => {
          const again = await rereadable(r.reference, openRef, lost);
          readers.push(again);
          const dists: VideoReader[] = [];
          for (const l of lanes) {
            dists.push(await rereadable(r.distorted[l.lane]!, l.reopen, lost));
            readers.push(dists.at(-1)!);
          }
          const watched = repeated.rewatch(again, dists);
          return [watched.ref, watched.dists];
        };
        const resumed = await resumeLadderOnCpu(loss, { features: plan.features, format: ref.format, subsample: r.subsample, threads: r.threads, options, reopen, onNote: events.onNote });
        result = resumed;
        backendName = `${backend.name}, then cpu from frame ${resumed.resumedAt} (GPU device lost)`;
      }
      result.lanes.forEach((l, k) => {
        const distorted = r.distorted[lanes[k]!.lane]!;
        let outcome: LadderOutcome;
        if (l.error) outcome = { distorted, error: l.error };
        else {
          // A rate raised by conform repeats frames by design.
          const repeats = changesRate(lanes[k]!.filters) ? undefined : repeated.warning(k, r.skipRef, r.skipDist, l.frames);
          if (repeats) events.onNote?.(repeats);
          try {
            outcome = { distorted, summary: outputs[k]!.summary(l.collector, l.frames, result.format, backendName) };
          } catch (e) {
            outcome = { distorted, error: asVqError(e, distorted) };
          }
        }
        outcomes[lanes[k]!.lane] = outcome;
      });
    }
    return outcomes;
  } finally {
    for (const reader of readers) await reader.close();
  }
}

function asVqError(e: unknown, input: string | VideoReader): VqError {
  if (e instanceof VqError) return e;
  const name = typeof input === "string" ? input : input.name;
  return new VqError(`${name}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
}
