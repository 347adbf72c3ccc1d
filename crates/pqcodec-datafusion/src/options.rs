//! [`PqcodecOptions`]: how the format reads, as plain data.

use datafusion::common::config::ParquetOptions;

/// How [`PqcodecFormat`](crate::PqcodecFormat) reads: plain data (no handles, no closures), so
/// that it can be compared, cloned and carried to other processes.
///
/// [`Default`] takes DataFusion's defaults for its own Parquet reader, but for
/// [`pushdown_filters`](Self::pushdown_filters), on; [`From<&ParquetOptions>`] takes a
/// session's (`datafusion.execution.parquet.*`). Fields may be added: set them with the
/// `with_*` methods.
///
/// ```
/// use pqcodec_datafusion::PqcodecOptions;
///
/// let options = PqcodecOptions::default()
///     .with_pushdown_filters(false)
///     .with_max_predicate_cache_size(Some(0));
/// assert!(!options.pushdown_filters);
/// assert_eq!(options.max_predicate_cache_size, Some(0));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
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
    /// the rows the ones before kept; the other columns decoded for the rows all keep. On by
    /// default, unlike DataFusion's reader: with it, TPC-H (tpchgen's tables) costs pqcodec less
    /// CPU summed over the queries on 1, 2 and 16 partitions, though some cost more
    /// (BENCHMARKS.md). A session's `pushdown_filters`, off by default, does not
    /// turn it off; on, it turns it on.
    pub pushdown_filters: bool,
    /// With `pushdown_filters`, the conjuncts evaluated cheapest first (fewest compressed
    /// bytes), not in the query's order (`reorder_filters`).
    pub reorder_filters: bool,
    /// With `pushdown_filters`, the bound in bytes on what a row group's predicates keep of
    /// the columns they read that a later conjunct or the projection reads again, so that
    /// those are decoded once; `None` for the reader's (100 MiB), 0 to decode them again
    /// (`max_predicate_cache_size`).
    pub max_predicate_cache_size: Option<usize>,
}

impl PqcodecOptions {
    /// Sets [`pruning`](Self::pruning).
    pub fn with_pruning(mut self, pruning: bool) -> Self {
        self.pruning = pruning;
        self
    }

    /// Sets [`page_index`](Self::page_index).
    pub fn with_page_index(mut self, page_index: bool) -> Self {
        self.page_index = page_index;
        self
    }

    /// Sets [`force_view_types`](Self::force_view_types).
    pub fn with_force_view_types(mut self, force_view_types: bool) -> Self {
        self.force_view_types = force_view_types;
        self
    }

    /// Sets [`binary_as_string`](Self::binary_as_string).
    pub fn with_binary_as_string(mut self, binary_as_string: bool) -> Self {
        self.binary_as_string = binary_as_string;
        self
    }

    /// Sets [`skip_metadata`](Self::skip_metadata).
    pub fn with_skip_metadata(mut self, skip_metadata: bool) -> Self {
        self.skip_metadata = skip_metadata;
        self
    }

    /// Sets [`max_in_list_size`](Self::max_in_list_size).
    pub fn with_max_in_list_size(mut self, max_in_list_size: usize) -> Self {
        self.max_in_list_size = max_in_list_size;
        self
    }

    /// Sets [`coalesce_gap`](Self::coalesce_gap).
    pub fn with_coalesce_gap(mut self, coalesce_gap: u64) -> Self {
        self.coalesce_gap = coalesce_gap;
        self
    }

    /// Sets [`pushdown_filters`](Self::pushdown_filters).
    pub fn with_pushdown_filters(mut self, pushdown_filters: bool) -> Self {
        self.pushdown_filters = pushdown_filters;
        self
    }

    /// Sets [`reorder_filters`](Self::reorder_filters).
    pub fn with_reorder_filters(mut self, reorder_filters: bool) -> Self {
        self.reorder_filters = reorder_filters;
        self
    }

    /// Sets [`max_predicate_cache_size`](Self::max_predicate_cache_size).
    pub fn with_max_predicate_cache_size(
        mut self,
        max_predicate_cache_size: Option<usize>,
    ) -> Self {
        self.max_predicate_cache_size = max_predicate_cache_size;
        self
    }
}

/// Whether pqcodec's reader filters while reading unless told not to.
const PUSHDOWN_FILTERS: bool = true;

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
            // The session's setting cannot tell its default (off) from a choice: its `true`
            // turns pushdown on above (`try_pushdown_filters`), its `false` leaves pqcodec's.
            pushdown_filters: PUSHDOWN_FILTERS,
            reorder_filters: o.reorder_filters,
            max_predicate_cache_size: o.max_predicate_cache_size,
        }
    }
}
