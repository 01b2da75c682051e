import { glibcExpFunction } from "@vq/core/libm";
import type { SvmModel } from "./libsvm-model.ts";

/**
 * libsvm's RBF kernel exp(-gamma * |x - sv|^2), summed as libsvm does: one pass over
 * both sparse vectors in index order (x holds indices 1..n densely), squaring the
 * difference where both have the index and the lone value elsewhere. exp is glibc's, as
 * libvmaf's: V8's Math.exp (Node, Deno) differs from it in the last bit now and then.
 */
function rbf(model: SvmModel, sv: number, x: Float64Array, exp: (x: number) => number): number {
  const { indices, values } = model;
  const end = model.offsets[sv + 1]!;
  let y = model.offsets[sv]!;
  let i = 0;
  let sum = 0;
  while (i < x.length && y < end) {
    const xIndex = i + 1;
    const yIndex = indices[y]!;
    if (xIndex === yIndex) {
      const d = x[i]! - values[y]!;
      sum += d * d;
      i++;
      y++;
    } else if (xIndex > yIndex) {
      sum += values[y]! * values[y]!;
      y++;
    } else {
      sum += x[i]! * x[i]!;
      i++;
    }
  }
  for (; i < x.length; i++) sum += x[i]! * x[i]!;
  for (; y < end; y++) sum += values[y]! * values[y]!;
  return exp(-model.gamma * sum);
}

/**
 * libsvm's svm_predict for the regression types: Σ coef_i · K(x, sv_i) in support-vector
 * order, minus rho. `x` holds the (normalised) feature values of indices 1..n.
 */
export function predictSvm(model: SvmModel, x: Float64Array): number {
  const { coefficients } = model;
  const exp = glibcExpFunction();
  let sum = 0;
  for (let i = 0; i < coefficients.length; i++) sum += coefficients[i]! * rbf(model, i, x, exp);
  return sum - model.rho;
}
