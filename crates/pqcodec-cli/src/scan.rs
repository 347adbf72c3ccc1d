//! `pqcodec scan FILE [selection] [--repeat N] [--batch-size B] [--reader R] [--threads N]`:
//! decodes what the selection flags select N times and reports how long the decoding took.
//!
//! The file is read into memory first; what is timed is reading it into RecordBatches from
//! those bytes: the footer, pages framed (and decompressed) and decoded. `--reader arrow-rs`
//! times arrow-rs's `ParquetRecordBatchReader` on the same bytes with the same selection
//! instead, for comparison within one binary (same code, allocator and baseline memory).
//! `--threads N` decodes the row groups on N threads, each a reader of its share of them
//! built from the same metadata.

use std::error::Error;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use pqcodec_file::{FileMetadata, ReaderBuilder};

use crate::file::ReadArgs;

/// Which implementation decodes the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Reader {
    /// pqcodec's reader.
    Pqcodec,
    /// arrow-rs's `ParquetRecordBatchReader` (the parquet crate).
    ArrowRs,
}

/// How a scan runs.
#[derive(Debug, Clone)]
pub struct ScanArgs {
    pub repeat: usize,
    pub batch_size: usize,
    pub reader: Reader,
    pub threads: usize,
}

/// What a scan measured.
pub struct ScanReport {
    /// Rows decoded over all repeats.
    pub rows: usize,
    /// Time spent decoding.
    pub elapsed: Duration,
}

/// Decodes what `select` selects of the file at `path` as `scan` says.
pub fn scan(path: &Path, select: &ReadArgs, scan: &ScanArgs) -> Result<ScanReport, Box<dyn Error>> {
    let bytes = Bytes::from(std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?);
    let in_file =
        |e: Box<dyn Error>| -> Box<dyn Error> { format!("{}: {e}", path.display()).into() };
    if scan.threads > 1 && (select.offset > 0 || select.limit.is_some()) {
        return Err(
            "--threads splits the row groups between threads: it cannot be combined \
                    with --offset or --limit"
                .into(),
        );
    }
    let mut rows = 0;
    let start = Instant::now();
    for _ in 0..scan.repeat {
        rows += match scan.reader {
            Reader::Pqcodec if scan.threads > 1 => scan_threads(&bytes, select, scan),
            Reader::Pqcodec => scan_pqcodec(&bytes, select, scan.batch_size),
            Reader::ArrowRs => scan_arrow_rs(&bytes, select, scan.batch_size),
        }
        .map_err(in_file)?;
    }
    Ok(ScanReport {
        rows,
        elapsed: start.elapsed(),
    })
}

fn scan_pqcodec(
    bytes: &Bytes,
    select: &ReadArgs,
    batch_size: usize,
) -> Result<usize, Box<dyn Error>> {
    let builder = ReaderBuilder::try_new_with_options(bytes.clone(), select.options())?;
    let mut reader = select.apply(builder).with_batch_size(batch_size).build()?;
    let mut rows = 0;
    while let Some(batch) = reader.next_batch()? {
        rows += std::hint::black_box(batch).num_rows();
    }
    Ok(rows)
}

/// The chosen row groups dealt round-robin to `scan.threads` threads, each reading its own
/// with a reader built from the one metadata.
fn scan_threads(
    bytes: &Bytes,
    select: &ReadArgs,
    scan: &ScanArgs,
) -> Result<usize, Box<dyn Error>> {
    let meta = Arc::new(FileMetadata::load(bytes, false)?);
    let groups = select
        .row_groups
        .clone()
        .unwrap_or_else(|| (0..meta.num_row_groups()).collect());
    let shares: Vec<Vec<usize>> = (0..scan.threads)
        .map(|t| {
            groups
                .iter()
                .copied()
                .skip(t)
                .step_by(scan.threads)
                .collect()
        })
        .filter(|share: &Vec<usize>| !share.is_empty())
        .collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = shares
            .into_iter()
            .map(|share| {
                let meta = Arc::clone(&meta);
                s.spawn(move || -> Result<usize, pqcodec_file::Error> {
                    let builder = ReaderBuilder::new_with_metadata(bytes.clone(), meta);
                    let mut reader = select
                        .apply(builder)
                        .with_row_groups(share)
                        .with_batch_size(scan.batch_size)
                        .build()?;
                    let mut rows = 0;
                    while let Some(batch) = reader.next_batch()? {
                        rows += std::hint::black_box(batch).num_rows();
                    }
                    Ok(rows)
                })
            })
            .collect();
        let mut rows = 0;
        for handle in handles {
            rows += handle.join().map_err(|_| "a scan thread panicked")??;
        }
        Ok(rows)
    })
}

fn scan_arrow_rs(
    bytes: &Bytes,
    select: &ReadArgs,
    batch_size: usize,
) -> Result<usize, Box<dyn Error>> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(bytes.clone())?;
    let reader = select
        .apply_arrow_rs(builder)
        .with_batch_size(batch_size)
        .build()?;
    let mut rows = 0;
    for batch in reader {
        rows += std::hint::black_box(batch?).num_rows();
    }
    Ok(rows)
}
