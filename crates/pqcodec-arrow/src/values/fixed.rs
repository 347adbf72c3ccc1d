//! Byte-array values of fixed meaning: FixedSizeBinary and Float16 (the bytes as they are),
//! intervals (a slice of the 12 bytes), and decimals (big-endian two's complement, sign
//! extended to the Arrow width).

use std::ops::Range;

use arrow_array::{ArrayRef, make_array};
use arrow_buffer::{Buffer, MutableBuffer, NullBuffer, i256};
use arrow_data::ArrayDataBuilder;
use arrow_schema::DataType;
use pqcodec_core::{ByteArrays, Data, Encoding, Lengths, Sink, ValueBuffer};
use pqcodec_encodings::dictionary::IndexDecoder;

use super::Builder;
use super::gather::{Gather, WIDENED_DICTIONARY_BYTES, reserve_for};
use super::primitive::fixed_array;
use super::spread::{check, spread_bytes};
use crate::error::Fault;
use crate::page::DictionaryPage;

/// Values of exactly `width` bytes, of which `take` is kept: FixedSizeBinary and Float16 keep
/// every byte, intervals a part.
pub(crate) struct FixedBytes {
    /// Aligned for the Arrow types that need it (Float16, intervals).
    data: MutableBuffer,
    width: usize,
    take: Range<usize>,
    data_type: DataType,
    bad_width: Option<usize>,
}

impl FixedBytes {
    /// Values of `width` bytes kept whole as `data_type`.
    pub(crate) fn new(data_type: DataType, width: usize) -> Self {
        Self::slice(data_type, width, 0..width)
    }

    /// Values of `width` bytes of which `take` is kept as `data_type`.
    pub(crate) fn slice(data_type: DataType, width: usize, take: Range<usize>) -> Self {
        FixedBytes {
            data: MutableBuffer::new(0),
            width,
            take,
            data_type,
            bad_width: None,
        }
    }

    fn out_width(&self) -> usize {
        self.take.len()
    }
}

impl Sink<[u8]> for FixedBytes {
    fn reserve(&mut self, additional: usize) {
        let bytes = additional.saturating_mul(self.out_width());
        self.data.reserve(bytes);
    }
    /// Whole values of the column's width kept: one copy of the page's bytes.
    fn extend_back_to_back(&mut self, data: Data<'_>, lengths: Lengths<'_>) {
        let data = data.bytes();
        let width = match lengths {
            Lengths::All(0) => return,
            Lengths::All(width) => width,
            Lengths::Each(_) => {
                for value in lengths.values(data) {
                    self.push(value);
                }
                return;
            }
        };
        if width == self.width && self.take == (0..width) {
            self.data
                .extend_from_slice(&data[..data.len() / width * width]);
        } else {
            for value in data.chunks_exact(width) {
                self.push(value);
            }
        }
    }
    #[inline]
    fn push(&mut self, value: &[u8]) {
        match value.get(self.take.clone()) {
            Some(bytes) if value.len() == self.width => self.data.extend_from_slice(bytes),
            _ => {
                self.bad_width = Some(value.len());
                self.data.extend_zeros(self.take.len());
            }
        }
    }
}

impl<T: pqcodec_core::Binary> Builder<T> for FixedBytes {
    fn len(&self) -> usize {
        self.data.len() / self.out_width().max(1)
    }

    fn take_fault(&mut self) -> Option<Fault> {
        self.bad_width.take().map(|len| {
            Fault::corrupt(
                Encoding::Plain,
                "values",
                format!(
                    "a value of {len} bytes in a column of {}-byte values",
                    self.width
                ),
            )
        })
    }

    fn finish(&mut self, slots: usize, validity: Option<NullBuffer>) -> Result<ArrayRef, Fault> {
        if let Some(fault) = Builder::<T>::take_fault(self) {
            return Err(fault);
        }
        check(Builder::<T>::len(self), slots, validity.as_ref())?;
        let nulls = validity.filter(|v| v.null_count() > 0);
        let dense = Builder::<T>::len(self);
        let mut data = std::mem::replace(&mut self.data, MutableBuffer::new(0));
        if let Some(v) = &nulls {
            let width = self.out_width();
            data.resize(slots * width, 0);
            spread_bytes(data.as_slice_mut(), dense, width, v);
        }
        let array = ArrayDataBuilder::new(self.data_type.clone())
            .len(slots)
            .add_buffer(data.into())
            .nulls(nulls)
            .build()?;
        Ok(make_array(array))
    }
}

