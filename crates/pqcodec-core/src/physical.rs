//! Parquet's physical types as zero-sized markers, and the capabilities encodings ask of them.
//!
//! Every marker implements the sealed [`Physical`] trait. An encoding states what it needs in its
//! bounds: DELTA_BINARY_PACKED is implemented for `T: Integer`, BYTE_STREAM_SPLIT for
//! `T: ByteStreamSplit`, ALP for `T: Alp`, so that, for example, a delta decoder of doubles does
//! not compile.

use std::fmt::{self, Debug};

use crate::native::{Int96, IntegerNative, NativeType};
use crate::{ByteArrays, ValueBuffer};

/// A physical type known at run time, as a page header or schema names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PhysicalType {
    /// `BOOLEAN`
    Boolean,
    /// `INT32`
    Int32,
    /// `INT64`
    Int64,
    /// `INT96` (deprecated)
    Int96,
    /// `FLOAT`
    Float,
    /// `DOUBLE`
    Double,
    /// `BYTE_ARRAY`
    ByteArray,
    /// `FIXED_LEN_BYTE_ARRAY`; its length is a property of the column.
    FixedLenByteArray,
}

impl PhysicalType {
    /// Every physical type, in the Thrift definition's order.
    pub const ALL: [PhysicalType; 8] = [
        PhysicalType::Boolean,
        PhysicalType::Int32,
        PhysicalType::Int64,
        PhysicalType::Int96,
        PhysicalType::Float,
        PhysicalType::Double,
        PhysicalType::ByteArray,
        PhysicalType::FixedLenByteArray,
    ];

    /// The spec's name, e.g. `FIXED_LEN_BYTE_ARRAY`.
    pub fn name(self) -> &'static str {
        match self {
            PhysicalType::Boolean => "BOOLEAN",
            PhysicalType::Int32 => "INT32",
            PhysicalType::Int64 => "INT64",
            PhysicalType::Int96 => "INT96",
            PhysicalType::Float => "FLOAT",
            PhysicalType::Double => "DOUBLE",
            PhysicalType::ByteArray => "BYTE_ARRAY",
            PhysicalType::FixedLenByteArray => "FIXED_LEN_BYTE_ARRAY",
        }
    }

    /// The bytes one value takes unpacked, as a dictionary entry or a hash key holds it:
    /// `type_length` for FIXED_LEN_BYTE_ARRAY, a byte for BOOLEAN (whose PLAIN values are
    /// bits), `None` for BYTE_ARRAY, whose values have no one width.
    ///
    /// ```
    /// use pqcodec_core::PhysicalType;
    ///
    /// assert_eq!(PhysicalType::Int96.value_width(0), Some(12));
    /// assert_eq!(PhysicalType::FixedLenByteArray.value_width(16), Some(16));
    /// assert_eq!(PhysicalType::ByteArray.value_width(0), None);
    /// ```
    pub fn value_width(self, type_length: usize) -> Option<usize> {
        Some(match self {
            PhysicalType::Boolean => 1,
            PhysicalType::Int32 | PhysicalType::Float => 4,
            PhysicalType::Int64 | PhysicalType::Double => 8,
            PhysicalType::Int96 => 12,
            PhysicalType::FixedLenByteArray => type_length,
            PhysicalType::ByteArray => return None,
        })
    }
}

/// Runs `$body` with `$t` naming the marker type of the [`PhysicalType`] `$physical`: the one
/// dispatch from a physical type known at run time to generic code over its marker.
///
/// ```
/// use pqcodec_core::{Physical, PhysicalType, with_physical};
///
/// fn name<T: Physical>() -> PhysicalType {
///     T::TYPE
/// }
/// for p in PhysicalType::ALL {
///     assert_eq!(with_physical!(p, T => name::<T>()), p);
/// }
/// ```
#[macro_export]
macro_rules! with_physical {
    ($physical:expr, $t:ident => $body:expr) => {
        match $physical {
            $crate::PhysicalType::Boolean => {
                type $t = $crate::BooleanType;
                $body
            }
            $crate::PhysicalType::Int32 => {
                type $t = $crate::Int32Type;
                $body
            }
            $crate::PhysicalType::Int64 => {
                type $t = $crate::Int64Type;
                $body
            }
            $crate::PhysicalType::Int96 => {
                type $t = $crate::Int96Type;
                $body
            }
            $crate::PhysicalType::Float => {
                type $t = $crate::FloatType;
                $body
            }
            $crate::PhysicalType::Double => {
                type $t = $crate::DoubleType;
                $body
            }
            $crate::PhysicalType::ByteArray => {
                type $t = $crate::ByteArrayType;
                $body
            }
            $crate::PhysicalType::FixedLenByteArray => {
                type $t = $crate::FixedLenByteArrayType;
                $body
            }
        }
    };
}

