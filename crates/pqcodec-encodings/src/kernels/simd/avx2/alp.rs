//! ALP's decoding: values unpacked, the frame of reference added, converted and scaled in
//! registers.

use std::arch::x86_64::*;

use super::unpack::{extract32, for_groups64, lanes32};
use super::{WINDOW32, for_groups, load, store32, store64x2};

/// The 4 signed 64-bit lanes of `x` as doubles, rounded to nearest as `as f64` rounds (AVX2
/// has no such conversion): with `u = x + 2^63` as an unsigned integer, the double of bits
/// `0x453 : u >> 32` is `2^84 + (u >> 32) * 2^32` and that of bits `0x433 : u & 0xFFFF_FFFF`
/// is `2^52 + (u & 0xFFFF_FFFF)`; the first minus `2^84 + 2^63 + 2^52` is exact, and adding
/// the second gives `x` with a single rounding.
#[inline]
#[target_feature(enable = "avx2")]
pub(in crate::kernels::simd) fn i64_to_f64(x: __m256i) -> __m256d {
    let u = _mm256_xor_si256(x, _mm256_set1_epi64x(i64::MIN));
    let hi = _mm256_or_si256(
        _mm256_srli_epi64::<32>(u),
        _mm256_set1_epi64x(0x4530_0000_0000_0000),
    );
    let lo = _mm256_blend_epi32::<0b1010_1010>(u, _mm256_set1_epi64x(0x4330_0000_0000_0000));
    let hi = _mm256_sub_pd(
        _mm256_castsi256_pd(hi),
        _mm256_set1_pd(f64::from_bits(I64_TO_F64_BIAS)),
    );
    _mm256_add_pd(hi, _mm256_castsi256_pd(lo))
}

/// The bits of `2^84 + 2^63 + 2^52`.
pub(in crate::kernels::simd) const I64_TO_F64_BIAS: u64 = 0x4530_0000_8010_0000;

/// ALP's decoding of `out.len()` values of `width` (1 to 64) bits: each group of 8 unpacked,
/// `reference` added, converted and multiplied by `factor` then `inverse` in registers. A
/// factor of 1 (`10^0`, the usual one) is not multiplied by: `x * 1.0` is `x`.
#[target_feature(enable = "avx2")]
pub(in crate::kernels::simd) fn alp64(
    packed: &[u8],
    width: u32,
    reference: u64,
    factor: f64,
    inverse: f64,
    out: &mut [f64],
) {
    if factor == 1.0 {
        alp64_by::<false>(packed, width, reference, factor, inverse, out);
    } else {
        alp64_by::<true>(packed, width, reference, factor, inverse, out);
    }
}

