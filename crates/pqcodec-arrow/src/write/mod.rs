//! Arrow arrays into Parquet pages: the reader's inverse.
//!
//! A [`FieldEncoder`] takes the arrays of one Arrow field, batch after batch, shreds them into
//! each leaf column's definition and repetition levels (Dremel: from the arrays' validity and
//! offsets, sliced arrays included) and encodes levels and values with pqcodec's encoders into
//! pages ([`EncodedPage`]), cut at row boundaries once a page reaches its size in bytes or
//! rows; [`ColumnEncoder::take_pages`] hands over the pages finished so far, and
//! [`FieldEncoder::finish_chunks`] ends a row group's column chunks: the dictionary page if
//! one was used (it goes first in the file), the remaining data pages, the chunk's statistics.
//! Compression and framing are the caller's (`pqcodec-file`'s writer).
//!
//! ```
//! use std::sync::Arc;
//! use arrow_array::{ArrayRef, Int32Array};
//! use arrow_schema::{DataType, Field};
//! use pqcodec_arrow::write::{ColumnOptions, FieldEncoder};
//! use pqcodec_arrow::{ColumnDesc, Page};
//! use pqcodec_core::ColumnType;
//!
//! let field = Arc::new(Field::new("a", DataType::Int32, true));
//! let desc = ColumnDesc::flat("a", ColumnType::Int32, true);
//! let mut encoder = FieldEncoder::try_new(field, vec![(desc, ColumnOptions::default())])?;
//! let array: ArrayRef = Arc::new(Int32Array::from(vec![Some(7), None, Some(7)]));
//! encoder.write(&array)?;
//! let chunk = encoder.finish_chunks()?.remove(0);
//! assert_eq!(chunk.dictionary.unwrap().num_values, 1);
//! assert_eq!(chunk.pages[0].num_nulls, 1);
//! assert!(matches!(chunk.pages[0].page, Page::DataV1(_)));
//! # Ok::<(), pqcodec_arrow::Error>(())
//! ```

mod column;
mod gather;
mod physical;
mod shred;
mod stats;
mod typed;
mod values;

use arrow_array::ArrayRef;
use arrow_schema::FieldRef;
use pqcodec_core::Encoding;
pub use pqcodec_encodings::dictionary::DictionaryLimits;

pub use column::{ColumnEncoder, EncodedChunk, EncodedPage};
pub use stats::{Bound, BoundaryOrder, SortOrder, Statistics};

use crate::error::{Error, Result};
use crate::schema::{ColumnDesc, Node};

/// The data page format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PageVersion {
    /// Data page v1: levels and values in one (compressed) block.
    #[default]
    V1,
    /// Data page v2: levels uncompressed before the values, counts in the header.
    V2,
}

/// How one leaf column's pages are made. Fields may be added: set them with the `with_*`
/// methods.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ColumnOptions {
    /// The values' encoding when no dictionary is used, and after the dictionary falls back.
    pub encoding: Encoding,
    /// Dictionary-encode first, falling back to `encoding` past these limits; `None`: never.
    pub dictionary: Option<DictionaryLimits>,
    /// The data page format.
    pub page_version: PageVersion,
    /// A page ends once its encoded levels and values reach about this many bytes.
    pub page_bytes: usize,
    /// A page ends once it holds this many rows.
    pub page_rows: usize,
    /// Whether pages and chunks carry statistics.
    pub statistics: bool,
    /// The order statistics follow, from the column's logical type.
    pub sort_order: SortOrder,
}

impl ColumnOptions {
    /// Sets [`encoding`](Self::encoding).
    pub fn with_encoding(mut self, encoding: Encoding) -> Self {
        self.encoding = encoding;
        self
    }

    /// Sets [`dictionary`](Self::dictionary).
    pub fn with_dictionary(mut self, dictionary: Option<DictionaryLimits>) -> Self {
        self.dictionary = dictionary;
        self
    }

    /// Sets [`page_version`](Self::page_version).
    pub fn with_page_version(mut self, page_version: PageVersion) -> Self {
        self.page_version = page_version;
        self
    }

    /// Sets [`page_bytes`](Self::page_bytes).
    pub fn with_page_bytes(mut self, page_bytes: usize) -> Self {
        self.page_bytes = page_bytes;
        self
    }

