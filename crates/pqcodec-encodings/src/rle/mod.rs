//! The RLE / bit-packing hybrid (`RLE = 3`): repetition and definition levels, dictionary
//! indices, and BOOLEAN values.
//!
//! The spec's grammar, for a bit width known in advance:
//!
//! ```text
//! rle-bit-packed-hybrid: <length> <encoded-data>
//! // length is not always prepended, please check the table below for more detail
//! length := length of the <encoded-data> in bytes stored as 4 bytes little endian (unsigned int32)
//! encoded-data := <run>*
//! run := <bit-packed-run> | <rle-run>
//! bit-packed-run := <bit-packed-header> <bit-packed-values>
//! bit-packed-header := varint-encode(<bit-pack-scaled-run-len> << 1 | 1)
//! // we always bit-pack a multiple of 8 values at a time, so we only store the number of values / 8
//! bit-pack-scaled-run-len := (bit-packed-run-len) / 8
//! rle-run := <rle-header> <repeated-value>
//! rle-header := varint-encode( (rle-run-len) << 1)
//! repeated-value := value that is repeated, using a fixed-width of round-up-to-next-byte(bit-width)
//! ```
//!
//! Bit-packed values are packed from the least significant bit of each byte; `varint-encode`
//! is ULEB128; run lengths are 1 to 2^31-1. The 4-byte `<length>` comes first for levels in
//! data page v1 and for BOOLEAN values, never for dictionary indices or data page v2 levels:
//! [`split_length_prefix`] takes it off; [`RleDecoder`] and [`RleEncoder`] work on
//! `<encoded-data>` alone, [`RleBooleanDecoder`] and [`RleBooleanEncoder`] on whole BOOLEAN
//! pages.
//!
//! The spec's example, 0 to 7 at bit width 3 as one bit-packed run of one group (header
//! `(1 << 1) | 1 = 0x03`, then `10001000 11000110 11111010`):
//!
//! ```
//! use bytes::Bytes;
//! use pqcodec_encodings::rle::{RleDecoder, RleEncoder};
//!
//! let bytes = [0x03, 0b1000_1000, 0b1100_0110, 0b1111_1010];
//!
//! let mut values = Vec::new();
//! RleDecoder::new(Bytes::copy_from_slice(&bytes), 8, 3)?.read(&mut values, 8)?;
//! assert_eq!(values, [0, 1, 2, 3, 4, 5, 6, 7]);
//!
//! let mut encoder = RleEncoder::new(3);
//! for v in 0..8 {
//!     encoder.put(v);
//! }
//! let mut out = Vec::new();
//! encoder.flush_into(&mut out);
//! assert_eq!(out, bytes);
//! # Ok::<(), pqcodec_encodings::Error>(())
//! ```

mod decoder;
mod encoder;
mod staging;
#[cfg(test)]
mod tests;

pub use decoder::{CHUNK, RunVisitor, unpack_packed};
pub use decoder::{RleBooleanDecoder, RleDecoder};
pub use encoder::{RleBooleanEncoder, RleEncoder};
pub(crate) use staging::{STAGE, Staging};

use pqcodec_core::{Encoding, Error, Result};

/// Widest bit width the hybrid is decoded and encoded at here.
pub(crate) const MAX_BIT_WIDTH: u32 = 32;

/// Longest run the spec allows: 2^31 - 1 values.
pub(crate) const MAX_RUN_LEN: u64 = (1 << 31) - 1;

/// Splits the 4-byte little-endian `<length>` off the front of `data`: returns the
/// `<encoded-data>` it measures and the bytes after it.
///
/// Fails with [`Error::Truncated`] if `data` is shorter than 4 bytes or than the length says.
pub fn split_length_prefix(data: &[u8]) -> Result<(&[u8], &[u8])> {
    let Some((prefix, rest)) = data.split_first_chunk::<4>() else {
        return Err(Error::truncated(Encoding::Rle, "length", 4, data.len()));
    };
    let len = u32::from_le_bytes(*prefix);
    let len = usize::try_from(len).unwrap_or(usize::MAX);
    if len > rest.len() {
        return Err(Error::truncated(
            Encoding::Rle,
            "encoded data",
            len,
            rest.len(),
        ));
    }
    Ok(rest.split_at(len))
}
