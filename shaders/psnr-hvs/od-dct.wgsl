// Daala's integer 8x8 DCT (od_bin_fdct8x8) as libvmaf's psnr_hvs uses it; i32 wraps
// and >> on i32 is arithmetic, as in C. Twin of packages/psnr-hvs/src/od-dct.ts.

// (a + (a < 0)) >> 1: halving toward zero.
fn dct_half(a: i32) -> i32 {
  return (a + i32(u32(a) >> 31u)) >> 1u;
}

fn dct_mul(a: i32, m: i32, round: i32, shift: u32) -> i32 {
  return (a * m + round) >> shift;
}

fn fdct8(x: array<i32, 8>) -> array<i32, 8> {
  var t0 = x[0];
  var t4 = x[1];
  var t2 = x[2];
  var t6 = x[3];
  var t7 = x[4];
  var t3 = x[5];
  var t5 = x[6];
  var t1 = x[7];
  t1 = t0 - t1;
  let t1h = dct_half(t1);
  t0 -= t1h;
  t4 += t5;
  let t4h = dct_half(t4);
  t5 -= t4h;
  t3 = t2 - t3;
  t2 -= dct_half(t3);
  t6 += t7;
  let t6h = dct_half(t6);
  t7 = t6h - t7;
  t0 += t6h;
  t6 = t0 - t6;
  t2 = t4h - t2;
  t4 = t2 - t4;
  t0 -= dct_mul(t4, 13573, 16384, 15u);
  t4 += dct_mul(t0, 11585, 8192, 14u);
  t0 -= dct_mul(t4, 13573, 16384, 15u);
  t6 -= dct_mul(t2, 21895, 16384, 15u);
  t2 += dct_mul(t6, 15137, 8192, 14u);
  t6 -= dct_mul(t2, 21895, 16384, 15u);
  t3 += dct_mul(t5, 19195, 16384, 15u);
  t5 += dct_mul(t3, 11585, 8192, 14u);
  t3 -= dct_mul(t5, 7489, 4096, 13u);
  t7 = dct_half(t5) - t7;
  t5 -= t7;
  t3 = t1h - t3;
  t1 -= t3;
  t7 += dct_mul(t1, 3227, 16384, 15u);
  t1 -= dct_mul(t7, 6393, 16384, 15u);
  t7 += dct_mul(t1, 3227, 16384, 15u);
  t5 += dct_mul(t3, 2485, 4096, 13u);
  t3 -= dct_mul(t5, 18205, 16384, 15u);
  t5 += dct_mul(t3, 2485, 4096, 13u);
  return array<i32, 8>(t0, t1, t2, t3, t4, t5, t6, t7);
}

// In place: columns first, then rows.
fn fdct8x8(block: ptr<function, array<i32, 64>>) {
  var scratch: array<i32, 64>;
  for (var i = 0u; i < 8u; i++) {
    let y = fdct8(array<i32, 8>((*block)[i], (*block)[i + 8u], (*block)[i + 16u], (*block)[i + 24u], (*block)[i + 32u], (*block)[i + 40u], (*block)[i + 48u], (*block)[i + 56u]));
    for (var k = 0u; k < 8u; k++) {
      scratch[8u * i + k] = y[k];
    }
  }
  for (var i = 0u; i < 8u; i++) {
    let y = fdct8(array<i32, 8>(scratch[i], scratch[i + 8u], scratch[i + 16u], scratch[i + 24u], scratch[i + 32u], scratch[i + 40u], scratch[i + 48u], scratch[i + 56u]));
    for (var k = 0u; k < 8u; k++) {
      (*block)[8u * i + k] = y[k];
    }
  }
}
