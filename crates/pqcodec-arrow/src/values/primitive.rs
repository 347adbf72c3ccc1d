//! Fixed-width Arrow values: stored as decoded ([`Native`]: INT32 into Int32, Date32, UInt32...)
//! or converted as they are appended ([`Converted`]: INT32 into Int8, Date64, Decimal128...,
//! INT96 into timestamps).

use std::marker::PhantomData;

use arrow_array::{ArrayRef, make_array};
use arrow_buffer::{ArrowNativeType, Buffer, NullBuffer, i256};
use arrow_data::ArrayDataBuilder;
use arrow_schema::DataType;
use pqcodec_core::{FixedWidth, Int96, Sink};

use super::Builder;
use super::spread::{check, spread_fixed};
use crate::error::Fault;

/// Builds a fixed-width array of `data_type` from `values` over `slots` slots.
pub(crate) fn fixed_array<N: ArrowNativeType>(
    data_type: &DataType,
    mut values: Vec<N>,
    slots: usize,
    validity: Option<NullBuffer>,
) -> Result<ArrayRef, Fault> {
    check(values.len(), slots, validity.as_ref())?;
    let nulls = validity.filter(|v| v.null_count() > 0);
    if let Some(v) = &nulls {
        spread_fixed(&mut values, v);
    }
    let data = ArrayDataBuilder::new(data_type.clone())
        .len(slots)
        .add_buffer(Buffer::from_vec(values))
        .nulls(nulls)
        .build()?;
    Ok(make_array(data))
}

/// Values stored exactly as the physical type decodes them.
pub(crate) struct Native<T: FixedWidth> {
    values: Vec<T::Native>,
    data_type: DataType,
}

impl<T: FixedWidth> Native<T> {
    pub(crate) fn new(data_type: DataType) -> Self {
        Native {
            values: Vec::new(),
            data_type,
        }
    }
}

impl<T: FixedWidth> Sink<T::Native> for Native<T> {
    fn reserve(&mut self, additional: usize) {
        self.values.reserve(additional);
    }
    #[inline]
    fn push(&mut self, value: &T::Native) {
        self.values.push(*value);
    }
    #[inline]
    fn push_repeated(&mut self, value: &T::Native, count: usize) {
        self.values.resize(self.values.len() + count, *value);
    }
    #[inline]
    fn extend_from_slice(&mut self, values: &[T::Native]) {
        self.values.extend_from_slice(values);
    }
    /// One copy of the bytes into the values, where the default goes through stack chunks.
    #[cfg(target_endian = "little")]
    #[inline]
    fn extend_from_le_bytes(&mut self, bytes: &[u8]) {
        let size = size_of::<T::Native>();
        let n = bytes.len() / size;
        self.values.reserve(n);
        let len = self.values.len();
        // SAFETY: `T::Native` is an `ArrowNativeType`, which arrow-buffer implements only for
        // plain numbers (no padding, every bit pattern a value), and on a little-endian
        // machine a value's memory is its little-endian bytes. The values have room for `n`
        // more (reserved above), `n * size` bytes are read from `bytes` (which holds them)
        // and written past the values' end, which `bytes`, borrowed from elsewhere, does not
        // overlap; the `n` values written are then initialised.
        unsafe {
            let end = self.values.as_mut_ptr().add(len).cast::<u8>();
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), end, n * size);
            self.values.set_len(len + n);
        }
    }
}

impl<T> Builder<T> for Native<T>
where
    T: FixedWidth,
    T::Native: ArrowNativeType,
{
    fn len(&self) -> usize {
        self.values.len()
    }

    fn finish(&mut self, slots: usize, validity: Option<NullBuffer>) -> Result<ArrayRef, Fault> {
        fixed_array(
            &self.data_type,
            std::mem::take(&mut self.values),
            slots,
            validity,
        )
    }
}

/// A conversion of a physical value into an Arrow native value, applied as values are
/// appended.
pub(crate) trait Convert: Send + Sync + 'static {
    /// The physical value.
    type In: Copy;
    /// The Arrow value.
    type Out: ArrowNativeType;
    /// Converts one value.
    fn convert(v: Self::In) -> Self::Out;
}

/// Values converted by `C` as they are appended.
pub(crate) struct Converted<C: Convert> {
    values: Vec<C::Out>,
    data_type: DataType,
    _convert: PhantomData<C>,
}

