//! Spreading dense values over the valid slots of a validity bitmap, in place: value `k` moves
//! to the `k`-th valid slot. This is how a nullable column's values, decoded back to back,
//! land in an Arrow buffer with a slot per row.
//!
//! The scalar reference walks 64-slot words from the last: a word of valid slots moves as one
//! block, a word of nulls is zero-filled, a mixed word takes a branch-free slot loop. On
//! AVX-512 the 4- and 8-byte kernels expand 16 or 8 values per instruction into their slots
//! (`vpexpandd` / `vpexpandq`); on AVX2, 8 or 4 through a lane permute (`vpermd`) looked up
//! by the slots' validity bits. Slot `i` only ever reads value `k <= i` (`k` the valid slots
//! before it), which no slot after `i` has overwritten, so the walk from the end is in place.

use super::simd::Isa;

/// Spreads the first `dense` values of `values` over its `values.len()` slots: bit `i % 64`
/// of `validity[i / 64]` says whether slot `i` is valid. Null slots are zeroed (by `T`'s
/// default).
///
/// Returns false, changing nothing, if `validity` has fewer bits than slots or its valid bits
/// among them are not `dense`.
pub fn spread<T: Copy + Default + 'static>(
    values: &mut [T],
    dense: usize,
    validity: &[u64],
) -> bool {
    spread_with(Isa::best(), values, dense, validity)
}

pub(crate) fn spread_with<T: Copy + Default + 'static>(
    isa: Isa,
    values: &mut [T],
    dense: usize,
    validity: &[u64],
) -> bool {
    let slots = values.len();
    let Some(words) = validity.get(..slots.div_ceil(64)) else {
        return false;
    };
    let valid: usize = words
        .iter()
        .enumerate()
        .map(|(w, &word)| (word & low_bits(slots - w * 64)).count_ones() as usize)
        .sum();
    if valid != dense {
        return false;
    }
    #[cfg(target_arch = "x86_64")]
    if isa.has_avx2() {
        use std::any::TypeId;
        // The value types whose bits the kernels move as 4- or 8-byte lanes.
        macro_rules! lanes {
            ($($t:ty => $kernel:ident, $lane:ty);*) => {$(
                if TypeId::of::<T>() == TypeId::of::<$t>() {
                    let values = as_lanes::<T, $lane>(values);
                    // SAFETY: `isa` proves AVX-512 F or AVX2, whichever kernel runs; `words`
                    // covers every slot and holds `dense` valid bits among them, as the
                    // kernels require.
                    unsafe {
                        if isa.has_avx512() {
                            x86::$kernel(values, dense, words)
                        } else {
                            x86::avx2::$kernel(values, dense, words)
                        }
                    };
                    return true;
                }
            )*};
        }
        lanes!(
            i32 => spread32, u32; u32 => spread32, u32; f32 => spread32, u32;
            i64 => spread64, u64; u64 => spread64, u64; f64 => spread64, u64
        );
    }
    let _ = isa;
    spread_scalar(values, dense, words);
    true
}

/// The bits below `n` (all of them from 64 on).
#[inline]
fn low_bits(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// `values` as lanes of `L`, `T` being one of the plain number types of `L`'s size.
#[cfg(target_arch = "x86_64")]
fn as_lanes<T: 'static, L>(values: &mut [T]) -> &mut [L] {
    const { assert!(size_of::<L>() == 4 || size_of::<L>() == 8) };
    assert_eq!(size_of::<T>(), size_of::<L>());
    assert_eq!(align_of::<T>(), align_of::<L>());
    // SAFETY: `T` is one of i32 / u32 / f32 (for `L` = u32) or i64 / u64 / f64 (for
    // `L` = u64), checked by the caller through `TypeId`: same size and alignment (asserted),
    // every bit pattern valid for both, so the slice reinterpreted has the same length.
    unsafe { std::slice::from_raw_parts_mut(values.as_mut_ptr().cast::<L>(), values.len()) }
}

