/** The most characters a message has: it is one line on a terminal, whatever the input held. */
export const MAX_MESSAGE_LENGTH = 300;

/**
 * An error caused by the user's input (a file, an option, a model), with a one-line
 * message that names the culprit. The CLI prints `message` alone, without a stack.
 * The message is made printable here, once for every reader: input bytes it quotes
 * (CR, ESC, NUL...) come out escaped, and it is cut to MAX_MESSAGE_LENGTH characters.
 */
export class VqError extends Error {
  override readonly name = "VqError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(printableLine(message), options);
  }
}

export function isVqError(e: unknown): e is VqError {
  return e instanceof VqError;
}

const ESCAPES: Record<string, string> = { "\0": "\\0", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `text` as one printable line: control bytes escaped (\r, \x1b, \0 ...), at most `max` characters. */
export function printableLine(text: string, max = MAX_MESSAGE_LENGTH): string {
  // C0 controls, DEL and C1 controls; other Unicode (a file name's accents) is printable
  const escaped = text.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => ESCAPES[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return escaped.length <= max ? escaped : `${escaped.slice(0, max - 3)}...`;
}
