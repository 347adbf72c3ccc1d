//! pqcodec's scans inside DataFusion, in one test binary (each binary links DataFusion whole):
//! - [`queries`]: the TPC-H queries and the shapes of scan DataFusion plans give its own
//!   reader's results;
//! - [`many_partitions`]: metadata read once, byte ranges, bytes read, metrics;
//! - [`pushdown`]: filters evaluated while reading;
//! - `proto` (feature `proto`): scans to bytes and back;
//! - `distributed` (feature `distributed`): scans on workers.

mod common;
#[cfg(feature = "distributed")]
mod distributed;
mod many_partitions;
#[cfg(feature = "proto")]
mod proto;
mod pushdown;
mod queries;
