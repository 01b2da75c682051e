import { VqError } from "./errors.ts";

/**
 * Caps on what an input may claim, checked before anything is allocated for it (docs/limits.md).
 * A header or option is a few bytes; the buffers it asks for are not, so a claim beyond these
 * is refused by name instead of failing in an allocation deep inside an extractor.
 */
export const LIMITS = {
  /** Width or height of a picture, in samples (a Y4M header's W/H, raw --width/--height). */
  pictureSide: 65536,
  /** Luma samples of a picture: 16384x16384 (an 8K frame is 33 Mi; 16K 133 Mi). */
  pictureSamples: 16384 * 16384,
  /** CPU worker threads (--threads); never more are started than frames are scored. */
  threads: 256,
  /** Support vectors of a libsvm model (libvmaf's models have a few hundred to a few thousand). */
  supportVectors: 1_000_000,
} as const;

/** Refuses a picture size beyond LIMITS; `what` names the input (a file, an option). */
export function checkPictureSize(what: string, width: number, height: number): void {
  if (width > LIMITS.pictureSide || height > LIMITS.pictureSide) {
    throw new VqError(`${what}: picture size ${width}x${height} is over vq's limit of ${LIMITS.pictureSide} samples a side (docs/limits.md)`);
  }
  if (width * height > LIMITS.pictureSamples) {
    throw new VqError(`${what}: picture size ${width}x${height} is over vq's limit of ${LIMITS.pictureSamples} samples (16384x16384) a picture (docs/limits.md)`);
  }
}

/** Whether `e` is the engine failing to allocate (a typed array, an array, a buffer): no bug, the input asked too much. */
export function isAllocationFailure(e: unknown): e is RangeError {
  // Bun's (JavaScriptCore) and Node's (V8) wordings
  return e instanceof RangeError && /out of memory|allocation failed|invalid (typed )?array( buffer)? length|length larger than|array length must be/i.test(e.message);
}

/**
 * An allocation failure while working on `inputs` as the VqError it is (the input asked for
 * more memory than there is); any other error unchanged.
 */
export function asAllocationError(e: unknown, inputs: string): unknown {
  if (!isAllocationFailure(e)) return e;
  return new VqError(`${inputs}: not enough memory (${e.message}); vq's limits are in docs/limits.md`, { cause: e });
}