/// The scalar reference, on checked arguments.
fn spread_scalar<T: Copy + Default>(values: &mut [T], dense: usize, words: &[u64]) {
    let slots = values.len();
    let mut k = dense;
    for (w, &word) in words.iter().enumerate().rev() {
        let base = w * 64;
        let n = (slots - base).min(64);
        if k == base + n {
            // Every slot up to here is valid: the values are in place.
            return;
        }
        let word = word & low_bits(n);
        let ones = word.count_ones() as usize;
        let out = &mut values[..base + n];
        if ones == n {
            out.copy_within(k - n..k, base);
        } else if ones == 0 {
            out[base..].fill(T::default());
        } else {
            let mut at = k;
            for b in (0..n).rev() {
                let valid = (word >> b) & 1 != 0;
                at -= usize::from(valid);
                // A branch here would mispredict on every random null.
                out[base + b] = std::hint::select_unpredictable(valid, out[at], T::default());
            }
        }
        k -= ones;
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! The SIMD kernels: a partial last block slot by slot, then from the last block of `B`
    //! slots back, the block's valid values moved into their lanes, nulls zeroed, and the
    //! block stored. AVX-512 expand-loads them (16 4-byte or 8 8-byte lanes); AVX2 loads the
    //! block's next `B` values and permutes them by a table indexed by the block's validity
    //! bits (8 4-byte or 4 8-byte lanes).

    use std::arch::x86_64::{
        _mm512_maskz_expandloadu_epi32, _mm512_maskz_expandloadu_epi64, _mm512_storeu_si512,
    };

    /// [`super::spread`] of 4-byte values.
    ///
    /// # Safety
    /// The CPU has AVX-512 F; `words` has a bit per slot of `values`, `dense` of them set.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn spread32(values: &mut [u32], dense: usize, words: &[u64]) {
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

    /// [`super::spread`] of 8-byte values.
    ///
    /// # Safety
    /// As [`spread32`].
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn spread64(values: &mut [u64], dense: usize, words: &[u64]) {
        // SAFETY: as in `spread32`.
        unsafe {
            spread_blocks::<8, u64>(values, dense, words, |bits, src, dst| {
                let v = _mm512_maskz_expandloadu_epi64(bits as u8, src.cast());
                _mm512_storeu_si512(dst.cast(), v);
            })
        }
    }

    pub(super) mod avx2 {
        //! The AVX2 kernels.

        use std::arch::x86_64::*;

        use super::spread_blocks;

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

        /// [`super::super::spread`] of 4-byte values.
        ///
        /// # Safety
        /// The CPU has AVX2; `words` has a bit per slot of `values`, `dense` of them set.
        #[target_feature(enable = "avx2")]
        pub(in super::super) unsafe fn spread32(values: &mut [u32], dense: usize, words: &[u64]) {
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

        /// [`super::super::spread`] of 8-byte values.
        ///
        /// # Safety
        /// As [`spread32`].
        #[target_feature(enable = "avx2")]
        pub(in super::super) unsafe fn spread64(values: &mut [u64], dense: usize, words: &[u64]) {
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
    }

    /// Spreads blocks of `B` lanes (`B` dividing 64): the slots after the last whole block
    /// one by one, then each block from the last back with `block(bits, src, dst)`, which
    /// writes the `B` slots at `dst` from the values at `src`, bit `j` of `bits` saying
    /// whether slot `j` is valid.
    ///
    /// # Safety
    /// `words` has a bit per slot of `values`, `dense` of them set; `block` may read the `B`
    /// values from `src` and must write the `B` slots at `dst` and nothing else.
    #[inline(always)]
    unsafe fn spread_blocks<const B: usize, T: Copy + Default>(
        values: &mut [T],
        dense: usize,
        words: &[u64],
        block: impl Fn(u64, *const T, *mut T),
    ) {
        let slots = values.len();
        let whole = slots / B * B;
        let valid = |slot: usize| (words[slot / 64] >> (slot % 64)) & 1 != 0;
        // The partial last block first, slot by slot; `k` ends as the valid slots before it.
        let mut k = dense;
        for slot in (whole..slots).rev() {
            let valid = valid(slot);
            k -= usize::from(valid);
            values[slot] = std::hint::select_unpredictable(valid, values[k], T::default());
        }
        let base = values.as_mut_ptr();
        let mut start = whole;
        while start > 0 {
            start -= B;
            if k == start + B {
                // Every slot up to here is valid: the values are in place.
                return;
            }
            let bits = (words[start / 64] >> (start % 64)) & (u64::MAX >> (64 - B));
            k -= bits.count_ones() as usize;
            // The block's values are the `k`-th on, and `k <= start`, so the `B` values from
            // `k` end at most at `start + B <= slots`, and the block's slots from `start` too.
            // Every value still to be read lies before `k <= start`, so none is overwritten.
            // SAFETY: both pointers stay within `values`, as said.
            let (src, dst) = unsafe { (base.add(k).cast_const(), base.add(start)) };
            block(bits, src, dst);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Deterministic pseudo-random words (xorshift64*).
    pub(crate) fn random_words(seed: u64, n: usize) -> Vec<u64> {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x >> 12;
                x ^= x << 25;
                x ^= x >> 27;
                x.wrapping_mul(0x2545_F491_4F6C_DD1D)
            })
            .collect()
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
                    assert!(spread_with(isa, &mut v64, valid, &words));
                    assert_eq!(v64, want, "{} u64 slots {slots} seed {seed}", isa.name());

                    let mut v32: Vec<u32> = dense.iter().map(|&v| v as u32).collect();
                    v32.resize(slots, 0xEE);
                    assert!(spread_with(isa, &mut v32, valid, &words));
                    let want32: Vec<u32> = want.iter().map(|&v| v as u32).collect();
                    assert_eq!(v32, want32, "{} u32 slots {slots} seed {seed}", isa.name());

                    let mut v16: Vec<i16> = dense.iter().map(|&v| v as i16).collect();
                    v16.resize(slots, 0x11);
                    assert!(spread_with(isa, &mut v16, valid, &words));
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
        assert_eq!(values, [1, 2, 3, 0]);
        assert!(spread(&mut values, 3, &[0b1101]));
        assert_eq!(values, [1, 0, 2, 3]);
    }
}
