//! LSB-first bit packing, as the RLE hybrid and DELTA_BINARY_PACKED lay values out: value `i`
//! occupies bits `i * width ..` of the little-endian bit stream.
//!
//! The functions check their lengths up front and then never index out of bounds; callers check
//! that the page holds the bytes before calling, and report a typed error if not.

use super::bits::check_unpack;
pub use super::bits::packed_len;
#[cfg(test)]
pub use super::bits::{pack32, pack64};
use super::simd::{self, Isa};

/// Unpacks `out.len()` values of `width` (0 to 32) bits from the front of `packed`, with the
/// fastest kernel the CPU runs for that width (AVX-512, AVX2 or the width-specialised scalar
/// kernels, which win at widths over 25 where the CPU splits 256-bit operations in halves).
///
/// # Panics
/// If `width > 32` or `packed` is shorter than [`packed_len`]`(out.len(), width)`: callers
/// validate both against the page first.
#[inline]
pub fn unpack32(packed: &[u8], width: u32, out: &mut [u32]) {
    unpack32_with(Isa::for_unpacking(width), packed, width, out);
}

/// [`unpack32`] with the kernels of `isa`.
#[inline]
pub(crate) fn unpack32_with(isa: Isa, packed: &[u8], width: u32, out: &mut [u32]) {
    check_unpack(packed, out.len(), width, 32);
    simd::unpack32(isa, packed, width, out);
}

/// Unpacks `out.len()` values of `width` (0 to 64) bits from the front of `packed`, with the
/// fastest kernel the CPU runs.
///
/// # Panics
/// If `width > 64` or `packed` is shorter than [`packed_len`]`(out.len(), width)`.
#[inline]
pub fn unpack64(packed: &[u8], width: u32, out: &mut [u64]) {
    unpack64_with(Isa::best(), packed, width, out);
}

/// [`unpack64`] with the kernels of `isa`.
#[inline]
pub(crate) fn unpack64_with(isa: Isa, packed: &[u8], width: u32, out: &mut [u64]) {
    check_unpack(packed, out.len(), width, 64);
    simd::unpack64(isa, packed, width, out);
}

/// Packs booleans as bits, LSB first (value `8i + j` is bit `j` of byte `i`, the last byte
/// padded with zeros), into the first `values.len().div_ceil(8)` bytes of `out`, or as many as
/// `out` holds.
pub fn pack_bools(values: &[bool], out: &mut [u8]) {
    let mut eights = values.chunks_exact(8);
    let mut bytes = out.iter_mut();
    // `eights` first: zip stops on it without taking a byte the tail needs.
    for (eight, byte) in (&mut eights).zip(&mut bytes) {
        *byte = pack_byte(std::array::from_fn(|j| u8::from(eight[j])));
    }
    let tail = eights.remainder();
    if let (Some(byte), false) = (bytes.next(), tail.is_empty()) {
        *byte = pack_byte(std::array::from_fn(|j| {
            tail.get(j).map_or(0, |&v| u8::from(v))
        }));
    }
}

/// Eight 0/1 bytes as the bits of a byte, the first in the lowest bit: the multiplication
/// moves byte `i` (bit `8i`) to bit `56 + i`, without carries between them.
#[inline]
fn pack_byte(lanes: [u8; 8]) -> u8 {
    (u64::from_le_bytes(lanes).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// Bits needed to store `value` (0 for 0).
#[inline]
pub fn bit_width(value: u64) -> u32 {
    64 - value.leading_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::bits::mask;
    use proptest::prelude::*;

    /// Bytes of whole groups plus the bits of the rest rounded up; saturating, not wrapping.
    #[test]
    fn packed_len_rounds_up_and_saturates() {
        let exact = |count: usize, width: u32| {
            let bytes = (count as u128 * u128::from(width)).div_ceil(8);
            usize::try_from(bytes).unwrap_or(usize::MAX)
        };
        let big = [
            usize::MAX,
            usize::MAX - 5,
            usize::MAX / 8 + 3,
            usize::MAX / 64 - 1,
        ];
        for width in 0..=64u32 {
            for count in (0..100).chain(big) {
                assert_eq!(
                    packed_len(count, width),
                    exact(count, width),
                    "{count} x {width}"
                );
            }
        }
    }

    #[test]
    fn spec_example_width_3() {
        let mut out = Vec::new();
        pack32(&[0, 1, 2, 3, 4, 5, 6, 7], 3, &mut out);
        assert_eq!(out, [0b1000_1000, 0b1100_0110, 0b1111_1010]);
        let mut back = [0u32; 8];
        unpack32(&out, 3, &mut back);
        assert_eq!(back, [0, 1, 2, 3, 4, 5, 6, 7]);
    }

    fn naive_unpack(packed: &[u8], width: u32, count: usize) -> Vec<u64> {
        (0..count)
            .map(|i| {
                (0..width as usize).fold(0u64, |v, b| {
                    let bit = i * width as usize + b;
                    v | (u64::from(packed[bit / 8] >> (bit % 8) & 1) << b)
                })
            })
            .collect()
    }

    proptest! {
        #[test]
        fn bools_pack_lsb_first(values in prop::collection::vec(any::<bool>(), 0..200)) {
            let mut out = vec![0xFFu8; values.len().div_ceil(8) + 1];
            pack_bools(&values, &mut out);
            for (i, &v) in values.iter().enumerate() {
                prop_assert_eq!(out[i / 8] >> (i % 8) & 1 == 1, v);
            }
            if !values.len().is_multiple_of(8) {
                prop_assert_eq!(out[values.len() / 8] >> (values.len() % 8), 0);
            }
            // Bytes past the packed ones are left alone.
            prop_assert_eq!(out[values.len().div_ceil(8)], 0xFF);
        }

        #[test]
        fn round_trip_and_match_naive(width in 0u32..=64, raw in prop::collection::vec(any::<u64>(), 0..80)) {
            let values: Vec<u64> = raw.iter().map(|v| v & mask(width)).collect();
            let mut packed = Vec::new();
            pack64(values.iter().copied(), width, &mut packed);
            prop_assert_eq!(packed.len(), packed_len(values.len(), width));
            let mut out = vec![0u64; values.len()];
            unpack64(&packed, width, &mut out);
            prop_assert_eq!(&out, &values);
            prop_assert_eq!(naive_unpack(&packed, width, values.len()), values.clone());
            if width <= 32 {
                let mut out32 = vec![0u32; values.len()];
                unpack32(&packed, width, &mut out32);
                prop_assert!(out32.iter().zip(&values).all(|(a, b)| u64::from(*a) == *b));
            }
        }
    }
}
