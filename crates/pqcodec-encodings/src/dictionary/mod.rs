//! Dictionary encoding (`PLAIN_DICTIONARY = 2`, `RLE_DICTIONARY = 8`).
//!
//! The spec:
//!
//! ```text
//! Dictionary page format: the entries in the dictionary using the plain encoding.
//!
//! Data page format: the bit width used to encode the entry ids stored as 1 byte (max bit
//! width = 32), followed by the values encoded using RLE/Bit packed described above (with the
//! given bit width).
//! ```
//!
//! If the dictionary grows too big, in bytes or in distinct values, the writer falls back to
//! PLAIN for the rest of the column chunk. PLAIN_DICTIONARY is the deprecated name: the pages
//! are the same bytes.
//!
//! - [`IndexDecoder`]: the indices of a data page, checked against the dictionary's length;
//! - [`DictionaryDecoder`]: a data page's values, looked up in a decoded dictionary page;
//! - [`DictionaryEncoder`]: builds the dictionary and the data pages, falling back to PLAIN
//!   past its [`DictionaryLimits`].
//!
//! The spec has no example bytes; this one follows its grammar. INT32 values 7, 9, 7, 7 make
//! the dictionary page `7, 9` in PLAIN, and a data page of bit width 1 then one bit-packed run
//! of one group (header `0x03`) holding indices 0, 1, 0, 0 (and four zeros of padding):
//!
//! ```
//! use std::sync::Arc;
//!
//! use bytes::Bytes;
//! use pqcodec_core::{Decoder, Encoder, Int32Type};
//! use pqcodec_encodings::dictionary::{DictionaryDecoder, DictionaryEncoder, DictionaryLimits};
//! use pqcodec_encodings::plain::decode_plain_page;
//!
//! let dictionary_page = [7, 0, 0, 0, 9, 0, 0, 0];
//! let data_page = [0x01, 0x03, 0b0000_0010];
//!
//! let dictionary = Arc::new(decode_plain_page(&dictionary_page, 2, Int32Type)?);
//! let page = Bytes::copy_from_slice(&data_page);
//! let mut decoder = DictionaryDecoder::<Int32Type>::new(page, 4, dictionary)?;
//! assert_eq!(decoder.read_all()?, [7, 9, 7, 7]);
//!
//! let mut encoder = DictionaryEncoder::new(Int32Type, DictionaryLimits::default());
//! encoder.put(&[7, 9, 7, 7])?;
//! assert_eq!(encoder.flush()?, data_page);
//! assert_eq!(encoder.dictionary_page()?, dictionary_page);
//! # Ok::<(), pqcodec_encodings::Error>(())
//! ```

mod decoder;
mod encoder;
mod interner;
#[cfg(test)]
mod tests;

pub use decoder::{DictionaryDecoder, DictionaryValue, IndexDecoder};
pub use encoder::{DictionaryEncoder, DictionaryLimits};

/// Widest bit width of dictionary indices the spec allows.
const MAX_INDEX_BIT_WIDTH: u32 = 32;
