//! AVX2 kernels: groups of 8 values (`width` bytes) per iteration, in one 256-bit register of
//! 32-bit lanes or two of 64-bit lanes. Each lane gathers the word holding the start of its
//! value and the next one (`vpermd`), shifts both into place and masks. A window that would
//! run past the end of the input is copied into a zero-padded stack buffer first, and a last
//! group of fewer than 8 values is stored through one, so nothing is read or written out of
//! bounds.
//!
//! Callers (the dispatch in the parent module) check the width (1 to 32, or 1 to 64), that
//! `packed` holds the bytes of `out.len()` values, and that the CPU has AVX2.

use std::arch::x86_64::*;

use super::tables::{AVX2_DWORDS64, AVX2_SHR64, DWORDS32, SHR_DWORDS32, half_base64};

/// The 32 bytes of `packed` from `off`, zero past its end.
#[inline]
#[target_feature(enable = "avx2")]
fn load32(packed: &[u8], off: usize) -> __m256i {
    match packed.get(off..off + 32) {
        // SAFETY: the slice is 32 bytes.
        Some(b) => unsafe { _mm256_loadu_si256(b.as_ptr().cast()) },
        None => {
            let mut buf = [0u8; 32];
            let tail = packed.get(off..).unwrap_or_default();
            let n = tail.len().min(32);
            buf[..n].copy_from_slice(&tail[..n]);
            // SAFETY: `buf` is 32 bytes.
            unsafe { _mm256_loadu_si256(buf.as_ptr().cast()) }
        }
    }
}

/// A register of 8 table dwords (the first 8 of `t`).
#[inline]
#[target_feature(enable = "avx2")]
fn dwords(t: &[u32]) -> __m256i {
    let mut a = [0u32; 8];
    let n = t.len().min(8);
    a[..n].copy_from_slice(&t[..n]);
    // SAFETY: `a` is 32 bytes.
    unsafe { _mm256_loadu_si256(a.as_ptr().cast()) }
}

/// A register of 4 table qwords.
#[inline]
#[target_feature(enable = "avx2")]
fn qwords(t: &[u64; 4]) -> __m256i {
    // SAFETY: `t` is 32 bytes.
    unsafe { _mm256_loadu_si256(t.as_ptr().cast()) }
}

/// Stores the 32-bit lanes of `v` at the front of `out`, as many as fit (at most 8).
#[inline]
#[target_feature(enable = "avx2")]
fn store32<T: Copy + Default>(out: &mut [T], v: __m256i) {
    const { assert!(size_of::<T>() == 4) };
    if out.len() >= 8 {
        // SAFETY: `out` holds at least 8 elements of 4 bytes: 32 bytes.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), v) }
    } else {
        let mut a = [T::default(); 8];
        // SAFETY: `a` is 8 elements of 4 bytes: 32 bytes.
        unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), v) }
        let n = out.len();
        out.copy_from_slice(&a[..n]);
    }
}

/// Stores the 64-bit lanes of `v` at the front of `out`, as many as fit (at most 4).
#[inline]
#[target_feature(enable = "avx2")]
fn store64<T: Copy + Default>(out: &mut [T], v: __m256i) {
    const { assert!(size_of::<T>() == 8) };
    if out.len() >= 4 {
        // SAFETY: `out` holds at least 4 elements of 8 bytes: 32 bytes.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), v) }
    } else {
        let mut a = [T::default(); 4];
        // SAFETY: `a` is 4 elements of 8 bytes: 32 bytes.
        unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), v) }
        let n = out.len();
        out.copy_from_slice(&a[..n]);
    }
}

/// What extracts 8 values of one width (1 to 32 bits) in 32-bit lanes from a 32-byte window.
#[derive(Clone, Copy)]
struct Lanes32 {
    idx: __m256i,
    shr: __m256i,
    idx_hi: __m256i,
    shl: __m256i,
    mask: __m256i,
}

