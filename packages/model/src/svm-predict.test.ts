import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { parseLibsvmModel } from "./libsvm-model.ts";
import { predictSvm } from "./svm-predict.ts";

const v061 = JSON.parse(readFileSync(new URL("../models/vmaf_v0.6.1.json", import.meta.url), "utf8")).model_dict.model as string;

/** A two-vector nu_svr model in libsvm's text format. */
function tiny(sv1: string, sv2: string): string {
  return `svm_type nu_svr\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho -0.25\nSV\n1.5 ${sv1} \n-0.75 ${sv2} \n`;
}

describe("libsvm model text", () => {
  test("reads vmaf_v0.6.1's model: header and every support vector", () => {
    const m = parseLibsvmModel(v061, "m");
    const lines = v061.trim().split("\n");
    const svLines = lines.slice(lines.indexOf("SV") + 1);
    expect(m.svmType).toBe("nu_svr");
    expect(m.coefficients.length).toBe(svLines.length);
    expect(m.offsets.at(-1)).toBe(m.indices.length);
    // The last vector's nodes, read back from the text.
    const last = svLines.at(-1)!.trim().split(" ").slice(1);
    const start = m.offsets.at(-2)!;
    expect([...m.indices.slice(start)]).toEqual(last.map((n) => Number(n.split(":")[0])));
    expect([...m.values.slice(start)]).toEqual(last.map((n) => Number(n.split(":")[1])));
  });

  test("rejects what VMAF models never use", () => {
    expect(() => parseLibsvmModel(v061.replace("nu_svr", "c_svc"), "m")).toThrow("m: libsvm model: svm_type c_svc is not supported (VMAF models are nu_svr)");
    expect(() => parseLibsvmModel(v061.replace("gamma 0.04", "gamma x"), "m")).toThrow('m: libsvm model: gamma "x" is not a number');
    expect(() => parseLibsvmModel(v061.replace("\nSV\n", "\nSVs\n"), "m")).toThrow('m: libsvm model: unknown header field "SVs"');
  });
});

describe("nu-SVR prediction", () => {
  const x = new Float64Array([0.25, 0.5, 0.75]);

  test("an index missing from a support vector counts as 0, as in libsvm", () => {
    const sparse = parseLibsvmModel(tiny("1:0.5 3:0.125", "2:0.25"), "m");
    const dense = parseLibsvmModel(tiny("1:0.5 2:0 3:0.125", "1:0 2:0.25 3:0"), "m");
    expect(predictSvm(sparse, x)).toBe(predictSvm(dense, x));
  });

  test("indices beyond the input add their square after it, like libsvm's tail loop", () => {
    const tail = parseLibsvmModel(tiny("1:0.5 3:0.125 4:0.5", "2:0.25 4:0.5"), "m");
    const plain = parseLibsvmModel(tiny("1:0.5 3:0.125", "2:0.25"), "m");
    // Same squares in the same order: the 4th input value of `plain` plays the tail node.
    expect(predictSvm(tail, x)).toBe(predictSvm(plain, new Float64Array([...x, 0.5])));
    expect(predictSvm(tail, x)).not.toBe(predictSvm(plain, x));
  });

  test("the sum is coefficients times kernels in vector order, minus rho", () => {
    const m = parseLibsvmModel(tiny("1:0.5 3:0.125", "2:0.25"), "m");
    const sq = (d: number) => d * d;
    const k1 = Math.exp(-0.5 * (sq(0.25 - 0.5) + sq(0.5) + sq(0.75 - 0.125)));
    const k2 = Math.exp(-0.5 * (sq(0.25) + sq(0.5 - 0.25) + sq(0.75)));
    expect(predictSvm(m, x)).toBe(1.5 * k1 + -0.75 * k2 - -0.25);
  });
});
