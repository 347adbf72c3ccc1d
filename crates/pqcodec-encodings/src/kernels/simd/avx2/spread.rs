//! AVX2 spreading of values over validity: a block's next 8 4-byte or 4 8-byte values
//! permuted into their slots (`vpermd`) by a table indexed by the block's validity bits.

use std::arch::x86_64::*;

use super::super::spread_blocks::spread_blocks;

/// For each validity byte of a block of 8 4-byte slots: byte `j` is the lane of the
/// block's values that slot `j` takes (the valid slots below it), 0 for a null.
static LANES8: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut bits = 0;
    while bits < 256 {
        let (mut j, mut k) = (0, 0u64);
        while j < 8 {
            if bits >> j & 1 != 0 {
                t[bits] |= k << (8 * j);
                k += 1;
            }
            j += 1;
        }
        bits += 1;
    }
    t
};

/// [`LANES8`] for blocks of 4 8-byte slots, as the dword pairs `vpermd` moves: bytes
/// `2j` and `2j + 1` are the dwords of the value slot `j` takes.
static LANES4: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut bits = 0;
    while bits < 16 {
        let (mut j, mut k) = (0, 0u64);
        while j < 4 {
            if bits >> j & 1 != 0 {
                t[bits] |= (2 * k) << (16 * j) | (2 * k + 1) << (16 * j + 8);
                k += 1;
            }
            j += 1;
        }
        bits += 1;
    }
    t
};

/// The `vpermd` indices of `table`'s entry for `bits`, a dword each.
#[inline]
#[target_feature(enable = "avx2")]
fn indices(table: &[u64], bits: u64) -> __m256i {
    let entry = table.get(bits as usize).copied().unwrap_or(0);
    _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(entry as i64))
}

/// [`crate::kernels::spread::spread32`].
///
/// # Safety
/// The CPU has AVX2; `words` has a bit per slot of `values`, `dense` of them set.
#[target_feature(enable = "avx2")]
pub(in crate::kernels::simd) unsafe fn spread32(values: &mut [u32], dense: usize, words: &[u64]) {
    let sel = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    // SAFETY: AVX2 is enabled; the load reads the 8 values from `src` and the store
    // writes the block's 8 lanes, as `spread_blocks` allows.
    unsafe {
        spread_blocks::<8, u32>(values, dense, words, |bits, src, dst| {
            let v = _mm256_loadu_si256(src.cast());
            let v = _mm256_permutevar8x32_epi32(v, indices(&LANES8, bits));
            let valid = _mm256_and_si256(_mm256_set1_epi32(bits as i32), sel);
            let v = _mm256_and_si256(v, _mm256_cmpeq_epi32(valid, sel));
            _mm256_storeu_si256(dst.cast(), v);
        })
    }
}

/// [`crate::kernels::spread::spread64`].
///
/// # Safety
/// As [`spread32`].
#[target_feature(enable = "avx2")]
pub(in crate::kernels::simd) unsafe fn spread64(values: &mut [u64], dense: usize, words: &[u64]) {
    let sel = _mm256_setr_epi64x(1, 2, 4, 8);
    // SAFETY: as in `spread32`, 4 values.
    unsafe {
        spread_blocks::<4, u64>(values, dense, words, |bits, src, dst| {
            let v = _mm256_loadu_si256(src.cast());
            let v = _mm256_permutevar8x32_epi32(v, indices(&LANES4, bits));
            let valid = _mm256_and_si256(_mm256_set1_epi64x(bits as i64), sel);
            let v = _mm256_and_si256(v, _mm256_cmpeq_epi64(valid, sel));
            _mm256_storeu_si256(dst.cast(), v);
        })
    }
}
