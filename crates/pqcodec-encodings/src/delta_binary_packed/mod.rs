//! DELTA_BINARY_PACKED (encoding 5): INT32 and INT64 values as differences from their
//! predecessor, bit packed per miniblock against a per-block minimum.
//!
//! The spec's grammar:
//!
//! ```text
//! <header>  := <block size in values> <number of miniblocks in a block>
//!              <total value count> <first value>
//! <block>   := <min delta> <list of bitwidths of miniblocks> <miniblocks>
//! ```
//!
//! - the block size is a multiple of 128 and the miniblock count divides it into miniblocks of a
//!   multiple of 32 values; both, and the total value count, are ULEB128 ints;
//! - the first value and each block's min delta are zigzag ULEB128 ints;
//! - each miniblock's bit width is one byte, and the miniblock holds its values minus the min
//!   delta bit packed (LSB first) at that width;
//! - the last miniblock is padded to a whole miniblock (the padding bits should be zero, readers
//!   accept anything); the unneeded miniblocks of the last block keep their bit width bytes (any
//!   value) but have no bytes at all;
//! - all arithmetic wraps in the type's width (two's complement), so every INT32 delta fits in
//!   32 bits and every INT64 delta in 64.
//!
//! The spec's second example, 7, 5, 3, 1, 2, 3, 4, 5, uses a block size of 8, which real files
//! may not; here it is with the default layout (blocks of 128 values in 4 miniblocks of 32):
//! deltas -2, -2, -2, 1, 1, 1, 1, min delta -2, relative deltas 0, 0, 0, 3, 3, 3, 3 packed on 2
//! bits in the first miniblock, padded to 32 values; the three other miniblocks are unneeded.
//!
//! ```
//! use bytes::Bytes;
//! use pqcodec_core::{Decoder, Encoder, Int32Type};
//! use pqcodec_encodings::delta_binary_packed::{
//!     DeltaBinaryPackedDecoder, DeltaBinaryPackedEncoder,
//! };
//!
//! let values = [7, 5, 3, 1, 2, 3, 4, 5];
//! let bytes = [
//!     0x80, 0x01, // block size 128
//!     0x04,       // 4 miniblocks
//!     0x08,       // 8 values
//!     0x0E,       // first value 7 (zigzag)
//!     0x03,       // min delta -2 (zigzag)
//!     0x02, 0x00, 0x00, 0x00, // bit widths of the 4 miniblocks
//!     0xC0, 0x3F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, // 0,0,0,3,3,3,3 + padding on 2 bits
//! ];
//!
//! let mut encoder = DeltaBinaryPackedEncoder::<Int32Type>::new();
//! encoder.put(&values)?;
//! assert_eq!(encoder.flush()?, bytes);
//!
//! let mut decoder = DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 8)?;
//! assert_eq!(decoder.read_all()?, values);
//! assert_eq!(decoder.end_offset()?, bytes.len());
//! # Ok::<(), pqcodec_core::Error>(())
//! ```

mod decoder;
mod encoder;

pub use decoder::DeltaBinaryPackedDecoder;
pub(crate) use decoder::{Piece, reserve_bound};

pub use encoder::DeltaBinaryPackedEncoder;

use pqcodec_core::{Encoding, Error, Result};

/// Values decoded at a time, into a chunk on the stack or the decoder's buffer.
pub(crate) const CHUNK: usize = 256;

/// The block layout: values per block, miniblocks per block, values per miniblock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    pub(crate) block_size: usize,
    pub(crate) miniblocks: usize,
    pub(crate) miniblock_size: usize,
}

impl Layout {
    /// Checks a block size and miniblock count against the spec: the block size a positive
    /// multiple of `block_multiple` (128), miniblocks of a multiple of `miniblock_multiple` (32)
    /// values. Tests pass smaller multiples to reproduce the spec's examples.
    pub(crate) fn new(
        encoding: Encoding,
        block_size: u64,
        miniblocks: u64,
        block_multiple: u64,
        miniblock_multiple: u64,
    ) -> Result<Layout> {
        if block_size == 0 || !block_size.is_multiple_of(block_multiple) {
            return Err(Error::invalid(
                encoding,
                "block size",
                format!("{block_size} is not a positive multiple of {block_multiple}"),
            ));
        }
        if miniblocks == 0 {
            return Err(Error::invalid(
                encoding,
                "miniblock count",
                "0 miniblocks per block",
            ));
        }
        if !block_size.is_multiple_of(miniblocks) {
            return Err(Error::invalid(
                encoding,
                "miniblock count",
                format!("{miniblocks} does not divide the block size {block_size}"),
            ));
        }
        let miniblock_size = block_size / miniblocks;
        if !miniblock_size.is_multiple_of(miniblock_multiple) {
            return Err(Error::invalid(
                encoding,
                "miniblock size",
                format!(
                    "{block_size} values in {miniblocks} miniblocks make miniblocks of \
                     {miniblock_size} values, not a multiple of {miniblock_multiple}"
                ),
            ));
        }
        let too_large = || {
            Error::invalid(
                encoding,
                "block size",
                format!("{block_size} does not fit in memory addresses"),
            )
        };
        Ok(Layout {
            block_size: usize::try_from(block_size).map_err(|_| too_large())?,
            miniblocks: usize::try_from(miniblocks).map_err(|_| too_large())?,
            miniblock_size: usize::try_from(miniblock_size).map_err(|_| too_large())?,
        })
    }

    /// The spec's rules: blocks of a multiple of 128 values, miniblocks of a multiple of 32.
    pub(crate) fn checked(encoding: Encoding, block_size: u64, miniblocks: u64) -> Result<Layout> {
        Layout::new(encoding, block_size, miniblocks, 128, 32)
    }
}

#[cfg(test)]
pub(crate) mod tests;
