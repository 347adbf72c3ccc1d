//! `pqcodec`: Parquet encodings and files on the command line.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod codec;
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Encode(args) => codec::encode(&args),
        Command::Decode(args) => codec::decode(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pqcodec: error: {e}");
            ExitCode::FAILURE
        }
    }
}
