//! `pqcodec`: Parquet encodings and files on the command line.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cat;
mod codec;
mod file;
mod inspect;
mod scan;
mod values_text;

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
    },
    /// List a Parquet file's row groups, column chunks and pages.
    Inspect {
        /// The Parquet file.
        file: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Encode(args) => codec::encode(&args),
        Command::Decode(args) => codec::decode(&args),
        Command::Cat { file, columns } => {
            cat::cat(&file, columns.as_deref(), std::io::stdout().lock())
        }
        Command::Scan {
            file,
            repeat,
            batch_size,
        } => scan::scan(&file, repeat, batch_size).map(|r| {
            println!("rows {} seconds {:.6}", r.rows, r.elapsed.as_secs_f64());
        }),
        Command::Inspect { file } => inspect::inspect(&file).map(|text| print!("{text}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pqcodec: error: {e}");
            ExitCode::FAILURE
        }
    }
}
