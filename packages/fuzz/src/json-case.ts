import type { CaseFile } from "./target.ts";

/** JSON has no NaN, ±Infinity or −0: they are kept as {"$number": "NaN"} so a saved case replays as it ran. */
const replacer = (_: string, v: unknown) => (typeof v === "number" && (!Number.isFinite(v) || Object.is(v, -0)) ? { $number: Object.is(v, -0) ? "-0" : String(v) } : v);
const reviver = (_: string, v: unknown) => (v && typeof v === "object" && "$number" in v ? Number((v as { $number: string }).$number) : v);

/** A case kept as JSON text (options, argument lists): readable in the corpus and in a diff. */
export const jsonCase = {
  save: (input: unknown): CaseFile => ({ extension: "json", bytes: new TextEncoder().encode(`${JSON.stringify(input, replacer, 1)}\n`) }),
  load: <T>(file: CaseFile): T => JSON.parse(new TextDecoder().decode(file.bytes), reviver) as T,
};
