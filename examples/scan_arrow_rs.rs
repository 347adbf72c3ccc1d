//! Decodes every column of a Parquet file with arrow-rs's `ParquetRecordBatchReader`, in
//! batches of 8192 rows, N times: `scan_pqcodec`'s counterpart (`benches/rss.sh`). The file
//! is read into memory first.
//!
//! ```text
//! cargo run --release --example scan_arrow_rs -- FILE.parquet [N]
//! ```

use std::error::Error;

use bytes::Bytes;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: scan_arrow_rs FILE.parquet [N]");
        std::process::exit(2);
    };
    let repeat: usize = args.next().map_or(Ok(1), |n| n.parse())?;
    let bytes = Bytes::from(std::fs::read(&path)?);
    let mut rows = 0;
    for _ in 0..repeat {
        let reader = ParquetRecordBatchReaderBuilder::try_new(bytes.clone())?
            .with_batch_size(8192)
            .build()?;
        for batch in reader {
            rows += std::hint::black_box(batch?).num_rows();
        }
    }
    println!("rows {rows}");
    Ok(())
}