    /// Sets [`page_rows`](Self::page_rows).
    pub fn with_page_rows(mut self, page_rows: usize) -> Self {
        self.page_rows = page_rows;
        self
    }

    /// Sets [`statistics`](Self::statistics).
    pub fn with_statistics(mut self, statistics: bool) -> Self {
        self.statistics = statistics;
        self
    }

    /// Sets [`sort_order`](Self::sort_order).
    pub fn with_sort_order(mut self, sort_order: SortOrder) -> Self {
        self.sort_order = sort_order;
        self
    }
}

impl Default for ColumnOptions {
    /// PLAIN after a dictionary of up to 1 MiB, data page v1, pages of 1 MiB or 20,000 rows,
    /// statistics in signed order: arrow-rs's defaults.
    fn default() -> Self {
        ColumnOptions {
            encoding: Encoding::Plain,
            dictionary: Some(DictionaryLimits::default()),
            page_version: PageVersion::V1,
            page_bytes: 1 << 20,
            page_rows: 20_000,
            statistics: true,
            sort_order: SortOrder::Signed,
        }
    }
}

/// An array checked and shredded by [`FieldEncoder::prepare`], ready to encode.
#[derive(Debug)]
pub struct Prepared(Vec<shred::Shredded>);

/// Encodes the arrays of one Arrow field into its leaf columns' pages.
#[derive(Debug)]
pub struct FieldEncoder {
    node: Node,
    columns: Vec<ColumnEncoder>,
}

impl FieldEncoder {
    /// An encoder of `field` into `columns`, its leaf columns in order, each with its options.
    /// Fails if the columns' levels do not fit the field, an encoding does not apply to its
    /// column's type, or an Arrow type cannot be written as its column's physical type.
    pub fn try_new(field: FieldRef, columns: Vec<(ColumnDesc, ColumnOptions)>) -> Result<Self> {
        let descs: Vec<ColumnDesc> = columns.iter().map(|(d, _)| d.clone()).collect();
        let node = Node::build(&field, &descs)?;
        let leaves = node.leaves();
        let mut encoders = Vec::with_capacity(columns.len());
        for ((desc, options), leaf) in columns.into_iter().zip(leaves) {
            encoders.push(ColumnEncoder::try_new(
                desc,
                leaf.field.data_type(),
                options,
            )?);
        }
        Ok(FieldEncoder {
            node,
            columns: encoders,
        })
    }

    /// The leaf columns' encoders.
    pub fn columns(&self) -> &[ColumnEncoder] {
        &self.columns
    }

    /// The leaf columns' encoders, to take their finished pages.
    pub fn columns_mut(&mut self) -> &mut [ColumnEncoder] {
        &mut self.columns
    }

    /// Checks `array` can be written and shreds it into its leaves' levels: its type is the
    /// field's, its offsets fit their children, no non-nullable field holds a null and
    /// dictionary keys are in range. Nothing is encoded until [`FieldEncoder::write_prepared`].
    pub fn prepare(&self, array: &ArrayRef) -> Result<Prepared> {
        if array.data_type() != self.node.field.data_type() {
            return Err(Error::Schema(format!(
                "field {:?} is {} but the array is {}",
                self.node.field.name(),
                self.node.field.data_type(),
                array.data_type()
            )));
        }
        let shredded = shred::shred(&self.node, array)?;
        for (s, c) in shredded.iter().zip(&self.columns) {
            gather::resolve_dictionary(
                &c.desc().path,
                &s.values,
                s.positions.slice(0..s.positions.len()),
            )?;
        }
        Ok(Prepared(shredded))
    }

    /// Encodes an array [`FieldEncoder::prepare`] checked.
    pub fn write_prepared(&mut self, prepared: Prepared) -> Result<()> {
        for (s, c) in prepared.0.iter().zip(&mut self.columns) {
            c.write(s)?;
        }
        Ok(())
    }

    /// Encodes the rows of `array`. On an error in the checks of [`FieldEncoder::prepare`]
    /// nothing is encoded.
    pub fn write(&mut self, array: &ArrayRef) -> Result<()> {
        let prepared = self.prepare(array)?;
        self.write_prepared(prepared)
    }

    /// Ends the row group: each leaf column's chunk, in order.
    pub fn finish_chunks(&mut self) -> Result<Vec<EncodedChunk>> {
        self.columns.iter_mut().map(|c| c.finish_chunk()).collect()
    }
}
