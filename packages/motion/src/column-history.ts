/** One reference picture's blurColumns plane and whether its samples were narrow (below 2^15). */
export interface BlurredColumns {
  readonly columns: Int32Array;
  narrow: boolean;
}

/**
 * The blurColumns planes of the current reference frame and of the `keep` before it, in
 * buffers allocated once: each frame's vertical blur is computed once and compared again
 * with the next frame (or the one after, in the five-frame window).
 */
export class ColumnHistory {
  private readonly entries: BlurredColumns[];
  private frames = 0;

  constructor(width: number, height: number, keep: number) {
    this.entries = Array.from({ length: keep + 1 }, () => ({ columns: new Int32Array(width * height), narrow: true }));
  }

  /** The entry for the frame being extracted. */
  current(): BlurredColumns {
    return this.entries[this.frames % this.entries.length]!;
  }

  /** The entry of the frame `back` frames before the current one. */
  back(back: number): BlurredColumns {
    if (back < 1 || back >= this.entries.length || back > this.frames) {
      throw new Error(`motion: no reference frame ${back} back (${Math.min(this.frames, this.entries.length - 1)} held)`);
    }
    return this.entries[(this.frames - back) % this.entries.length]!;
  }

  /** Whether the frame `back` frames before the current one is held (an extractor started mid-video has none at first). */
  holds(back: number): boolean {
    return back >= 1 && back < this.entries.length && back <= this.frames;
  }

  /** The current entry is filled: it becomes the previous one. */
  advance(): void {
    this.frames++;
  }
}
