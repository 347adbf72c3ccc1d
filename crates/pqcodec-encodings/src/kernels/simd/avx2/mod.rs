//! AVX2 kernels: groups of 8 values (`width` bytes) per iteration, in one 256-bit register of
//! 32-bit lanes or two of 64-bit lanes. Values of up to 25 bits lie within 4 bytes: each lane
//! takes them with one byte shuffle (`vpshufb`) of the window's two 16-byte halves, then shifts
//! and masks. Wider ones gather the word holding the start of their value and the next one
//! (`vpermd`), shift both into place and mask. The delta kernels
//! take deltas of the narrow [`words16`] widths 16 at a time in 16-bit lanes instead, with
//! fewer shuffles.
//!
//! [`for_groups`] drives every kernel: groups whose window of input lies within `packed` are
//! loaded from it directly, in a loop with no call in it (so the lane tables and running sums
//! stay in registers); the groups after, near the end of the input, are loaded from a
//! zero-padded copy of what is left, and a last partial group is stored through a stack
//! buffer, so nothing is read or written out of bounds.
//!
//! Callers (the dispatch in the parent module) check the width (1 to 32, or 1 to 64), that
//! `packed` holds the bytes of `out.len()` values, and that the CPU has AVX2.

pub(super) mod shared_prefix;
pub(super) mod spread;
pub(super) mod transpose;

use std::arch::x86_64::*;

use super::tables::{
    AVX2_BYTES32, AVX2_BYTES32_MAX, AVX2_DWORDS64, AVX2_SHR64, DWORDS32, SHL_WORDS16, SHR_BYTES32,
    SHR_DWORDS32, WORDS16, WORDS16_MAX, Words16, half_base, words16,
};
use super::{DeltaRun, for_each_run};

/// Bytes a group of 32-bit lanes reads: one 32-byte window.
const WINDOW32: usize = 32;
/// Bytes a group of 64-bit lanes reads: two 32-byte windows, the second at most 32 bytes on.
const WINDOW64: usize = 64;

/// Calls `group(window, values)` for each group of `G` values of `out`, group `k`'s `WINDOW`
/// bytes starting at byte `k * step` of `packed` (or of a zero-padded copy of its end), and
/// stores the `G` values it returns (fewer for a last partial group).
#[inline(always)]
fn for_groups<T: Copy + Default, const G: usize, const WINDOW: usize>(
    packed: &[u8],
    step: usize,
    out: &mut [T],
    mut group: impl FnMut(&[u8; WINDOW], &mut [T; G]),
) {
    let groups = out.len() / G;
    let fast = whole_windows(packed.len(), step, WINDOW, groups);
    let (head, rest) = out.split_at_mut(fast * G);
    for (k, o) in head.chunks_exact_mut(G).enumerate() {
        let at = k * step;
        // Within `packed` for `k < fast` (`whole_windows`); written this way, the check folds
        // away.
        let (Some(window), Ok(o)) = (
            packed.get(at..at + WINDOW).and_then(|w| w.try_into().ok()),
            <&mut [T; G]>::try_from(o),
        ) else {
            return;
        };
        group(window, o);
    }
    if rest.is_empty() {
        return;
    }
    // What is left of the input: fewer than `WINDOW` bytes before the last group that is not
    // whole, so every window of the copy lies within its `2 * WINDOW` bytes.
    let left = packed.get(fast * step..).unwrap_or_default();
    let mut padded = [[0u8; WINDOW]; 2];
    let n = left.len().min(2 * WINDOW);
    padded.as_flattened_mut()[..n].copy_from_slice(&left[..n]);
    let padded = padded.as_flattened();
    for (k, o) in rest.chunks_mut(G).enumerate() {
        let at = k * step;
        let Some(window) = padded.get(at..at + WINDOW).and_then(|w| w.try_into().ok()) else {
            return;
        };
        let mut values = [T::default(); G];
        group(window, &mut values);
        o.copy_from_slice(&values[..o.len()]);
    }
}

