//! pqcodec: every Parquet encoding, in both directions, generic over the physical types, and
//! decoding straight into Arrow buffers.
//!
//! This crate re-exports the workspace's library crates:
//! - [`core`]: physical-type markers, the [`Encoding`](core::Encoding) enum, the
//!   [`Encoder`](core::Encoder) / [`Decoder`](core::Decoder) traits and errors;
//! - [`encodings`]: every encoding of the spec, decode and encode;
//! - [`arrow`]: pages of a column chunk into Arrow arrays and RecordBatches;
//! - [`file`](mod@file): Parquet files: the footer, the page index, and the reader builder over byte
//!   ranges, local files and object stores.

pub use pqcodec_arrow as arrow;
pub use pqcodec_core as core;
pub use pqcodec_encodings as encodings;
pub use pqcodec_file as file;

/// The README's Rust code blocks, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
