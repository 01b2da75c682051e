import { LIMITS, VqError } from "@vq/core";

/**
 * A libsvm regression model as libvmaf's svm.cpp reads it from the `model` string of a
 * model file. Support vectors are stored sparse, as libsvm keeps them (an index missing
 * from a vector means the value 0), flattened into typed arrays.
 */
export interface SvmModel {
  readonly svmType: "nu_svr" | "epsilon_svr";
  readonly gamma: number;
  readonly rho: number;
  /** sv_coef[0]: one coefficient per support vector. */
  readonly coefficients: Float64Array;
  /** Support vector i is indices/values[offsets[i] .. offsets[i + 1]). */
  readonly offsets: Uint32Array;
  readonly indices: Int32Array;
  readonly values: Float64Array;
}

// What C++'s `istream >> double` accepts in a model file (no inf/nan there).
const DOUBLE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const INT = /^[+-]?\d+$/;

const HEADER_KEYS = ["svm_type", "kernel_type", "degree", "gamma", "coef0", "nr_class", "total_sv", "rho", "label", "probA", "probB", "nr_sv"];

/** Parses libsvm's model text; `where` names the file and field in error messages. */
export function parseLibsvmModel(text: string, where: string): SvmModel {
  const fail = (what: string) => new VqError(`${where}: libsvm model: ${what}`);
  const lines = text.split("\n");
  const header = new Map<string, string[]>();
  let line = 0;
  for (; line < lines.length; line++) {
    const words = lines[line]!.trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) continue;
    if (words[0] === "SV") break;
    if (!HEADER_KEYS.includes(words[0]!)) throw fail(`unknown header field "${words[0]}" on line ${line + 1}`);
    header.set(words[0]!, words.slice(1));
  }
  if (line === lines.length) throw fail('no "SV" line');

  const word = (key: string): string => {
    const v = header.get(key);
    if (!v || v.length === 0) throw fail(`missing ${key}`);
    return v[0]!;
  };
  const number = (key: string, pattern: RegExp): number => {
    const w = word(key);
    if (!pattern.test(w)) throw fail(`${key} "${w}" is not a number`);
    // 1e999 matches the pattern and reads as Infinity
    if (!Number.isFinite(Number(w))) throw fail(`${key} must be a finite number, got ${w}`);
    return Number(w);
  };

  const svmType = word("svm_type");
  if (svmType !== "nu_svr" && svmType !== "epsilon_svr") throw fail(`svm_type ${svmType} is not supported (VMAF models are nu_svr)`);
  const kernel = word("kernel_type");
  if (kernel !== "rbf") throw fail(`kernel_type ${kernel} is not supported (VMAF models use rbf)`);
  const gamma = number("gamma", DOUBLE);
  // exp(-gamma·|x − sv|²) of a gamma ≤ 0 grows with the distance: every score becomes inf or nan
  if (!(gamma > 0)) throw fail(`gamma must be a positive finite number, got ${word("gamma")}`);
  if (number("nr_class", INT) !== 2) throw fail("nr_class must be 2 for a regression model");
  const total = number("total_sv", INT);
  if (total < 1) throw fail("total_sv must be at least 1");
  // Before the arrays are sized by it: a claim the text cannot hold, or beyond the cap, is refused.
  if (total > LIMITS.supportVectors) throw fail(`total_sv ${total} is over vq's limit of ${LIMITS.supportVectors} support vectors (docs/limits.md)`);
  const svLines = lines.length - line - 1;
  if (total > svLines) throw fail(`${total} support vectors announced (total_sv), but only ${svLines} lines follow "SV"`);
  const rho = number("rho", DOUBLE);

  const coefficients = new Float64Array(total);
  const offsets = new Uint32Array(total + 1);
  const indices: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < total; i++) {
    const at = line + 1 + i;
    if (at >= lines.length) throw fail(`${total} support vectors announced, ${i} found`);
    const [coef, ...nodes] = lines[at]!.trim().split(/\s+/).filter(Boolean);
    if (coef === undefined || !DOUBLE.test(coef)) throw fail(`support vector ${i + 1}: bad coefficient "${coef ?? ""}"`);
    coefficients[i] = Number(coef);
    if (!Number.isFinite(coefficients[i]!)) throw fail(`support vector ${i + 1}: the coefficient must be a finite number, got ${coef}`);
    let previous = 0;
    for (const node of nodes) {
      const colon = node.indexOf(":");
      const index = node.slice(0, colon);
      const value = node.slice(colon + 1);
      if (colon < 0 || !INT.test(index) || !DOUBLE.test(value)) throw fail(`support vector ${i + 1}: bad node "${node}"`);
      if (!Number.isFinite(Number(value))) throw fail(`support vector ${i + 1}: node "${node}": the value must be a finite number`);
      // libsvm walks a vector's indices in increasing order from 1 (the first feature)
      if (!(Number(index) > previous)) {
        throw fail(`support vector ${i + 1}: node "${node}": the index must be ${previous ? `above the previous node's ${previous}` : "at least 1"}`);
      }
      previous = Number(index);
      indices.push(previous);
      values.push(Number(value));
    }
    offsets[i + 1] = indices.length;
  }
  return { svmType, gamma, rho, coefficients, offsets, indices: Int32Array.from(indices), values: Float64Array.from(values) };
}
