//! Reads part of a Parquet file as an engine would, with pqcodec's reader builder: two
//! columns of every other row group, a few runs of rows chosen over the page index, an offset,
//! a limit and small batches, counting the bytes the reader fetches from the file.
//!
//! ```text
//! cargo run --example read_selection -- [FILE.parquet]
//! ```
//!
//! Without a file it reads `tests/data/pyarrow_plain_opt_v1.parquet` (run it from the
//! repository's root).

use std::error::Error;
use std::io;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use arrow_cast::display::{ArrayFormatter, FormatOptions};
use bytes::Bytes;
use pqcodec_file::{
    LocalFile, Projection, RangeRead, ReaderBuilder, ReaderOptions, RowSelection, RowSelector,
};

/// A source that counts what is read through it: requests and bytes.
struct Counting {
    inner: LocalFile,
    requests: AtomicU64,
    bytes: AtomicU64,
}

impl Counting {
    fn count(&self, ranges: &[Range<u64>]) {
        let bytes: u64 = ranges.iter().map(|r| r.end - r.start).sum();
        self.requests.fetch_add(1, Ordering::Relaxed);
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
    }

    fn report(&self) -> String {
        let requests = self.requests.load(Ordering::Relaxed);
        let bytes = self.bytes.load(Ordering::Relaxed);
        format!("{bytes} bytes in {requests} requests")
    }
}

impl RangeRead for Counting {
    fn size(&self) -> io::Result<u64> {
        self.inner.size()
    }

    fn read_range(&self, range: Range<u64>) -> io::Result<Bytes> {
        self.count(std::slice::from_ref(&range));
        self.inner.read_range(range)
    }

    // The reader asks for a row group's coalesced ranges at once: one request.
    fn read_ranges(&self, ranges: &[Range<u64>]) -> io::Result<Vec<Bytes>> {
        self.count(ranges);
        ranges
            .iter()
            .map(|r| self.inner.read_range(r.clone()))
            .collect()
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tests/data/pyarrow_plain_opt_v1.parquet".into());
    let source = Arc::new(Counting {
        inner: LocalFile::open(&path).map_err(|e| format!("{path}: {e}"))?,
        requests: AtomicU64::new(0),
        bytes: AtomicU64::new(0),
    });
    let size = source.size()?;

    // The footer and the page index, read through the counting source (an `Arc` of a
    // `RangeRead` is one, so the count stays readable here).
    let options = ReaderOptions::new().with_page_index(true);
    let builder = ReaderBuilder::try_new_with_options(Arc::clone(&source), options)?;
    println!("{path}: {size} bytes; metadata: {}", source.report());

    // The first and the last top-level field, by name (a dotted path picks a nested column).
    let schema = builder.schema()?;
    let fields = schema.fields();
    let (Some(first), Some(last)) = (fields.first(), fields.last()) else {
        return Err("the file has no columns".into());
    };
    let columns = [first.name().clone(), last.name().clone()];

    // Every other row group, and the rows they hold.
    let meta = builder.metadata().metadata();
    let row_groups: Vec<usize> = (0..meta.num_row_groups()).step_by(2).collect();
    let rows: usize = row_groups
        .iter()
        .map(|&g| usize::try_from(meta.row_group(g).num_rows()).unwrap_or(0))
        .sum();

    // Runs of rows counted over those row groups: a tenth skipped, 30 read, 100 skipped,
    // 50 read; the rest skipped. Cut short on small files.
    let mut selectors = Vec::new();
    let mut left = rows;
    for run in [
        RowSelector::skip(rows / 10),
        RowSelector::select(30),
        RowSelector::skip(100),
        RowSelector::select(50),
    ] {
        let row_count = run.row_count.min(left);
        left -= row_count;
        selectors.push(RowSelector { row_count, ..run });
    }
    let selection = RowSelection::from(selectors);

    let reader = builder
        .with_projection(Projection::paths(columns.clone()))
        .with_row_groups(row_groups.clone())
        .with_row_selection(selection.clone())
        .with_offset(5)
        .with_limit(60)
        .with_batch_size(16)
        .build()?;
    println!(
        "columns {columns:?} of row groups {row_groups:?} ({rows} rows); selection {:?}; \
         offset 5, limit 60, batches of 16",
        selection.selectors()
    );

    let mut total = 0;
    for batch in reader {
        let batch = batch?;
        let options = FormatOptions::default().with_null("null");
        let values = batch
            .columns()
            .iter()
            .map(|column| {
                let formatter = ArrayFormatter::try_new(column.as_ref(), &options)?;
                let shown: Vec<String> = (0..batch.num_rows().min(2))
                    .map(|i| formatter.value(i).to_string())
                    .collect();
                Ok(shown.join(", "))
            })
            .collect::<Result<Vec<_>, arrow_schema::ArrowError>>()?;
        println!(
            "batch of {:2} rows; first values: {}",
            batch.num_rows(),
            values.join(" | ")
        );
        total += batch.num_rows();
    }
    println!("{total} rows read; in all {} of {size}", source.report());
    Ok(())
}
