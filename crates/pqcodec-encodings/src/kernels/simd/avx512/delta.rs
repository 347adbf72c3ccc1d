//! DELTA_BINARY_PACKED's miniblocks: a register of deltas unpacked, the minimum added, then
//! prefix-summed in the register and carried from its top lane into the next.

use std::arch::x86_64::*;

use super::super::{DeltaRun, for_each_run};
use super::{extract32, extract64, lanes32, lanes64, load64, store32, store64};

/// Inclusive prefix sum of the 16 dword lanes of `x`.
#[inline]
#[target_feature(enable = "avx512f")]
fn prefix32(x: __m512i) -> __m512i {
    let z = _mm512_setzero_si512();
    let x = _mm512_add_epi32(x, _mm512_alignr_epi32::<15>(x, z));
    let x = _mm512_add_epi32(x, _mm512_alignr_epi32::<14>(x, z));
    let x = _mm512_add_epi32(x, _mm512_alignr_epi32::<12>(x, z));
    _mm512_add_epi32(x, _mm512_alignr_epi32::<8>(x, z))
}

/// Inclusive prefix sum of the 8 qword lanes of `x`.
#[inline]
#[target_feature(enable = "avx512f")]
fn prefix64(x: __m512i) -> __m512i {
    let z = _mm512_setzero_si512();
    let x = _mm512_add_epi64(x, _mm512_alignr_epi64::<7>(x, z));
    let x = _mm512_add_epi64(x, _mm512_alignr_epi64::<6>(x, z));
    _mm512_add_epi64(x, _mm512_alignr_epi64::<4>(x, z))
}

/// [`super::super::delta32`] of checked runs.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(in crate::kernels::simd) fn delta32(runs: &[DeltaRun], last: i32, out: &mut [i32]) -> i32 {
    for_each_run(runs, last, out, |r, last, o| {
        delta32_run(r.packed, r.width, r.min_delta as i32, last, o)
    })
}

/// [`super::super::delta64`] of checked runs.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(in crate::kernels::simd) fn delta64(runs: &[DeltaRun], last: i64, out: &mut [i64]) -> i64 {
    for_each_run(runs, last, out, |r, last, o| {
        delta64_run(r.packed, r.width, r.min_delta as i64, last, o)
    })
}

/// Writes `out[i] = last + (i + 1) * min_delta + (deltas 0..=i)` for the `out.len()` deltas of
/// `width` (1 to 32) bits in `packed`, wrapping; returns the last value written (or `last`).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn delta32_run(packed: &[u8], width: u32, min_delta: i32, last: i32, out: &mut [i32]) -> i32 {
    let l = lanes32(width);
    let step = 2 * width as usize;
    let min = _mm512_set1_epi32(min_delta);
    let top = _mm512_set1_epi32(15);
    let mut carry = _mm512_set1_epi32(last);
    for (k, o) in out.chunks_mut(16).enumerate() {
        let d = _mm512_add_epi32(extract32(&l, load64(packed, k * step)), min);
        let v = _mm512_add_epi32(prefix32(d), carry);
        store32(o, v);
        carry = _mm512_permutexvar_epi32(top, v);
    }
    out.last().copied().unwrap_or(last)
}

/// [`delta32_run`] for 64-bit values and deltas of `width` (1 to 64) bits.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn delta64_run(packed: &[u8], width: u32, min_delta: i64, last: i64, out: &mut [i64]) -> i64 {
    let l = lanes64(width);
    let step = width as usize;
    let min = _mm512_set1_epi64(min_delta);
    let top = _mm512_set1_epi64(7);
    let mut carry = _mm512_set1_epi64(last);
    for (k, o) in out.chunks_mut(8).enumerate() {
        let d = _mm512_add_epi64(extract64(&l, load64(packed, k * step)), min);
        let v = _mm512_add_epi64(prefix64(d), carry);
        store64(o, v);
        carry = _mm512_permutexvar_epi64(top, v);
    }
    out.last().copied().unwrap_or(last)
}
