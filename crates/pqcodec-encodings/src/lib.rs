//! Every Parquet encoding, decode and encode, generic over the physical types.
//!
//! One module per encoding, its decoder and encoder side by side; the kernels they share (bit
//! packing, varints, a checked byte cursor, SIMD) in a private `kernels` tree; [`bits`] and
//! [`stats`] hold the few that code above the encodings uses. Each
//! decoder implements [`Decoder<T>`](pqcodec_core::Decoder) for the physical types its encoding
//! applies to and each encoder [`Encoder<T>`](pqcodec_core::Encoder); the bounds say which
//! types those are. A decoder owns the page it reads, as [`Bytes`](bytes::Bytes): a page read
//! from a file or an object store is shared with it, not copied.
//! [`dynamic`] picks one at run time from what a page header says.
//!
//! ```
//! use bytes::Bytes;
//! use pqcodec_core::{Decoder, Encoder, Int64Type};
//! use pqcodec_encodings::delta_binary_packed::{DeltaBinaryPackedDecoder, DeltaBinaryPackedEncoder};
//!
//! let mut encoder = DeltaBinaryPackedEncoder::<Int64Type>::new();
//! encoder.put(&[10, 11, 13, i64::MIN])?;
//! let page = encoder.flush()?;
//! let mut decoder = DeltaBinaryPackedDecoder::<Int64Type>::new(Bytes::from(page), 4)?;
//! let mut values = Vec::new();
//! decoder.skip(1)?;
//! decoder.read(&mut values, 10)?;
//! assert_eq!(values, [11, 13, i64::MIN]);
//! # Ok::<(), pqcodec_core::Error>(())
//! ```
//!
//! An encoding that does not apply to a type does not compile:
//!
//! ```compile_fail
//! use bytes::Bytes;
//! use pqcodec_core::DoubleType;
//! use pqcodec_encodings::delta_binary_packed::DeltaBinaryPackedDecoder;
//!
//! let decoder = DeltaBinaryPackedDecoder::<DoubleType>::new(Bytes::new(), 0);
//! ```

pub mod alp;
pub mod bit_packed;
pub mod bits;
pub mod byte_stream_split;
pub mod delta_binary_packed;
pub mod delta_byte_array;
pub mod delta_length_byte_array;
pub mod dictionary;
pub mod dynamic;
pub mod group_var_int;
// The shared kernels (bit packing, varints, SIMD), private: the few that code above the
// encodings needs are in `bits` and `stats`.
mod kernels;
pub mod plain;
pub mod rle;
pub mod stats;

pub use pqcodec_core::{Decoder, Encoder, Encoding, Error, Result, Sink};