/// How many of the first `groups` groups of values, `step` bytes apart, have their `window`
/// bytes (from `k * step`) within `len` bytes. All of them, but at the end of a page.
#[inline]
fn whole_windows(len: usize, step: usize, window: usize, groups: usize) -> usize {
    if groups.saturating_mul(step).saturating_add(window) <= len {
        return groups;
    }
    match len.checked_sub(window) {
        Some(room) => (room / step.max(1) + 1).min(groups),
        None => 0,
    }
}

/// The 32 bytes of `window` from `at` (`at + 32 <= N`).
#[inline]
#[target_feature(enable = "avx2")]
fn load<const N: usize>(window: &[u8; N], at: usize) -> __m256i {
    match window.get(at..at + 32) {
        // SAFETY: the slice is 32 bytes.
        Some(b) => unsafe { _mm256_loadu_si256(b.as_ptr().cast()) },
        None => _mm256_setzero_si256(),
    }
}

/// The 16 bytes of `window` from `at` (`at + 16 <= N`).
#[inline]
#[target_feature(enable = "avx2")]
fn load128<const N: usize>(window: &[u8; N], at: usize) -> __m128i {
    match window.get(at..at + 16) {
        // SAFETY: the slice is 16 bytes.
        Some(b) => unsafe { _mm_loadu_si128(b.as_ptr().cast()) },
        None => _mm_setzero_si128(),
    }
}

/// Stores the 32-bit lanes of `v` to `out`.
#[inline]
#[target_feature(enable = "avx2")]
fn store32<T: Copy>(out: &mut [T; 8], v: __m256i) {
    const { assert!(size_of::<T>() == 4) };
    // SAFETY: `out` is 8 elements of 4 bytes: 32 bytes.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), v) }
}

/// Stores the 64-bit lanes of `a` then `b` to `out`.
#[inline]
#[target_feature(enable = "avx2")]
fn store64x2<T: Copy>(out: &mut [T; 8], a: __m256i, b: __m256i) {
    const { assert!(size_of::<T>() == 8) };
    // SAFETY: `out` is 8 elements of 8 bytes: 64 bytes, the two stores 32 each.
    unsafe {
        _mm256_storeu_si256(out.as_mut_ptr().cast(), a);
        _mm256_storeu_si256(out.as_mut_ptr().add(4).cast(), b);
    }
}

