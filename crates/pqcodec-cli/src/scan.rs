//! `pqcodec scan FILE [--repeat N] [--batch-size B]`: decodes every column of every row group
//! N times and reports how long the decoding took.
//!
//! The file is read, framed and decompressed into memory first; only decoding the pages into
//! RecordBatches is timed.

use std::error::Error;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::file::Selection;

/// What a scan measured.
pub struct ScanReport {
    /// Rows decoded over all repeats.
    pub rows: usize,
    /// Time spent decoding.
    pub elapsed: Duration,
}

/// Decodes the file at `path` `repeat` times in batches of `batch_size` rows.
pub fn scan(path: &Path, repeat: usize, batch_size: usize) -> Result<ScanReport, Box<dyn Error>> {
    let selection = Selection::open(path, None)?;
    let pages = selection.load_pages()?;
    let mut rows = 0;
    let start = Instant::now();
    for _ in 0..repeat {
        for batch in selection.batches(selection.columns_from(&pages), batch_size)? {
            rows += std::hint::black_box(batch?).num_rows();
        }
    }
    Ok(ScanReport {
        rows,
        elapsed: start.elapsed(),
    })
}
