// Test support for the double-step kernels' tests (vif-gpu-f64, vif-gpu-gain): the part of
// their runWordKernel harness that reads a case, so both lay cases out alike.

/**
 * A harness `main` (64 threads a workgroup, one thread a case): case i is `words` u32s at
 * c = words · i, the first six two F64 operands `a` and `b` (mantissa words, exponent);
 * `body` does the case and writes out[4i..4i+3].
 */
export function f64CaseHarness(words: number, body: string): string {
  return /* wgsl */ `
@group(0) @binding(0) var<storage, read> cases: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  if (i >= arrayLength(&cases) / ${words}u) {
    return;
  }
  let c = ${words}u * i;
  let a = F64(vec2u(cases[c], cases[c + 1u]), bitcast<i32>(cases[c + 2u]));
  let b = F64(vec2u(cases[c + 3u], cases[c + 4u]), bitcast<i32>(cases[c + 5u]));
${body}
}`;
}
