//! The `pqcodec` binary run as a user runs it, in one test binary:
//! - [`commands`]: `encode` and `decode` over standard input and output;
//! - [`files`], [`selection`]: `cat`, `scan`, `inspect` over files, columns and rows chosen;
//! - [`bad_files`]: damaged files give one-line errors, never a panic;
//! - [`rewrite`]: files written again with other encodings and codecs;
//! - [`advise`]: the advisor's picks over the corpus;
//! - [`sql`] (with the `sql` feature): DataFusion over Parquet decoded by pqcodec;
//! - `stores` (with the `object-stores` feature): tables over HTTP;
//! - `workers` (with the `distributed` feature): `pqcodec worker` and `sql --workers`.

mod advise;
mod bad_files;
mod commands;
mod common;
mod files;
mod rewrite;
mod selection;
#[cfg(feature = "sql")]
mod sql;
#[cfg(feature = "object-stores")]
mod stores;
#[cfg(feature = "distributed")]
mod workers;
