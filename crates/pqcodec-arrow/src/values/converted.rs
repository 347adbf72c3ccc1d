//! [`Converted`]: fixed-width physical values converted into another Arrow native type as they
//! are appended (INT32 into Int8, Date64, Decimal128; INT64 into Decimal128...), in one pass;
//! a dictionary is converted once and its data pages gather converted values.

use std::marker::PhantomData;

use arrow_array::ArrayRef;
use arrow_buffer::{NullBuffer, i256};
use arrow_schema::DataType;
use pqcodec_core::{Data, FixedWidth, NativeType, Sink};
use pqcodec_encodings::dictionary::IndexDecoder;

use super::Builder;
use super::gather::{Gather, WIDENED_DICTIONARY_BYTES, reserve_for};
use super::primitive::fixed_array;
use crate::error::Fault;
use crate::page::DictionaryPage;

/// A conversion of a physical value into an Arrow native value.
pub(crate) trait Convert: Send + Sync + 'static {
    /// The physical value.
    type In: NativeType;
    /// The Arrow value.
    type Out: Gather;
    /// Converts one value.
    fn convert(v: Self::In) -> Self::Out;
}

macro_rules! convert {
    ($($(#[$doc:meta])* $name:ident: $in:ty => $out:ty = |$v:ident| $body:expr;)*) => {$(
        $(#[$doc])*
        pub(crate) struct $name;
        impl Convert for $name {
            type In = $in;
            type Out = $out;
            #[inline]
            fn convert($v: $in) -> $out {
                $body
            }
        }
    )*};
}

convert! {
    /// INT32 truncated to Int8 (as arrow-rs does).
    I32ToI8: i32 => i8 = |v| v as i8;
    /// INT32 truncated to UInt8.
    I32ToU8: i32 => u8 = |v| v as u8;
    /// INT32 truncated to Int16.
    I32ToI16: i32 => i16 = |v| v as i16;
    /// INT32 truncated to UInt16.
    I32ToU16: i32 => u16 = |v| v as u16;
    /// INT32 widened to Int64 (timestamps, Decimal64).
    I32ToI64: i32 => i64 = |v| i64::from(v);
    /// INT32 days to Date64 milliseconds.
    I32DaysToMillis: i32 => i64 = |v| i64::from(v) * 86_400_000;
    /// INT32 to Decimal128.
    I32ToI128: i32 => i128 = |v| i128::from(v);
    /// INT32 to Decimal256.
    I32ToI256: i32 => i256 = |v| i256::from_i128(i128::from(v));
    /// INT64 to Decimal128.
    I64ToI128: i64 => i128 = |v| i128::from(v);
    /// INT64 to Decimal256.
    I64ToI256: i64 => i256 = |v| i256::from_i128(i128::from(v));
}

/// Values of physical type `T` converted by `C` as they are appended, into an array of
/// `data_type`.
pub(crate) struct Converted<T, C: Convert> {
    values: Vec<C::Out>,
    /// The current dictionary, converted.
    dictionary: Vec<C::Out>,
    data_type: DataType,
    physical: PhantomData<fn() -> T>,
}

impl<T, C: Convert> Converted<T, C> {
    pub(crate) fn new(data_type: DataType) -> Self {
        Converted {
            values: Vec::new(),
            dictionary: Vec::new(),
            data_type,
            physical: PhantomData,
        }
    }
}

impl<T, C: Convert> Sink<C::In> for Converted<T, C> {
    fn reserve(&mut self, additional: usize) {
        self.values.reserve(additional);
    }
    #[inline]
    fn push(&mut self, value: &C::In) {
        self.values.push(C::convert(*value));
    }
    #[inline]
    fn push_repeated(&mut self, value: &C::In, count: usize) {
        let v = C::convert(*value);
        self.values.resize(self.values.len() + count, v);
    }
    #[inline]
    fn extend_from_slice(&mut self, values: &[C::In]) {
        self.values.extend(values.iter().map(|&v| C::convert(v)));
    }
    #[inline]
    fn extend_from_le_bytes(&mut self, bytes: Data<'_>) {
        let values = bytes.chunks_exact(C::In::SIZE);
        self.values
            .extend(values.map(|b| C::convert(C::In::from_le_slice(b))));
    }
}

impl<T, C> Builder<T> for Converted<T, C>
where
    T: FixedWidth,
    C: Convert<In = T::Native>,
{
    fn len(&self) -> usize {
        self.values.len()
    }

    fn take_dictionary(
        &mut self,
        _: &DictionaryPage,
        values: &Vec<T::Native>,
    ) -> Result<bool, Fault> {
        let widens = size_of::<C::Out>() > size_of::<C::In>();
        if widens && values.len().saturating_mul(size_of::<C::Out>()) > WIDENED_DICTIONARY_BYTES {
            self.dictionary = Vec::new();
            return Ok(false);
        }
        self.dictionary.clear();
        self.dictionary
            .extend(values.iter().map(|&v| C::convert(v)));
        Ok(true)
    }

    fn gather(&mut self, indices: &mut IndexDecoder, n: usize) -> Result<usize, Fault> {
        reserve_for(&mut self.values, indices, n);
        Ok(C::Out::gather(
            indices,
            &self.dictionary,
            &mut self.values,
            n,
        )?)
    }

    fn finish(&mut self, slots: usize, validity: Option<NullBuffer>) -> Result<ArrayRef, Fault> {
        // Room for every slot, nulls spread in place among the values.
        self.values
            .reserve_exact(slots.saturating_sub(self.values.len()));
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
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Date64Type, Decimal128Type, Int8Type};
    use pqcodec_core::{Encoding, Int32Type, Int64Type};

    #[test]
    fn converts_as_appended() {
        let mut b = Converted::<Int32Type, I32ToI8>::new(DataType::Int8);
        b.extend_from_slice(&[300, -1]);
        let a = Builder::<Int32Type>::finish(&mut b, 2, None).unwrap();
        assert_eq!(a.as_primitive::<Int8Type>().values(), &[44, -1]);

        // PLAIN bytes, a run, spread over nulls.
        let mut b = Converted::<Int32Type, I32DaysToMillis>::new(DataType::Date64);
        let bytes: Vec<u8> = [2i32, -1].iter().flat_map(|v| v.to_le_bytes()).collect();
        b.extend_from_le_bytes((&bytes).into());
        b.push_repeated(&1, 2);
        let validity = NullBuffer::from(vec![true, false, true, true, true]);
        let a = Builder::<Int32Type>::finish(&mut b, 5, Some(validity)).unwrap();
        let got: Vec<Option<i64>> = a.as_primitive::<Date64Type>().iter().collect();
        let day = 86_400_000;
        assert_eq!(got, [Some(2 * day), None, Some(-day), Some(day), Some(day)]);
    }

    /// A dictionary converted once; its indices gather converted values.
    #[test]
    fn gathers_the_converted_dictionary() {
        let decimal = DataType::Decimal128(15, 2);
        let mut b = Converted::<Int64Type, I64ToI128>::new(decimal.clone());
        let page = DictionaryPage {
            data: Default::default(),
            num_values: 4,
            encoding: Encoding::Plain,
        };
        let dictionary = vec![-5i64, 0, 7, i64::MAX];
        assert!(Builder::<Int64Type>::take_dictionary(&mut b, &page, &dictionary).unwrap());
        // Bit width 2, one bit-packed group of 8: 3 1 0 2 3 3 0 1.
        let indices = [2u8, 0b11, 0b1000_0111, 0b0100_1111];
        let mut d = IndexDecoder::with_encoding(
            bytes::Bytes::copy_from_slice(&indices),
            8,
            4,
            Encoding::RleDictionary,
        )
        .unwrap();
        // In two gathers, as a batch over two pages: room for exactly the values.
        assert_eq!(Builder::<Int64Type>::gather(&mut b, &mut d, 5).unwrap(), 5);
        assert_eq!(Builder::<Int64Type>::gather(&mut b, &mut d, 3).unwrap(), 3);
        assert_eq!(b.values.capacity(), 8);
        let a = Builder::<Int64Type>::finish(&mut b, 8, None).unwrap();
        let got = a.as_primitive::<Decimal128Type>().values().to_vec();
        let want: Vec<i128> = [3, 1, 0, 2, 3, 3, 0, 1]
            .iter()
            .map(|&k| i128::from(dictionary[k]))
            .collect();
        assert_eq!(got, want);
        assert_eq!(a.data_type(), &decimal);
    }
}
