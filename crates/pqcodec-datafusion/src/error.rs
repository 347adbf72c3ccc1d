//! The crate's error: a file pqcodec could not read, or a batch that does not fit the table.

use datafusion::error::DataFusionError;

/// The result of this crate's fallible calls that are not DataFusion's.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Why a scan could not read a file. Reaches DataFusion as
/// [`DataFusionError::External`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// pqcodec could not read the file (its footer, its pages, or the request made of it).
    #[error("{path}: {source}")]
    File {
        /// The file's location in its object store.
        path: String,
        /// What pqcodec found.
        #[source]
        source: pqcodec_file::Error,
    },
    /// A column of the file cannot be read as the table's type.
    #[error("{path}: column {column:?}: {reason}")]
    Column {
        /// The file's location in its object store.
        path: String,
        /// The column's name.
        column: String,
        /// What does not fit.
        reason: String,
    },
}

impl From<Error> for DataFusionError {
    fn from(e: Error) -> Self {
        DataFusionError::External(Box::new(e))
    }
}