impl fmt::Display for PhysicalType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for PhysicalType {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        PhysicalType::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                format!("unknown physical type {s:?}; expected BOOLEAN, INT32, INT64, INT96, FLOAT, DOUBLE, BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY")
            })
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A physical type marker.
pub trait Physical: sealed::Sealed + Copy + Default + Debug + Send + Sync + 'static {
    /// The type this marker stands for.
    const TYPE: PhysicalType;
    /// A value as decoders hand it to a [`Sink`](crate::Sink) and encoders take it: `bool`,
    /// `i32`, ..., `[u8]` for the byte-array types.
    type Value: ?Sized + Debug;
    /// An owned, growable run of values: the default sink, and a dictionary's storage.
    type Buffer: ValueBuffer<Self::Value>;
}

/// Types whose values are fixed-width plain old data: INT32, INT64, INT96, FLOAT, DOUBLE.
pub trait FixedWidth:
    Physical<Value = <Self as FixedWidth>::Native, Buffer = Vec<<Self as FixedWidth>::Native>>
{
    /// The Rust value.
    type Native: NativeType;
}

/// INT32 and INT64: the types of DELTA_BINARY_PACKED and GROUP_VAR_INT.
pub trait Integer: FixedWidth<Native = <Self as Integer>::Int> {
    /// The Rust integer.
    type Int: IntegerNative;
}

/// The types BYTE_STREAM_SPLIT applies to: FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY.
pub trait ByteStreamSplit: Physical {}

/// FLOAT and DOUBLE: the types of ALP, whose values are IEEE 754 floats.
///
/// ALP for any other type does not compile:
///
/// ```compile_fail
/// fn alp<T: pqcodec_core::Alp>() {}
/// alp::<pqcodec_core::Int64Type>();
/// ```
///
/// ```
/// fn alp<T: pqcodec_core::Alp>() {}
/// alp::<pqcodec_core::FloatType>();
/// alp::<pqcodec_core::DoubleType>();
/// ```
pub trait Alp: FixedWidth {}

/// The byte-array types, BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY: values are `[u8]`.
pub trait Binary: Physical<Value = [u8], Buffer = ByteArrays> {}

macro_rules! marker {
    ($(#[$doc:meta])* $name:ident, $pt:ident, $value:ty, $buffer:ty) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl Physical for $name {
            const TYPE: PhysicalType = PhysicalType::$pt;
            type Value = $value;
            type Buffer = $buffer;
        }
    };
}

marker!(
    /// `BOOLEAN`: values are `bool`.
    BooleanType, Boolean, bool, Vec<bool>
);
marker!(
    /// `INT32`: values are `i32`.
    Int32Type, Int32, i32, Vec<i32>
);
marker!(
    /// `INT64`: values are `i64`.
    Int64Type, Int64, i64, Vec<i64>
);
marker!(
    /// `INT96`: values are [`Int96`].
    Int96Type, Int96, Int96, Vec<Int96>
);
marker!(
    /// `FLOAT`: values are `f32`.
    FloatType, Float, f32, Vec<f32>
);
marker!(
    /// `DOUBLE`: values are `f64`.
    DoubleType, Double, f64, Vec<f64>
);
marker!(
    /// `BYTE_ARRAY`: values are `[u8]` of any length.
    ByteArrayType, ByteArray, [u8], ByteArrays
);
marker!(
    /// `FIXED_LEN_BYTE_ARRAY`: values are `[u8]` of the column's type length, which encoders
    /// and decoders take at construction.
    FixedLenByteArrayType, FixedLenByteArray, [u8], ByteArrays
);

macro_rules! fixed_width {
    ($($name:ident => $native:ty),*) => {$(
        impl FixedWidth for $name {
            type Native = $native;
        }
    )*};
}
fixed_width!(Int32Type => i32, Int64Type => i64, Int96Type => Int96, FloatType => f32, DoubleType => f64);

impl Integer for Int32Type {
    type Int = i32;
}
impl Integer for Int64Type {
    type Int = i64;
}

impl ByteStreamSplit for FloatType {}
impl ByteStreamSplit for DoubleType {}
impl ByteStreamSplit for Int32Type {}
impl ByteStreamSplit for Int64Type {}
impl ByteStreamSplit for FixedLenByteArrayType {}

impl Alp for FloatType {}
impl Alp for DoubleType {}

impl Binary for ByteArrayType {}
impl Binary for FixedLenByteArrayType {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back() {
        for t in PhysicalType::ALL {
            assert_eq!(t.name().parse::<PhysicalType>(), Ok(t));
        }
        assert!("INT16".parse::<PhysicalType>().is_err());
        assert_eq!(
            <FixedLenByteArrayType as Physical>::TYPE,
            PhysicalType::FixedLenByteArray
        );
    }
}
