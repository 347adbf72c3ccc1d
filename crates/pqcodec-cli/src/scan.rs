//! `pqcodec scan FILE [--repeat N] [--batch-size B] [--reader R]`: decodes every column of
//! every row group N times and reports how long the decoding took.
//!
//! The file is read into memory first; what is timed is decoding it into RecordBatches, pages
//! framed (and decompressed) as they are reached. `--reader arrow-rs` times arrow-rs's
//! `ParquetRecordBatchReader` on the same bytes instead, for comparison within one binary
//! (same code, allocator and baseline memory): the two time the same work.

use std::error::Error;
use std::path::Path;
use std::time::{Duration, Instant};

use bytes::Bytes;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::file::Selection;

/// Which implementation decodes the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Reader {
    /// pqcodec's decoders and Arrow adapter.
    Pqcodec,
    /// arrow-rs's `ParquetRecordBatchReader` (the parquet crate).
    ArrowRs,
}

/// What a scan measured.
pub struct ScanReport {
    /// Rows decoded over all repeats.
    pub rows: usize,
    /// Time spent decoding.
    pub elapsed: Duration,
}

/// Decodes the file at `path` `repeat` times in batches of `batch_size` rows with `reader`.
pub fn scan(
    path: &Path,
    repeat: usize,
    batch_size: usize,
    reader: Reader,
) -> Result<ScanReport, Box<dyn Error>> {
    match reader {
        Reader::Pqcodec => scan_pqcodec(path, repeat, batch_size),
        Reader::ArrowRs => scan_arrow_rs(path, repeat, batch_size),
    }
}

fn scan_pqcodec(
    path: &Path,
    repeat: usize,
    batch_size: usize,
) -> Result<ScanReport, Box<dyn Error>> {
    let selection = Selection::open(path, None)?;
    let mut rows = 0;
    let start = Instant::now();
    for _ in 0..repeat {
        for batch in selection.batches(selection.columns(), batch_size)? {
            rows += std::hint::black_box(batch?).num_rows();
        }
    }
    Ok(ScanReport {
        rows,
        elapsed: start.elapsed(),
    })
}

fn scan_arrow_rs(
    path: &Path,
    repeat: usize,
    batch_size: usize,
) -> Result<ScanReport, Box<dyn Error>> {
    let bytes = Bytes::from(std::fs::read(path)?);
    let mut rows = 0;
    let start = Instant::now();
    for _ in 0..repeat {
        let reader = ParquetRecordBatchReaderBuilder::try_new(bytes.clone())?
            .with_batch_size(batch_size)
            .build()?;
        for batch in reader {
            rows += std::hint::black_box(batch?).num_rows();
        }
    }
    Ok(ScanReport {
        rows,
        elapsed: start.elapsed(),
    })
}
