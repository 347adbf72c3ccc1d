//! What the file commands read of a file: `--columns`, `--row-groups`, `--offset` and
//! `--limit`, given to pqcodec's reader builder (and to arrow-rs's, for `scan --reader`).

use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::ArrowReaderBuilder;
use pqcodec_file::{Projection, ReaderBuilder, ReaderOptions};

/// The selection flags of `cat` and `scan`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ReadArgs {
    /// Only these columns: comma-separated dotted paths (`a,b.c`); a name selects every
    /// column below it.
    #[arg(long, value_delimiter = ',')]
    pub columns: Option<Vec<String>>,
    /// Only these row groups: comma-separated indices, read in this order.
    #[arg(long, value_delimiter = ',')]
    pub row_groups: Option<Vec<usize>>,
    /// Skip the first N rows read.
    #[arg(long, default_value_t = 0)]
    pub offset: usize,
    /// Read at most N rows.
    #[arg(long)]
    pub limit: Option<usize>,
}

impl ReadArgs {
    /// How the file's metadata is read: with the page index when rows are selected, so only
    /// the pages holding them are fetched.
    pub fn options(&self) -> ReaderOptions {
        ReaderOptions::new().with_page_index(self.offset > 0 || self.limit.is_some())
    }

    /// `builder` reading what the flags select.
    pub fn apply<T>(&self, mut builder: ReaderBuilder<T>) -> ReaderBuilder<T> {
        if let Some(columns) = &self.columns {
            builder = builder.with_projection(Projection::paths(columns.iter().cloned()));
        }
        if let Some(groups) = &self.row_groups {
            builder = builder.with_row_groups(groups.clone());
        }
        if let Some(limit) = self.limit {
            builder = builder.with_limit(limit);
        }
        builder.with_offset(self.offset)
    }

    /// arrow-rs's `builder` reading what the flags select.
    pub fn apply_arrow_rs<T>(&self, mut builder: ArrowReaderBuilder<T>) -> ArrowReaderBuilder<T> {
        if let Some(columns) = &self.columns {
            let mask = ProjectionMask::columns(
                builder.parquet_schema(),
                columns.iter().map(String::as_str),
            );
            builder = builder.with_projection(mask);
        }
        if let Some(groups) = &self.row_groups {
            builder = builder.with_row_groups(groups.clone());
        }
        if let Some(limit) = self.limit {
            builder = builder.with_limit(limit);
        }
        builder.with_offset(self.offset)
    }
}
