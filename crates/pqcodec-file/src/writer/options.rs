//! How a file is written: per file, and per column by its dotted path.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::RecordBatch;
use parquet::schema::types::TypePtr;
use pqcodec_arrow::write::PageVersion;
use pqcodec_core::Encoding;

use crate::compression::Compression;
use crate::error::Result;
use crate::framing::parquet_types::codec_not_compiled;

/// Settings of one column, each overriding the file's when set. Fields may be added: build
/// them with the `with_*` methods.
///
/// ```
/// use pqcodec_core::Encoding;
/// use pqcodec_file::{ColumnSettings, WriterOptions};
///
/// let id = ColumnSettings::new()
///     .with_encoding(Encoding::DeltaBinaryPacked)
///     .with_dictionary(false);
/// let options = WriterOptions::new().with_column("id", id);
/// # let _ = options;
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct ColumnSettings {
    /// The values' encoding (without a dictionary, or after it falls back).
    pub encoding: Option<Encoding>,
    /// Dictionary-encode first.
    pub dictionary: Option<bool>,
    /// Page compression.
    pub compression: Option<Compression>,
    /// Statistics in the footer and the column index.
    pub statistics: Option<bool>,
    /// Encoding and codec chosen by the writer's advisor ([`WriterOptions::with_auto`]):
    /// `Some(true)` for this column even when the file's are not chosen (the writer needs an
    /// advisor all the same), `Some(false)` never.
    pub auto: Option<bool>,
}

impl ColumnSettings {
    /// No setting: the file's apply.
    pub fn new() -> Self {
        Self::default()
    }

    /// Encodes the values with `encoding` (without a dictionary, or after it falls back).
    pub fn with_encoding(mut self, encoding: Encoding) -> Self {
        self.encoding = Some(encoding);
        self
    }

    /// Dictionary-encodes first, or not.
    pub fn with_dictionary(mut self, dictionary: bool) -> Self {
        self.dictionary = Some(dictionary);
        self
    }

    /// Compresses the pages with `compression`.
    pub fn with_compression(mut self, compression: Compression) -> Self {
        self.compression = Some(compression);
        self
    }

    /// Writes statistics (footer and column index), or not.
    pub fn with_statistics(mut self, statistics: bool) -> Self {
        self.statistics = Some(statistics);
        self
    }

    /// Lets the advisor choose this column's encoding and codec, or not.
    pub fn with_auto(mut self, auto: bool) -> Self {
        self.auto = Some(auto);
        self
    }
}

/// How a [`FileWriter`](crate::FileWriter) writes: per file, with per-column overrides.
///
/// The defaults, chosen for files any reader takes and most engines read fast: SNAPPY pages
/// (what pyarrow and DuckDB write), dictionary encoding first (up to 1 MiB of dictionary, then
/// PLAIN), data page v1 of up to 1 MiB or 20,000 rows, row groups of up to 1,048,576 rows,
/// statistics in the footer and a page index (column and offset indexes), string and binary
/// bounds cut to 64 bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct WriterOptions {
    pub(crate) compression: Compression,
    pub(crate) encoding: Option<Encoding>,
    pub(crate) dictionary: bool,
    pub(crate) dictionary_page_bytes: usize,
    pub(crate) page_version: PageVersion,
    pub(crate) page_bytes: usize,
    pub(crate) page_rows: usize,
    pub(crate) row_group_rows: usize,
    pub(crate) statistics: bool,
    pub(crate) truncate_bounds: Option<usize>,
    pub(crate) columns: HashMap<String, ColumnSettings>,
    pub(crate) key_value_metadata: Vec<(String, String)>,
    pub(crate) arrow_schema: bool,
    pub(crate) auto: Option<Chooser>,
}

/// What chooses the encoding and codec of the columns a writer is told to choose: an
/// [`Advisor`](crate::Advisor), given with [`WriterOptions::with_auto`].
pub(crate) trait ColumnChooser: Send + Sync + std::fmt::Debug {
    /// For each leaf column of `batches`, written as the Parquet columns under `roots` (the
    /// top-level fields of the file's schema) with `options`, its dotted path and the
    /// encoding, dictionary and codec chosen.
    fn choose(
        &self,
        batches: &[RecordBatch],
        roots: &[TypePtr],
        options: &WriterOptions,
    ) -> Result<Vec<(String, ColumnSettings)>>;
}

