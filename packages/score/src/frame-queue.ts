/**
 * Items handed from a producer that never waits to one reader that may come late or never:
 * pushed items wait here until read; the end (a value or a failure) comes after them.
 */
export class FrameQueue<T, R> {
  private items: T[] = [];
  private end?: { value: R } | { error: unknown };
  private wake?: () => void;
  /** The reader left (`return()`): later items are dropped, not kept. */
  private closed = false;

  push(item: T): void {
    if (this.closed) return;
    this.items.push(item);
    this.notify();
  }

  finish(value: R): void {
    this.end = { value };
    this.notify();
  }

  fail(error: unknown): void {
    this.end = { error };
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  iterator(): AsyncIterableIterator<T, R, undefined> {
    const next = async (): Promise<IteratorResult<T, R>> => {
      for (;;) {
        if (this.items.length) return { value: this.items.shift()!, done: false };
        const end = this.end;
        if (end && "error" in end) {
          // Thrown once; the iteration is over after that.
          this.end = { value: undefined as R };
          this.closed = true;
          throw end.error;
        }
        if (end) return { value: end.value, done: true };
        if (this.closed) return { value: undefined as R, done: true };
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    };
    const it: AsyncIterableIterator<T, R, undefined> = {
      next,
      return: async (value?: R | PromiseLike<R>) => {
        this.closed = true;
        this.items = [];
        return { value: (await value) as R, done: true };
      },
      [Symbol.asyncIterator]: () => it,
    };
    return it;
  }
}
