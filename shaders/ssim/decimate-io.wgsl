// The buffers of SSIM's two decimations (box-decimate.wgsl, wavelet-decimate.wgsl): both
// pictures in, both halved (or scaled) pictures out.

@group(0) @binding(4) var<storage, read> src_ref: array<f32>;
@group(0) @binding(5) var<storage, read> src_cmp: array<f32>;
@group(0) @binding(6) var<storage, read_write> dst_ref: array<f32>;
@group(0) @binding(7) var<storage, read_write> dst_cmp: array<f32>;
