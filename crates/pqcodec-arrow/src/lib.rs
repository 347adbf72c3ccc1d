//! Parquet pages decoded by pqcodec straight into Arrow arrays.
//!
//! The input is what a column chunk holds once framed and decompressed: for each leaf column
//! a [`ColumnDesc`] (its [`ColumnType`](pqcodec_core::ColumnType), maximum definition and repetition levels)
//! and its [`Page`]s (an optional dictionary page, then data pages v1 or v2 in any encoding the
//! codec core knows); plus the Arrow field or schema to produce. The output is Arrow arrays or
//! [`RecordBatch`](arrow_array::RecordBatch)es of the batch size the caller picks, with
//! `skip(rows)`.
//!
//! - Values are decoded by `pqcodec-encodings` into sinks that write Arrow buffers directly,
//!   converting as they append (INT32 into Int8, Date64, Decimal128, INT96 into timestamps,
//!   big-endian decimals, Float16...); every mapping Parquet's schema conversion makes is
//!   supported, including Utf8View / BinaryView and dictionary types.
//! - Validity comes from the definition levels (a flat optional column's levels never exist
//!   as integers: runs go straight into the bitmap); list offsets and nested validity from the
//!   repetition levels (List, LargeList, nested lists, structs, maps).
//! - A column read as an Arrow dictionary keeps the dictionary page as the dictionary's values
//!   and decodes only keys; chunks that fall back to PLAIN part way still decode.
//! - Strings are validated as UTF-8 page by page (dictionaries once).
//! - Nothing in here panics on bad input: errors name the column, page, encoding and field.
//!
//! ```
//! use std::sync::Arc;
//! use arrow_array::{Array, Int32Array};
//! use arrow_buffer::Buffer;
//! use arrow_schema::{DataType, Field};
//! use pqcodec_arrow::{ArrayDecoder, Column, ColumnDesc, DataPageV1, Page};
//! use pqcodec_core::{ColumnType, Encoding};
//!
//! // An optional INT32 column: definition levels 1, 0, 1 (RLE, with their 4-byte length),
//! // then the two non-null values, PLAIN.
//! let mut bytes = vec![2, 0, 0, 0, 0x03, 0b101];
//! bytes.extend_from_slice(&7i32.to_le_bytes());
//! bytes.extend_from_slice(&9i32.to_le_bytes());
//! let page = Page::DataV1(DataPageV1 {
//!     data: Buffer::from_vec(bytes),
//!     num_values: 3,
//!     encoding: Encoding::Plain,
//!     def_level_encoding: Encoding::Rle,
//!     rep_level_encoding: Encoding::Rle,
//! });
//! let desc = ColumnDesc::flat("a", ColumnType::Int32, true);
//! let pages = vec![Ok::<_, std::io::Error>(page)].into_iter();
//! let field = Arc::new(Field::new("a", DataType::Int32, true));
//! let mut decoder = ArrayDecoder::try_new(field, vec![Column::new(desc, pages)])?;
//! let array = decoder.read(10)?;
//! assert_eq!(array.as_ref(), &Int32Array::from(vec![Some(7), None, Some(9)]) as &dyn Array);
//! # Ok::<(), pqcodec_arrow::Error>(())
//! ```

mod decoder;
mod error;
mod leaf;
mod levels;
mod nested;
mod page;
mod schema;
#[cfg(test)]
mod tests;
mod values;
pub mod write;

pub use decoder::{ArrayDecoder, Column, RecordBatchDecoder};
pub use error::{Error, Location, Result, SourceError};
pub use page::{DataPageV1, DataPageV2, DictionaryPage, Page, PageHint, PageSource};
pub use schema::{ColumnDesc, leaf_count};
