//! Spreading dense values over a batch's slots: value `k` goes to the `k`-th valid slot, null
//! slots get a default. Done in place, from the end, for fixed-width buffers.

use arrow_buffer::{BooleanBuffer, Buffer, MutableBuffer, NullBuffer, bit_util};
use pqcodec_core::Encoding;
use pqcodec_encodings::bits;

use crate::error::Fault;

/// The words of `bits` (64 bits each, the last one partial), bit `i` of the buffer being bit
/// `i % 64` of word `i / 64`.
fn words(bits: &BooleanBuffer) -> Vec<u64> {
    let chunks = bits.bit_chunks();
    let mut out: Vec<u64> = chunks.iter().collect();
    if chunks.remainder_len() > 0 {
        out.push(chunks.remainder_bits());
    }
    out
}

/// The words of `bits` borrowed from its buffer, where it starts on an aligned word and holds
/// whole words (a full batch's validity does), without copying them.
fn aligned_words(bits: &BooleanBuffer) -> Option<Buffer> {
    if bits.offset() != 0 || !bits.len().is_multiple_of(64) {
        return None;
    }
    let bytes = bits.inner().slice_with_length(0, bits.len() / 8);
    (bytes.as_ptr().align_offset(std::mem::align_of::<u64>()) == 0).then_some(bytes)
}

/// Calls `f` on the positions of the set bits of `bits`, last first, until it returns false.
fn for_each_set_rev(bits: &BooleanBuffer, mut f: impl FnMut(usize) -> bool) {
    for (wi, &word) in words(bits).iter().enumerate().rev() {
        let mut w = word;
        while w != 0 {
            let b = 63 - w.leading_zeros() as usize;
            if !f(wi * 64 + b) {
                return;
            }
            w &= !(1u64 << b);
        }
    }
}

fn mismatch(dense: usize, valid: usize) -> Fault {
    Fault::corrupt(
        Encoding::Plain,
        "values",
        format!("{dense} values decoded for {valid} non-null slots"),
    )
}

/// Checks that `validity` covers `slots` slots, `dense` of them valid.
pub(crate) fn check(
    dense: usize,
    slots: usize,
    validity: Option<&NullBuffer>,
) -> Result<(), Fault> {
    let valid = match validity {
        Some(v) if v.len() != slots => {
            return Err(Fault::corrupt(
                Encoding::Plain,
                "validity",
                format!("{} validity bits for {slots} slots", v.len()),
            ));
        }
        Some(v) => slots - v.null_count(),
        None => slots,
    };
    if valid != dense {
        return Err(mismatch(dense, valid));
    }
    Ok(())
}

/// A fixed-width Arrow value that [`spread_fixed`] spreads: 4- and 8-byte numbers as lanes of
/// bits through the codec's SIMD kernels, the others value by value.
pub(crate) trait Spread: Copy + Default {
    /// Spreads the first `dense` of `values` over its slots as
    /// [`bits::spread`] does; false, changing nothing, if `validity` disagrees.
    fn spread(values: &mut [Self], dense: usize, validity: &[u64]) -> bool {
        bits::spread(values, dense, validity)
    }
}

/// Numbers whose every bit pattern is a value and whose default is all zero bits: moved as
/// 4- or 8-byte lanes.
macro_rules! spread_lanes {
    ($kernel:ident, $lane:ty: $($t:ty),*) => {$(
        impl Spread for $t {
            fn spread(values: &mut [Self], dense: usize, validity: &[u64]) -> bool {
                let lanes: &mut [$lane] = bytemuck::cast_slice_mut(values);
                bits::$kernel(lanes, dense, validity)
            }
        }
    )*};
}
spread_lanes!(spread32, u32: i32, u32, f32);
spread_lanes!(spread64, u64: i64, u64, f64);

macro_rules! spread_values {
    ($($t:ty),*) => {$( impl Spread for $t {} )*};
}
spread_values!(
    i8,
    u8,
    i16,
    u16,
    i128,
    u128,
    arrow_buffer::i256,
    half::f16,
    arrow_buffer::IntervalDayTime,
    arrow_buffer::IntervalMonthDayNano
);

