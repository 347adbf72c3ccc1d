//! Which builder a (physical type, Arrow type) pair takes: every mapping arrow-rs's schema
//! conversion makes, with the conversions its readers apply.

use arrow_buffer::i256;
use arrow_schema::{DataType as D, IntervalUnit, TimeUnit};
use pqcodec_core::{
    BooleanType, ByteArrayType, ColumnType as C, DoubleType, FloatType, Int32Type, Int64Type,
    Int96Type, with_physical,
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
    fn make<T, B>(self, builder: B, ty: T) -> Option<Box<dyn ValueReader>>
    where
        T: DynamicType,
        B: Builder<T>,
        T::Value: InternKey,
        T::Decoder: Send;
}

struct MakeMaterialized;

impl Make for MakeMaterialized {
    fn make<T, B>(self, builder: B, ty: T) -> Option<Box<dyn ValueReader>>
    where
        T: DynamicType,
        B: Builder<T>,
        T::Value: InternKey,
        T::Decoder: Send,
    {
        Some(Box::new(Materialized::<T, B>::new(builder, ty)))
    }
}

struct MakeDictionary(D);

impl Make for MakeDictionary {
    fn make<T, B>(self, builder: B, ty: T) -> Option<Box<dyn ValueReader>>
    where
        T: DynamicType,
        B: Builder<T>,
        T::Value: InternKey,
        T::Decoder: Send,
    {
        let reader = DictionaryReader::<T, B>::new(builder, ty, self.0)?;
        Some(Box::new(reader))
    }
}

/// The reader of a column of type `column_type` into Arrow `data_type`, or `None` if the pair
/// is not one Parquet readers map.
pub(crate) fn value_reader(column_type: C, data_type: &D) -> Option<Box<dyn ValueReader>> {
    match data_type {
        D::Dictionary(_, value) if !matches!(value.as_ref(), D::Dictionary(..)) => {
            select(column_type, value, MakeDictionary(data_type.clone()))
        }
        _ => select(column_type, data_type, MakeMaterialized),
    }
}