/// A writer's [`ColumnChooser`]; options are equal with the same one.
#[derive(Debug, Clone)]
pub(crate) struct Chooser(pub(crate) Arc<dyn ColumnChooser>);

impl PartialEq for Chooser {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Default for WriterOptions {
    fn default() -> Self {
        WriterOptions {
            compression: Compression::Snappy,
            encoding: None,
            dictionary: true,
            dictionary_page_bytes: 1 << 20,
            page_version: PageVersion::V1,
            page_bytes: 1 << 20,
            page_rows: 20_000,
            row_group_rows: 1 << 20,
            statistics: true,
            truncate_bounds: Some(64),
            columns: HashMap::new(),
            key_value_metadata: Vec::new(),
            arrow_schema: true,
            auto: None,
        }
    }
}

impl WriterOptions {
    /// The defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// Page compression of every column.
    pub fn with_compression(mut self, compression: Compression) -> Self {
        self.compression = compression;
        self
    }

    /// The values' encoding of every column, where no dictionary is used or after it falls
    /// back (default PLAIN).
    pub fn with_encoding(mut self, encoding: Encoding) -> Self {
        self.encoding = Some(encoding);
        self
    }

    /// Whether columns are dictionary-encoded first (BOOLEAN columns never are by default).
    pub fn with_dictionary(mut self, dictionary: bool) -> Self {
        self.dictionary = dictionary;
        self
    }

    /// The dictionary's size in bytes past which a column chunk falls back to its encoding.
    pub fn with_dictionary_page_size_limit(mut self, bytes: usize) -> Self {
        self.dictionary_page_bytes = bytes.max(1);
        self
    }

    /// The data page format.
    pub fn with_data_page_version(mut self, version: PageVersion) -> Self {
        self.page_version = version;
        self
    }

    /// About how many bytes of levels and values a data page holds before compression.
    pub fn with_data_page_size_limit(mut self, bytes: usize) -> Self {
        self.page_bytes = bytes.max(1);
        self
    }

    /// At most how many rows a data page holds.
    pub fn with_data_page_row_count_limit(mut self, rows: usize) -> Self {
        self.page_rows = rows.max(1);
        self
    }

    /// At most how many rows a row group holds.
    pub fn with_max_row_group_row_count(mut self, rows: usize) -> Self {
        self.row_group_rows = rows.max(1);
        self
    }

    /// Whether statistics are written (the footer's and the column index).
    pub fn with_statistics(mut self, statistics: bool) -> Self {
        self.statistics = statistics;
        self
    }

    /// At most how many bytes a string or binary bound keeps, in the footer's statistics
    /// and the column index (`None`: whole values). A longer least value is cut (at a
    /// character boundary for strings) and a longer greatest value cut and incremented, so
    /// that both still bound the values; the statistics then say they are not exact. Bounds
    /// of decimals and Float16 are never cut.
    pub fn with_statistics_truncate_length(mut self, bytes: Option<usize>) -> Self {
        self.truncate_bounds = bytes;
        self
    }

    /// Settings for the column at `path` (dotted, as `pqcodec inspect` shows it), overriding
    /// the file's.
    pub fn with_column(mut self, path: impl Into<String>, settings: ColumnSettings) -> Self {
        self.columns.insert(path.into(), settings);
        self
    }

    /// The column's settings at `path`, to change one of them.
    pub fn column_mut(&mut self, path: impl Into<String>) -> &mut ColumnSettings {
        self.columns.entry(path.into()).or_default()
    }

    /// A key-value pair for the footer, after `ARROW:schema`.
    pub fn with_key_value(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.key_value_metadata.push((key.into(), value.into()));
        self
    }