/// Spreads `values` (one per valid slot) over `validity.len()` slots in place, with the
/// codec's SIMD spreading kernel where `T` has one; null slots hold the default. The caller
/// has checked the counts ([`check`]).
pub(crate) fn spread_fixed<T: Spread>(values: &mut Vec<T>, validity: &NullBuffer) {
    let dense = values.len();
    // Exactly the slots: growing by doubling would leave room for twice the dense values.
    values.reserve_exact(validity.len().saturating_sub(dense));
    values.resize(validity.len(), T::default());
    let bits = validity.inner();
    let borrowed = aligned_words(bits);
    let copied;
    let words = match &borrowed {
        Some(bytes) => bytes.typed_data::<u64>(),
        None => {
            copied = words(bits);
            &copied
        }
    };
    let spread = T::spread(values, dense, words);
    debug_assert!(spread, "{dense} values for the valid slots of {validity:?}");
}

/// Spreads the first `dense` values of `data` (`width` bytes each, one per valid slot) over
/// the `validity.len()` slots `data` holds, in place.
pub(crate) fn spread_bytes(data: &mut [u8], dense: usize, width: usize, validity: &NullBuffer) {
    if width == 0 {
        return;
    }
    let mut src = dense;
    for_each_set_rev(validity.inner(), |pos| {
        if src == 0 {
            return false;
        }
        src -= 1;
        if src == pos {
            return false;
        }
        data.copy_within(src * width..(src + 1) * width, pos * width);
        data[src * width..(src + 1) * width].fill(0);
        true
    });
}

/// The bits of `dense` (one per valid slot) spread over `validity.len()` slots.
pub(crate) fn spread_bits(dense: &BooleanBuffer, validity: &NullBuffer) -> BooleanBuffer {
    let slots = validity.len();
    let mut out = MutableBuffer::from_len_zeroed(bit_util::ceil(slots, 8));
    let bytes = out.as_slice_mut();
    for (k, pos) in validity.valid_indices().enumerate() {
        if k < dense.len() && dense.value(k) {
            bit_util::set_bit(bytes, pos);
        }
    }
    BooleanBuffer::new(out.into(), 0, slots)
}

