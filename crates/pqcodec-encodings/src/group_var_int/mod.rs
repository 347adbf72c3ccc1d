//! GROUP_VAR_INT (`GROUP_VAR_INT = 1`, historical): integers in groups, each group led by
//! the byte lengths of its values.
//!
//! Applies to INT32 and INT64. From the original encodings document (the current spec no longer
//! describes it):
//!
//! ```text
//! 32-bit ints are encoded in groups of 4 with 1 leading bytes to encode the byte length of the
//! following 4 ints.
//! 64-bit are encoded in groups of 5, with 2 leading bytes to encode the byte length of the 5
//! ints.
//! For 32-bit ints, the leading byte contains 2 bits per int. Each length encoding specifies the
//! number of bytes minus 1 for that int. For example a byte value of 0b00101101, indicates that:
//!   - the first int has 1 byte (0b00 + 1),
//!   - the second int has 3 bytes (0b10 + 1),
//!   - the third int has 4 bytes (0b11 + 1)
//!   - the 4th int has 2 bytes (0b01 + 1)
//! The bytes that follow the leading byte is just the int data encoded in little endian.
//! For 64-bit ints, the lengths of the 5 ints is encoded as 3 bits. Combined, this uses 15 bits
//! and fits in 2 bytes. The msb of the two bytes is unused.
//! In the case where the data does not make a complete group, (e.g. 3 32-bit ints), a complete
//! group should still be output with 0's filling in for the remainder.
//! ```
//!
//! So a group is
//!
//! ```text
//! INT32 group : <lengths: 1 byte>  <v0: len0 bytes LE> <v1> <v2> <v3>
//! INT64 group : <lengths: 2 bytes> <v0: len0 bytes LE> <v1> <v2> <v3> <v4>
//! ```
//!
//! where a value's bytes are the low `len` bytes of its two's-complement bits (a negative INT32
//! takes 4 bytes, a negative INT64 8).
//!
//! The 32-bit lengths byte holds the first value's `length - 1` in its top two bits (7..6), the
//! fourth's in its bottom two. The document does not say in which order the 64-bit case's two
//! bytes are read; pqcodec reads them the same "first value in the top bits" way: the two bytes
//! are one **big-endian** `u16` (the first byte is the high byte), bit 15 is unused (ignored when
//! decoding, written as 0), and value `j`'s `length - 1` is bits `14 - 3j ..= 12 - 3j`, so the
//! first value sits in bits 14..12 and the fifth in 2..0.
//!
//! The encoder writes each value in as few bytes as it needs (0 takes 1 byte) and pads an
//! incomplete last group with zeros, so a page always holds whole groups; the decoder returns
//! the `num_values` it is asked for and ignores the padding.
//!
//! The document's two examples, the lengths byte `0b00101101` (a group of 1 + 1 + 3 + 4 + 2 =
//! 11 bytes) and the input (1, 2, 3, 4, 5), written as if it were (1, 2, 3, 4, 5, 0, 0, 0):
//!
//! ```
//! use bytes::Bytes;
//! use pqcodec_core::{Decoder, Encoder, Int32Type};
//! use pqcodec_encodings::group_var_int::{GroupVarIntDecoder, GroupVarIntEncoder};
//!
//! let values = [0x12, 0x00AB_CDEF, 0x7654_3210, 0x1234];
//! let bytes = [
//!     0b0010_1101,
//!     0x12,
//!     0xEF, 0xCD, 0xAB,
//!     0x10, 0x32, 0x54, 0x76,
//!     0x34, 0x12,
//! ];
//! let mut enc = GroupVarIntEncoder::<Int32Type>::new();
//! enc.put(&values)?;
//! assert_eq!(enc.flush()?, bytes);
//! assert_eq!(GroupVarIntDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 4)?.read_all()?, values);
//!
//! let mut enc = GroupVarIntEncoder::<Int32Type>::new();
//! enc.put(&[1, 2, 3, 4, 5])?;
//! let bytes = enc.flush()?;
//! assert_eq!(bytes, [0, 1, 2, 3, 4, 0, 5, 0, 0, 0]);
//! assert_eq!(GroupVarIntDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 5)?.read_all()?, [1, 2, 3, 4, 5]);
//! # Ok::<(), pqcodec_core::Error>(())
//! ```
//!
//! And a 64-bit group, lengths 1, 8, 2, 1, 3 (`length - 1` = 0, 7, 1, 0, 2):
//!
//! ```
//! use bytes::Bytes;
//! use pqcodec_core::{Decoder, Encoder, Int64Type};
//! use pqcodec_encodings::group_var_int::{GroupVarIntDecoder, GroupVarIntEncoder};
//!
//! let values = [7, -1, 0x0100, 0, 0x01_0000];
//! // 0b0_000_111_001_000_010 as a big-endian u16.
//! let lengths = [0b0000_1110, 0b0100_0010];
//! let mut enc = GroupVarIntEncoder::<Int64Type>::new();
//! enc.put(&values)?;
//! let bytes = enc.flush()?;
//! assert_eq!(bytes[..2], lengths);
//! assert_eq!(bytes.len(), 2 + 1 + 8 + 2 + 1 + 3);
//! assert_eq!(GroupVarIntDecoder::<Int64Type>::new(Bytes::copy_from_slice(&bytes), 5)?.read_all()?, values);
//! # Ok::<(), pqcodec_core::Error>(())
//! ```

