import type { z } from "zod";

/** `model_dict.slopes[3]`: object keys joined by dots, array indices in brackets. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : `${out ? "." : ""}${String(p)}`;
  return out || "(top level)";
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let v = data;
  for (const p of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

const items = (n: number | bigint) => `${n} item${n === 1 || n === 1n ? "" : "s"}`;

function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/** The expected types of an issue, looking through unions (number, boolean or string). */
function expectedTypes(issue: z.core.$ZodIssue): string[] {
  if (issue.code === "invalid_type") return [issue.expected];
  if (issue.code === "invalid_union") return issue.errors.flatMap((alternative) => alternative.flatMap(expectedTypes));
  return [];
}

function describe(issue: z.core.$ZodIssue, data: unknown): string {
  const value = valueAt(data, issue.path);
  switch (issue.code) {
    case "invalid_type":
    case "invalid_union": {
      // JSON's 1e999 parses to Infinity, which z.number() refuses: say why, not "got number"
      if (typeof value === "number" && !Number.isFinite(value)) return `expected a finite number, got ${value}`;
      const expected = [...new Set(expectedTypes(issue))];
      const list = expected.length > 1 ? `${expected.slice(0, -1).join(", ")} or ${expected.at(-1)}` : expected[0] ?? "another type";
      return value === undefined ? `missing (expected ${list})` : `expected ${list}, got ${jsonType(value)}`;
    }
    case "invalid_value":
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}, got ${JSON.stringify(value)}`;
    case "too_small":
      return Array.isArray(value) ? `expected at least ${items(issue.minimum)}, got ${value.length}` : issue.message;
    case "too_big":
      return Array.isArray(value) ? `expected at most ${items(issue.maximum)}, got ${value.length}` : issue.message;
    default:
      return issue.message;
  }
}

/** The first problem zod found, as `path: what`, with the path relative to `prefix`. */
export function describeFirstIssue(error: z.ZodError, data: unknown, prefix: readonly PropertyKey[] = []): string {
  const issue = error.issues[0]!;
  return `${jsonPath([...prefix, ...issue.path])}: ${describe(issue, data)}`;
}
