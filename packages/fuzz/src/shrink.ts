/** Smaller byte strings to try while minimizing: runs removed, halves first, down to single bytes near the end. */
export function* shrinkBytes(b: Uint8Array): Iterable<Uint8Array> {
  for (let chunk = Math.max(1, b.length >> 1); chunk >= 1; chunk >>= 1) {
    for (let at = b.length - chunk; at >= 0; at -= chunk) {
      const out = new Uint8Array(b.length - chunk);
      out.set(b.subarray(0, at));
      out.set(b.subarray(at + chunk), at);
      yield out;
    }
    if (chunk === 1) break;
  }
}

/** Shorter lists: one element (then a pair) removed at a time. */
export function* shrinkList<T>(items: readonly T[]): Iterable<T[]> {
  for (let i = items.length - 1; i >= 0; i--) yield [...items.slice(0, i), ...items.slice(i + 1)];
  for (let i = items.length - 2; i >= 0; i--) yield [...items.slice(0, i), ...items.slice(i + 2)];
}