/// The offsets of `dense` values (`dense_offsets`, one more than the values) spread over
/// `validity.len()` slots: null slots are empty.
pub(crate) fn spread_offsets<O: Copy>(dense_offsets: &[O], validity: &NullBuffer) -> Vec<O> {
    let mut out = Vec::with_capacity(validity.len() + 1);
    let Some(&first) = dense_offsets.first() else {
        return out;
    };
    let mut k = 0;
    let mut current = first;
    out.push(current);
    for valid in validity.iter() {
        if valid {
            k += 1;
            if let Some(&next) = dense_offsets.get(k) {
                current = next;
            }
        }
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nulls(bits: &[bool]) -> NullBuffer {
        NullBuffer::from(bits.to_vec())
    }

    /// The lanes kernels (4- and 8-byte numbers) spread as the value-by-value reference does.
    #[test]
    fn lanes_spread_as_values_do() {
        fn both<T: Spread + PartialEq + std::fmt::Debug>(make: impl Fn(usize) -> T) {
            let bits: Vec<bool> = (0..300).map(|i| i % 3 != 0 && i % 7 != 0).collect();
            let validity = nulls(&bits);
            let dense = bits.iter().filter(|&&b| b).count();
            let mut lanes: Vec<T> = (1..=dense).map(&make).collect();
            spread_fixed(&mut lanes, &validity);
            let mut reference: Vec<T> = (1..=dense).map(&make).collect();
            reference.resize(bits.len(), T::default());
            assert!(bits::spread(
                &mut reference,
                dense,
                &words(validity.inner())
            ));
            assert_eq!(lanes, reference);
        }
        both(|i| i as i32 - 100);
        both(|i| i as f32 * 0.5);
        both(|i| i as u64 * 0x1_0000_0001);
        both(|i| -(i as f64));
    }

    #[test]
    fn fixed_values_land_on_valid_slots() {
        // Mixed words, then words all valid, all null or mixed by turns (and a partial last).
        let patterns: [fn(usize) -> bool; 2] = [
            |i| (i * 5) % 3 != 0,
            |i| match i / 64 % 3 {
                0 => true,
                1 => false,
                _ => i % 7 != 0,
            },
        ];
        for (n, pattern) in [0usize, 1, 7, 63, 64, 65, 130]
            .into_iter()
            .map(|n| (n, patterns[0]))
            .chain([(64 * 7 + 5, patterns[1]), (64 * 6, patterns[1])])
        {
            let bits: Vec<bool> = (0..n).map(pattern).collect();
            let dense: Vec<u32> = (0..bits.iter().filter(|&&b| b).count() as u32).collect();
            let mut values = dense.clone();
            let validity = nulls(&bits);
            check(values.len(), n, Some(&validity)).unwrap();
            spread_fixed(&mut values, &validity);
            let mut it = dense.iter();
            let expect: Vec<u32> = bits
                .iter()
                .map(|&b| if b { *it.next().unwrap() } else { 0 })
                .collect();
            assert_eq!(values, expect, "n = {n}");

            let mut bytes: Vec<u8> = dense.iter().flat_map(|v| [*v as u8, 0xEE]).collect();
            bytes.resize(n * 2, 0);
            spread_bytes(&mut bytes, dense.len(), 2, &validity);
            let expect: Vec<u8> = expect
                .iter()
                .zip(&bits)
                .flat_map(|(v, &b)| if b { [*v as u8, 0xEE] } else { [0, 0] })
                .collect();
            assert_eq!(bytes, expect);
        }
    }

    #[test]
    fn whole_aligned_words_are_borrowed_others_copied() {
        let bits: Vec<bool> = (0..129).map(|i| i % 3 != 0).collect();
        let all = nulls(&bits);
        let words_of =
            |v: &NullBuffer| aligned_words(v.inner()).map(|b| b.typed_data::<u64>().to_vec());
        assert_eq!(
            words_of(&all.slice(0, 128)),
            Some(words(all.slice(0, 128).inner()))
        );
        assert_eq!(words_of(&all.slice(1, 128)), None);
        assert_eq!(words_of(&all.slice(0, 100)), None);
        // A validity starting mid-word spreads as well.
        let validity = all.slice(1, 128);
        let valid = validity.len() - validity.null_count();
        let mut values: Vec<u32> = (1..=valid as u32).collect();
        spread_fixed(&mut values, &validity);
        let mut next = 0;
        for (i, v) in values.iter().enumerate() {
            if validity.is_valid(i) {
                next += 1;
                assert_eq!(*v, next);
            } else {
                assert_eq!(*v, 0);
            }
        }
    }

    #[test]
    fn bits_and_offsets_spread() {
        let bits = [true, false, false, true, true, false];
        let validity = nulls(&bits);
        let dense = BooleanBuffer::from(vec![true, false, true]);
        let spread = spread_bits(&dense, &validity);
        assert_eq!(
            spread.iter().collect::<Vec<_>>(),
            [true, false, false, false, true, false]
        );
        let offsets = spread_offsets(&[0i32, 2, 2, 5], &validity);
        assert_eq!(offsets, [0, 2, 2, 2, 2, 5, 5]);
    }

    #[test]
    fn counts_must_agree() {
        let validity = nulls(&[true, false]);
        assert!(check(1, 2, Some(&validity)).is_ok());
        assert!(matches!(
            check(2, 2, Some(&validity)),
            Err(Fault::Corrupt { .. })
        ));
        assert!(check(2, 3, Some(&validity)).is_err());
        assert!(check(3, 3, None).is_ok());
    }
}