fn select<M: Make>(column_type: C, dt: &D, m: M) -> Option<Box<dyn ValueReader>> {
    let d = dt.clone();
    match (column_type, dt) {
        (c, D::Null) => with_physical!(c, ty: T => m.make::<T, _>(Nulls::default(), ty)),

        (C::Boolean, D::Boolean) => m.make(Booleans::new(), BooleanType),

        (C::Int32, D::Int32 | D::UInt32 | D::Date32 | D::Time32(_) | D::Decimal32(..)) => {
            m.make(Native::<Int32Type>::new(d), Int32Type)
        }
        (C::Int32, D::Int8) => m.make(Converted::<Int32Type, I32ToI8>::new(d), Int32Type),
        (C::Int32, D::UInt8) => m.make(Converted::<Int32Type, I32ToU8>::new(d), Int32Type),
        (C::Int32, D::Int16) => m.make(Converted::<Int32Type, I32ToI16>::new(d), Int32Type),
        (C::Int32, D::UInt16) => m.make(Converted::<Int32Type, I32ToU16>::new(d), Int32Type),
        (C::Int32, D::Date64) => m.make(Converted::<Int32Type, I32DaysToMillis>::new(d), Int32Type),
        (C::Int32, D::Timestamp(..) | D::Decimal64(..)) => {
            m.make(Converted::<Int32Type, I32ToI64>::new(d), Int32Type)
        }
        (C::Int32, D::Decimal128(..)) => {
            m.make(Converted::<Int32Type, I32ToI128>::new(d), Int32Type)
        }
        (C::Int32, D::Decimal256(..)) => {
            m.make(Converted::<Int32Type, I32ToI256>::new(d), Int32Type)
        }

        (
            C::Int64,
            D::Int64
            | D::UInt64
            | D::Date64
            | D::Time64(TimeUnit::Microsecond | TimeUnit::Nanosecond)
            | D::Duration(_)
            | D::Timestamp(..)
            | D::Decimal64(..),
        ) => m.make(Native::<Int64Type>::new(d), Int64Type),
        (C::Int64, D::Decimal128(..)) => {
            m.make(Converted::<Int64Type, I64ToI128>::new(d), Int64Type)
        }
        (C::Int64, D::Decimal256(..)) => {
            m.make(Converted::<Int64Type, I64ToI256>::new(d), Int64Type)
        }

        (C::Int96, D::Timestamp(unit, _)) => m.make(Int96Timestamps::new(*unit, d), Int96Type),

        (C::Float, D::Float32) => m.make(Native::<FloatType>::new(d), FloatType),
        (C::Double, D::Float64) => m.make(Native::<DoubleType>::new(d), DoubleType),

        (C::ByteArray, D::Binary | D::Utf8) => m.make(OffsetBytes::<i32>::new(d), ByteArrayType),
        (C::ByteArray, D::LargeBinary | D::LargeUtf8) => {
            m.make(OffsetBytes::<i64>::new(d), ByteArrayType)
        }
        (C::ByteArray, D::BinaryView | D::Utf8View) => {
            m.make(super::view::Views::new(d), ByteArrayType)
        }
        (C::ByteArray, D::Decimal32(..)) => m.make(Decimals::<i32>::new(d), ByteArrayType),
        (C::ByteArray, D::Decimal64(..)) => m.make(Decimals::<i64>::new(d), ByteArrayType),
        (C::ByteArray, D::Decimal128(..)) => m.make(Decimals::<i128>::new(d), ByteArrayType),
        (C::ByteArray, D::Decimal256(..)) => m.make(Decimals::<i256>::new(d), ByteArrayType),

        (C::FixedLenByteArray(flba), D::FixedSizeBinary(n))
            if usize::try_from(*n).ok() == Some(flba.width()) =>
        {
            m.make(FixedBytes::new(d, flba.width()), flba)
        }
        (C::FixedLenByteArray(flba), D::Float16) if flba.width() == 2 => {
            m.make(FixedBytes::new(d, 2), flba)
        }
        (C::FixedLenByteArray(flba), D::Interval(IntervalUnit::YearMonth))
            if flba.width() == 12 =>
        {
            m.make(FixedBytes::slice(d, 12, 0..4), flba)
        }
        (C::FixedLenByteArray(flba), D::Interval(IntervalUnit::DayTime)) if flba.width() == 12 => {
            m.make(FixedBytes::slice(d, 12, 4..12), flba)
        }
        (C::FixedLenByteArray(flba), D::Decimal32(..)) if flba.width() <= 4 => {
            m.make(Decimals::<i32>::fixed(d, flba.width()), flba)
        }
        (C::FixedLenByteArray(flba), D::Decimal64(..)) if flba.width() <= 8 => {
            m.make(Decimals::<i64>::fixed(d, flba.width()), flba)
        }
        (C::FixedLenByteArray(flba), D::Decimal128(..)) if flba.width() <= 16 => {
            m.make(Decimals::<i128>::fixed(d, flba.width()), flba)
        }
        (C::FixedLenByteArray(flba), D::Decimal256(..)) if flba.width() <= 32 => {
            m.make(Decimals::<i256>::fixed(d, flba.width()), flba)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pqcodec_core::PhysicalType as P;

    fn flba(physical: P, type_length: usize) -> C {
        C::new(physical, type_length).unwrap()
    }

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
            assert!(value_reader(flba(p, 0), &d).is_some(), "{p} -> {d}");
        }
        assert!(value_reader(flba(P::FixedLenByteArray, 16), &D::FixedSizeBinary(16)).is_some());
        assert!(value_reader(flba(P::FixedLenByteArray, 2), &D::Float16).is_some());
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
            assert!(value_reader(flba(p, tl), &d).is_none(), "{p} -> {d}");
        }
    }
}
