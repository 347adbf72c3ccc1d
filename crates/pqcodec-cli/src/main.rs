//! `pqcodec`: Parquet encodings and files on the command line.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod advise;
mod cat;
mod codec;
mod file;
mod heap;
mod inspect;
mod rewrite;
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
        #[command(flatten)]
        select: file::ReadArgs,
    },
    /// Decode what the selection flags select (every column of every row group by default),
    /// timing only the decode of the file in memory.
    Scan {
        /// The Parquet file.
        file: PathBuf,
        #[command(flatten)]
        select: file::ReadArgs,
        /// How many times to decode the file.
        #[arg(long, default_value_t = 1)]
        repeat: usize,
        /// Rows per RecordBatch.
        #[arg(long, default_value_t = 8192)]
        batch_size: usize,
        /// The decoder: pqcodec, or arrow-rs's reader for comparison.
        #[arg(long, value_enum, default_value_t = scan::Reader::Pqcodec)]
        reader: scan::Reader,
        /// Decode the row groups on this many threads (pqcodec's reader).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// List a Parquet file's row groups, column chunks and pages.
    Inspect {
        /// The Parquet file.
        file: PathBuf,
    },
    /// Choose an encoding and a codec for each column of a Parquet file, from a sample of its
    /// values: what each candidate would make of it, the pick and why.
    Advise {
        /// The Parquet file.
        file: PathBuf,
        #[command(flatten)]
        advisor: advise::AdvisorArgs,
        /// Print JSON (`predicted_bytes`, `columns`...) instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Write a Parquet file again with pqcodec's writer: other encodings, codecs or layout,
    /// the same schema, metadata and values.
    Rewrite(rewrite::RewriteArgs),
    /// Run SQL over Parquet files with DataFusion, decoded by pqcodec.
    #[cfg(feature = "sql")]
    Sql(pqcodec_sql::SqlArgs),
    /// Serve as a worker of distributed DataFusion for `pqcodec sql --workers`, its scans
    /// decoded by pqcodec, until SIGINT or SIGTERM.
    #[cfg(feature = "distributed")]
    Worker(pqcodec_sql::WorkerArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Bad input must give an error, never a panic: pqcodec's own crates return errors, and a
    // panic left in what the parquet crate does (the page index, the metadata's checks) is
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
        // The reader of the output went away (`pqcodec cat big.parquet | head`): done.
        Err(e) if is_broken_pipe(&*e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pqcodec: error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Whether `e` is, or was caused by, writing to a closed pipe.
fn is_broken_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(e);
    while let Some(e) = next {
        if e.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
        {
            return true;
        }
        next = e.source();
    }
    false
}

/// Writes `text` to stdout.
fn print(text: &str) -> Result<(), Box<dyn std::error::Error>> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Runs one command.
fn run(cli: Cli) -> Result<(), Box<dyn std::error::Error>> {
    match cli.command {
        Command::Encode(args) => codec::encode(&args),
        Command::Decode(args) => codec::decode(&args),
        Command::Cat { file, select } => cat::cat(&file, &select, std::io::stdout().lock()),
        Command::Scan {
            file,
            select,
            repeat,
            batch_size,
            reader,
            threads,
        } => {
            let args = scan::ScanArgs {
                repeat,
                batch_size,
                reader,
                threads: threads.max(1),
            };
            heap::count();
            let r = scan::scan(&file, &select, &args)?;
            print(&format!(
                "rows {} seconds {:.6} peak_heap_bytes {}\n",
                r.rows,
                r.elapsed.as_secs_f64(),
                heap::peak()
            ))
        }
        Command::Inspect { file } => print(&inspect::inspect(&file)?),
        Command::Advise {
            file,
            advisor,
            json,
        } => {
            let advice = advise::advise(&file, &advisor)?;
            print(&if json {
                advise::json(&advice)
            } else {
                advise::table(&advice)
            })
        }
        Command::Rewrite(args) => {
            heap::count();
            let s = rewrite::rewrite(&args)?;
            let predicted = s
                .predicted_bytes
                .map_or(String::new(), |b| format!(" predicted_bytes {b}"));
            print(&format!(
                "rows {} bytes_in {} bytes_out {}{predicted} seconds {:.3} write_seconds {:.3} peak_heap_bytes {}\n",
                s.rows,
                s.bytes_in,
                s.bytes_out,
                s.seconds,
                s.write_seconds,
                heap::peak()
            ))
        }
        #[cfg(feature = "sql")]
        Command::Sql(args) => pqcodec_sql::sql(&args, &mut std::io::stdout().lock()),
        #[cfg(feature = "distributed")]
        Command::Worker(args) => pqcodec_sql::worker(&args),
    }
}
