//! [`Gather`]: Arrow native values that a dictionary-encoded page's indices gather from a
//! dictionary converted once (decimals, widened integers, dates...).

use arrow_buffer::{ArrowNativeType, i256};
use pqcodec_encodings::dictionary::IndexDecoder;

/// The most bytes a dictionary converted once into a wider type may take (256 KiB: 16 Ki
/// Decimal128 values). A larger one holds nearly one entry per value (prices, keys) and
/// stays as the page's numbers, each value converted as looked up: no more memory than the
/// dictionary page's.
pub(crate) const WIDENED_DICTIONARY_BYTES: usize = 1 << 18;

/// Makes room in `out` for exactly what a gather of up to `n` of `indices` appends (bounded by
/// the page): a batch's values then take their size, not up to twice it as by doubling.
pub(crate) fn reserve_for<V>(out: &mut Vec<V>, indices: &IndexDecoder, n: usize) {
    out.reserve_exact(indices.reserve_hint(n));
}

/// An Arrow native value gathered by dictionary indices.
pub(crate) trait Gather: ArrowNativeType + super::spread::Spread {
    /// Appends `dictionary[i]` for up to `n` indices `i` of `indices` to `out`; returns how many
    /// (fewer at the end of the page). The default looks the indices up one by one.
    fn gather(
        indices: &mut IndexDecoder,
        dictionary: &[Self],
        out: &mut Vec<Self>,
        n: usize,
    ) -> pqcodec_core::Result<usize> {
        let mut keys: Vec<u32> = Vec::with_capacity(n.min(indices.remaining()));
        let got = indices.read(&mut keys, n)?;
        out.reserve(got);
        for &key in &keys {
            // The decoder checked every index against the dictionary's length.
            let value = dictionary.get(key as usize).copied().unwrap_or_default();
            out.push(value);
        }
        Ok(got)
    }
}

/// The widths the codec core's gather kernel moves.
macro_rules! gather_kernel {
    ($($t:ty),*) => {$(
        impl Gather for $t {
            #[inline]
            fn gather(
                indices: &mut IndexDecoder,
                dictionary: &[Self],
                out: &mut Vec<Self>,
                n: usize,
            ) -> pqcodec_core::Result<usize> {
                indices.gather(dictionary, out, n)
            }
        }
    )*};
}
gather_kernel!(i32, i64, i128);

impl Gather for i8 {}
impl Gather for u8 {}
impl Gather for i16 {}
impl Gather for u16 {}
impl Gather for i256 {}

#[cfg(test)]
mod tests {
    use super::*;
    use pqcodec_core::Encoding;

    /// RLE_DICTIONARY indices: bit width 2, one bit-packed group of 8 (3 1 0 2 3 3 0 1).
    fn indices() -> Vec<u8> {
        vec![2, 0b11, 0b1000_0111, 0b0100_1111]
    }

    #[test]
    fn one_by_one_and_kernel_agree() {
        let page = indices();
        let keys = [3usize, 1, 0, 2, 3, 3, 0, 1];
        let open = || {
            IndexDecoder::with_encoding(
                bytes::Bytes::copy_from_slice(&page),
                8,
                4,
                Encoding::RleDictionary,
            )
            .unwrap()
        };

        let wide: Vec<i256> = (0..4).map(|i| i256::from_i128(i * 1_000 - 1)).collect();
        let mut out = Vec::new();
        let mut d = open();
        assert_eq!(i256::gather(&mut d, &wide, &mut out, 5).unwrap(), 5);
        assert_eq!(i256::gather(&mut d, &wide, &mut out, 9).unwrap(), 3);
        let want: Vec<i256> = keys.iter().map(|&k| wide[k]).collect();
        assert_eq!(out, want);

        let narrow: Vec<i128> = (0..4).map(|i| i * 1_000 - 1).collect();
        let mut out = Vec::new();
        assert_eq!(i128::gather(&mut open(), &narrow, &mut out, 8).unwrap(), 8);
        let want: Vec<i128> = keys.iter().map(|&k| narrow[k]).collect();
        assert_eq!(out, want);
    }
}
