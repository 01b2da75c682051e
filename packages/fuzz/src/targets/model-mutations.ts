import { mutateText, ODD_NUMBERS, replaceNumber } from "../mutators.ts";
import type { Prng } from "../prng.ts";
import { getAt, jsonText, mutateJson, ODD_JSON_NUMBERS, paths, RAW, setAt, type Json } from "../json-mutations.ts";

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
  const knots = all.filter((x) => x[x.length - 1] === "knots" || x.includes("knots"));
  switch (rng.int(9)) {
    case 0:
    case 1:
    case 2:
    case 3:
      return mutateJson(rng, model);
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
  let text = jsonText(model);
  if (rng.chance(0.05)) text = mutateText(rng, text);
  if (rng.chance(0.03)) {
    // a duplicated key: JSON.parse keeps the last one
    text = text.replace(/"(norm_type|feature_names|score_clip|model)":/, (m) => `${m}null,${m}`);
  }
  return text;
}
