//! The deprecated bit-packed encoding of levels (`BIT_PACKED = 4`).
//!
//! No header and no runs: `num_values` values of the levels' bit width back to back, packed
//! from the most significant bit of each byte (the opposite of the RLE hybrid), the last byte
//! padded with zeros, `ceil(num_values * bit_width / 8)` bytes in all. In the spec's words:
//!
//! ```text
//! Each value is encoded back to back using a fixed width.
//! There is no padding between values (except for the last byte, which is padded with 0s).
//! ```
//!
//! The spec's example, 0 to 7 at bit width 3:
//!
//! ```text
//! dec value: 0   1   2   3   4   5   6   7
//! bit value: 000 001 010 011 100 101 110 111
//! bit label: ABC DEF GHI JKL MNO PQR STU VWX
//!
//! bit value: 00000101 00111001 01110111
//! bit label: ABCDEFGH IJKLMNOP QRSTUVWX
//! ```
//!
//! ```
//! use bytes::Bytes;
//! use pqcodec_encodings::bit_packed::{BitPackedDecoder, BitPackedEncoder};
//!
//! let bytes = [0b0000_0101, 0b0011_1001, 0b0111_0111];
//!
//! let mut values = Vec::new();
//! BitPackedDecoder::new(Bytes::copy_from_slice(&bytes), 8, 3)?.read(&mut values, 8)?;
//! assert_eq!(values, [0, 1, 2, 3, 4, 5, 6, 7]);
//!
//! let mut encoder = BitPackedEncoder::new(3);
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
#[cfg(test)]
mod tests;

pub use decoder::BitPackedDecoder;
pub use encoder::BitPackedEncoder;

/// Widest bit width of levels.
const MAX_BIT_WIDTH: u32 = 32;