/// [`alp64`], multiplying by `factor` if `FACTOR`.
#[target_feature(enable = "avx2")]
pub(super) fn alp64_by<const FACTOR: bool>(
    packed: &[u8],
    width: u32,
    reference: u64,
    factor: f64,
    inverse: f64,
    out: &mut [f64],
) {
    let r = _mm256_set1_epi64x(reference as i64);
    let f = _mm256_set1_pd(factor);
    let inv = _mm256_set1_pd(inverse);
    let times = |d: __m256d| {
        let d = if FACTOR { _mm256_mul_pd(d, f) } else { d };
        _mm256_castpd_si256(_mm256_mul_pd(d, inv))
    };
    // Every integer of the vector lies in `reference ..= reference + 2^width - 1`. Within
    // (-2^51, 2^51), the usual case, each converts exactly with two instructions: added to the
    // bits of `1.5 * 2^52`, it is that double's mantissa; subtracting the double leaves it.
    let low = i128::from(reference as i64);
    let high = low + ((1i128 << width) - 1);
    if width <= 32 && low >= i128::from(i32::MIN) && high <= i128::from(i32::MAX) {
        // Integers of 32 bits, the common case (prices, measurements): two groups of 8 a step,
        // both unpacked and offset in 32-bit lanes before either is converted (each half
        // exactly, by one instruction) and multiplied, so that the long chain of one group
        // overlaps the other's (5 % faster on Zen 1, whose scheduler fills with one's).
        let r32 = _mm256_set1_epi32(reference as i32);
        let l = lanes32(width);
        let scale = |v: __m256i| {
            let lo = times(_mm256_cvtepi32_pd(_mm256_castsi256_si128(v)));
            (
                lo,
                times(_mm256_cvtepi32_pd(_mm256_extracti128_si256::<1>(v))),
            )
        };
        let step = width as usize;
        for_groups::<_, 16, { 2 * WINDOW32 }>(packed, 2 * step, out, |window, o| {
            let (Some(first), Some(second)) = (
                window.first_chunk::<WINDOW32>(),
                window.get(step..).and_then(|w| w.first_chunk::<WINDOW32>()),
            ) else {
                return;
            };
            let a = _mm256_add_epi32(extract32(&l, first), r32);
            let b = _mm256_add_epi32(extract32(&l, second), r32);
            let [lo, hi] = o.as_chunks_mut::<8>().0 else {
                return;
            };
            let ((a0, a1), (b0, b1)) = (scale(a), scale(b));
            store64x2(lo, a0, a1);
            store64x2(hi, b0, b1);
        });
        return;
    }
    if low > -(1 << 51) && high < (1 << 51) {
        let magic = _mm256_set1_epi64x(MAGIC_BITS as i64);
        let magic_pd = _mm256_set1_pd(f64::from_bits(MAGIC_BITS));
        let scale = |v: __m256i| {
            let x = _mm256_add_epi64(_mm256_add_epi64(v, r), magic);
            times(_mm256_sub_pd(_mm256_castsi256_pd(x), magic_pd))
        };
        for_groups64(packed, width, out, |a, b, o| {
            store64x2(o, scale(a), scale(b))
        });
        return;
    }
    let scale = |v: __m256i| times(i64_to_f64(_mm256_add_epi64(v, r)));
    for_groups64(packed, width, out, |a, b, o| {
        store64x2(o, scale(a), scale(b))
    });
}

/// The bits of `1.5 * 2^52`.
pub(super) const MAGIC_BITS: u64 = 0x4338_0000_0000_0000;

/// [`alp64`] for FLOAT: 32-bit lanes, `width` 1 to 32.
#[target_feature(enable = "avx2")]
pub(in crate::kernels::simd) fn alp32(
    packed: &[u8],
    width: u32,
    reference: u32,
    factor: f32,
    inverse: f32,
    out: &mut [f32],
) {
    if factor == 1.0 {
        alp32_by::<false>(packed, width, reference, factor, inverse, out);
    } else {
        alp32_by::<true>(packed, width, reference, factor, inverse, out);
    }
}

/// [`alp32`], multiplying by `factor` if `FACTOR`.
#[target_feature(enable = "avx2")]
pub(super) fn alp32_by<const FACTOR: bool>(
    packed: &[u8],
    width: u32,
    reference: u32,
    factor: f32,
    inverse: f32,
    out: &mut [f32],
) {
    let r = _mm256_set1_epi32(reference as i32);
    let f = _mm256_set1_ps(factor);
    let inv = _mm256_set1_ps(inverse);
    let scale = |v: __m256i| {
        let d = _mm256_cvtepi32_ps(_mm256_add_epi32(v, r));
        let d = if FACTOR { _mm256_mul_ps(d, f) } else { d };
        _mm256_castps_si256(_mm256_mul_ps(d, inv))
    };
    let step = width as usize;
    match width {
        8 => for_groups::<_, 8, WINDOW32>(packed, step, out, |window, o| {
            let v = _mm256_cvtepu8_epi32(_mm256_castsi256_si128(load(window, 0)));
            store32(o, scale(v));
        }),
        16 => for_groups::<_, 8, WINDOW32>(packed, step, out, |window, o| {
            let v = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(load(window, 0)));
            store32(o, scale(v));
        }),
        _ => {
            let l = lanes32(width);
            for_groups::<_, 8, WINDOW32>(packed, step, out, |window, o| {
                store32(o, scale(extract32(&l, window)));
            });
        }
    }
}
