//! The arrow-rs side of `pqcodec scan`: `arrow_rs_scan FILE [--repeat N]`.
//!
//! Reads the whole file into memory first, then times only arrow-rs's
//! `ParquetRecordBatchReader` (batch size 8192) decoding it `N` times, and prints the same last
//! line as `pqcodec scan`: `rows R seconds S`.
//!
//! Unlike `pqcodec scan`, which decompresses the pages before it starts the clock, arrow-rs's
//! reader decompresses inside the timed loop; on uncompressed files the two time the same work.

use std::error::Error;
use std::time::Instant;

use bytes::Bytes;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

const BATCH_SIZE: usize = 8192;

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let mut path = None;
    let mut repeat = 1usize;
    while let Some(arg) = args.next() {
        if arg == "--repeat" {
            repeat = args.next().ok_or("--repeat needs a value")?.parse()?;
        } else if path.is_none() {
            path = Some(arg);
        } else {
            return Err(format!("unexpected argument {arg:?}").into());
        }
    }
    let path = path.ok_or("usage: arrow_rs_scan FILE [--repeat N]")?;
    let bytes = Bytes::from(std::fs::read(&path)?);

    let mut rows = 0;
    let start = Instant::now();
    for _ in 0..repeat {
        let reader = ParquetRecordBatchReaderBuilder::try_new(bytes.clone())?
            .with_batch_size(BATCH_SIZE)
            .build()?;
        for batch in reader {
            rows += std::hint::black_box(batch?).num_rows();
        }
    }
    let elapsed = start.elapsed();
    println!("rows {} seconds {:.6}", rows, elapsed.as_secs_f64());
    Ok(())
}
