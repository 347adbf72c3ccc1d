//! Bit unpacking: 8 values a group, in 32-bit lanes (one window) or 64-bit lanes (two).

use std::arch::x86_64::*;

use super::super::tables::{
    AVX2_BYTES32, AVX2_BYTES32_MAX, AVX2_DWORDS64, AVX2_SHR64, DWORDS32, SHR_BYTES32, SHR_DWORDS32,
    half_base,
};
use super::{WINDOW32, WINDOW64, for_groups, load, load128, store32, store64x2};

/// What extracts 8 values of one width (1 to 32 bits) in 32-bit lanes from a 32-byte window:
/// up to [`AVX2_BYTES32_MAX`] bits, one byte shuffle of the window's two halves (`vpshufb`, cheap
/// everywhere); wider, two word permutes (`vpermd`, 3 micro-ops each on Zen 1).
#[derive(Clone, Copy)]
pub(super) struct Lanes32 {
    by_bytes: bool,
    /// By bytes: where the second half starts, the shuffle and its shifts.
    base: usize,
    bytes: __m256i,
    byte_shr: __m256i,
    /// By words: the permutes and shifts of the words holding each value's start and end.
    idx: __m256i,
    shr: __m256i,
    idx_hi: __m256i,
    shl: __m256i,
    mask: __m256i,
}

#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn lanes32(width: u32) -> Lanes32 {
    let w = (width as usize).min(32);
    let b = w.min(AVX2_BYTES32_MAX);
    // SAFETY: the rows are 16 dwords (8 loaded), 32 bytes, 16 dwords (8 loaded).
    let (idx, shr, bytes, byte_shr) = unsafe {
        (
            _mm256_loadu_si256(DWORDS32[w].as_ptr().cast()),
            _mm256_loadu_si256(SHR_DWORDS32[w].as_ptr().cast()),
            _mm256_loadu_si256(AVX2_BYTES32[b].as_ptr().cast()),
            _mm256_loadu_si256(SHR_BYTES32[b].as_ptr().cast()),
        )
    };
    Lanes32 {
        by_bytes: w <= AVX2_BYTES32_MAX,
        base: half_base(b),
        bytes,
        byte_shr,
        idx,
        shr,
        idx_hi: _mm256_add_epi32(idx, _mm256_set1_epi32(1)),
        shl: _mm256_sub_epi32(_mm256_set1_epi32(32), shr),
        mask: _mm256_set1_epi32((u64::MAX >> (64 - width)) as u32 as i32),
    }
}

/// The 8 values of up to 32 bits at the start of `window` (a width of 32 is the window's first
/// 32 bytes: its `shl` of 32 gives 0).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn extract32(l: &Lanes32, window: &[u8; WINDOW32]) -> __m256i {
    if l.by_bytes {
        let halves = _mm256_inserti128_si256::<1>(
            _mm256_castsi128_si256(load128(window, 0)),
            load128(window, l.base),
        );
        let v = _mm256_srlv_epi32(_mm256_shuffle_epi8(halves, l.bytes), l.byte_shr);
        return _mm256_and_si256(v, l.mask);
    }
    let v = load(window, 0);
    let lo = _mm256_srlv_epi32(_mm256_permutevar8x32_epi32(v, l.idx), l.shr);
    let hi = _mm256_sllv_epi32(_mm256_permutevar8x32_epi32(v, l.idx_hi), l.shl);
    _mm256_and_si256(_mm256_or_si256(lo, hi), l.mask)
}

/// What extracts 8 values of one width (1 to 64 bits) in two registers of 64-bit lanes from
/// two 32-byte windows, the second at byte `base`.
#[derive(Clone, Copy)]
pub(super) struct Lanes64 {
    base: usize,
    idx: [__m256i; 2],
    shr: [__m256i; 2],
    idx_hi: [__m256i; 2],
    shl: [__m256i; 2],
    mask: __m256i,
}

