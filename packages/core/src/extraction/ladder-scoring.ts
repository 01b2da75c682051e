import { VqError } from "../errors.ts";
import { describeFormat, type Picture, type PictureFormat } from "../picture.ts";
import { asAllocationError } from "../limits.ts";
import type { VideoReader } from "../readers/video-reader.ts";
import { FeatureCollector } from "./feature-collector.ts";
import { checkCompatible, lengthMismatchError, lengthMismatchWarning, skipFrames, type ExtractionBackend } from "./scoring.ts";

/*
 * A ladder: several distorted inputs (renditions) scored against one reference, which is
 * read and decoded once per frame for all of them (and, on the GPU, uploaded once). Each
 * distorted input is a lane: its own collector, its own length, its own failure.
 */

/** Extracts one frame of every lane of a ladder. */
export interface LadderBackend {
  readonly name: string;
  init(format: PictureFormat, frames?: number): Promise<void>;
  /**
   * Schedules frame `index`: the reference and each lane's distorted picture (none for a
   * lane that has ended); resolves once the pictures may be reused.
   */
  extract(ref: Picture, dists: readonly (Picture | undefined)[], index: number, collectors: readonly FeatureCollector[]): Promise<void>;
  /** Lane `lane` gets no frame from frame `frames` on: its temporal state stops there. */
  endLane(lane: number, frames: number): void;
  /** Waits for every frame scheduled, then lets temporal extractors write each lane's last scores. */
  flush(collectors: readonly FeatureCollector[]): Promise<void>;
  close(): Promise<void>;
}

/** A ladder backend made of one ordinary backend per lane (the CPU's: nothing to share but the decoded reference). */
export class PerLaneBackend implements LadderBackend {
  readonly name: string;

  constructor(private readonly lanes: readonly ExtractionBackend[]) {
    this.name = lanes[0]?.name ?? "none";
  }

  async init(format: PictureFormat, frames?: number): Promise<void> {
    for (const b of this.lanes) await b.init(format, frames);
  }

  async extract(ref: Picture, dists: readonly (Picture | undefined)[], index: number, collectors: readonly FeatureCollector[]): Promise<void> {
    await Promise.all(this.lanes.map((b, lane) => (dists[lane] ? b.extract({ ref, dist: dists[lane]! }, index, collectors[lane]!) : undefined)));
  }

  /** An ended lane's backend simply gets no more frames. */
  endLane(): void {}

  async flush(collectors: readonly FeatureCollector[]): Promise<void> {
    for (const [lane, b] of this.lanes.entries()) await b.flush(collectors[lane]!);
  }

  async close(): Promise<void> {
    for (const b of this.lanes) await b.close();
  }
}

/** Several ladder backends over the same frames (the GPU's lanes and the CPU's), each writing its own features. */
export class CompositeLadderBackend implements LadderBackend {
  readonly name: string;
  constructor(private readonly backends: readonly LadderBackend[]) {
    this.name = backends.map((b) => b.name).join("+");
  }

  async init(format: PictureFormat, frames?: number): Promise<void> {
    for (const b of this.backends) await b.init(format, frames);
  }

  async extract(ref: Picture, dists: readonly (Picture | undefined)[], index: number, collectors: readonly FeatureCollector[]): Promise<void> {
    await Promise.all(this.backends.map((b) => b.extract(ref, dists, index, collectors)));
  }

  endLane(lane: number, frames: number): void {
    for (const b of this.backends) b.endLane(lane, frames);
  }

  async flush(collectors: readonly FeatureCollector[]): Promise<void> {
    for (const b of this.backends) await b.flush(collectors);
  }

  async close(): Promise<void> {
    for (const b of this.backends) await b.close();
  }
}

export interface LadderOptions {
  frameCount?: number;
  skipRef?: number;
  skipDist?: number;
  /** Output names in the order they should be written (extractor order), per lane's collector. */
  featureOrder?: readonly string[];
  /** After each frame is scheduled: frames done, and the lanes' collectors. */
  onFrame?: (framesDone: number, collectors: readonly FeatureCollector[]) => void;
  /** A lane's input is shorter or longer than the reference (its common part is scored). */
  onWarning?: (lane: number, message: string) => void;
  /** A lane of another length than the reference fails instead (--strict-length). */
  strictLength?: boolean;
  /** The first frame to score (after the skips; the frames before are read and dropped): a run resumed mid-way. */
  firstFrame?: number;
  /** Where each lane's scores go (a run's own collectors, kept when it fails); by default new ones. */
  collectors?: readonly FeatureCollector[];
}

