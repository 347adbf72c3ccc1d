//! Which builder a (physical type, Arrow type) pair takes: every mapping arrow-rs's schema
//! conversion makes, with the conversions its readers apply.

use arrow_buffer::i256;
use arrow_schema::{DataType as D, IntervalUnit, TimeUnit};
use pqcodec_core::{
    BooleanType, ByteArrayType, DoubleType, FixedLenByteArrayType, FloatType, Int32Type, Int64Type,
    Int96Type, PhysicalType as P,
};
use pqcodec_encodings::dynamic::DynamicType;

use super::binary::OffsetBytes;
use super::boolean::Booleans;
use super::converted::*;
use super::dictionary::{DictionaryReader, InternKey};
use super::fixed::{Decimals, FixedBytes};
use super::null::Nulls;
use super::primitive::*;
use super::reader::Materialized;
use super::{Builder, ValueReader};

/// Makes a reader from a builder: plain arrays or dictionary arrays.
trait Make {
    fn make<T, B>(self, builder: B, type_length: usize) -> Option<Box<dyn ValueReader>>
    where
        T: DynamicType,
        B: Builder<T>,
        T::Value: InternKey,
        T::Decoder: Send;
}

struct MakeMaterialized;

impl Make for MakeMaterialized {
    fn make<T, B>(self, builder: B, type_length: usize) -> Option<Box<dyn ValueReader>>
    where
        T: DynamicType,
        B: Builder<T>,
        T::Value: InternKey,
        T::Decoder: Send,
    {
        Some(Box::new(Materialized::<T, B>::new(builder, type_length)))
    }
}

struct MakeDictionary(D);

impl Make for MakeDictionary {
    fn make<T, B>(self, builder: B, type_length: usize) -> Option<Box<dyn ValueReader>>
    where
        T: DynamicType,
        B: Builder<T>,
        T::Value: InternKey,
        T::Decoder: Send,
    {
        let reader = DictionaryReader::<T, B>::new(builder, type_length, self.0)?;
        Some(Box::new(reader))
    }
}

/// The reader of a column of `physical` type (and `type_length`) into Arrow `data_type`, or
/// `None` if the pair is not one Parquet readers map.
pub(crate) fn value_reader(
    physical: P,
    type_length: usize,
    data_type: &D,
) -> Option<Box<dyn ValueReader>> {
    match data_type {
        D::Dictionary(_, value) if !matches!(value.as_ref(), D::Dictionary(..)) => select(
            physical,
            type_length,
            value,
            MakeDictionary(data_type.clone()),
        ),
        _ => select(physical, type_length, data_type, MakeMaterialized),
    }
}

