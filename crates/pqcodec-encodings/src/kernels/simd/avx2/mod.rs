//! AVX2 kernels: groups of 8 values (`width` bytes) per iteration, in one 256-bit register of
//! 32-bit lanes or two of 64-bit lanes. Values of up to 25 bits lie within 4 bytes: each lane
//! takes them with one byte shuffle (`vpshufb`) of the window's two 16-byte halves, then shifts
//! and masks. Wider ones gather the word holding the start of their value and the next one
//! (`vpermd`), shift both into place and mask. The delta kernels take deltas of the narrow
//! [`words16`](super::tables::words16) widths 16 at a time in 16-bit lanes instead, with fewer
//! shuffles. One file a kernel: [`unpack`], [`delta`], [`alp`], [`transpose`], [`spread`],
//! [`shared_prefix`]; the helpers they share here.
//!
//! [`for_groups`] drives every kernel: groups whose window of input lies within `packed` are
//! loaded from it directly, in a loop with no call in it (so the lane tables and running sums
//! stay in registers); the groups after, near the end of the input, are loaded from a
//! zero-padded copy of what is left, and a last partial group is stored through a stack
//! buffer, so nothing is read or written out of bounds.
//!
//! Callers (the dispatch in the parent module) check the width (1 to 32, or 1 to 64), that
//! `packed` holds the bytes of `out.len()` values, and that the CPU has AVX2.

mod alp;
mod delta;
pub(super) mod shared_prefix;
pub(super) mod spread;
pub(super) mod transpose;
mod unpack;

#[cfg(test)]
pub(super) use alp::I64_TO_F64_BIAS;
pub(super) use alp::{alp32, alp64};
pub(super) use delta::{delta32, delta64};
pub(super) use unpack::{unpack32, unpack64};

use std::arch::x86_64::*;

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

/// Calls `kernel` in code generated for AVX2 (see [`super::with_avx2`]).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn run<R>(kernel: impl FnOnce() -> R) -> R {
    kernel()
}
