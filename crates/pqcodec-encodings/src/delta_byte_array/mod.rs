//! DELTA_BYTE_ARRAY (encoding 7): BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY values front-compressed:
//! each value is the length of the prefix it shares with the previous value plus the rest.
//!
//! The spec's grammar: the prefix lengths as DELTA_BINARY_PACKED, followed by the suffixes as
//! DELTA_LENGTH_BYTE_ARRAY:
//!
//! ```text
//! <Delta Encoded Prefix Lengths> <Delta Encoded Suffix Lengths> <Suffix Data>
//! ```
//!
//! A prefix length is at most the previous value's length (so the first is 0); even for
//! FIXED_LEN_BYTE_ARRAY every length is stored.
//!
//! The spec's example, "axis", "axle", "babble", "babyhood", is DeltaEncoding(0, 2, 0, 3) (the
//! prefix lengths), DeltaEncoding(4, 2, 6, 5) (the suffix lengths), then "axislebabbleyhood".
//! With the default delta layout (blocks of 128 values in 4 miniblocks of 32):
//!
//! ```
//! use bytes::Bytes;
//! use pqcodec_core::{ByteArrayType, Decoder, Encoder, ValueBuffer};
//! use pqcodec_encodings::delta_byte_array::{DeltaByteArrayDecoder, DeltaByteArrayEncoder};
//!
//! let values: [&[u8]; 4] = [b"axis", b"axle", b"babble", b"babyhood"];
//! let mut bytes = vec![
//!     // prefix lengths: 4 values, first 0; deltas 2, -2, 3: min -2, relative 4, 0, 5 on 3 bits
//!     0x80, 0x01, 0x04, 0x04, 0x00, 0x03, 0x03, 0x00, 0x00, 0x00,
//!     0x44, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
//!     // suffix lengths: 4 values, first 4; deltas -2, 4, -1: min -2, relative 0, 6, 1 on 3 bits
//!     0x80, 0x01, 0x04, 0x04, 0x08, 0x03, 0x03, 0x00, 0x00, 0x00,
//!     0x70, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
//! ];
//! bytes.extend_from_slice(b"axislebabbleyhood");
//!
//! let mut encoder = DeltaByteArrayEncoder::new(ByteArrayType);
//! encoder.put(values)?;
//! assert_eq!(encoder.flush()?, bytes);
//!
//! let mut decoder = DeltaByteArrayDecoder::new(Bytes::copy_from_slice(&bytes), 4, ByteArrayType)?;
//! let decoded = decoder.read_all()?;
//! assert!(decoded.values().eq(values));
//! # Ok::<(), pqcodec_core::Error>(())
//! ```

mod decoder;
mod encoder;

pub use decoder::DeltaByteArrayDecoder;
pub use encoder::DeltaByteArrayEncoder;

#[cfg(test)]
mod tests;
