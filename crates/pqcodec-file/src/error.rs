//! The crate's error: what was asked that cannot be done, or what in the file is wrong.

use std::ops::Range;

use crate::framing::FramingError;

/// The result of every fallible `pqcodec-file` call.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Why a file could not be read as asked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The request does not fit the file: a column, row group or row that does not exist, a
    /// schema that does not fit the columns.
    #[error("{0}")]
    Request(String),
    /// The source could not give the file's size.
    #[error("reading the file's size: {0}")]
    Size(#[source] std::io::Error),
    /// The source could not give a byte range, or gave another number of bytes.
    #[error("reading bytes {range:?} of the file: {source}")]
    Read {
        /// The range asked for.
        range: Range<u64>,
        /// What the source said.
        #[source]
        source: std::io::Error,
    },
    /// The footer is malformed.
    #[error(transparent)]
    Framing(#[from] FramingError),
    /// A column chunk or one of its page headers is malformed.
    #[error("column {column:?}: {source}")]
    Chunk {
        /// The column's dotted path.
        column: String,
        /// What is wrong.
        #[source]
        source: FramingError,
    },
    /// A column chunk's offset index disagrees with the chunk.
    #[error("row group {row_group}, column {column:?}: offset index: {reason}")]
    PageIndex {
        /// The row group.
        row_group: usize,
        /// The column's dotted path.
        column: String,
        /// What is wrong.
        reason: String,
    },
    /// A row filter's predicate failed, or did not give one result a row.
    #[error("row group {row_group}: row filter: {source}")]
    Filter {
        /// The row group.
        row_group: usize,
        /// What the predicate said.
        #[source]
        source: arrow_schema::ArrowError,
    },
    /// An Arrow kernel refused what pqcodec gave it: a batch whose columns disagree with its
    /// schema, arrays that cannot be joined or filtered.
    #[error(transparent)]
    Arrow(#[from] arrow_schema::ArrowError),
    /// The Arrow schema asked for cannot be read from the file's columns.
    #[error("the schema cannot be read: {0}")]
    Schema(#[source] pqcodec_arrow::Error),
    /// Writing to the output failed.
    #[error("writing: {0}")]
    Io(#[source] std::io::Error),
    /// Arrays could not be encoded into a column's pages (a value or type its encoding cannot
    /// write).
    #[error(transparent)]
    Encode(pqcodec_arrow::Error),
    /// The parquet crate, in whose types the writer holds the file's metadata (the Parquet
    /// schema, each column chunk's and row group's metadata, returned by `close`), refused it.
    #[error("{context}: {source}")]
    Format {
        /// What was being written: a column, the schema.
        context: String,
        /// The parquet crate's error (its type is not part of this API).
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The writer was asked for a compression codec this build of pqcodec-file was compiled
    /// without.
    #[error(
        "{codec} compression needs pqcodec-file's `{feature}` feature, which this build was compiled without"
    )]
    CodecNotCompiled {
        /// The codec asked for.
        codec: &'static str,
        /// The cargo feature that brings it.
        feature: &'static str,
    },
    /// What the writer was given is more than a Parquet file can hold: a page over 2 GiB or
    /// of more than `i32::MAX` values, more than 32767 row groups, a page index or footer past
    /// the offsets the format has for them.
    #[error("{what} is more than a Parquet file holds ({limit})")]
    TooLarge {
        /// What was too large: the page and its column, the row groups, the footer.
        what: String,
        /// The format's limit.
        limit: &'static str,
    },
    /// The writer failed before, and its output is incomplete: it takes nothing more. The
    /// text is the first failure's, whose error the call that failed returned.
    #[error("the writer failed earlier: {0}")]
    Failed(String),
    /// A page's levels or values could not be decoded into Arrow arrays.
    #[error("row group {row_group}: {source}")]
    Decode {
        /// The row group.
        row_group: usize,
        /// What pqcodec's decoders found.
        #[source]
        source: pqcodec_arrow::Error,
    },
}

impl Error {
    pub(crate) fn size(source: std::io::Error) -> Self {
        Error::Size(source)
    }
}

impl From<Error> for arrow_schema::ArrowError {
    fn from(e: Error) -> Self {
        arrow_schema::ArrowError::ExternalError(Box::new(e))
    }
}
