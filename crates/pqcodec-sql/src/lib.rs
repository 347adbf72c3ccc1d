//! The `pqcodec` command's DataFusion session: `pqcodec sql` runs SQL over Parquet files
//! decoded by pqcodec (or by DataFusion's own reader, to compare), and `pqcodec worker`
//! (feature `distributed`) serves the stages of `pqcodec sql --workers`.
//!
//! It is the binary's, not a library API: its arguments are the command's, and they change
//! with it (the README's "Versions").
//!
//! A crate of its own so that its build can be lighter than the binary's: planning a query
//! (parsing, DataFusion's SQL planner, the session's set-up) is compiled where a query's
//! future is polled, which is here, and it is optimised less (`opt-level = 1` in the
//! workspace's release profile). Executing a query runs in DataFusion's, arrow's and
//! pqcodec's crates, optimised fully.

mod sql;
mod stores;
#[cfg(feature = "distributed")]
mod worker;

pub use sql::{Format, SqlArgs, SqlReader, sql};
#[cfg(feature = "distributed")]
pub use worker::{WorkerArgs, worker};
