//! The crate's one error type, naming the column, the page, the encoding and the field at
//! fault.

use std::fmt;

use arrow_schema::{ArrowError, DataType};
use pqcodec_core::{ColumnType, Encoding};

/// The result of every fallible `pqcodec-arrow` call.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Collects `items` into a vector of exactly their number, or returns the first error
/// (`collect::<Result<Vec<_>>>()` loses the size hint and reserves room for at least four).
pub(crate) fn collect_exact<T>(items: impl ExactSizeIterator<Item = Result<T>>) -> Result<Vec<T>> {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        out.push(item?);
    }
    Ok(out)
}

/// An error from a page source (the caller's framing: I/O, decompression, page headers).
pub type SourceError = Box<dyn std::error::Error + Send + Sync>;

/// Where in a column an error happened: the column's path and the index of the page (counted
/// from 0 over every page the source gave, dictionary pages included), if a page was being
/// decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The column's dotted path.
    pub column: String,
    /// The page, if a page was being decoded.
    pub page: Option<usize>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {:?}", self.column)?;
        if let Some(page) = self.page {
            write!(f, ", page {page}")?;
        }
        Ok(())
    }
}

/// What went wrong turning pages into Arrow arrays.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The codec core rejected a page's bytes; the source names the encoding and the field.
    #[error("{at}: {source}")]
    Codec {
        /// Column and page.
        at: Location,
        /// The codec's error.
        #[source]
        source: pqcodec_core::Error,
    },
    /// The codec core rejected a page's repetition or definition levels.
    #[error("{at}: {levels}: {source}")]
    Levels {
        /// Column and page.
        at: Location,
        /// "repetition levels" or "definition levels".
        levels: &'static str,
        /// The codec's error, naming the levels' encoding and the field.
        #[source]
        source: pqcodec_core::Error,
    },
    /// A page is inconsistent: its levels, counts or values disagree.
    #[error("{at}: {encoding}: invalid {field}: {reason}")]
    Corrupt {
        /// Column and page.
        at: Location,
        /// The encoding of the data at fault (levels or values).
        encoding: Encoding,
        /// The field at fault.
        field: &'static str,
        /// What was expected and what was found.
        reason: String,
    },
    /// A value of a string column is not UTF-8.
    #[error(
        "{at}: value {index} of the batch is not valid UTF-8 \
         (invalid byte at offset {valid_up_to} of the value)"
    )]
    Utf8 {
        /// Column and page.
        at: Location,
        /// Position of the value among the values decoded in the batch.
        index: usize,
        /// Length of the value's valid UTF-8 prefix.
        valid_up_to: usize,
    },
    /// A map's key is null: Parquet declares the key optional (as Presto, Trino and Athena
    /// wrote it), but an Arrow map's keys cannot be null.
    #[error(
        "{at}: map entry {index} of the batch has a null key \
         (an Arrow map's keys cannot be null)"
    )]
    NullMapKey {
        /// The key's column.
        at: Location,
        /// Position of the entry among the map's entries in the batch.
        index: usize,
    },
    /// The physical type cannot be decoded into the Arrow type asked for.
    #[error("{at}: cannot decode {column_type} into {data_type}")]
    Unsupported {
        /// The column.
        at: Location,
        /// The column's type.
        column_type: ColumnType,
        /// The Arrow type asked for.
        data_type: DataType,
    },
    /// The Arrow schema does not fit the columns given (count, levels or nesting).
    #[error("schema: {0}")]
    Schema(String),
    /// The page source failed (I/O, decompression, page header).
    #[error("{at}: reading pages: {source}")]
    Source {
        /// The column.
        at: Location,
        /// The source's error.
        #[source]
        source: SourceError,
    },
    /// Arrow refused to build an array from what was decoded.
    #[error("{at}: building the Arrow array: {source}")]
    Arrow {
        /// The column.
        at: Location,
        /// Arrow's error.
        #[source]
        source: ArrowError,
    },
}

/// What went wrong, before the column and page are known: what the value and level decoders
/// report to the column reader, which adds the location.
#[derive(Debug)]
pub(crate) enum Fault {
    Codec(pqcodec_core::Error),
    Levels {
        levels: &'static str,
        source: pqcodec_core::Error,
    },
    Corrupt {
        encoding: Encoding,
        field: &'static str,
        reason: String,
    },
    Utf8 {
        index: usize,
        valid_up_to: usize,
    },
    Arrow(ArrowError),
}

impl Fault {
    /// A [`Fault::Corrupt`].
    pub(crate) fn corrupt(
        encoding: Encoding,
        field: &'static str,
        reason: impl Into<String>,
    ) -> Self {
        Fault::Corrupt {
            encoding,
            field,
            reason: reason.into(),
        }
    }

    /// The public error, located at `at`.
    pub(crate) fn at(self, at: Location) -> Error {
        match self {
            Fault::Codec(source) => Error::Codec { at, source },
            Fault::Levels { levels, source } => Error::Levels { at, levels, source },
            Fault::Corrupt {
                encoding,
                field,
                reason,
            } => Error::Corrupt {
                at,
                encoding,
                field,
                reason,
            },
            Fault::Utf8 { index, valid_up_to } => Error::Utf8 {
                at,
                index,
                valid_up_to,
            },
            Fault::Arrow(source) => Error::Arrow { at, source },
        }
    }
}

impl From<pqcodec_core::Error> for Fault {
    fn from(e: pqcodec_core::Error) -> Self {
        Fault::Codec(e)
    }
}

impl From<ArrowError> for Fault {
    fn from(e: ArrowError) -> Self {
        Fault::Arrow(e)
    }
}

impl From<Error> for ArrowError {
    fn from(e: Error) -> Self {
        ArrowError::ExternalError(Box::new(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_column_page_encoding_and_field() {
        let at = Location {
            column: "a.b".into(),
            page: Some(3),
        };
        let e = Fault::corrupt(Encoding::Rle, "definition levels", "level 3 over max 1").at(at);
        assert_eq!(
            e.to_string(),
            "column \"a.b\", page 3: RLE: invalid definition levels: level 3 over max 1"
        );
        let e = Fault::Utf8 {
            index: 7,
            valid_up_to: 2,
        }
        .at(Location {
            column: "s".into(),
            page: None,
        });
        assert!(e.to_string().starts_with("column \"s\": value 7"));
    }
}
