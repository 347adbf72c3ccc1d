//! Parquet's physical types as markers (unit structs; FIXED_LEN_BYTE_ARRAY's holds its width),
//! the run-time [`ColumnType`], and the capabilities encodings ask of them.
//!
//! Every marker implements the sealed [`Physical`] trait. An encoding states what it needs in its
//! bounds: DELTA_BINARY_PACKED is implemented for `T: Integer`, BYTE_STREAM_SPLIT for
//! `T: ByteStreamSplit`, ALP for `T: Alp`, so that, for example, a delta decoder of doubles does
//! not compile.

use std::fmt::{self, Debug};
use std::num::NonZeroUsize;

use crate::native::{Int96, IntegerNative, NativeType};
use crate::{ByteArrays, Error, Result, ValueBuffer};

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
}

/// Runs `$body` with `$t` naming the marker type of the [`ColumnType`] `$column_type` and
/// `$ty` (a name, or `_`) bound to the marker's value: the one dispatch from a
/// type known at run time to generic code over its marker.
///
/// ```
/// use pqcodec_core::{ColumnType, Physical, PhysicalType, with_physical};
///
/// fn width<T: Physical>(ty: T) -> Option<usize> {
///     ty.value_width()
/// }
/// let flba = ColumnType::new(PhysicalType::FixedLenByteArray, 16)?;
/// assert_eq!(with_physical!(flba, ty: T => width::<T>(ty)), Some(16));
/// for p in PhysicalType::ALL {
///     let column_type = ColumnType::new(p, 4)?;
///     assert_eq!(with_physical!(column_type, _: T => T::TYPE), p);
/// }
/// # Ok::<(), pqcodec_core::Error>(())
/// ```
#[macro_export]
macro_rules! with_physical {
    ($column_type:expr, $ty:tt : $t:ident => $body:expr) => {
        match $column_type {
            $crate::ColumnType::Boolean => {
                type $t = $crate::BooleanType;
                let $ty: $t = $crate::BooleanType;
                $body
            }
            $crate::ColumnType::Int32 => {
                type $t = $crate::Int32Type;
                let $ty: $t = $crate::Int32Type;
                $body
            }
            $crate::ColumnType::Int64 => {
                type $t = $crate::Int64Type;
                let $ty: $t = $crate::Int64Type;
                $body
            }
            $crate::ColumnType::Int96 => {
                type $t = $crate::Int96Type;
                let $ty: $t = $crate::Int96Type;
                $body
            }
            $crate::ColumnType::Float => {
                type $t = $crate::FloatType;
                let $ty: $t = $crate::FloatType;
                $body
            }
            $crate::ColumnType::Double => {
                type $t = $crate::DoubleType;
                let $ty: $t = $crate::DoubleType;
                $body
            }
            $crate::ColumnType::ByteArray => {
                type $t = $crate::ByteArrayType;
                let $ty: $t = $crate::ByteArrayType;
                $body
            }
            $crate::ColumnType::FixedLenByteArray(flba) => {
                type $t = $crate::FixedLenByteArrayType;
                let $ty: $t = flba;
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

/// A physical type marker: a unit struct, or for FIXED_LEN_BYTE_ARRAY a value holding the
/// column's width.
pub trait Physical: sealed::Sealed + Copy + Debug + Send + Sync + 'static {
    /// The type this marker stands for.
    const TYPE: PhysicalType;
    /// A value as decoders hand it to a [`Sink`](crate::Sink) and encoders take it: `bool`,
    /// `i32`, ..., `[u8]` for the byte-array types.
    type Value: ?Sized + Debug;
    /// An owned, growable run of values: the default sink, and a dictionary's storage.
    type Buffer: ValueBuffer<Self::Value>;

    /// The bytes one value takes unpacked, as a dictionary entry or a hash key holds it: the
    /// width for FIXED_LEN_BYTE_ARRAY, a byte for BOOLEAN (whose PLAIN values are bits),
    /// `None` for BYTE_ARRAY, whose values have no one width.
    fn value_width(self) -> Option<usize>;

    /// The run-time descriptor of this type.
    fn column_type(self) -> ColumnType;
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
    ($(#[$doc:meta])* $name:ident, $pt:ident, $value:ty, $buffer:ty, $width:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl Physical for $name {
            const TYPE: PhysicalType = PhysicalType::$pt;
            type Value = $value;
            type Buffer = $buffer;

            #[inline]
            fn value_width(self) -> Option<usize> {
                $width
            }

            #[inline]
            fn column_type(self) -> ColumnType {
                ColumnType::$pt
            }
        }
        impl From<$name> for ColumnType {
            fn from(_: $name) -> Self {
                ColumnType::$pt
            }
        }
    };
}

marker!(
    /// `BOOLEAN`: values are `bool`.
    BooleanType, Boolean, bool, Vec<bool>, Some(1)
);
marker!(
    /// `INT32`: values are `i32`.
    Int32Type, Int32, i32, Vec<i32>, Some(4)
);
marker!(
    /// `INT64`: values are `i64`.
    Int64Type, Int64, i64, Vec<i64>, Some(8)
);
marker!(
    /// `INT96`: values are [`Int96`].
    Int96Type, Int96, Int96, Vec<Int96>, Some(12)
);
marker!(
    /// `FLOAT`: values are `f32`.
    FloatType, Float, f32, Vec<f32>, Some(4)
);
marker!(
    /// `DOUBLE`: values are `f64`.
    DoubleType, Double, f64, Vec<f64>, Some(8)
);
marker!(
    /// `BYTE_ARRAY`: values are `[u8]` of any length.
    ByteArrayType, ByteArray, [u8], ByteArrays, None
);
/// `FIXED_LEN_BYTE_ARRAY`: values are `[u8]` of the column's type length, which the marker
/// holds: encoders and decoders take it at construction, and it is never zero.
///
/// ```
/// use pqcodec_core::{Error, FixedLenByteArrayType, Physical};
///
/// let uuid = FixedLenByteArrayType::new(16)?;
/// assert_eq!((uuid.width(), uuid.value_width()), (16, Some(16)));
/// assert!(matches!(FixedLenByteArrayType::new(0), Err(Error::TypeLength { type_length: 0 })));
/// # Ok::<(), pqcodec_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FixedLenByteArrayType {
    width: NonZeroUsize,
}

impl FixedLenByteArrayType {
    /// The marker of values `width` bytes long; [`Error::TypeLength`] unless
    /// `1 <= width <= i32::MAX` (Parquet's `type_length` is an i32).
    pub fn new(width: usize) -> Result<Self> {
        match NonZeroUsize::new(width) {
            Some(width) if width.get() <= MAX_TYPE_LENGTH => Ok(FixedLenByteArrayType { width }),
            _ => Err(Error::TypeLength {
                type_length: width as u64,
            }),
        }
    }

    /// The length of every value, in bytes (at least 1).
    #[inline]
    pub fn width(self) -> usize {
        self.width.get()
    }
}

/// The longest FIXED_LEN_BYTE_ARRAY value: Parquet's `type_length` is an i32.
const MAX_TYPE_LENGTH: usize = i32::MAX as usize;

impl sealed::Sealed for FixedLenByteArrayType {}
impl Physical for FixedLenByteArrayType {
    const TYPE: PhysicalType = PhysicalType::FixedLenByteArray;
    type Value = [u8];
    type Buffer = ByteArrays;

    #[inline]
    fn value_width(self) -> Option<usize> {
        Some(self.width())
    }

    #[inline]
    fn column_type(self) -> ColumnType {
        ColumnType::FixedLenByteArray(self)
    }
}
impl From<FixedLenByteArrayType> for ColumnType {
    fn from(ty: FixedLenByteArrayType) -> Self {
        ColumnType::FixedLenByteArray(ty)
    }
}

/// A column's type known at run time: its physical type, and for FIXED_LEN_BYTE_ARRAY its
/// width. [`with_physical!`](crate::with_physical) turns it into a marker.
///
/// ```
/// use pqcodec_core::{ColumnType, PhysicalType};
///
/// let t = ColumnType::new(PhysicalType::FixedLenByteArray, 16)?;
/// assert_eq!((t.to_string(), t.value_width()), ("FIXED_LEN_BYTE_ARRAY(16)".into(), Some(16)));
/// // The type length is read for FIXED_LEN_BYTE_ARRAY only.
/// let t = ColumnType::new(PhysicalType::Int96, 0)?;
/// assert_eq!((t.to_string(), t.value_width()), ("INT96".into(), Some(12)));
/// assert_eq!(ColumnType::ByteArray.value_width(), None);
/// assert!(ColumnType::new(PhysicalType::FixedLenByteArray, 0).is_err());
/// # Ok::<(), pqcodec_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ColumnType {
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
    /// `FIXED_LEN_BYTE_ARRAY` of the marker's width.
    FixedLenByteArray(FixedLenByteArrayType),
}

impl ColumnType {
    /// The type of a column of `physical` type; `type_length` is read for FIXED_LEN_BYTE_ARRAY
    /// only, where it must be 1 to `i32::MAX` ([`Error::TypeLength`] otherwise).
    pub fn new(physical: PhysicalType, type_length: usize) -> Result<Self> {
        Ok(match physical {
            PhysicalType::Boolean => ColumnType::Boolean,
            PhysicalType::Int32 => ColumnType::Int32,
            PhysicalType::Int64 => ColumnType::Int64,
            PhysicalType::Int96 => ColumnType::Int96,
            PhysicalType::Float => ColumnType::Float,
            PhysicalType::Double => ColumnType::Double,
            PhysicalType::ByteArray => ColumnType::ByteArray,
            PhysicalType::FixedLenByteArray => {
                ColumnType::FixedLenByteArray(FixedLenByteArrayType::new(type_length)?)
            }
        })
    }

    /// The physical type, without the width.
    pub fn physical(self) -> PhysicalType {
        crate::with_physical!(self, _: T => T::TYPE)
    }

    /// The bytes one value takes unpacked ([`Physical::value_width`]).
    pub fn value_width(self) -> Option<usize> {
        crate::with_physical!(self, ty: T => ty.value_width())
    }
}

impl fmt::Display for ColumnType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ColumnType::FixedLenByteArray(ty) => {
                write!(f, "{}({})", PhysicalType::FixedLenByteArray, ty.width())
            }
            other => f.write_str(other.physical().name()),
        }
    }
}

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

    #[test]
    fn widths() {
        let widths = [
            (ColumnType::Boolean, Some(1)),
            (ColumnType::Int32, Some(4)),
            (ColumnType::Int64, Some(8)),
            (ColumnType::Int96, Some(12)),
            (ColumnType::Float, Some(4)),
            (ColumnType::Double, Some(8)),
            (ColumnType::ByteArray, None),
        ];
        for (t, width) in widths {
            assert_eq!(t.value_width(), width, "{t}");
            assert_eq!(ColumnType::new(t.physical(), 0), Ok(t));
            assert_eq!(t.to_string(), t.physical().name());
        }
        let flba = FixedLenByteArrayType::new(7).unwrap();
        assert_eq!(flba.value_width(), Some(7));
        assert_eq!(flba.column_type(), ColumnType::FixedLenByteArray(flba));
        assert_eq!(ColumnType::from(flba).value_width(), Some(7));
        assert_eq!(ColumnType::from(Int96Type), ColumnType::Int96);
        assert_eq!(
            ColumnType::new(PhysicalType::FixedLenByteArray, 7)
                .unwrap()
                .to_string(),
            "FIXED_LEN_BYTE_ARRAY(7)"
        );
    }

    #[test]
    fn type_lengths_outside_an_i32_above_zero_are_refused() {
        for bad in [0, i32::MAX as usize + 1, usize::MAX] {
            let err = ColumnType::new(PhysicalType::FixedLenByteArray, bad).unwrap_err();
            assert_eq!(
                err,
                Error::TypeLength {
                    type_length: bad as u64
                }
            );
            assert!(err.to_string().contains("type_length"), "{err}");
            assert_eq!(FixedLenByteArrayType::new(bad), Err(err));
        }
        let widest = FixedLenByteArrayType::new(i32::MAX as usize).unwrap();
        assert_eq!(widest.width(), i32::MAX as usize);
    }
}