/// What extracts 8 values of one width (1 to 32 bits) in 32-bit lanes from a 32-byte window:
/// up to [`AVX2_BYTES32_MAX`] bits, one byte shuffle of the window's two halves (`vpshufb`, cheap
/// everywhere); wider, two word permutes (`vpermd`, 3 micro-ops each on Zen 1).
#[derive(Clone, Copy)]
struct Lanes32 {
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
fn lanes32(width: u32) -> Lanes32 {
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
fn extract32(l: &Lanes32, window: &[u8; WINDOW32]) -> __m256i {
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
fn extract64(l: &Lanes64, h: usize, v: __m256i) -> __m256i {
    let lo = _mm256_srlv_epi64(_mm256_permutevar8x32_epi32(v, l.idx[h]), l.shr[h]);
    let hi = _mm256_sllv_epi64(_mm256_permutevar8x32_epi32(v, l.idx_hi[h]), l.shl[h]);
    _mm256_and_si256(_mm256_or_si256(lo, hi), l.mask)
}

/// The 8 values of a group of `width` (33 to 64) bits at the start of `window`, as two
/// registers of 4.
#[inline]
#[target_feature(enable = "avx2")]
fn group64(l: &Lanes64, width: u32, window: &[u8; WINDOW64]) -> (__m256i, __m256i) {
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
fn widen(d: __m256i) -> (__m256i, __m256i) {
    (
        _mm256_cvtepu32_epi64(_mm256_castsi256_si128(d)),
        _mm256_cvtepu32_epi64(_mm256_extracti128_si256::<1>(d)),
    )
}

/// Unpacks `out.len()` values of `width` (1 to 32) bits from `packed`. Bytes and 16-bit words
/// are zero-extended (`vpmovzx`) rather than gathered.
#[target_feature(enable = "avx2")]
pub(super) fn unpack32(packed: &[u8], width: u32, out: &mut [u32]) {
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
fn for_groups64<T: Copy + Default>(
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
pub(super) fn unpack64(packed: &[u8], width: u32, out: &mut [u64]) {
    for_groups64(packed, width, out, |a, b, o| store64x2(o, a, b));
}

/// Calls `kernel` in code generated for AVX2 (see [`super::with_avx2`]).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn run<R>(kernel: impl FnOnce() -> R) -> R {
    kernel()
}

/// The 4 signed 64-bit lanes of `x` as doubles, rounded to nearest as `as f64` rounds (AVX2
/// has no such conversion): with `u = x + 2^63` as an unsigned integer, the double of bits
/// `0x453 : u >> 32` is `2^84 + (u >> 32) * 2^32` and that of bits `0x433 : u & 0xFFFF_FFFF`
/// is `2^52 + (u & 0xFFFF_FFFF)`; the first minus `2^84 + 2^63 + 2^52` is exact, and adding
/// the second gives `x` with a single rounding.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn i64_to_f64(x: __m256i) -> __m256d {
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
pub(super) const I64_TO_F64_BIAS: u64 = 0x4530_0000_8010_0000;

/// ALP's decoding of `out.len()` values of `width` (1 to 64) bits: each group of 8 unpacked,
/// `reference` added, converted and multiplied by `factor` then `inverse` in registers. A
/// factor of 1 (`10^0`, the usual one) is not multiplied by: `x * 1.0` is `x`.
#[target_feature(enable = "avx2")]
pub(super) fn alp64(
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
fn alp64_by<const FACTOR: bool>(
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
const MAGIC_BITS: u64 = 0x4338_0000_0000_0000;

/// [`alp64`] for FLOAT: 32-bit lanes, `width` 1 to 32.
#[target_feature(enable = "avx2")]
pub(super) fn alp32(
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
fn alp32_by<const FACTOR: bool>(
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

/// 8 values of 32 bits from their deltas `d`: `min` added to each, prefix-summed onto `carry`
/// (every lane the last value so far), which moves on to the group's last value. The group's
/// own sum is taken apart from `carry`, so from one group to the next is a single add.
#[inline]
#[target_feature(enable = "avx2")]
fn sum32(d: __m256i, min: __m256i, carry: &mut __m256i) -> __m256i {
    let p = prefix32(_mm256_add_epi32(d, min));
    let total = _mm256_permutevar8x32_epi32(p, _mm256_set1_epi32(7));
    let v = _mm256_add_epi32(p, *carry);
    *carry = _mm256_add_epi32(*carry, total);
    v
}

/// 8 values of 64 bits from their deltas `a` (the first 4) and `b`, as [`sum32`].
#[inline]
#[target_feature(enable = "avx2")]
fn sum64x2(a: __m256i, b: __m256i, min: __m256i, carry: &mut __m256i) -> (__m256i, __m256i) {
    let a = prefix64(_mm256_add_epi64(a, min));
    let b = prefix64(_mm256_add_epi64(b, min));
    let b = _mm256_add_epi64(b, _mm256_permute4x64_epi64::<0xFF>(a));
    let total = _mm256_permute4x64_epi64::<0xFF>(b);
    let a = _mm256_add_epi64(a, *carry);
    let b = _mm256_add_epi64(b, *carry);
    *carry = _mm256_add_epi64(*carry, total);
    (a, b)
}

/// [`super::delta32`] of checked runs.
#[target_feature(enable = "avx2")]
pub(super) fn delta32(runs: &[DeltaRun], last: i32, out: &mut [i32]) -> i32 {
    for_each_run(runs, last, out, |r, last, o| {
        delta32_run(r.packed, r.width, r.min_delta as i32, last, o)
    })
}

/// [`super::delta64`] of checked runs.
#[target_feature(enable = "avx2")]
pub(super) fn delta64(runs: &[DeltaRun], last: i64, out: &mut [i64]) -> i64 {
    for_each_run(runs, last, out, |r, last, o| {
        delta64_run(r.packed, r.width, r.min_delta as i64, last, o)
    })
}

/// Writes `out[i] = last + (i + 1) * min_delta + (deltas 0..=i)` for the `out.len()` deltas of
/// `width` (1 to 32) bits in `packed`, wrapping; returns the last value written (or `last`).
#[inline]
#[target_feature(enable = "avx2")]
fn delta32_run(packed: &[u8], width: u32, min_delta: i32, last: i32, out: &mut [i32]) -> i32 {
    if words16(width as usize) {
        return delta32_words16(packed, width, min_delta, last, out);
    }
    let l = lanes32(width);
    let min = _mm256_set1_epi32(min_delta);
    let mut carry = _mm256_set1_epi32(last);
    for_groups::<_, 8, WINDOW32>(packed, width as usize, out, |window, o| {
        store32(o, sum32(extract32(&l, window), min, &mut carry));
    });
    out.last().copied().unwrap_or(last)
}

/// Widths of deltas whose sums over a group of 8 fit in 32 bits: `8 * (2^29 - 1) < 2^32`.
const NARROW_SUMS: u32 = 29;

/// [`delta32_run`] for 64-bit values and deltas of `width` (1 to 64) bits. Deltas of up to
/// [`NARROW_SUMS`] bits are prefix-summed in 32-bit lanes and only the sums widened, the
/// group's min deltas (`(i + 1) * min_delta`) added after.
#[inline]
#[target_feature(enable = "avx2")]
fn delta64_run(packed: &[u8], width: u32, min_delta: i64, last: i64, out: &mut [i64]) -> i64 {
    if words16(width as usize) {
        return delta64_words16(packed, width, min_delta, last, out);
    }
    let mut carry = _mm256_set1_epi64x(last);
    let step = width as usize;
    if width <= NARROW_SUMS {
        let l = lanes32(width);
        let m = |i: i64| min_delta.wrapping_mul(i);
        let mins_a = _mm256_setr_epi64x(m(1), m(2), m(3), m(4));
        let mins_b = _mm256_setr_epi64x(m(5), m(6), m(7), m(8));
        let mins_all = _mm256_set1_epi64x(m(8));
        for_groups::<_, 8, WINDOW32>(packed, step, out, |window, o| {
            let (a, b) = widen(prefix32(extract32(&l, window)));
            let total = _mm256_add_epi64(_mm256_permute4x64_epi64::<0xFF>(b), mins_all);
            let a = _mm256_add_epi64(_mm256_add_epi64(a, mins_a), carry);
            let b = _mm256_add_epi64(_mm256_add_epi64(b, mins_b), carry);
            carry = _mm256_add_epi64(carry, total);
            store64x2(o, a, b);
        });
    } else {
        let min = _mm256_set1_epi64x(min_delta);
        for_groups64(packed, width, out, |a, b, o| {
            let (a, b) = sum64x2(a, b, min, &mut carry);
            store64x2(o, a, b);
        });
    }
    out.last().copied().unwrap_or(last)
}

/// Bytes a group of 16 values of the 16-bit kernels reads: 16 from its first byte and 16
/// from its second 8 values' (`width` bytes on).
const WINDOW16: usize = 16 + WORDS16_MAX;

/// What unpacks 16 values of one [`words16`] width into 16-bit lanes in a [`Words16`] layout,
/// a group of 8 in each 128-bit half: each lane's 2 bytes gathered, shifted left by a multiply
/// so that its value ends at bit 15, and right by `16 - width`.
#[derive(Clone, Copy)]
struct Lanes16 {
    width: usize,
    idx: __m256i,
    shl: __m256i,
    shr: __m128i,
}

#[inline]
#[target_feature(enable = "avx2")]
fn lanes16(width: u32, layout: Words16) -> Lanes16 {
    let w = (width as usize).min(WORDS16_MAX);
    let (idx, shl) = (&WORDS16[layout.row()][w], &SHL_WORDS16[layout.row()][w]);
    // SAFETY: each row is 16 bytes.
    let (idx, shl) = unsafe {
        (
            _mm256_broadcastsi128_si256(_mm_loadu_si128(idx.as_ptr().cast())),
            _mm256_broadcastsi128_si256(_mm_loadu_si128(shl.as_ptr().cast())),
        )
    };
    Lanes16 {
        width: w,
        idx,
        shl,
        shr: _mm_cvtsi32_si128(16 - w as i32),
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn extract16(l: &Lanes16, window: &[u8; WINDOW16]) -> __m256i {
    let bytes = _mm256_inserti128_si256::<1>(
        _mm256_castsi128_si256(load128(window, 0)),
        load128(window, l.width),
    );
    let shifted = _mm256_mullo_epi16(_mm256_shuffle_epi8(bytes, l.idx), l.shl);
    _mm256_srl_epi16(shifted, l.shr)
}

/// [`delta64_run`] for deltas of a [`words16`] width, 16 at a time, with few shuffles (which
/// bind the 32-bit lane kernel): each 128-bit half unpacks a group of 8 into 16-bit lanes
/// ([`Words16::EvenOdd`]) and sums them there, the pair sums of both 64-bit words
/// prefix-summed along each word by 64-bit shifts; the sums reach 64-bit lanes by shifts and
/// masks, values `2j` and `2j + 1` of both groups in register `j`, and rows of 4 are put
/// together from their halves.
#[inline]
#[target_feature(enable = "avx2")]
fn delta64_words16(packed: &[u8], width: u32, min_delta: i64, last: i64, out: &mut [i64]) -> i64 {
    let l = lanes16(width, Words16::EvenOdd);
    let lane = _mm256_set1_epi64x(0xFFFF);
    // Value `k` gets `k + 1` min deltas: register 0 (values 0, 1, 8, 9) these, each register
    // after 2 more. Few constants, so that none is spilled (nor the carry with them).
    let m = |k: i64| min_delta.wrapping_mul(k);
    let mins = _mm256_setr_epi64x(m(1), m(2), m(9), m(10));
    let mins2 = _mm256_set1_epi64x(m(2));
    let mins16 = _mm256_set1_epi64x(m(16));
    let mut carry = _mm256_set1_epi64x(last);
    for_groups::<_, 16, WINDOW16>(packed, 2 * l.width, out, |window, o| {
        let d = extract16(&l, window);
        // Pair sums in both words, prefix-summed along them; value `2j + 1`'s sum is lane `j`
        // of that, value `2j`'s that less the odd delta. No sum of 8 passes 16 bits.
        let swapped = _mm256_shuffle_epi32::<0b01_00_11_10>(d);
        let t = _mm256_add_epi16(d, swapped);
        let t = _mm256_add_epi16(t, _mm256_slli_epi64::<16>(t));
        let t = _mm256_add_epi16(t, _mm256_slli_epi64::<32>(t));
        let odd = _mm256_blend_epi32::<0b1100_1100>(swapped, _mm256_setzero_si256());
        let sums = _mm256_sub_epi16(t, odd);
        let c = [
            _mm256_and_si256(sums, lane),
            _mm256_and_si256(_mm256_srli_epi64::<16>(sums), lane),
            _mm256_and_si256(_mm256_srli_epi64::<32>(sums), lane),
            _mm256_srli_epi64::<48>(sums),
        ];
        // The groups' totals (values 7 and 15): the first's carried into the second.
        let first = _mm256_permute4x64_epi64::<0x55>(c[3]);
        let second = _mm256_permute4x64_epi64::<0xFF>(c[3]);
        let mut base = _mm256_add_epi64(
            _mm256_add_epi64(carry, mins),
            _mm256_blend_epi32::<0xF0>(_mm256_setzero_si256(), first),
        );
        carry = _mm256_add_epi64(
            carry,
            _mm256_add_epi64(_mm256_add_epi64(first, second), mins16),
        );
        let v = c.map(|c| {
            let v = _mm256_add_epi64(c, base);
            base = _mm256_add_epi64(base, mins2);
            v
        });
        let [lo, hi] = o.as_chunks_mut::<8>().0 else {
            return;
        };
        store64x2(
            lo,
            _mm256_permute2x128_si256::<0x20>(v[0], v[1]),
            _mm256_permute2x128_si256::<0x20>(v[2], v[3]),
        );
        store64x2(
            hi,
            _mm256_permute2x128_si256::<0x31>(v[0], v[1]),
            _mm256_permute2x128_si256::<0x31>(v[2], v[3]),
        );
    });
    out.last().copied().unwrap_or(last)
}

/// [`delta32_run`] for deltas of a [`words16`] width, 16 at a time, as
/// [`delta64_words16`]: values 0 to 3 of a group in the low 16 bits of a half's four 32-bit
/// lanes and 4 to 7 in the high ([`Words16::LowHigh`]), prefix-summed across the lanes by
/// byte shifts and the first four's sum added to the others; the low and the high 16 bits are
/// then the group's first and last four values as 32-bit lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn delta32_words16(packed: &[u8], width: u32, min_delta: i32, last: i32, out: &mut [i32]) -> i32 {
    let l = lanes16(width, Words16::LowHigh);
    let low = _mm256_set1_epi32(0xFFFF);
    // Value `k` gets `k + 1` min deltas: values 0 to 3 and 8 to 11 these, the next four of
    // each 4 more.
    let m = |k: i32| min_delta.wrapping_mul(k);
    let mins = _mm256_setr_epi32(m(1), m(2), m(3), m(4), m(9), m(10), m(11), m(12));
    let mins4 = _mm256_set1_epi32(m(4));
    let mins16 = _mm256_set1_epi32(m(16));
    let mut carry = _mm256_set1_epi32(last);
    for_groups::<_, 16, WINDOW16>(packed, 2 * l.width, out, |window, o| {
        let d = extract16(&l, window);
        // Along the four 32-bit lanes (both halves of each at once; no sum of 8 passes 16
        // bits), then value 3's sum into the high halves.
        let x = _mm256_add_epi16(d, _mm256_slli_si256::<4>(d));
        let x = _mm256_add_epi16(x, _mm256_slli_si256::<8>(x));
        let x = _mm256_add_epi16(x, _mm256_slli_epi32::<16>(_mm256_shuffle_epi32::<0xFF>(x)));
        let first4 = _mm256_and_si256(x, low);
        let last4 = _mm256_srli_epi32::<16>(x);
        // The groups' totals (values 7 and 15): the first's carried into the second.
        let first = _mm256_permutevar8x32_epi32(last4, _mm256_set1_epi32(3));
        let second = _mm256_permutevar8x32_epi32(last4, _mm256_set1_epi32(7));
        let base = _mm256_add_epi32(
            _mm256_add_epi32(carry, mins),
            _mm256_blend_epi32::<0xF0>(_mm256_setzero_si256(), first),
        );
        carry = _mm256_add_epi32(
            carry,
            _mm256_add_epi32(_mm256_add_epi32(first, second), mins16),
        );
        let a = _mm256_add_epi32(first4, base);
        let b = _mm256_add_epi32(last4, _mm256_add_epi32(base, mins4));
        let [lo, hi] = o.as_chunks_mut::<8>().0 else {
            return;
        };
        store32(lo, _mm256_permute2x128_si256::<0x20>(a, b));
        store32(hi, _mm256_permute2x128_si256::<0x31>(a, b));
    });
    out.last().copied().unwrap_or(last)
}
