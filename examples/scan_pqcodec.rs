//! Decodes every column of a Parquet file with pqcodec, in batches of 8192 rows, N times: a
//! program holding only what such a scan needs, for measuring its memory beside
//! `scan_arrow_rs` (`benches/rss.sh`). The file is read into memory first.
//!
//! ```text
//! cargo run --release --example scan_pqcodec -- FILE.parquet [N]
//! ```

use std::error::Error;

use bytes::Bytes;
use pqcodec_file::ReaderBuilder;

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: scan_pqcodec FILE.parquet [N]");
        std::process::exit(2);
    };
    let repeat: usize = args.next().map_or(Ok(1), |n| n.parse())?;
    let file = Bytes::from(std::fs::read(&path)?);
    let mut rows = 0;
    for _ in 0..repeat {
        for batch in ReaderBuilder::try_new(file.clone())?.build()? {
            rows += std::hint::black_box(batch?).num_rows();
        }
    }
    println!("rows {rows}");
    Ok(())
}
