// vif's separable filters: the taps of a scale's fixed-point Gaussian (from the kernel's
// params.taps, four to a vector) and libvmaf's mirrored borders (reflection without
// repeating the edge sample), for filter_half() taps either side of the centre.

// The filter's reach: a pipeline constant for a pipeline that serves one scale (the largest
// passes: the compiler knows their loops), else 0 and the kernel's params.half, so that one
// pipeline serves the small later scales (fewer pipelines to build at start-up:
// adr/0020-cold-start.md).
override HALF: u32 = 0u;

fn filter_half() -> u32 {
  return select(params.half, HALF, HALF != 0u);
}

fn tap(k: u32) -> u32 {
  return params.taps[k >> 2u][k & 3u];
}

// Index i of a line of n samples, reflected at both ends (|i| < n; beyond that, for rows
// no output uses, clamped into the line).
fn mirror(i: i32, n: i32) -> u32 {
  var j = abs(i);
  if (j >= n) {
    j = 2 * (n - 1) - j;
  }
  return u32(clamp(j, 0, n - 1));
}