/// An Arrow decimal's native value, from big-endian two's complement bytes.
pub(crate) trait DecimalNative: Gather {
    /// The value of `bytes`, sign extended; `None` if wider than the type.
    fn from_be(bytes: &[u8]) -> Option<Self>;

    /// `v`, sign extended (truncated into the 4-byte type).
    fn from_i64(v: i64) -> Self;

    /// Appends the values of `data`, `width` bytes each (at most the type's size, at least 1)
    /// back to back; a trailing partial value is ignored.
    fn extend_from_be(data: &[u8], width: usize, out: &mut Vec<Self>) {
        out.extend(
            data.chunks_exact(width)
                .map(|value| Self::from_be(value).unwrap_or_default()),
        );
    }
}

fn sign_extend<const W: usize>(bytes: &[u8]) -> Option<[u8; W]> {
    let pad = W.checked_sub(bytes.len())?;
    let fill = match bytes.first() {
        Some(b) if b & 0x80 != 0 => 0xFF,
        _ => 0,
    };
    let mut out = [fill; W];
    out[pad..].copy_from_slice(bytes);
    Some(out)
}

macro_rules! decimal_native {
    ($($t:ty => $w:literal [$($width:literal)*]),*) => {$(
        impl DecimalNative for $t {
            #[inline]
            fn from_be(bytes: &[u8]) -> Option<Self> {
                sign_extend::<$w>(bytes).map(<$t>::from_be_bytes)
            }

            #[inline]
            fn from_i64(v: i64) -> Self {
                v as $t
            }

            /// A loop per width: each value loaded into the top of a word, then shifted down
            /// with its sign.
            fn extend_from_be(data: &[u8], width: usize, out: &mut Vec<Self>) {
                fn fixed<const W: usize>(data: &[u8], out: &mut Vec<$t>) {
                    out.extend(data.chunks_exact(W).map(|value| {
                        let mut word = [0u8; $w];
                        word[..W].copy_from_slice(value);
                        <$t>::from_be_bytes(word) >> (8 * ($w - W))
                    }));
                }
                match width {
                    $($width => fixed::<$width>(data, out),)*
                    _ => out.extend(
                        data.chunks_exact(width.max(1))
                            .map(|value| <Self as DecimalNative>::from_be(value).unwrap_or_default()),
                    ),
                }
            }
        }
    )*};
}
decimal_native!(
    i32 => 4 [1 2 3 4],
    i64 => 8 [1 2 3 4 5 6 7 8],
    i128 => 16 [1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16]
);

impl DecimalNative for i256 {
    #[inline]
    fn from_be(bytes: &[u8]) -> Option<Self> {
        sign_extend::<32>(bytes).map(i256::from_be_bytes)
    }

    #[inline]
    fn from_i64(v: i64) -> Self {
        i256::from_i128(i128::from(v))
    }
}

/// Byte arrays (fixed or variable length) as Arrow decimals of native `N`. A dictionary is
/// converted once and its data pages gather converted values; one of values of at most 8
/// bytes that would widen past [`WIDENED_DICTIONARY_BYTES`] stays as its page, each value
/// converted as looked up.
pub(crate) struct Decimals<N: DecimalNative> {
    values: Vec<N>,
    dictionary: Vec<N>,
    /// The dictionary page's values, when they are looked up there (then `dictionary` is not
    /// used).
    page: Option<Buffer>,
    /// Room for the indices a gather looks up in `page`.
    keys: Vec<u32>,
    /// The values' width for FIXED_LEN_BYTE_ARRAY, 0 for BYTE_ARRAY.
    width: usize,
    data_type: DataType,
    too_wide: Option<usize>,
}

impl<N: DecimalNative> Decimals<N> {
    /// Decimals from BYTE_ARRAY values.
    pub(crate) fn new(data_type: DataType) -> Self {
        Self::fixed(data_type, 0)
    }

    /// Decimals from FIXED_LEN_BYTE_ARRAY values of `width` bytes.
    pub(crate) fn fixed(data_type: DataType, width: usize) -> Self {
        Decimals {
            values: Vec::new(),
            dictionary: Vec::new(),
            page: None,
            keys: Vec::new(),
            width,
            data_type,
            too_wide: None,
        }
    }
}

