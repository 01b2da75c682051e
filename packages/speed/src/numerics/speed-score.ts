/**
 * get_speed_score and speed_extract_score's rules: the mean over blocks of
 * |E_ref log2(1 + w_ref) - E_dis log2(1 + w_dis)|, where the variance weights w depend on
 * speed_weight_var_mode, skipping blocks where both entropies are below the noise floor's.
 */
import { LOG2_2PIE, type BlockStatistics } from "./parameter-estimator.ts";
import { SPEED_BLOCK_ELEMENTS } from "./speed-geometry.ts";

const f32 = Math.fround;

export interface ScoreParameters {
  readonly speed_sigma_nn: number;
  readonly speed_nn_floor: number;
  readonly speed_weight_var_mode: number;
}

/** The entropy of pure neural noise (with its floor) over a block: below it nothing is visible. */
export function baseEntropy(p: ScoreParameters): number {
  const sigmaNn = f32(p.speed_sigma_nn);
  const floor = f32(p.speed_nn_floor);
  return f32(SPEED_BLOCK_ELEMENTS * (Math.log2(f32(f32(1 + floor) * sigmaNn)) + LOG2_2PIE));
}

/** The arguments of the two log2 weights, per speed_weight_var_mode (0-6). */
function weights(mode: number, r: number, d: number): [number, number] {
  switch (mode) {
    case 0:
      return [f32(1 + r), f32(1 + d)];
    case 1:
      return [f32(1 + r), f32(1 + r)];
    case 2:
      return [f32(1 + d), f32(1 + d)];
    case 3: {
      const m = 1 + f32(r + d) / 2;
      return [m, m];
    }
    case 4:
      return [f32(1 + r), 1 + f32(r + d) / 2];
    case 5:
      return [f32(1 + r), 1 + (0.75 * r + 0.25 * d)];
    case 6:
      return [f32(1 + r), 1 + (0.25 * r + 0.75 * d)];
    default:
      throw new RangeError(`speed_weight_var_mode ${mode} is not 0-6`);
  }
}

/** speed_extract_score's combination: 0 when exactly one of the pictures was singular. */
export function speedScore(ref: BlockStatistics, dis: BlockStatistics, p: ScoreParameters): number {
  if (ref.singular !== dis.singular) return 0;
  const base = baseEntropy(p);
  const blocks = ref.entropies.length;
  let score = 0;
  for (let i = 0; i < blocks; i++) {
    const er = ref.entropies[i]!;
    const ed = dis.entropies[i]!;
    if (er < base && ed < base) continue;
    const [wr, wd] = weights(p.speed_weight_var_mode, ref.variances[i]!, dis.variances[i]!);
    const spatialRef = f32(er * Math.log2(wr));
    const spatialDis = f32(ed * Math.log2(wd));
    score = f32(score + Math.abs(f32(spatialRef - spatialDis)));
  }
  return f32(score / blocks);
}