    /// Whether the Arrow schema is embedded as `ARROW:schema` (default yes), so that Arrow
    /// types read back as written.
    pub fn with_arrow_schema(mut self, embed: bool) -> Self {
        self.arrow_schema = embed;
        self
    }

    /// Sets column `path`'s encoding, dictionary and codec to those of `chosen`.
    pub(crate) fn choose_column(&mut self, path: impl Into<String>, chosen: &ColumnSettings) {
        let settings = self.column_mut(path);
        settings.encoding = chosen.encoding;
        settings.dictionary = chosen.dictionary;
        settings.compression = chosen.compression;
    }

    /// Whether the advisor chooses the column at `path`.
    pub(crate) fn is_auto(&self, path: &str) -> bool {
        let settings = self.columns.get(path);
        settings.and_then(|s| s.auto).unwrap_or_else(|| {
            self.auto.is_some()
                && settings.is_none_or(|s| s.encoding.is_none() && s.compression.is_none())
        })
    }

    /// Whether the advisor chooses any column.
    pub(crate) fn any_auto(&self) -> bool {
        self.auto.is_some() || self.columns.values().any(|s| s.auto == Some(true))
    }

    /// A column told to be chosen when no advisor is given, if one is.
    pub(crate) fn auto_without_advisor(&self) -> Option<&str> {
        let mut auto = self.columns.iter().filter(|(_, s)| s.auto == Some(true));
        auto.next()
            .filter(|_| self.auto.is_none())
            .map(|(path, _)| path.as_str())
    }

    /// The largest row group, in rows.
    pub fn max_row_group_row_count(&self) -> usize {
        self.row_group_rows
    }
}

/// The cargo feature writing `codec` needs, if this build was compiled without it: what
/// reading it needs, for SNAPPY (read by pqcodec's own code) `snap`, and for LZ4_RAW above
/// level 1 `lz4-hc`.
pub(crate) fn missing_feature(codec: Compression) -> Option<&'static str> {
    match codec {
        Compression::Snappy => (!cfg!(feature = "snap")).then_some("snap"),
        Compression::Lz4Raw(level) if level > 1 && cfg!(feature = "lz4") => {
            (!cfg!(feature = "lz4-hc")).then_some("lz4-hc")
        }
        other => codec_not_compiled(other.into()).map(|(_, feature)| feature),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compression_parses_with_levels() {
        assert_eq!("zstd:3".parse(), Ok(Compression::Zstd(3)));
        assert_eq!("ZSTD".parse(), Ok(Compression::Zstd(1)));
        assert_eq!("gzip:9".parse(), Ok(Compression::Gzip(9)));
        assert_eq!("lz4_raw".parse(), Ok(Compression::Lz4Raw(1)));
        assert_eq!("LZ4_RAW:9".parse(), Ok(Compression::Lz4Raw(9)));
        assert!("lz4_raw:13".parse::<Compression>().is_err());
        assert_eq!(Compression::Lz4Raw(1).to_string(), "LZ4_RAW");
        assert_eq!(Compression::Lz4Raw(9).to_string(), "LZ4_RAW:9");
        assert!("zstd:23".parse::<Compression>().is_err());
        assert!("snappy:1".parse::<Compression>().is_err());
        assert!("lzo".parse::<Compression>().is_err());
        for c in [
            Compression::Brotli(4),
            Compression::Uncompressed,
            Compression::Snappy,
            Compression::Lz4Raw(1),
            Compression::Lz4Raw(12),
        ] {
            assert_eq!(c.to_string().parse(), Ok(c));
        }
    }

    #[test]
    fn lz4_above_level_one_needs_lz4_hc() {
        let hc = (cfg!(feature = "lz4") && !cfg!(feature = "lz4-hc")).then_some("lz4-hc");
        assert_eq!(
            missing_feature(Compression::Lz4Raw(9)),
            hc.or(lz4_missing())
        );
        assert_eq!(missing_feature(Compression::Lz4Raw(1)), lz4_missing());
    }

    fn lz4_missing() -> Option<&'static str> {
        (!cfg!(feature = "lz4")).then_some("lz4")
    }
}