impl<C: Convert> Converted<C> {
    pub(crate) fn new(data_type: DataType) -> Self {
        Converted {
            values: Vec::new(),
            data_type,
            _convert: PhantomData,
        }
    }
}

impl<C: Convert> Sink<C::In> for Converted<C> {
    fn reserve(&mut self, additional: usize) {
        self.values.reserve(additional);
    }
    #[inline]
    fn push(&mut self, value: &C::In) {
        self.values.push(C::convert(*value));
    }
    #[inline]
    fn push_repeated(&mut self, value: &C::In, count: usize) {
        self.values
            .resize(self.values.len() + count, C::convert(*value));
    }
    #[inline]
    fn extend_from_slice(&mut self, values: &[C::In]) {
        self.values.extend(values.iter().map(|&v| C::convert(v)));
    }
}

impl<T, C> Builder<T> for Converted<C>
where
    T: FixedWidth<Native = C::In>,
    C: Convert,
{
    fn len(&self) -> usize {
        self.values.len()
    }

    fn finish(&mut self, slots: usize, validity: Option<NullBuffer>) -> Result<ArrayRef, Fault> {
        fixed_array(
            &self.data_type,
            std::mem::take(&mut self.values),
            slots,
            validity,
        )
    }
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

/// Julian day number of 1970-01-01.
const JULIAN_DAY_OF_EPOCH: i64 = 2_440_588;

fn int96_time(v: Int96, units_per_day: i64, nanos_per_unit: i64) -> i64 {
    (i64::from(v.julian_day()) - JULIAN_DAY_OF_EPOCH)
        .wrapping_mul(units_per_day)
        .wrapping_add(v.nanos_of_day() / nanos_per_unit)
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
    /// INT96 to seconds since the epoch.
    Int96ToSeconds: Int96 => i64 = |v| int96_time(v, 86_400, 1_000_000_000);
    /// INT96 to milliseconds since the epoch.
    Int96ToMillis: Int96 => i64 = |v| int96_time(v, 86_400_000, 1_000_000);
    /// INT96 to microseconds since the epoch.
    Int96ToMicros: Int96 => i64 = |v| int96_time(v, 86_400_000_000, 1_000);
    /// INT96 to nanoseconds since the epoch.
    Int96ToNanos: Int96 => i64 = |v| int96_time(v, 86_400_000_000_000, 1);
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Date64Type, Int8Type, TimestampNanosecondType};
    use arrow_array::{Array, Int32Array};
    use pqcodec_core::{Int32Type, Int96Type};

    #[test]
    fn native_spreads_over_nulls() {
        let mut b = Native::<Int32Type>::new(DataType::Int32);
        b.extend_from_slice(&[1, 2]);
        b.push_repeated(&3, 2);
        let validity = NullBuffer::from(vec![true, false, true, true, false, true]);
        let array = Builder::<Int32Type>::finish(&mut b, 6, Some(validity)).unwrap();
        let expect = Int32Array::from(vec![Some(1), None, Some(2), Some(3), None, Some(3)]);
        assert_eq!(
            array.as_primitive::<arrow_array::types::Int32Type>(),
            &expect
        );
        assert_eq!(Builder::<Int32Type>::len(&b), 0);
    }

    #[test]
    fn conversions_match_arrow_rs() {
        let mut b = Converted::<I32ToI8>::new(DataType::Int8);
        b.extend_from_slice(&[300, -1]);
        let a = Builder::<Int32Type>::finish(&mut b, 2, None).unwrap();
        assert_eq!(a.as_primitive::<Int8Type>().values(), &[44, -1]);

        let mut b = Converted::<I32DaysToMillis>::new(DataType::Date64);
        b.push(&2);
        let a = Builder::<Int32Type>::finish(&mut b, 1, None).unwrap();
        assert_eq!(a.as_primitive::<Date64Type>().value(0), 172_800_000);

        // 2020-01-01T00:00:01 is Julian day 2458850, one second in.
        let mut b = Converted::<Int96ToNanos>::new(DataType::Timestamp(
            arrow_schema::TimeUnit::Nanosecond,
            None,
        ));
        let nanos = 1_000_000_000u64;
        b.push(&Int96([nanos as u32, (nanos >> 32) as u32, 2_458_850]));
        let a = Builder::<Int96Type>::finish(&mut b, 1, None).unwrap();
        assert_eq!(
            a.as_primitive::<TimestampNanosecondType>().value(0),
            1_577_836_801_000_000_000
        );
        assert_eq!(a.null_count(), 0);
    }
}