/** One distorted input's outcome: its scores, or why it failed (the other lanes go on). */
export interface LadderLane {
  collector: FeatureCollector;
  frames: number;
  error?: VqError;
}

export interface LadderResult {
  lanes: LadderLane[];
  format: PictureFormat;
}

/**
 * Reads the reference once per frame and every distorted input beside it, and feeds each
 * frame to the backend for all lanes. A distorted input that does not match the
 * reference, or fails to read, fails its lane only; a reference that fails fails all.
 */
export async function scoreLadder(ref: VideoReader, dists: readonly VideoReader[], backend: LadderBackend, options: LadderOptions = {}): Promise<LadderResult> {
  const first = options.firstFrame ?? 0;
  const lanes: (LadderLane & { live: boolean })[] = dists.map((_, lane) => {
    const collector = options.collectors?.[lane] ?? new FeatureCollector();
    for (const name of options.featureOrder ?? []) collector.reserve(name);
    return { collector, frames: first, live: true };
  });
  const fail = (lane: number, e: unknown) => {
    const l = lanes[lane]!;
    l.error = e instanceof VqError ? e : new VqError(`${dists[lane]!.name}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    l.live = false;
  };
  for (const [lane, dist] of dists.entries()) {
    try {
      checkCompatible(ref, dist);
      await skipFrames(dist, (options.skipDist ?? 0) + first);
    } catch (e) {
      fail(lane, e);
    }
  }
  await skipFrames(ref, (options.skipRef ?? 0) + first);
  const collectors = lanes.map((l) => l.collector);
  let index = first;
  let failed = true;
  try {
    try {
      await backend.init(ref.format);
    } catch (e) {
      throw asAllocationError(e, `${ref.name} (${describeFormat(ref.format)})`);
    }
    for (const [lane, l] of lanes.entries()) if (!l.live) backend.endLane(lane, first);
    while (lanes.some((l) => l.live) && (options.frameCount === undefined || index < options.frameCount)) {
      const [r, ...read] = await Promise.allSettled([ref.read(), ...dists.map((d, lane) => (lanes[lane]!.live ? d.read() : Promise.resolve(null)))]);
      if (r.status === "rejected") {
        for (const [lane, d] of read.entries()) if (d.status === "fulfilled" && d.value) dists[lane]!.release(d.value);
        throw r.reason;
      }
      const pictures = read.map((d, lane) => {
        const l = lanes[lane]!;
        if (!l.live) return undefined;
        if (d.status === "rejected") {
          fail(lane, d.reason);
        } else if (!d.value || !r.value) {
          const ended = d.value ? [ref.name, dists[lane]!.name] : r.value ? [dists[lane]!.name, ref.name] : undefined;
          if (ended && options.strictLength) fail(lane, lengthMismatchError(ended[0]!, ended[1]!, index));
          else if (ended) options.onWarning?.(lane, lengthMismatchWarning(ended[0]!, ended[1]!, index));
          l.live = false;
        }
        if (!l.live) {
          if (d.status === "fulfilled" && d.value) dists[lane]!.release(d.value);
          backend.endLane(lane, index);
          return undefined;
        }
        return d.status === "fulfilled" ? (d.value ?? undefined) : undefined;
      });
      if (!r.value || !pictures.some((p) => p)) {
        if (r.value) ref.release(r.value);
        break;
      }
      await backend.extract(r.value, pictures, index, collectors);
      ref.release(r.value);
      pictures.forEach((p, lane) => p && dists[lane]!.release(p));
      index++;
      for (const [lane, l] of lanes.entries()) if (l.live) l.frames = index;
      options.onFrame?.(index, collectors);
    }
    await backend.flush(collectors);
    failed = false;
  } finally {
    await (failed ? backend.close().catch(() => {}) : backend.close());
  }
  for (const [lane, l] of lanes.entries()) {
    if (!l.error && l.frames === 0) l.error = new VqError(`no frames to score: ${ref.name} or ${dists[lane]!.name} has zero frames`);
  }
  return { lanes: lanes.map(({ collector, frames, error }) => ({ collector, frames, error })), format: ref.format };
}
