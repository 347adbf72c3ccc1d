//! The reader and the writer against arrow-rs, in one test binary (`tests/codecs.rs` stays
//! apart: CI runs it with the default features alone):
//! - [`reader`], [`row_filter`]: projections, selections, limits and row filters;
//! - [`views`], [`decimals`], [`alp`]: Arrow types and encodings read as arrow-rs reads them;
//! - [`writer`], [`writer_random`]: files written here, read back by arrow-rs;
//! - [`advisor`]: the advisor's choices, predictions and the writer's `auto`.

mod advisor;
mod alp;
mod decimals;
mod reader;
mod row_filter;
mod views;
mod writer;
mod writer_random;
