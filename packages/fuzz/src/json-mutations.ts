import type { Prng } from "./prng.ts";

/** A JSON number written as it stands (1e999, -0), where JSON.stringify would write null or 0. */
export const RAW = "\u0000raw:";
export const ODD_JSON_NUMBERS = ["1e999", "-1e999", "-1e308", "1e308", "0", "-0", "5e-324", "2e9", "1e300", "-1", "4294967296", "0.0", "1e-320"];
export const WRONG_TYPES: unknown[] = ["1", "NaN", "Infinity", null, true, [], {}, [1, 2], { a: 1 }, "", 1.5];

export type Json = unknown;
export type Path = (string | number)[];

/** Every path in `v` (objects and arrays walked), the root included. */
export function paths(v: Json, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  return out;
}

export function getAt(v: Json, p: Path): Json {
  return p.reduce<Json>((o, k) => (o as Record<string | number, Json>)?.[k], v);
}

export function setAt(root: Json, p: Path, value: Json | undefined): Json {
  if (!p.length) return value;
  const parent = getAt(root, p.slice(0, -1)) as Record<string | number, Json>;
  if (!parent || typeof parent !== "object") return root;
  const k = p[p.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(k as number, 1);
    else delete parent[k];
  } else parent[k] = value;
  return root;
}

/** One generic edit of any parsed JSON: a number made odd, a field dropped or of the wrong type, an array one longer or shorter. */
export function mutateJson(rng: Prng, root: Json): Json {
  const all = paths(root);
  const p = rng.pick(all);
  const v = getAt(root, p);
  switch (rng.int(4)) {
    case 0: {
      const numbers = all.filter((x) => typeof getAt(root, x) === "number");
      return numbers.length ? setAt(root, rng.pick(numbers), `${RAW}${rng.pick(ODD_JSON_NUMBERS)}`) : root;
    }
    case 1:
      return p.length ? setAt(root, p, undefined) : root;
    case 2:
      return p.length ? setAt(root, p, structuredClone(rng.pick(WRONG_TYPES))) : root;
    default:
      if (Array.isArray(v)) {
        if (rng.chance(0.5)) v.push(structuredClone(v[rng.int(v.length)] ?? 0));
        else v.pop();
      }
      return root;
  }
}

/** JSON text with the raw numbers (1e999, -0) written in place. */
export function jsonText(v: Json): string {
  return JSON.stringify(v).replace(/"\\u0000raw:([^"]*)"/g, "$1");
}
