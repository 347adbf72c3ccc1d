//! pqcodec's scans inside DataFusion, in one test binary (each binary links DataFusion whole):
//! - [`queries`]: the TPC-H queries and the shapes of scan DataFusion plans give its own
//!   reader's results;
//! - [`many_partitions`]: metadata read once, byte ranges, bytes read, metrics;
//! - [`pushdown`]: filters evaluated while reading.

mod common;
mod many_partitions;
mod pushdown;
mod queries;
