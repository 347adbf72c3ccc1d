//! The vocabulary shared by every pqcodec crate.
//!
//! - [`physical`]: markers for Parquet's eight physical types (zero-sized but for
//!   FIXED_LEN_BYTE_ARRAY's, which holds its width), [`ColumnType`] to name one at run time,
//!   and the capability traits ([`FixedWidth`], [`Integer`], [`ByteStreamSplit`], [`Alp`], [`Binary`]) that
//!   encodings put in their bounds, so that an encoding that does not apply to a type does not
//!   compile;
//! - [`native`]: the fixed-width Rust values behind them ([`NativeType`], [`Int96`]);
//! - [`Encoding`]: the spec's encoding ids;
//! - [`Decoder`], [`Encoder`] and [`Sink`]: streaming decode into a buffer the caller owns, and
//!   batch encode into page bytes ([`SliceSink`]: into a slice the caller holds; [`Data`]: the
//!   bytes a decoder hands a sink, and the page they lie in);
//! - [`Error`]: what went wrong, naming the encoding and the field.
#![forbid(unsafe_code)]

mod byte_arrays;
mod codec;
mod data;
mod encoding;
mod error;
pub mod native;
pub mod physical;
mod sink;
mod slice_sink;

pub use byte_arrays::ByteArrays;
pub use codec::{Decoder, Encoder};
pub use data::Data;
pub use encoding::{Encoding, UnknownEncoding};
pub use error::{Error, Result};
pub use native::{Int96, IntegerNative, IntsMut, NativeType};
pub use physical::{
    Alp, Binary, BooleanType, ByteArrayType, ByteStreamSplit, ColumnType, DoubleType,
    FixedLenByteArrayType, FixedWidth, FloatType, Int32Type, Int64Type, Int96Type, Integer,
    Physical, PhysicalType,
};
pub use sink::{ByteValue, GROWN_SLACK, LengthPrefixed, Lengths, Sink, ValueBuffer};
pub use slice_sink::SliceSink;
