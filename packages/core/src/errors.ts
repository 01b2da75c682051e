/**
 * An error caused by the user's input (a file, an option, a model), with a one-line
 * message that names the culprit. The CLI prints `message` alone, without a stack.
 */
export class VqError extends Error {
  override readonly name = "VqError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export function isVqError(e: unknown): e is VqError {
  return e instanceof VqError;
}