mod decoder;
mod encoder;

pub use decoder::GroupVarIntDecoder;
pub use encoder::GroupVarIntEncoder;

use pqcodec_core::IntegerNative;

/// The most values a group holds (INT64's five).
const MAX_GROUP: usize = 5;

/// The shape of `I`'s groups: values per group and bytes of lengths before them.
#[derive(Debug, Clone, Copy)]
struct Layout {
    /// Values in a group: 4 for INT32, 5 for INT64.
    values: usize,
    /// Bytes of lengths leading a group: 1 for INT32, 2 for INT64.
    header: usize,
}

impl Layout {
    const fn of<I: IntegerNative>() -> Layout {
        if I::BITS == 32 {
            Layout {
                values: 4,
                header: 1,
            }
        } else {
            Layout {
                values: 5,
                header: 2,
            }
        }
    }

    /// The fewest bytes a group takes: its lengths and one byte per value.
    fn min_group_bytes(self) -> usize {
        self.header + self.values
    }

    /// The byte lengths (1 to 4, or 1 to 8) of the values of the group whose lengths are
    /// `header` (`self.header` bytes).
    #[inline]
    fn lengths(self, header: &[u8]) -> [usize; MAX_GROUP] {
        let mut lens = [0; MAX_GROUP];
        match *header {
            [byte] => {
                for (j, len) in lens.iter_mut().take(4).enumerate() {
                    *len = usize::from((byte >> (6 - 2 * j)) & 0b11) + 1;
                }
            }
            [high, low] => {
                let word = u16::from_be_bytes([high, low]);
                for (j, len) in lens.iter_mut().enumerate() {
                    *len = usize::from((word >> (12 - 3 * j)) & 0b111) + 1;
                }
            }
            _ => {}
        }
        lens
    }

    /// The lengths bytes for values of byte lengths `lens` (`self.values` of them); returns the
    /// bytes and how many of them to write.
    #[inline]
    fn header_bytes(self, lens: &[usize]) -> [u8; 2] {
        if self.header == 1 {
            let byte = lens.iter().enumerate().fold(0u8, |acc, (j, &len)| {
                acc | ((len.saturating_sub(1) as u8) << (6 - 2 * j))
            });
            [byte, 0]
        } else {
            let word = lens.iter().enumerate().fold(0u16, |acc, (j, &len)| {
                acc | ((len.saturating_sub(1) as u16) << (12 - 3 * j))
            });
            word.to_be_bytes()
        }
    }
}

/// Bytes from a group's start that cover its longest form (2 + 5 * 8 = 42 bytes) and every
/// 8-byte load of its values: with this many bytes left, a group needs no checks.
const WINDOW: usize = 48;

/// The low `len` (1 to 8) bytes of a 64-bit word.
#[inline(always)]
fn byte_mask(len: usize) -> u64 {
    u64::MAX >> (64 - 8 * len.clamp(1, 8))
}

/// Decodes the group at the start of `win` into `out` (`layout.values` long) and returns the
/// group's length in bytes.
#[inline(always)]
fn decode_window<I: IntegerNative>(layout: Layout, win: &[u8; WINDOW], out: &mut [I]) -> usize {
    let lens = layout.lengths(win.get(..layout.header).unwrap_or_default());
    let mut at = layout.header;
    for (value, &len) in out.iter_mut().zip(&lens) {
        let word = win
            .get(at..)
            .and_then(|w| w.first_chunk::<8>())
            .map_or(0, |w| u64::from_le_bytes(*w));
        *value = I::from_u64_bits(word & byte_mask(len));
        at += len;
    }
    at
}

/// Bytes needed to write `bits` (at least 1).
#[inline]
fn byte_len(bits: u64) -> usize {
    (bits.max(1).ilog2() as usize) / 8 + 1
}

#[cfg(test)]
mod tests;
