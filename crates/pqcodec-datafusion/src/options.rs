//! [`PqcodecOptions`]: how the format reads, as plain data.

use datafusion::common::config::ParquetOptions;

/// How [`PqcodecFormat`](crate::PqcodecFormat) reads: plain data (no handles, no closures), so
/// that it can be compared, cloned and carried to other processes.
///
/// [`Default`] takes DataFusion's defaults for its own Parquet reader; [`From<&ParquetOptions>`]
/// takes a session's (`datafusion.execution.parquet.*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PqcodecOptions {
    /// Row groups pruned by the query's filters against their footer statistics
    /// (`datafusion.execution.parquet.pruning`).
    pub pruning: bool,
    /// Pages pruned by the query's filters against the page index, read when a file has one
    /// and a filter can use it (`enable_page_index`).
    pub page_index: bool,
    /// Strings and binaries read as Utf8View and BinaryView (`schema_force_view_types`).
    pub force_view_types: bool,
    /// Binary columns read as strings (`binary_as_string`).
    pub binary_as_string: bool,
    /// The files' key-value metadata left out of the table's schema (`skip_metadata`).
    pub skip_metadata: bool,
    /// The longest `IN (...)` list a pruning predicate expands (`max_in_list_size`).
    pub max_in_list_size: usize,
    /// Byte ranges at most this far apart are read in one request. 0 by default: the exact
    /// ranges go to the object store, whose `get_ranges` merges nearby ones as suits it (a
    /// remote store within 1 MiB, the local one not at all), as with DataFusion's reader.
    pub coalesce_gap: u64,
    /// The filters evaluated while reading, conjunct by conjunct, each decoding its columns for
    /// the rows the ones before kept; the other columns decoded for the rows all keep
    /// (`pushdown_filters`).
    pub pushdown_filters: bool,
    /// With `pushdown_filters`, the conjuncts evaluated cheapest first (fewest compressed
    /// bytes), not in the query's order (`reorder_filters`).
    pub reorder_filters: bool,
    /// With `pushdown_filters`, the bound in bytes on what a row group's predicates keep of
    /// the projected columns they read, so that those are decoded once; `None` for the
    /// reader's (100 MiB), 0 to decode them again (`max_predicate_cache_size`).
    pub max_predicate_cache_size: Option<usize>,
}

impl Default for PqcodecOptions {
    fn default() -> Self {
        Self::from(&ParquetOptions::default())
    }
}

impl From<&ParquetOptions> for PqcodecOptions {
    fn from(o: &ParquetOptions) -> Self {
        PqcodecOptions {
            pruning: o.pruning,
            page_index: o.enable_page_index,
            force_view_types: o.schema_force_view_types,
            binary_as_string: o.binary_as_string,
            skip_metadata: o.skip_metadata,
            max_in_list_size: o.max_in_list_size,
            coalesce_gap: 0,
            pushdown_filters: o.pushdown_filters,
            reorder_filters: o.reorder_filters,
            max_predicate_cache_size: o.max_predicate_cache_size,
        }
    }
}
