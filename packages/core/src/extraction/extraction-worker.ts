import { isVqError } from "../errors.ts";
import type { FeatureExtractor, PicturePair } from "./extractor.ts";
import { FeatureCollector } from "./feature-collector.ts";
import { packedLayout, Picture, type PictureFormat, type PlaneLayout } from "../picture.ts";
import type { FromWorker, RecordedWrite, ToWorker, WorkerExtractorSpec } from "./worker-protocol.ts";
import { serveWorker, type WorkerChannel } from "./worker-thread.ts";
import { SpanScorer } from "./span-scoring.ts";

/** A collector that records writes instead of keeping them (the main thread replays them). */
class RecordingCollector extends FeatureCollector {
  writes: RecordedWrite[] = [];
  override append(name: string, index: number, score: number): void {
    this.writes.push(["score", name, index, score]);
  }
  override setAggregate(name: string, value: number): void {
    this.writes.push(["aggregate", name, value]);
  }
}

/**
 * The body of a CPU extraction worker (`--threads`): builds its extractors from specs
 * with `create`, scores the frames it is sent and answers with the writes each
 * extractor made, so the main thread can replay them in single-threaded order.
 */
export function serveExtractors(create: (spec: WorkerExtractorSpec) => FeatureExtractor<PicturePair> | Promise<FeatureExtractor<PicturePair>>): void {
  let extractors: FeatureExtractor<PicturePair>[] = [];
  let specs: WorkerExtractorSpec[] = [];
  let format: PictureFormat | undefined;
  /** Set once the worker reads its own frames: spans instead of frames. */
  let spans: SpanScorer | undefined;
  let layouts: PlaneLayout[] = [];
  const recorders: RecordingCollector[] = [];

  const take = () => recorders.map((r) => {
    const w = r.writes;
    r.writes = [];
    return w;
  });

  // One message at a time, in order: a span must not start while the files are still opening.
  let queue = Promise.resolve();
  serveWorker<ToWorker, FromWorker>((m, scope) => {
    queue = queue.then(() => handle(m, scope));
  });

  async function handle(m: ToWorker, scope: WorkerChannel<FromWorker>): Promise<void> {
    try {
      switch (m.type) {
        case "init":
          format = m.format;
          specs = m.specs;
          layouts = packedLayout(m.format).planes;
          extractors = await Promise.all(m.specs.map(create));
          for (const e of extractors) {
            await e.init(m.format);
            recorders.push(new RecordingCollector());
          }
          scope.post({ type: "ready" });
          break;
        case "frame": {
          const pair = { ref: new Picture(format!, new Uint8Array(m.ref), layouts), dist: new Picture(format!, new Uint8Array(m.dist), layouts) };
          for (let i = 0; i < extractors.length; i++) await extractors[i]!.extract(pair, m.index, recorders[i]!);
          scope.post({ type: "frame", index: m.index, writes: take() });
          break;
        }
        case "files":
          spans = SpanScorer.open(m.files, format!, specs, extractors, create);
          break;
        case "span":
          scope.post({ type: "span", start: m.span.start, writes: await spans!.score(m.span) });
          break;
        case "flush":
          // with spans, temporal extractors flushed with each span; the others hold the run's tail
          for (let i = 0; i < extractors.length; i++) if (!(spans && extractors[i]!.definition.temporal)) await extractors[i]!.flush(recorders[i]!);
          scope.post({ type: "flushed", writes: take() });
          for (const e of extractors) await e.close();
          break;
      }
    } catch (e) {
      scope.post({ type: "error", message: e instanceof Error ? e.message : String(e), user: isVqError(e) });
    }
  }
}
