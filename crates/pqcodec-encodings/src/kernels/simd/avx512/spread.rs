//! AVX-512 spreading of values over validity: 16 4-byte or 8 8-byte lanes expand-loaded per
//! block (`vpexpandd` / `vpexpandq`).

use std::arch::x86_64::{
    _mm512_maskz_expandloadu_epi32, _mm512_maskz_expandloadu_epi64, _mm512_storeu_si512,
};

use super::super::spread_blocks::spread_blocks;

/// [`crate::kernels::spread::spread32`].
///
/// # Safety
/// The CPU has AVX-512 F; `words` has a bit per slot of `values`, `dense` of them set.
#[target_feature(enable = "avx512f")]
pub(in crate::kernels::simd) unsafe fn spread32(values: &mut [u32], dense: usize, words: &[u64]) {
    // SAFETY: AVX-512 F is enabled; the expand-load reads as many values from `src` as
    // the block's valid slots (masked-off lanes are not read), the store writes the
    // block's 16 lanes, as `spread_blocks` allows.
    unsafe {
        spread_blocks::<16, u32>(values, dense, words, |bits, src, dst| {
            let v = _mm512_maskz_expandloadu_epi32(bits as u16, src.cast());
            _mm512_storeu_si512(dst.cast(), v);
        })
    }
}

/// [`crate::kernels::spread::spread64`].
///
/// # Safety
/// As [`spread32`].
#[target_feature(enable = "avx512f")]
pub(in crate::kernels::simd) unsafe fn spread64(values: &mut [u64], dense: usize, words: &[u64]) {
    // SAFETY: as in `spread32`.
    unsafe {
        spread_blocks::<8, u64>(values, dense, words, |bits, src, dst| {
            let v = _mm512_maskz_expandloadu_epi64(bits as u8, src.cast());
            _mm512_storeu_si512(dst.cast(), v);
        })
    }
}
