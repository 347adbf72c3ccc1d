//! DELTA_LENGTH_BYTE_ARRAY (encoding 6): BYTE_ARRAY values as their lengths, DELTA_BINARY_PACKED,
//! followed by all their bytes back to back.
//!
//! The spec's grammar:
//!
//! ```text
//! <Delta Encoded Lengths> <Byte Array Data>
//! ```
//!
//! The lengths are an INT32 [DELTA_BINARY_PACKED](crate::delta_binary_packed) stream; the data
//! starts right after its last miniblock. A negative length is invalid.
//!
//! The spec's example, "Hello", "World", "Foobar", "ABCDEF", is DeltaEncoding(5, 5, 6, 6) then
//! "HelloWorldFoobarABCDEF"; with the default delta layout (blocks of 128 values in 4
//! miniblocks) the lengths are the first value 5, then one block of deltas 0, 1, 0: min delta
//! 0, and relative deltas 0, 1, 0 on 1 bit in the first miniblock.
//!
//! ```
//! use bytes::Bytes;
//! use pqcodec_core::{ByteArrayType, Decoder, Encoder, ValueBuffer};
//! use pqcodec_encodings::delta_length_byte_array::{
//!     DeltaLengthByteArrayDecoder, DeltaLengthByteArrayEncoder,
//! };
//!
//! let values: [&[u8]; 4] = [b"Hello", b"World", b"Foobar", b"ABCDEF"];
//! let mut bytes = vec![
//!     0x80, 0x01, 0x04, 0x04, 0x0A, // lengths: block size 128, 4 miniblocks, 4 values, first 5
//!     0x00,                         // min delta 0
//!     0x01, 0x00, 0x00, 0x00,       // bit widths
//!     0x02, 0x00, 0x00, 0x00,       // 0, 1, 0 (and padding) on 1 bit
//! ];
//! bytes.extend_from_slice(b"HelloWorldFoobarABCDEF");
//!
//! let mut encoder = DeltaLengthByteArrayEncoder::new();
//! Encoder::<ByteArrayType>::put(&mut encoder, values)?;
//! assert_eq!(Encoder::<ByteArrayType>::flush(&mut encoder)?, bytes);
//!
//! let mut decoder = DeltaLengthByteArrayDecoder::new(Bytes::copy_from_slice(&bytes), 4)?;
//! let decoded = decoder.read_all()?;
//! assert!(decoded.values().eq(values));
//! # Ok::<(), pqcodec_core::Error>(())
//! ```

pub(crate) mod decoder;
mod encoder;

pub use decoder::DeltaLengthByteArrayDecoder;
pub use encoder::DeltaLengthByteArrayEncoder;

#[cfg(test)]
pub(crate) mod tests;
