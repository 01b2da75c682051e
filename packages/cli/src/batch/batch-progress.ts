import type { CliIo } from "../run-setup.ts";

/** The one progress line of a batch, on a terminal: jobs done, frames scored, the rate over the batch. */
export class BatchProgress {
  private readonly framesOf = new Map<number, number>();
  private finishedFrames = 0;
  private done = 0;
  private failed = 0;
  private readonly t0 = performance.now();
  private drawn = false;

  constructor(private readonly jobs: number, private readonly io: CliIo, private readonly enabled: boolean) {}

  /** Job `index` has read and sent `n` frames. */
  frames(index: number, n: number): void {
    this.framesOf.set(index, n);
    this.draw();
  }

  jobDone(index: number, failed: boolean): void {
    this.finishedFrames += this.framesOf.get(index) ?? 0;
    this.framesOf.delete(index);
    this.done++;
    if (failed) this.failed++;
    this.draw();
  }

  /** Writes a message on its own line: the progress line is cleared first and drawn again after. */
  interrupt(write: () => void): void {
    if (this.drawn) this.io.stderr("\r\x1b[K");
    write();
    this.draw();
  }

  end(): void {
    if (this.drawn) this.io.stderr("\n");
    this.drawn = false;
  }

  private draw(): void {
    if (!this.enabled) return;
    let frames = this.finishedFrames;
    for (const n of this.framesOf.values()) frames += n;
    const seconds = (performance.now() - this.t0) / 1000;
    const fps = seconds > 0 ? frames / seconds : 0;
    const failed = this.failed ? `, ${this.failed} failed` : "";
    this.io.stderr(`\rjobs ${this.done}/${this.jobs}${failed}  ${frames} frames  ${fps.toFixed(1)} fps\x1b[K`);
    this.drawn = true;
  }
}
