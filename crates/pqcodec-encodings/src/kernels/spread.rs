//! Spreading dense values over the valid slots of a validity bitmap, in place: value `k` moves
//! to the `k`-th valid slot. This is how a nullable column's values, decoded back to back,
//! land in an Arrow buffer with a slot per row. [`spread`] takes any value type, one by one;
//! [`spread32`] and [`spread64`] move 4- and 8-byte values as bits with the SIMD kernels
//! (callers cast their numbers to those lanes, so no type is inspected at run time).
//!
//! The scalar reference walks 64-slot words from the last: a word of valid slots moves as one
//! block, a word of nulls is zero-filled, a mixed word takes a branch-free slot loop. On
//! AVX-512 the 4- and 8-byte kernels expand 16 or 8 values per instruction into their slots
//! (`vpexpandd` / `vpexpandq`); on AVX2, 8 or 4 through a lane permute (`vpermd`) looked up
//! by the slots' validity bits (those kernels live in the SIMD tree, `simd::avx512::spread` and
//! `simd::avx2::spread`). Slot `i` only ever reads value `k <= i` (`k` the valid slots before
//! it), which no slot after `i` has overwritten, so the walk from the end is in place.

use super::simd::{self, Isa};
use super::spread_scalar::{low_bits, spread_scalar};

/// Spreads the first `dense` values of `values` over its `values.len()` slots: bit `i % 64`
/// of `validity[i / 64]` says whether slot `i` is valid. Null slots are zeroed (by `T`'s
/// default).
///
/// Returns false, changing nothing, if `validity` has fewer bits than slots or its valid bits
/// among them are not `dense`.
pub fn spread<T: Copy + Default>(values: &mut [T], dense: usize, validity: &[u64]) -> bool {
    checked(values, dense, validity, spread_scalar)
}

/// [`spread`] of 4-byte values, moved as their bits with the fastest kernel the CPU runs
/// (AVX-512, AVX2 or the scalar reference); null slots are zeroed.
pub fn spread32(values: &mut [u32], dense: usize, validity: &[u64]) -> bool {
    spread32_with(Isa::best(), values, dense, validity)
}

/// [`spread32`] of 8-byte values.
pub fn spread64(values: &mut [u64], dense: usize, validity: &[u64]) -> bool {
    spread64_with(Isa::best(), values, dense, validity)
}

pub(crate) fn spread32_with(isa: Isa, values: &mut [u32], dense: usize, validity: &[u64]) -> bool {
    checked(values, dense, validity, |v, d, w| {
        simd::spread32(isa, v, d, w)
    })
}

pub(crate) fn spread64_with(isa: Isa, values: &mut [u64], dense: usize, validity: &[u64]) -> bool {
    checked(values, dense, validity, |v, d, w| {
        simd::spread64(isa, v, d, w)
    })
}

/// Runs `kernel` on `values`, `dense` and the words of `validity` covering the slots, if it
/// has a bit per slot and `dense` of them set; otherwise false, changing nothing.
fn checked<T>(
    values: &mut [T],
    dense: usize,
    validity: &[u64],
    kernel: impl FnOnce(&mut [T], usize, &[u64]),
) -> bool {
    match checked_words(values.len(), dense, validity) {
        Some(words) => {
            kernel(values, dense, words);
            true
        }
        None => false,
    }
}

/// The words of `validity` covering `slots` slots, if it has that many bits and `dense` of
/// them are set.
fn checked_words(slots: usize, dense: usize, validity: &[u64]) -> Option<&[u64]> {
    let words = validity.get(..slots.div_ceil(64))?;
    let valid: usize = words
        .iter()
        .enumerate()
        .map(|(w, &word)| (word & low_bits(slots - w * 64)).count_ones() as usize)
        .sum();
    (valid == dense).then_some(words)
}

/// The bits below `n` (all of them from 64 on).
#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Deterministic pseudo-random words.
    pub(crate) fn random_words(seed: u64, n: usize) -> Vec<u64> {
        let mut rng = pqcodec_testkit::Rng::new(seed);
        (0..n).map(|_| rng.next_u64()).collect()
    }

    /// The values each slot must hold: value `k` at the `k`-th valid slot, 0 elsewhere.
    fn expected(slots: usize, words: &[u64], dense: &[u64]) -> Vec<u64> {
        let mut k = 0;
        (0..slots)
            .map(|i| {
                if words[i / 64] >> (i % 64) & 1 != 0 {
                    k += 1;
                    dense[k - 1]
                } else {
                    0
                }
            })
            .collect()
    }

    /// Every variant on every length to 300 and bitmaps of random, dense, sparse, all-valid
    /// and all-null words mixed.
    #[test]
    fn every_variant_spreads_as_the_definition() {
        for seed in 0..6u64 {
            for slots in 0..=300usize {
                let raw = random_words(seed * 1000 + slots as u64, slots.div_ceil(64));
                let words: Vec<u64> = raw
                    .iter()
                    .enumerate()
                    .map(|(w, &r)| match (seed + w as u64) % 5 {
                        0 => u64::MAX,
                        1 => 0,
                        2 => r & r.rotate_left(7),
                        _ => r,
                    })
                    .collect();
                let valid = (0..slots)
                    .filter(|&i| words[i / 64] >> (i % 64) & 1 != 0)
                    .count();
                let dense: Vec<u64> = (1..=valid as u64).map(|v| v * 0x1_0000_0001).collect();
                let want = expected(slots, &words, &dense);
                for isa in Isa::all() {
                    let mut v64 = dense.clone();
                    v64.resize(slots, 0xEE);
                    assert!(spread64_with(isa, &mut v64, valid, &words));
                    assert_eq!(v64, want, "{} u64 slots {slots} seed {seed}", isa.name());

                    let mut v32: Vec<u32> = dense.iter().map(|&v| v as u32).collect();
                    v32.resize(slots, 0xEE);
                    assert!(spread32_with(isa, &mut v32, valid, &words));
                    let want32: Vec<u32> = want.iter().map(|&v| v as u32).collect();
                    assert_eq!(v32, want32, "{} u32 slots {slots} seed {seed}", isa.name());

                    let mut v16: Vec<i16> = dense.iter().map(|&v| v as i16).collect();
                    v16.resize(slots, 0x11);
                    assert!(spread(&mut v16, valid, &words));
                    let want16: Vec<i16> = want.iter().map(|&v| v as i16).collect();
                    assert_eq!(v16, want16, "{} i16 slots {slots} seed {seed}", isa.name());
                }
            }
        }
    }

    #[test]
    fn counts_that_disagree_change_nothing() {
        let mut values = vec![1u32, 2, 3, 0];
        assert!(!spread(&mut values, 3, &[0b0011]));
        assert!(!spread(&mut values, 3, &[]));
        assert!(!spread32(&mut values, 3, &[0b0011]));
        assert!(!spread64(&mut [1, 2, 3, 0], 3, &[]));
        assert_eq!(values, [1, 2, 3, 0]);
        assert!(spread(&mut values, 3, &[0b1101]));
        assert_eq!(values, [1, 0, 2, 3]);
    }
}
