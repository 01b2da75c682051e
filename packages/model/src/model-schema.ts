import { z } from "zod";

/** libvmaf's read_json_model.c limits. */
export const MAX_FEATURE_COUNT = 64;
export const MAX_KNOT_COUNT = 10;

const optionValue = z.union([z.number(), z.boolean(), z.string()]);
const polynomialTerm = z.number().nullable().optional();

export const scoreTransformSchema = z.looseObject({
  enabled: z.boolean().optional(),
  p0: polynomialTerm,
  p1: polynomialTerm,
  p2: polynomialTerm,
  knots: z.array(z.tuple([z.number(), z.number()])).max(MAX_KNOT_COUNT).nullable().optional(),
  // libvmaf reads these as the strings "true"/"false", not JSON booleans.
  out_lte_in: z.string().optional(),
  out_gte_in: z.string().optional(),
});

/**
 * A model_dict as libvmaf reads it. Unknown keys (feature_dict, …) are ignored as libvmaf
 * does; counts are checked strictly, where libvmaf would silently use zeros.
 */
export const modelDictSchema = z
  .looseObject({
    model_type: z.enum(["LIBSVMNUSVR", "BOOTSTRAP_LIBSVMNUSVR", "RESIDUEBOOTSTRAP_LIBSVMNUSVR"]),
    norm_type: z.enum(["linear_rescale", "none"]),
    feature_names: z.array(z.string()).min(1).max(MAX_FEATURE_COUNT),
    feature_opts_dicts: z.array(z.record(z.string(), optionValue)).optional(),
    slopes: z.array(z.number()).optional(),
    intercepts: z.array(z.number()).optional(),
    score_clip: z.tuple([z.number(), z.number()]).optional(),
    score_transform: scoreTransformSchema.optional(),
    chroma_correction_parameter: z.number().optional(),
    model: z.string(),
  })
  .superRefine((d, ctx) => {
    const n = d.feature_names.length;
    if (d.norm_type === "linear_rescale") {
      for (const key of ["slopes", "intercepts"] as const) {
        const list = d[key];
        if (!list) ctx.addIssue({ code: "custom", path: [key], message: "missing (linear_rescale needs it)" });
        else if (list.length !== n + 1) {
          ctx.addIssue({ code: "custom", path: [key], message: `expected ${n + 1} numbers (the score's, then one per feature), got ${list.length}` });
        }
      }
    }
    // A 0 would divide the prediction by 0 on every frame (libvmaf writes nan or inf).
    if (d.norm_type === "linear_rescale" && d.slopes?.[0] === 0) ctx.addIssue({ code: "custom", path: ["slopes", 0], message: "must not be 0 (the score is divided by it)" });
    // libvmaf would pin every score to one of the bounds.
    if (d.score_clip && !(d.score_clip[0] < d.score_clip[1])) {
      ctx.addIssue({ code: "custom", path: ["score_clip"], message: `the minimum ${d.score_clip[0]} must be below the maximum ${d.score_clip[1]}` });
    }
    knotIssues(d.score_transform?.knots ?? [], ctx);
    if (d.feature_opts_dicts && d.feature_opts_dicts.length !== n) {
      ctx.addIssue({ code: "custom", path: ["feature_opts_dicts"], message: `expected ${n} dictionaries (one per feature name), got ${d.feature_opts_dicts.length}` });
    }
  });

/**
 * libvmaf's piecewise mapping stops at a knot whose x does not increase or whose y falls,
 * leaving 0 (or the score so far) on every frame: refused, naming the knot.
 */
function knotIssues(knots: readonly (readonly [number, number])[], ctx: z.core.$RefinementCtx): void {
  for (let i = 1; i < knots.length; i++) {
    const [[x0, y0], [x1, y1]] = [knots[i - 1]!, knots[i]!];
    const path = ["score_transform", "knots", i];
    if (!(x1 > x0)) ctx.addIssue({ code: "custom", path, message: `x ${x1} must be above the previous knot's ${x0}` });
    else if (y1 < y0) ctx.addIssue({ code: "custom", path, message: `y ${y1} must not be below the previous knot's ${y0}` });
  }
}

export type ModelDict = z.infer<typeof modelDictSchema>;

/** A single-model file: `{ "param_dict": …, "model_dict": … }` (param_dict is not used). */
export const modelFileSchema = z.looseObject({ model_dict: modelDictSchema });
