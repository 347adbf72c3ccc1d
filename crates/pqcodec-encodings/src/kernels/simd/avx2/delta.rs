//! DELTA_BINARY_PACKED's kernels: deltas unpacked and prefix-summed a group at a time.

use std::arch::x86_64::*;

use super::super::tables::{SHL_WORDS16, WORDS16, WORDS16_MAX, Words16, words16};
use super::super::{DeltaRun, for_each_run};
use super::unpack::{extract32, for_groups64, lanes32, widen};
use super::{WINDOW32, for_groups, load128, store32, store64x2};

/// Inclusive prefix sum of the 8 dword lanes of `x`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn prefix32(x: __m256i) -> __m256i {
    let x = _mm256_add_epi32(x, _mm256_slli_si256::<4>(x));
    let x = _mm256_add_epi32(x, _mm256_slli_si256::<8>(x));
    // Lane 3's sum added to the upper half.
    let t = _mm256_shuffle_epi32::<0xFF>(x);
    _mm256_add_epi32(x, _mm256_permute2x128_si256::<0x08>(t, t))
}

/// Inclusive prefix sum of the 4 qword lanes of `x`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn prefix64(x: __m256i) -> __m256i {
    let x = _mm256_add_epi64(x, _mm256_slli_si256::<8>(x));
    let t = _mm256_permute4x64_epi64::<0x55>(x);
    _mm256_add_epi64(x, _mm256_blend_epi32::<0xF0>(_mm256_setzero_si256(), t))
}

/// 8 values of 32 bits from their deltas `d`: `min` added to each, prefix-summed onto `carry`
/// (every lane the last value so far), which moves on to the group's last value. The group's
/// own sum is taken apart from `carry`, so from one group to the next is a single add.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn sum32(d: __m256i, min: __m256i, carry: &mut __m256i) -> __m256i {
    let p = prefix32(_mm256_add_epi32(d, min));
    let total = _mm256_permutevar8x32_epi32(p, _mm256_set1_epi32(7));
    let v = _mm256_add_epi32(p, *carry);
    *carry = _mm256_add_epi32(*carry, total);
    v
}

/// 8 values of 64 bits from their deltas `a` (the first 4) and `b`, as [`sum32`].
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn sum64x2(
    a: __m256i,
    b: __m256i,
    min: __m256i,
    carry: &mut __m256i,
) -> (__m256i, __m256i) {
    let a = prefix64(_mm256_add_epi64(a, min));
    let b = prefix64(_mm256_add_epi64(b, min));
    let b = _mm256_add_epi64(b, _mm256_permute4x64_epi64::<0xFF>(a));
    let total = _mm256_permute4x64_epi64::<0xFF>(b);
    let a = _mm256_add_epi64(a, *carry);
    let b = _mm256_add_epi64(b, *carry);
    *carry = _mm256_add_epi64(*carry, total);
    (a, b)
}

/// [`super::super::delta32`] of checked runs.
#[target_feature(enable = "avx2")]
pub(in crate::kernels::simd) fn delta32(runs: &[DeltaRun], last: i32, out: &mut [i32]) -> i32 {
    for_each_run(runs, last, out, |r, last, o| {
        delta32_run(r.packed, r.width, r.min_delta as i32, last, o)
    })
}

/// [`super::super::delta64`] of checked runs.
#[target_feature(enable = "avx2")]
pub(in crate::kernels::simd) fn delta64(runs: &[DeltaRun], last: i64, out: &mut [i64]) -> i64 {
    for_each_run(runs, last, out, |r, last, o| {
        delta64_run(r.packed, r.width, r.min_delta as i64, last, o)
    })
}

/// Writes `out[i] = last + (i + 1) * min_delta + (deltas 0..=i)` for the `out.len()` deltas of
/// `width` (1 to 32) bits in `packed`, wrapping; returns the last value written (or `last`).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn delta32_run(
    packed: &[u8],
    width: u32,
    min_delta: i32,
    last: i32,
    out: &mut [i32],
) -> i32 {
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
pub(super) const NARROW_SUMS: u32 = 29;

/// [`delta32_run`] for 64-bit values and deltas of `width` (1 to 64) bits. Deltas of up to
/// [`NARROW_SUMS`] bits are prefix-summed in 32-bit lanes and only the sums widened, the
/// group's min deltas (`(i + 1) * min_delta`) added after.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn delta64_run(
    packed: &[u8],
    width: u32,
    min_delta: i64,
    last: i64,
    out: &mut [i64],
) -> i64 {
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
pub(super) const WINDOW16: usize = 16 + WORDS16_MAX;

/// What unpacks 16 values of one [`words16`] width into 16-bit lanes in a [`Words16`] layout,
/// a group of 8 in each 128-bit half: each lane's 2 bytes gathered, shifted left by a multiply
/// so that its value ends at bit 15, and right by `16 - width`.
#[derive(Clone, Copy)]
pub(super) struct Lanes16 {
    width: usize,
    idx: __m256i,
    shl: __m256i,
    shr: __m128i,
}

#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn lanes16(width: u32, layout: Words16) -> Lanes16 {
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
pub(super) fn extract16(l: &Lanes16, window: &[u8; WINDOW16]) -> __m256i {
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
pub(super) fn delta64_words16(
    packed: &[u8],
    width: u32,
    min_delta: i64,
    last: i64,
    out: &mut [i64],
) -> i64 {
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
pub(super) fn delta32_words16(
    packed: &[u8],
    width: u32,
    min_delta: i32,
    last: i32,
    out: &mut [i32],
) -> i32 {
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