/// The `width`-byte (1 to 8) big-endian value at `at` in `data`, sign extended: one load of a
/// word where 8 bytes remain; 0 if `data` ends first.
#[inline]
fn be_value_at(data: &[u8], at: usize, width: usize) -> i64 {
    match data.get(at..).and_then(|rest| rest.first_chunk::<8>()) {
        Some(word) => i64::from_be_bytes(*word) >> (64 - 8 * width),
        None => data
            .get(at..at + width)
            .and_then(<i64 as DecimalNative>::from_be)
            .unwrap_or(0),
    }
}

impl<N: DecimalNative> Sink<[u8]> for Decimals<N> {
    fn reserve(&mut self, additional: usize) {
        self.values.reserve(additional);
    }
    fn extend_back_to_back(&mut self, data: Data<'_>, lengths: Lengths<'_>) {
        let data = data.bytes();
        let width = match lengths {
            Lengths::All(width) => width,
            Lengths::Each(_) => {
                for value in lengths.values(data) {
                    self.push(value);
                }
                return;
            }
        };
        match width {
            0 => {}
            w if w > size_of::<N>() => {
                if data.len() >= w {
                    self.too_wide = Some(w);
                }
                let n = data.len() / w;
                self.values.resize(self.values.len() + n, N::default());
            }
            w => N::extend_from_be(data, w, &mut self.values),
        }
    }
    #[inline]
    fn push(&mut self, value: &[u8]) {
        let v = N::from_be(value).unwrap_or_else(|| {
            self.too_wide = Some(value.len());
            N::default()
        });
        self.values.push(v);
    }
    fn push_repeated(&mut self, value: &[u8], count: usize) {
        let v = N::from_be(value).unwrap_or_else(|| {
            self.too_wide = Some(value.len());
            N::default()
        });
        self.values.resize(self.values.len() + count, v);
    }
}

impl<T: pqcodec_core::Binary, N: DecimalNative> Builder<T> for Decimals<N> {
    fn len(&self) -> usize {
        self.values.len()
    }

    fn take_fault(&mut self) -> Option<Fault> {
        self.too_wide.take().map(|len| {
            Fault::corrupt(
                Encoding::Plain,
                "values",
                format!(
                    "a decimal of {len} bytes does not fit {} ({} bytes)",
                    self.data_type,
                    std::mem::size_of::<N>()
                ),
            )
        })
    }

    /// A dictionary of FIXED_LEN_BYTE_ARRAY values of at most 8 bytes that would widen past
    /// [`WIDENED_DICTIONARY_BYTES`] is kept as its page, no more memory than it takes.
    fn take_dictionary_page(&mut self, page: &DictionaryPage) -> Result<bool, Fault> {
        self.page = None;
        let n = page.num_values;
        let wide =
            size_of::<N>() > 8 && n.saturating_mul(size_of::<N>()) > WIDENED_DICTIONARY_BYTES;
        if !(1..=8).contains(&self.width) || !wide {
            return Ok(false);
        }
        // A page too short for its values is left to the decoding, which names it.
        if n.checked_mul(self.width)
            .is_none_or(|len| len > page.data.len())
        {
            return Ok(false);
        }
        self.page = Some(page.data.clone());
        Ok(true)
    }

    fn release_dictionary(&mut self) {
        self.page = None;
    }

    /// The dictionary converted once, unless a value is too wide (reported if looked up).
    fn take_dictionary(&mut self, _: &DictionaryPage, values: &ByteArrays) -> Result<bool, Fault> {
        self.page = None;
        self.dictionary.clear();
        for value in values.values() {
            match N::from_be(value) {
                Some(v) => self.dictionary.push(v),
                None => return Ok(false),
            }
        }
        Ok(true)
    }

    fn gather(&mut self, indices: &mut IndexDecoder, n: usize) -> Result<usize, Fault> {
        reserve_for(&mut self.values, indices, n);
        if let Some(page) = &self.page {
            // The indices (checked against the dictionary's length), then their values.
            self.keys.clear();
            let got = indices.read(&mut self.keys, n)?;
            let (data, width) = (page.as_slice(), self.width);
            self.values.extend(
                self.keys
                    .iter()
                    .map(|&key| N::from_i64(be_value_at(data, key as usize * width, width))),
            );
            return Ok(got);
        }
        Ok(N::gather(indices, &self.dictionary, &mut self.values, n)?)
    }

