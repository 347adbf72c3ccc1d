//! `pqcodec`: Parquet encodings and files on the command line.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cat;
mod codec;
mod file;
mod heap;
mod inspect;
mod scan;
mod values_text;

#[global_allocator]
static HEAP: heap::Counting = heap::Counting;

/// Parquet encodings, decoded and encoded by pqcodec.
#[derive(Parser)]
#[command(name = "pqcodec", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Encode values (lowercase hex of each value's PLAIN bytes, one per line) read from stdin
    /// into one encoding's page bytes on stdout.
    Encode(codec::EncodeArgs),
    /// Decode one encoding's page bytes from stdin into values (hex of their PLAIN bytes, one
    /// per line) on stdout.
    Decode(codec::DecodeArgs),
    /// Print a Parquet file's rows as JSON Lines, one object per row, decoded by pqcodec.
    Cat {
        /// The Parquet file.
        file: PathBuf,
        /// Only these columns: comma-separated dotted paths (`a,b.c`); a name selects every
        /// column below it.
        #[arg(long, value_delimiter = ',')]
        columns: Option<Vec<String>>,
    },
    /// Decode every column of every row group, timing only the decode of the file in memory.
    Scan {
        /// The Parquet file.
        file: PathBuf,
        /// How many times to decode the file.
        #[arg(long, default_value_t = 1)]
        repeat: usize,
        /// Rows per RecordBatch.
        #[arg(long, default_value_t = 8192)]
        batch_size: usize,
        /// The decoder: pqcodec, or arrow-rs's reader for comparison.
        #[arg(long, value_enum, default_value_t = scan::Reader::Pqcodec)]
        reader: scan::Reader,
    },
    /// List a Parquet file's row groups, column chunks and pages.
    Inspect {
        /// The Parquet file.
        file: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Bad input must give an error, never a panic: pqcodec's own crates return errors, and a
    // panic left in the parquet crate's framing (footer, page headers, decompression) is
    // caught here and reported as an error instead of a backtrace.
    let location = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let hook_location = std::sync::Arc::clone(&location);
    std::panic::set_hook(Box::new(move |info| {
        if let (Some(at), Ok(mut slot)) = (info.location(), hook_location.lock()) {
            *slot = at.to_string();
        }
    }));
    let result = std::panic::catch_unwind(|| run(cli)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("unknown panic");
        let at = location.lock().map(|s| s.clone()).unwrap_or_default();
        Err(format!("malformed input made a dependency panic: {message} (at {at})").into())
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pqcodec: error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs one command.
fn run(cli: Cli) -> Result<(), Box<dyn std::error::Error>> {
    match cli.command {
        Command::Encode(args) => codec::encode(&args),
        Command::Decode(args) => codec::decode(&args),
        Command::Cat { file, columns } => {
            cat::cat(&file, columns.as_deref(), std::io::stdout().lock())
        }
        Command::Scan {
            file,
            repeat,
            batch_size,
            reader,
        } => scan::scan(&file, repeat, batch_size, reader).map(|r| {
            println!(
                "rows {} seconds {:.6} peak_heap_bytes {}",
                r.rows,
                r.elapsed.as_secs_f64(),
                heap::peak()
            );
        }),
        Command::Inspect { file } => inspect::inspect(&file).map(|text| print!("{text}")),
    }
}
