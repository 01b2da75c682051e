import { mutateText, ODD_NUMBERS, replaceNumber } from "../mutators.ts";
import type { Prng } from "../prng.ts";

/** A JSON number written as it stands (1e999, -0), where JSON.stringify would write null or 0. */
const RAW = "\u0000raw:";
const ODD_JSON_NUMBERS = ["1e999", "-1e999", "-1e308", "1e308", "0", "-0", "5e-324", "2e9", "1e300", "-1", "4294967296", "0.0", "1e-320"];
const WRONG_TYPES: unknown[] = ["1", "NaN", "Infinity", null, true, [], {}, [1, 2], { a: 1 }, "", 1.5];

type Json = unknown;
type Path = (string | number)[];

/** Every path in `v` (objects and arrays walked), the root included. */
function paths(v: Json, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  return out;
}

function getAt(v: Json, p: Path): Json {
  return p.reduce<Json>((o, k) => (o as Record<string | number, Json>)?.[k], v);
}

function setAt(root: Json, p: Path, value: Json | undefined): Json {
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

/** The libsvm text with a line dropped or repeated, a number made odd, total_sv or a header field changed. */
export function mutateLibsvm(rng: Prng, text: string): string {
  const lines = text.split("\n");
  const i = rng.int(lines.length);
  switch (rng.int(7)) {
    case 0:
      lines.splice(i, 1);
      break;
    case 1:
      lines.splice(i, 0, lines[i]!);
      break;
    case 2: {
      const t = lines.findIndex((l) => l.startsWith("total_sv"));
      if (t >= 0) lines[t] = `total_sv ${rng.pick([...ODD_NUMBERS, "2000000000", "1000001", "212", "210"])}`;
      break;
    }
    case 3: {
      const h = rng.int(Math.max(1, lines.findIndex((l) => l === "SV")));
      lines[h] = `${lines[h]!.split(" ")[0]} ${rng.pick([...ODD_NUMBERS, "rbf", "nu_svr", "linear", "1 2"])}`;
      break;
    }
    case 4: // a support vector's index or value
      lines[i] = lines[i]!.replace(/(\d+):([-\d.e]+)/, () => `${rng.pick(["0", "-1", "7", "99999999999", "1", "2"])}:${rng.pick(ODD_NUMBERS)}`);
      break;
    case 5:
      lines[i] = replaceNumber(rng, lines[i]!);
      break;
    default:
      lines[i] = mutateText(rng, lines[i]!);
  }
  return lines.join("\n");
}

/** One structure-aware edit of a parsed model file: odd numbers, dropped or repeated fields, wrong types, knots, the libsvm text. */
export function mutateModelJson(rng: Prng, model: Json): Json {
  const all = paths(model);
  const p = rng.pick(all);
  const v = getAt(model, p);
  const knots = all.filter((x) => x[x.length - 1] === "knots" || x.includes("knots"));
  switch (rng.int(9)) {
    case 0: {
      const numbers = all.filter((x) => typeof getAt(model, x) === "number");
      if (numbers.length) return setAt(model, rng.pick(numbers), `${RAW}${rng.pick(ODD_JSON_NUMBERS)}`);
      return model;
    }
    case 1:
      return p.length ? setAt(model, p, undefined) : model;
    case 2:
      return p.length ? setAt(model, p, structuredClone(rng.pick(WRONG_TYPES))) : model;
    case 3: // an array longer or shorter (feature_names against slopes)
      if (Array.isArray(v)) {
        if (rng.chance(0.5)) v.push(structuredClone(v[rng.int(v.length)] ?? 0));
        else v.pop();
      }
      return model;
    case 4: {
      const svm = all.filter((x) => x[x.length - 1] === "model" && typeof getAt(model, x) === "string");
      if (svm.length) {
        const at = rng.pick(svm);
        let text = getAt(model, at) as string;
        for (let n = 1 + rng.int(2); n > 0; n--) text = mutateLibsvm(rng, text);
        setAt(model, at, text);
      }
      return model;
    }
    case 5: {
      // knots: duplicated, unsorted, odd, empty, not pairs
      const transform = all.find((x) => x[x.length - 1] === "score_transform" && getAt(model, x) && typeof getAt(model, x) === "object");
      const at = knots.length ? rng.pick(knots.filter((x) => x[x.length - 1] === "knots")) ?? transform : transform;
      if (!at) return model;
      const target = at[at.length - 1] === "knots" ? at : [...at, "knots"];
      if (at[at.length - 1] !== "knots") (getAt(model, at) as Record<string, unknown>).enabled = true;
      const kn = rng.pick<unknown[]>([
        [[0, 0], [0, 50], [100, 100]],
        [[100, 100], [0, 0]],
        [],
        [[0, 0]],
        [[0, 0, 1], [1, 1]],
        [[0, `${RAW}1e999`], [100, 100]],
        [[`${RAW}-1e308`, 0], [`${RAW}1e308`, 100]],
        [[0, 0], [0, 0]],
        [[0, 0], [50, 50], [50, 60], [100, 100]],
        [["a", 0], [1, 1]],
        Array.from({ length: 10 }, (_, i) => [i * 10, i * 10]),
      ]);
      return setAt(model, target, kn);
    }
    case 6: {
      // a feature listed twice (its slope and intercept too)
      const d = (model as { model_dict?: Record<string, unknown[]> }).model_dict ?? (model as Record<string, { model_dict?: Record<string, unknown[]> }>)["0"]?.model_dict;
      for (const k of ["feature_names", "slopes", "intercepts"]) {
        const a = d?.[k];
        if (Array.isArray(a) && a.length > 1) a.push(structuredClone(a[a.length - 1]));
      }
      return model;
    }
    case 7: // chroma correction, clip and transform switches
      return setAt(model, ["model_dict", rng.pick(["chroma_correction_parameter", "score_clip", "norm_type", "model_type", "feature_opts_dicts"])], rng.pick<unknown>([0, 0.5, `${RAW}1e999`, [0, 100], [100, 0], [`${RAW}-1e999`, 1], "linear_rescale", "none", "clip_0to1", "LIBSVMNUSVR", "BOOTSTRAP_LIBSVMNUSVR", [{ enable_lcs: true }], [{}]]));
    default:
      return model;
  }
}

/** The model as JSON text with the raw numbers in place; now and then a text-level edit (a duplicate key, a cut). */
export function modelText(rng: Prng, model: Json): string {
  let text = JSON.stringify(model).replace(/"\\u0000raw:([^"]*)"/g, "$1");
  if (rng.chance(0.05)) text = mutateText(rng, text);
  if (rng.chance(0.03)) {
    // a duplicated key: JSON.parse keeps the last one
    text = text.replace(/"(norm_type|feature_names|score_clip|model)":/, (m) => `${m}null,${m}`);
  }
  return text;
}