#[inline]
#[target_feature(enable = "avx2")]
fn lanes32(width: u32) -> Lanes32 {
    let w = width as usize;
    let idx = dwords(DWORDS32.get(w).map_or(&[], |t| &t[..]));
    let shr = dwords(SHR_DWORDS32.get(w).map_or(&[], |t| &t[..]));
    Lanes32 {
        idx,
        shr,
        idx_hi: _mm256_add_epi32(idx, _mm256_set1_epi32(1)),
        shl: _mm256_sub_epi32(_mm256_set1_epi32(32), shr),
        mask: _mm256_set1_epi32((u64::MAX >> (64 - width)) as u32 as i32),
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn extract32(l: &Lanes32, v: __m256i) -> __m256i {
    let lo = _mm256_srlv_epi32(_mm256_permutevar8x32_epi32(v, l.idx), l.shr);
    let hi = _mm256_sllv_epi32(_mm256_permutevar8x32_epi32(v, l.idx_hi), l.shl);
    _mm256_and_si256(_mm256_or_si256(lo, hi), l.mask)
}

/// What extracts 8 values of one width (1 to 64 bits) in two registers of 64-bit lanes from
/// two 32-byte windows, the second at byte `base`.
#[derive(Clone, Copy)]
struct Lanes64 {
    base: usize,
    idx: [__m256i; 2],
    shr: [__m256i; 2],
    idx_hi: [__m256i; 2],
    shl: [__m256i; 2],
    mask: __m256i,
}

#[inline]
#[target_feature(enable = "avx2")]
fn lanes64(width: u32) -> Lanes64 {
    let w = width as usize;
    let zero = _mm256_setzero_si256();
    let mut l = Lanes64 {
        base: half_base64(w),
        idx: [zero; 2],
        shr: [zero; 2],
        idx_hi: [zero; 2],
        shl: [zero; 2],
        mask: _mm256_set1_epi64x((u64::MAX >> (64 - width)) as i64),
    };
    if let (Some(idx), Some(shr)) = (AVX2_DWORDS64.get(w), AVX2_SHR64.get(w)) {
        for h in 0..2 {
            l.idx[h] = dwords(&idx[h]);
            l.shr[h] = qwords(&shr[h]);
            l.idx_hi[h] = _mm256_add_epi32(l.idx[h], _mm256_set1_epi32(2));
            l.shl[h] = _mm256_sub_epi64(_mm256_set1_epi64x(64), l.shr[h]);
        }
    }
    l
}

#[inline]
#[target_feature(enable = "avx2")]
fn extract64(l: &Lanes64, h: usize, v: __m256i) -> __m256i {
    let lo = _mm256_srlv_epi64(_mm256_permutevar8x32_epi32(v, l.idx[h]), l.shr[h]);
    let hi = _mm256_sllv_epi64(_mm256_permutevar8x32_epi32(v, l.idx_hi[h]), l.shl[h]);
    _mm256_and_si256(_mm256_or_si256(lo, hi), l.mask)
}

/// The 8 values of group `k` as two registers of 4.
#[inline]
#[target_feature(enable = "avx2")]
fn group64(l: &Lanes64, packed: &[u8], width: u32, k: usize) -> (__m256i, __m256i) {
    let off = k * width as usize;
    if width == 64 {
        return (load32(packed, off), load32(packed, off + 32));
    }
    let a = extract64(l, 0, load32(packed, off));
    let b = extract64(l, 1, load32(packed, off + l.base));
    (a, b)
}

/// Unpacks `out.len()` values of `width` (1 to 32) bits from `packed`.
#[target_feature(enable = "avx2")]
pub(super) fn unpack32(packed: &[u8], width: u32, out: &mut [u32]) {
    let l = lanes32(width);
    let step = width as usize;
    for (k, o) in out.chunks_mut(8).enumerate() {
        let v = load32(packed, k * step);
        store32(o, if width == 32 { v } else { extract32(&l, v) });
    }
}

/// Stores 8 64-bit lanes (two registers) at the front of `out`, as many as fit.
#[inline]
#[target_feature(enable = "avx2")]
fn store64x2<T: Copy + Default>(out: &mut [T], a: __m256i, b: __m256i) {
    store64(out, a);
    if let Some(rest) = out.get_mut(4..) {
        store64(rest, b);
    }
}

/// Unpacks `out.len()` values of `width` (1 to 64) bits from `packed`.
#[target_feature(enable = "avx2")]
pub(super) fn unpack64(packed: &[u8], width: u32, out: &mut [u64]) {
    let l = lanes64(width);
    for (k, o) in out.chunks_mut(8).enumerate() {
        let (a, b) = group64(&l, packed, width, k);
        store64x2(o, a, b);
    }
}

/// Inclusive prefix sum of the 8 dword lanes of `x`.
#[inline]
#[target_feature(enable = "avx2")]
fn prefix32(x: __m256i) -> __m256i {
    let x = _mm256_add_epi32(x, _mm256_slli_si256::<4>(x));
    let x = _mm256_add_epi32(x, _mm256_slli_si256::<8>(x));
    // Lane 3's sum added to the upper half.
    let t = _mm256_shuffle_epi32::<0xFF>(x);
    _mm256_add_epi32(x, _mm256_permute2x128_si256::<0x08>(t, t))
}

/// Inclusive prefix sum of the 4 qword lanes of `x`.
#[inline]
#[target_feature(enable = "avx2")]
fn prefix64(x: __m256i) -> __m256i {
    let x = _mm256_add_epi64(x, _mm256_slli_si256::<8>(x));
    let t = _mm256_permute4x64_epi64::<0x55>(x);
    _mm256_add_epi64(x, _mm256_blend_epi32::<0xF0>(_mm256_setzero_si256(), t))
}

/// Writes `out[i] = last + (i + 1) * min_delta + (deltas 0..=i)` for the `out.len()` deltas of
/// `width` (1 to 32) bits in `packed`, wrapping; returns the last value written (or `last`).
#[target_feature(enable = "avx2")]
pub(super) fn delta32(
    packed: &[u8],
    width: u32,
    min_delta: i32,
    last: i32,
    out: &mut [i32],
) -> i32 {
    let l = lanes32(width);
    let step = width as usize;
    let min = _mm256_set1_epi32(min_delta);
    let top = _mm256_set1_epi32(7);
    let mut carry = _mm256_set1_epi32(last);
    for (k, o) in out.chunks_mut(8).enumerate() {
        let v = load32(packed, k * step);
        let d = if width == 32 { v } else { extract32(&l, v) };
        let v = _mm256_add_epi32(prefix32(_mm256_add_epi32(d, min)), carry);
        store32(o, v);
        carry = _mm256_permutevar8x32_epi32(v, top);
    }
    out.last().copied().unwrap_or(last)
}

/// [`delta32`] for 64-bit values and deltas of `width` (1 to 64) bits.
#[target_feature(enable = "avx2")]
pub(super) fn delta64(
    packed: &[u8],
    width: u32,
    min_delta: i64,
    last: i64,
    out: &mut [i64],
) -> i64 {
    let l = lanes64(width);
    let min = _mm256_set1_epi64x(min_delta);
    let mut carry = _mm256_set1_epi64x(last);
    for (k, o) in out.chunks_mut(8).enumerate() {
        let (a, b) = group64(&l, packed, width, k);
        let a = _mm256_add_epi64(prefix64(_mm256_add_epi64(a, min)), carry);
        carry = _mm256_permute4x64_epi64::<0xFF>(a);
        let b = _mm256_add_epi64(prefix64(_mm256_add_epi64(b, min)), carry);
        carry = _mm256_permute4x64_epi64::<0xFF>(b);
        store64x2(o, a, b);
    }
    out.last().copied().unwrap_or(last)
}
