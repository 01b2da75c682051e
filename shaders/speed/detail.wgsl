// SpEED's filter_and_downscale on the GPU: anti-alias filter + decimation by 16, then the
// local mean removed, in libvmaf's float operations and order (vertical pass, then
// horizontal; products unfused). Needs common/frame.wgsl, speed/exact-f32.wgsl,
// speed/params.wgsl and a source (speed/chroma-source.wgsl or speed/temporal-source.wgsl).

// The filters' lengths, fixed when the pipelines are made (from speed_kernelscale), so that
// compilers can unroll the taps and keep many loads in flight.
override AA_TAPS: u32 = 9u;
override LM_TAPS: u32 = 3u;

// the decimated pictures, image after image
@group(0) @binding(5) var<storage, read_write> raw: array<f32>;
// per image: the detail picture and what is derived from it (params.wgsl's work_*)
@group(0) @binding(6) var<storage, read_write> work: array<f32>;

// The picture the filter sees: the source, or its prescaled version (vif_scale_frame_s:
// rows outer, columns inner, source * (wx * wy), over the sum of weights for Lanczos).
fn scaled_sample(img: u32, x: u32, y: u32) -> f32 {
  if (params.rs_mode == 0u) {
    return raw_sample(img, x, y);
  }
  let ry_weights = params.ry_at + params.scaled_h * params.ry_taps;
  let rx_weights = params.rx_at + params.scaled_w * params.rx_taps;
  var value = 0.0;
  var weight_sum = 0.0;
  for (var j = 0u; j < params.ry_taps; j++) {
    let sy = tables[params.ry_at + y * params.ry_taps + j];
    let wy = table_f32(ry_weights + y * params.ry_taps + j);
    for (var i = 0u; i < params.rx_taps; i++) {
      let sx = tables[params.rx_at + x * params.rx_taps + i];
      let weight = mul(table_f32(rx_weights + x * params.rx_taps + i), wy);
      weight_sum = weight_sum + weight;
      value = value + mul(raw_sample(img, sx, sy), weight);
    }
  }
  if (params.rs_mode == 2u) {
    return div_rn(value, weight_sum);
  }
  return value;
}

// One decimated sample: the anti-alias filter evaluated at (16 j, 16 i) only.
@compute @workgroup_size(8, 8)
fn decimate(@builtin(global_invocation_id) id: vec3u) {
  let j = id.x;
  let i = id.y;
  if (j >= params.dec_w || i >= params.dec_h) {
    return;
  }
  let half = i32(AA_TAPS / 2u);
  var acc = 0.0;
  for (var kx = 0u; kx < AA_TAPS; kx++) {
    let x = mirror(i32(16u * j) - half + i32(kx), params.scaled_w);
    var column = 0.0;
    for (var ky = 0u; ky < AA_TAPS; ky++) {
      let y = mirror(i32(16u * i) - half + i32(ky), params.scaled_h);
      column = column + mul(table_f32(params.aa_at + ky), scaled_sample(id.z, x, y));
    }
    acc = acc + mul(table_f32(params.aa_at + kx), column);
  }
  raw[id.z * params.dec_w * params.dec_h + i * params.dec_w + j] = acc;
}

// The decimated picture minus its local mean (the scale-4 Gaussian): the detail picture.
@compute @workgroup_size(8, 8)
fn remove_local_mean(@builtin(global_invocation_id) id: vec3u) {
  let j = id.x;
  let i = id.y;
  if (j >= params.dec_w || i >= params.dec_h) {
    return;
  }
  let base = id.z * params.dec_w * params.dec_h;
  let half = i32(LM_TAPS / 2u);
  var mean = 0.0;
  for (var kx = 0u; kx < LM_TAPS; kx++) {
    let x = mirror(i32(j) - half + i32(kx), params.dec_w);
    var column = 0.0;
    for (var ky = 0u; ky < LM_TAPS; ky++) {
      let y = mirror(i32(i) - half + i32(ky), params.dec_h);
      column = column + mul(table_f32(params.lm_at + ky), raw[base + y * params.dec_w + x]);
    }
    mean = mean + mul(table_f32(params.lm_at + kx), column);
  }
  work[work_detail(id.z) + i * params.dec_w + j] = raw[base + i * params.dec_w + j] - mean;
}