    fn finish(&mut self, slots: usize, validity: Option<NullBuffer>) -> Result<ArrayRef, Fault> {
        if let Some(fault) = Builder::<T>::take_fault(self) {
            return Err(fault);
        }
        fixed_array(
            &self.data_type,
            std::mem::take(&mut self.values),
            slots,
            validity,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Decimal128Type, Decimal256Type, Float16Type, IntervalYearMonthType};
    use pqcodec_core::{ByteArrayType, FixedLenByteArrayType};

    /// PLAIN pages' values of every width, by the loop per width, agree with one by one;
    /// wider than the type is a fault.
    #[test]
    fn fixed_width_decimals_agree_with_one_by_one() {
        fn check<N: DecimalNative + std::fmt::Debug>(widths: std::ops::RangeInclusive<usize>) {
            let data: Vec<u8> = (0..32 * 8u32).map(|i| (i * 97 + 13) as u8).collect();
            for width in widths {
                // Seven values and a partial one (for widths above 1).
                let page = &data[..width * 7 + 1];
                let mut got = Vec::new();
                N::extend_from_be(page, width, &mut got);
                let want: Vec<N> = page
                    .chunks_exact(width)
                    .map(|v| N::from_be(v).unwrap())
                    .collect();
                assert_eq!(got, want, "width {width}");
            }
        }
        check::<i32>(1..=4);
        check::<i64>(1..=8);
        check::<i128>(1..=16);
        check::<i256>(1..=32);

        let mut b = Decimals::<i64>::new(DataType::Decimal64(18, 0));
        b.extend_back_to_back((&[0xFF; 18]).into(), Lengths::All(9));
        assert_eq!(b.values.len(), 2);
        assert!(Builder::<FixedLenByteArrayType>::take_fault(&mut b).is_some());
    }

    #[test]
    fn decimals_sign_extend() {
        let mut b = Decimals::<i128>::new(DataType::Decimal128(10, 2));
        b.push(&[0xFF, 0x85]); // -123
        b.push(&[0x00, 0x7B]); // 123
        b.push(&[]);
        let validity = NullBuffer::from(vec![true, false, true, true]);
        let a = Builder::<ByteArrayType>::finish(&mut b, 4, Some(validity)).unwrap();
        let a = a.as_primitive::<Decimal128Type>();
        assert_eq!(a.value(0), -123);
        assert!(a.is_null(1));
        assert_eq!(a.value(2), 123);
        assert_eq!(a.value(3), 0);
        assert_eq!(a.precision(), 10);

        let mut b = Decimals::<i256>::new(DataType::Decimal256(50, 0));
        b.push(&[0x80; 20]);
        let a = Builder::<FixedLenByteArrayType>::finish(&mut b, 1, None).unwrap();
        assert!(a.as_primitive::<Decimal256Type>().value(0) < i256::ZERO);

        let mut b = Decimals::<i32>::new(DataType::Decimal32(9, 0));
        b.push(&[1, 2, 3, 4, 5]);
        assert!(matches!(
            Builder::<ByteArrayType>::finish(&mut b, 1, None),
            Err(Fault::Corrupt { .. })
        ));
    }

    #[test]
    fn float16_and_intervals_keep_bytes() {
        let mut b = FixedBytes::new(DataType::Float16, 2);
        b.push(&half_one());
        let validity = NullBuffer::from(vec![false, true]);
        let a = Builder::<FixedLenByteArrayType>::finish(&mut b, 2, Some(validity)).unwrap();
        assert_eq!(a.as_primitive::<Float16Type>().value(1).to_f32(), 1.0);
        assert!(a.is_null(0));

        let mut b = FixedBytes::slice(
            DataType::Interval(arrow_schema::IntervalUnit::YearMonth),
            12,
            0..4,
        );
        let mut v = [0u8; 12];
        v[..4].copy_from_slice(&14i32.to_le_bytes());
        b.push(&v);
        let a = Builder::<FixedLenByteArrayType>::finish(&mut b, 1, None).unwrap();
        assert_eq!(a.as_primitive::<IntervalYearMonthType>().value(0), 14);

        let mut b = FixedBytes::new(DataType::FixedSizeBinary(3), 3);
        b.push(b"abcd");
        assert!(Builder::<FixedLenByteArrayType>::finish(&mut b, 1, None).is_err());
    }

    fn half_one() -> [u8; 2] {
        0x3C00u16.to_le_bytes()
    }
}