fn select<M: Make>(physical: P, tl: usize, dt: &D, m: M) -> Option<Box<dyn ValueReader>> {
    let d = dt.clone();
    match (physical, dt) {
        (P::Boolean, D::Null) => m.make::<BooleanType, _>(Nulls::default(), tl),
        (P::Int32, D::Null) => m.make::<Int32Type, _>(Nulls::default(), tl),
        (P::Int64, D::Null) => m.make::<Int64Type, _>(Nulls::default(), tl),
        (P::Int96, D::Null) => m.make::<Int96Type, _>(Nulls::default(), tl),
        (P::Float, D::Null) => m.make::<FloatType, _>(Nulls::default(), tl),
        (P::Double, D::Null) => m.make::<DoubleType, _>(Nulls::default(), tl),
        (P::ByteArray, D::Null) => m.make::<ByteArrayType, _>(Nulls::default(), tl),
        (P::FixedLenByteArray, D::Null) => m.make::<FixedLenByteArrayType, _>(Nulls::default(), tl),

        (P::Boolean, D::Boolean) => m.make::<BooleanType, _>(Booleans::new(), tl),

        (P::Int32, D::Int32 | D::UInt32 | D::Date32 | D::Time32(_) | D::Decimal32(..)) => {
            m.make::<Int32Type, _>(Native::<Int32Type>::new(d), tl)
        }
        (P::Int32, D::Int8) => m.make::<Int32Type, _>(Converted::<Int32Type, I32ToI8>::new(d), tl),
        (P::Int32, D::UInt8) => m.make::<Int32Type, _>(Converted::<Int32Type, I32ToU8>::new(d), tl),
        (P::Int32, D::Int16) => {
            m.make::<Int32Type, _>(Converted::<Int32Type, I32ToI16>::new(d), tl)
        }
        (P::Int32, D::UInt16) => {
            m.make::<Int32Type, _>(Converted::<Int32Type, I32ToU16>::new(d), tl)
        }
        (P::Int32, D::Date64) => {
            m.make::<Int32Type, _>(Converted::<Int32Type, I32DaysToMillis>::new(d), tl)
        }
        (P::Int32, D::Timestamp(..) | D::Decimal64(..)) => {
            m.make::<Int32Type, _>(Converted::<Int32Type, I32ToI64>::new(d), tl)
        }
        (P::Int32, D::Decimal128(..)) => {
            m.make::<Int32Type, _>(Converted::<Int32Type, I32ToI128>::new(d), tl)
        }
        (P::Int32, D::Decimal256(..)) => {
            m.make::<Int32Type, _>(Converted::<Int32Type, I32ToI256>::new(d), tl)
        }

        (
            P::Int64,
            D::Int64
            | D::UInt64
            | D::Date64
            | D::Time64(TimeUnit::Microsecond | TimeUnit::Nanosecond)
            | D::Duration(_)
            | D::Timestamp(..)
            | D::Decimal64(..),
        ) => m.make::<Int64Type, _>(Native::<Int64Type>::new(d), tl),
        (P::Int64, D::Decimal128(..)) => {
            m.make::<Int64Type, _>(Converted::<Int64Type, I64ToI128>::new(d), tl)
        }
        (P::Int64, D::Decimal256(..)) => {
            m.make::<Int64Type, _>(Converted::<Int64Type, I64ToI256>::new(d), tl)
        }

        (P::Int96, D::Timestamp(unit, _)) => {
            m.make::<Int96Type, _>(Int96Timestamps::new(*unit, d), tl)
        }

        (P::Float, D::Float32) => m.make::<FloatType, _>(Native::<FloatType>::new(d), tl),
        (P::Double, D::Float64) => m.make::<DoubleType, _>(Native::<DoubleType>::new(d), tl),

        (P::ByteArray, D::Binary | D::Utf8) => {
            m.make::<ByteArrayType, _>(OffsetBytes::<i32>::new(d), tl)
        }
        (P::ByteArray, D::LargeBinary | D::LargeUtf8) => {
            m.make::<ByteArrayType, _>(OffsetBytes::<i64>::new(d), tl)
        }
        (P::ByteArray, D::BinaryView | D::Utf8View) => {
            m.make::<ByteArrayType, _>(super::view::Views::new(d), tl)
        }
        (P::ByteArray, D::Decimal32(..)) => m.make::<ByteArrayType, _>(Decimals::<i32>::new(d), tl),
        (P::ByteArray, D::Decimal64(..)) => m.make::<ByteArrayType, _>(Decimals::<i64>::new(d), tl),
        (P::ByteArray, D::Decimal128(..)) => {
            m.make::<ByteArrayType, _>(Decimals::<i128>::new(d), tl)
        }
        (P::ByteArray, D::Decimal256(..)) => {
            m.make::<ByteArrayType, _>(Decimals::<i256>::new(d), tl)
        }

        (P::FixedLenByteArray, D::FixedSizeBinary(n)) if usize::try_from(*n).ok() == Some(tl) => {
            m.make::<FixedLenByteArrayType, _>(FixedBytes::new(d, tl), tl)
        }
        (P::FixedLenByteArray, D::Float16) if tl == 2 => {
            m.make::<FixedLenByteArrayType, _>(FixedBytes::new(d, 2), tl)
        }
        (P::FixedLenByteArray, D::Interval(IntervalUnit::YearMonth)) if tl == 12 => {
            m.make::<FixedLenByteArrayType, _>(FixedBytes::slice(d, 12, 0..4), tl)
        }
        (P::FixedLenByteArray, D::Interval(IntervalUnit::DayTime)) if tl == 12 => {
            m.make::<FixedLenByteArrayType, _>(FixedBytes::slice(d, 12, 4..12), tl)
        }
        (P::FixedLenByteArray, D::Decimal32(..)) if tl <= 4 => {
            m.make::<FixedLenByteArrayType, _>(Decimals::<i32>::fixed(d, tl), tl)
        }
        (P::FixedLenByteArray, D::Decimal64(..)) if tl <= 8 => {
            m.make::<FixedLenByteArrayType, _>(Decimals::<i64>::fixed(d, tl), tl)
        }
        (P::FixedLenByteArray, D::Decimal128(..)) if tl <= 16 => {
            m.make::<FixedLenByteArrayType, _>(Decimals::<i128>::fixed(d, tl), tl)
        }
        (P::FixedLenByteArray, D::Decimal256(..)) if tl <= 32 => {
            m.make::<FixedLenByteArrayType, _>(Decimals::<i256>::fixed(d, tl), tl)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mapping_has_a_reader_and_others_do_not() {
        let ok = [
            (P::Int32, D::Int8),
            (P::Int32, D::Date64),
            (P::Int32, D::Decimal256(40, 2)),
            (
                P::Int64,
                D::Timestamp(TimeUnit::Microsecond, Some("UTC".into())),
            ),
            (P::Int96, D::Timestamp(TimeUnit::Millisecond, None)),
            (P::ByteArray, D::Utf8View),
            (P::ByteArray, D::Decimal128(20, 3)),
            (P::Boolean, D::Null),
            (
                P::ByteArray,
                D::Dictionary(Box::new(D::Int32), Box::new(D::Utf8)),
            ),
            (
                P::Int64,
                D::Dictionary(Box::new(D::UInt8), Box::new(D::Int64)),
            ),
        ];
        for (p, d) in ok {
            assert!(value_reader(p, 0, &d).is_some(), "{p} -> {d}");
        }
        assert!(value_reader(P::FixedLenByteArray, 16, &D::FixedSizeBinary(16)).is_some());
        assert!(value_reader(P::FixedLenByteArray, 2, &D::Float16).is_some());
        let bad = [
            (P::Int32, D::Utf8, 0),
            (P::Int64, D::Int32, 0),
            (P::FixedLenByteArray, D::FixedSizeBinary(4), 5),
            (P::FixedLenByteArray, D::Float16, 4),
            (P::FixedLenByteArray, D::Decimal128(38, 0), 17),
            (P::Double, D::Float32, 0),
            (
                P::ByteArray,
                D::Dictionary(Box::new(D::Utf8), Box::new(D::Utf8)),
                0,
            ),
        ];
        for (p, d, tl) in bad {
            assert!(value_reader(p, tl, &d).is_none(), "{p} -> {d}");
        }
    }
}
