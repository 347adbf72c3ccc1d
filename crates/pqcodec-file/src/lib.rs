//! Parquet files read by pqcodec: the footer (pqcodec's Thrift, into the parquet crate's
//! metadata), the page index (the parquet crate's), page headers (pqcodec's) and decompression
//! (SNAPPY pqcodec's, the other codecs by their crates), and a reader that engines can call,
//! decoding with pqcodec's decoders into Arrow.
//!
//! [`ReaderBuilder`] says what to read, as arrow-rs's `ParquetRecordBatchReaderBuilder` does:
//! a [`Projection`] of columns, row groups, a [`RowSelection`] of rows, an offset and a limit,
//! the batch size, and the Arrow types to read into. It reads from any [`RangeRead`] (bytes in
//! memory, a [`LocalFile`], your own storage) into a [`BatchReader`], or, with the
//! `object_store` feature, from any `AsyncRangeRead` such as an `ObjectStoreSource` into a
//! `BatchStream`.
//!
//! Only what is read is fetched: the footer (one request for most files), the page index when
//! asked for, and the projected column chunks of one row group at a time, nearby ranges
//! coalesced. Where the offset index says where pages are, pages holding no selected row are
//! neither fetched nor decompressed nor decoded.
//!
//! ```
//! use pqcodec_file::{LocalFile, Projection, ReaderBuilder};
//!
//! # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/pyarrow_plain_opt_v1.parquet");
//! let reader = ReaderBuilder::try_new(LocalFile::open(path)?)?
//!     .with_projection(Projection::leaves([0]))
//!     .with_offset(10)
//!     .with_limit(5)
//!     .build()?;
//! for batch in reader {
//!     assert_eq!(batch?.num_rows(), 5);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// Lists of byte ranges to read often hold just one.
#![allow(clippy::single_range_in_vec_init)]

pub mod advisor;
mod compression;
mod error;
mod filter;
pub mod framing;
mod layout;
mod metadata;
mod metrics;
mod parquet_file;
mod plan;
mod predicate_cache;
mod projection;
mod reader;
mod row_group;
mod row_groups;
mod selection;
mod source;
#[cfg(feature = "object_store")]
mod stream;
mod view_buffers;
pub mod writer;

pub use advisor::{Advice, Advisor, Objective};
pub use compression::Compression;
pub use error::{Error, Result};
pub use filter::{ArrowPredicate, ArrowPredicateFn, ReadCost, RowFilter, Selectivity};
pub use metadata::FileMetadata;
pub use metrics::ReadMetrics;
pub use parquet_file::{FilePages, ParquetFile};
pub use projection::Projection;
pub use reader::{BatchReader, DEFAULT_BATCH_SIZE, ReaderBuilder, ReaderOptions};
pub use selection::{RowSelection, RowSelector};
pub use source::{DEFAULT_COALESCE_GAP, LocalFile, RangeRead};
#[cfg(feature = "object_store")]
pub use stream::{AsyncRangeRead, BatchStream, ObjectStoreSource};
#[cfg(feature = "object_store")]
pub use writer::AsyncFileWriter;
pub use writer::{ColumnSettings, FileWriter, PageVersion, WriterOptions};
