import type { FramePair } from "@vq/cli/report";
import type { ScoredFile, ScoreJob, ThumbnailJob, WorkerMessage } from "../worker/protocol.ts";

export interface JobEvents {
  onStart(index: number, name: string, total?: number): void;
  onProgress(index: number, done: number, total?: number): void;
  onFrame(index: number, frameNum: number, metrics: Record<string, number>): void;
  onNote(message: string): void;
}

/**
 * The scoring worker, started from the script the page fetched while loading (a blob: URL),
 * so that starting a fresh one after a cancel requests nothing from the network.
 */
export class ScoringWorker {
  private worker: Worker;
  private busy?: { reject: (e: Error) => void };
  /** The built-in models and feature names, from the worker's first message. */
  readonly catalogue: Promise<{ models: string[]; features: string[] }>;

  private constructor(private readonly url: string) {
    this.worker = new Worker(url, { type: "module" });
    this.catalogue = new Promise((resolve, reject) => {
      this.worker.addEventListener("message", (ev: MessageEvent<WorkerMessage>) => ev.data.type === "ready" && resolve(ev.data), { once: false });
      this.worker.addEventListener("error", (ev) => reject(new Error(`the scoring worker did not start: ${ev.message}`)), { once: true });
    });
  }

  static async load(script: string): Promise<ScoringWorker> {
    const response = await fetch(script);
    if (!response.ok) throw new Error(`${script}: ${response.status} ${response.statusText}`);
    return new ScoringWorker(URL.createObjectURL(new Blob([await response.text()], { type: "text/javascript" })));
  }

  run(job: ScoreJob, events: JobEvents): Promise<ScoredFile[]> {
    return this.send(job, (m) => {
      if (m.type === "start") events.onStart(m.index, m.name, m.total);
      else if (m.type === "progress") events.onProgress(m.index, m.done, m.total);
      else if (m.type === "frame") events.onFrame(m.index, m.frameNum, m.metrics);
      else if (m.type === "note") events.onNote(m.message);
      else if (m.type === "done") return m.results;
      return undefined;
    });
  }

  /** The report's worst-frame pictures, read again from the files. */
  thumbnails(job: ThumbnailJob): Promise<Map<number, FramePair>[]> {
    return this.send(job, (m) => (m.type === "thumbnails" ? m.pairs : undefined));
  }

  /** Posts `job`; `handle` sees each message and returns the answer when one has come. An error message rejects. */
  private send<T>(job: ScoreJob | ThumbnailJob, handle: (m: WorkerMessage) => T | undefined): Promise<T> {
    if (this.busy) return Promise.reject(new Error("a run is in progress"));
    return new Promise<T>((resolve, reject) => {
      const worker = this.worker;
      const done = () => {
        worker.removeEventListener("message", listen);
        worker.removeEventListener("error", crashed);
        this.busy = undefined;
      };
      const listen = (ev: MessageEvent<WorkerMessage>) => {
        const m = ev.data;
        if (m.type === "error") {
          done();
          reject(new Error(m.message));
          return;
        }
        const answer = handle(m);
        if (answer !== undefined) {
          done();
          resolve(answer);
        }
      };
      // An uncaught failure in the worker (out of memory, a bug): the run ends with its message.
      const crashed = (ev: ErrorEvent) => {
        done();
        this.restart();
        reject(new Error(`internal error: the scoring worker stopped: ${ev.message || "no message"}`));
      };
      this.busy = { reject };
      worker.addEventListener("message", listen);
      worker.addEventListener("error", crashed);
      worker.postMessage(job);
    });
  }

  /** Stops the run in progress (its promise rejects with `reason`) and starts a fresh worker. */
  cancel(reason: string): void {
    const busy = this.busy;
    this.restart();
    busy?.reject(new Error(reason));
  }

  private restart(): void {
    this.worker.terminate();
    this.busy = undefined;
    this.worker = new Worker(this.url, { type: "module" });
  }
}
