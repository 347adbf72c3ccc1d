//! Cross-checks against arrow-rs (the parquet crate, feature `experimental`): its encoders'
//! bytes decoded by pqcodec, and pqcodec's bytes decoded by arrow-rs, for every encoding x
//! physical type pair arrow-rs implements.

mod common;

mod byte_stream_split;
mod dbp;
mod delta;
mod dictionary;
mod plain;
mod rle;
