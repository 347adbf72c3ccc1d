//! Reads a Parquet file by byte ranges with pqcodec's reader (pages framed and decompressed by
//! the parquet crate, decoded by pqcodec) and prints its columns and RecordBatches.
//!
//! ```text
//! cargo run --example pages_to_record_batches -- FILE.parquet [BATCH_SIZE]
//! ```

use std::error::Error;

use arrow_array::RecordBatch;
use pqcodec_file::{LocalFile, ReaderBuilder};

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: pages_to_record_batches FILE.parquet [BATCH_SIZE]");
        std::process::exit(2);
    };
    let batch_size = match args.next() {
        Some(n) => n.parse()?,
        None => 1024,
    };

    let builder = ReaderBuilder::try_new(LocalFile::open(&path)?)?;
    let file = builder.metadata().clone();
    println!("{path}: {} row groups", file.num_row_groups());
    for desc in file.columns() {
        println!(
            "  column {}: {}, max definition level {}, max repetition level {}",
            desc.path,
            desc.physical(),
            desc.max_def_level,
            desc.max_rep_level
        );
    }
    for field in file.schema().fields() {
        println!("  field {}: {}", field.name(), field.data_type());
    }

    let mut rows = 0;
    for (i, batch) in builder.with_batch_size(batch_size).build()?.enumerate() {
        let batch: RecordBatch = batch?;
        rows += batch.num_rows();
        println!("batch {i}: {} rows", batch.num_rows());
        print_batch(&batch);
    }
    println!("{rows} rows");
    Ok(())
}

/// Prints the first rows of a batch, one column per line.
fn print_batch(batch: &RecordBatch) {
    let shown = batch.num_rows().min(3);
    for (field, column) in batch.schema().fields().iter().zip(batch.columns()) {
        println!("  {}: {:?}", field.name(), column.slice(0, shown));
    }
}
