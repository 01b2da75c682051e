import { isVqError, MAX_MESSAGE_LENGTH } from "@vq/core";

/** A case over this many milliseconds is a hang (issue 20: no hang over 5 s). */
export const CASE_TIME_LIMIT_MS = 5000;

/**
 * Why an outcome is a failure, or undefined when it is fine. Fine is success, or a VqError
 * whose message is one printable line of at most MAX_MESSAGE_LENGTH characters that does
 * not claim an internal error or carry a stack. Anything else thrown (TypeError,
 * RangeError, a plain Error, a string) is a failure, and so is a non-finite or null number
 * in what a case computed.
 */
export function judge(outcome: { error?: unknown; value?: unknown; threw: boolean }): string | undefined {
  if (outcome.threw) return judgeError(outcome.error);
  const odd = nonFiniteAt(outcome.value, "result");
  return odd ? `${odd} is not a finite number` : undefined;
}

export function judgeError(e: unknown): string | undefined {
  if (!isVqError(e)) {
    const kind = e instanceof Error ? e.constructor.name : typeof e;
    return `threw ${kind}, not a VqError: ${e instanceof Error ? e.message : String(e)}`.slice(0, 400);
  }
  return judgeMessage(e.message);
}

/** Why a user-facing message is not one clean line, or undefined. */
export function judgeMessage(message: string): string | undefined {
  if (/[\x00-\x1f\x7f-\x9f]/.test(message)) return `message has a control byte: ${JSON.stringify(message).slice(0, 200)}`;
  if (message.length > MAX_MESSAGE_LENGTH) return `message has ${message.length} characters (at most ${MAX_MESSAGE_LENGTH})`;
  if (/internal error/i.test(message)) return `message says internal error: ${message}`;
  // a stack frame: "at fn (/path/file.ts:12:5)" or "at /path/file.ts:12:5" (a Y4M tag "F60:1:1" is no stack)
  if (/\bat (\S+ \()?\S*[\/\\]\S*\.[cm]?[jt]s:\d+:\d+/.test(message)) return `message carries a stack: ${message}`;
  if (!message.trim()) return "message is empty";
  return undefined;
}

/** The path of the first null or non-finite number in `v` (plain objects and arrays walked), or undefined. */
export function nonFiniteAt(v: unknown, path: string): string | undefined {
  if (v === null) return path;
  if (typeof v === "number") return Number.isFinite(v) ? undefined : `${path} (${v})`;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const odd = nonFiniteAt(v[i], `${path}[${i}]`);
      if (odd) return odd;
    }
  } else if (typeof v === "object" && v !== undefined && Object.getPrototypeOf(v) === Object.prototype) {
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const odd = nonFiniteAt(x, `${path}.${k}`);
      if (odd) return odd;
    }
  }
  return undefined;
}