#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn lanes64(width: u32) -> Lanes64 {
    let w = (width as usize).min(64);
    let (idx, shr) = (&AVX2_DWORDS64[w], &AVX2_SHR64[w]);
    // SAFETY: each half's row is 8 dwords, or 4 qwords: 32 bytes.
    let load = |t: *const u32| unsafe { _mm256_loadu_si256(t.cast()) };
    let idx = [load(idx[0].as_ptr()), load(idx[1].as_ptr())];
    let shr = [load(shr[0].as_ptr().cast()), load(shr[1].as_ptr().cast())];
    let shl = |s| _mm256_sub_epi64(_mm256_set1_epi64x(64), s);
    let hi = |i| _mm256_add_epi32(i, _mm256_set1_epi32(2));
    Lanes64 {
        base: half_base(w),
        idx,
        shr,
        idx_hi: [hi(idx[0]), hi(idx[1])],
        shl: [shl(shr[0]), shl(shr[1])],
        mask: _mm256_set1_epi64x((u64::MAX >> (64 - width)) as i64),
    }
}

#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn extract64(l: &Lanes64, h: usize, v: __m256i) -> __m256i {
    let lo = _mm256_srlv_epi64(_mm256_permutevar8x32_epi32(v, l.idx[h]), l.shr[h]);
    let hi = _mm256_sllv_epi64(_mm256_permutevar8x32_epi32(v, l.idx_hi[h]), l.shl[h]);
    _mm256_and_si256(_mm256_or_si256(lo, hi), l.mask)
}

/// The 8 values of a group of `width` (33 to 64) bits at the start of `window`, as two
/// registers of 4.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn group64(l: &Lanes64, width: u32, window: &[u8; WINDOW64]) -> (__m256i, __m256i) {
    if width == 64 {
        return (load(window, 0), load(window, 32));
    }
    let a = extract64(l, 0, load(window, 0));
    let b = extract64(l, 1, load(window, l.base));
    (a, b)
}

/// 8 deltas of up to 32 bits widened to two registers of 64-bit lanes.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn widen(d: __m256i) -> (__m256i, __m256i) {
    (
        _mm256_cvtepu32_epi64(_mm256_castsi256_si128(d)),
        _mm256_cvtepu32_epi64(_mm256_extracti128_si256::<1>(d)),
    )
}

/// Unpacks `out.len()` values of `width` (1 to 32) bits from `packed`. Bytes and 16-bit words
/// are zero-extended (`vpmovzx`) rather than gathered.
#[target_feature(enable = "avx2")]
pub(in crate::kernels::simd) fn unpack32(packed: &[u8], width: u32, out: &mut [u32]) {
    let step = width as usize;
    match width {
        8 => for_groups::<_, 8, WINDOW32>(packed, step, out, |window, o| {
            store32(
                o,
                _mm256_cvtepu8_epi32(_mm256_castsi256_si128(load(window, 0))),
            );
        }),
        16 => for_groups::<_, 8, WINDOW32>(packed, step, out, |window, o| {
            store32(
                o,
                _mm256_cvtepu16_epi32(_mm256_castsi256_si128(load(window, 0))),
            );
        }),
        _ => {
            let l = lanes32(width);
            for_groups::<_, 8, WINDOW32>(packed, step, out, |window, o| {
                store32(o, extract32(&l, window));
            });
        }
    }
}

/// [`for_groups`] for values of `width` (1 to 64) bits in 64-bit lanes: calls
/// `group(a, b, values)` with each group's values as two registers of 4. Up to 32 bits they are
/// unpacked as 32-bit lanes, 8 from one window, and widened.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn for_groups64<T: Copy + Default>(
    packed: &[u8],
    width: u32,
    out: &mut [T],
    mut group: impl FnMut(__m256i, __m256i, &mut [T; 8]),
) {
    let step = width as usize;
    if width <= 32 {
        let l = lanes32(width);
        for_groups::<_, 8, WINDOW32>(packed, step, out, |window, o| {
            let (a, b) = widen(extract32(&l, window));
            group(a, b, o);
        });
    } else {
        let l = lanes64(width);
        for_groups::<_, 8, WINDOW64>(packed, step, out, |window, o| {
            let (a, b) = group64(&l, width, window);
            group(a, b, o);
        });
    }
}

/// Unpacks `out.len()` values of `width` (1 to 64) bits from `packed`.
#[target_feature(enable = "avx2")]
pub(in crate::kernels::simd) fn unpack64(packed: &[u8], width: u32, out: &mut [u64]) {
    for_groups64(packed, width, out, |a, b, o| store64x2(o, a, b));
}
