//! pqcodec inside [Apache DataFusion](https://datafusion.apache.org): a Parquet
//! [`FileFormat`](datafusion::datasource::file_format::FileFormat) whose scans decode with
//! pqcodec's async reader, from DataFusion's object stores.
//!
//! [`register`] puts it in place of DataFusion's own Parquet format, so that URL tables
//! (`SELECT ... FROM 'x.parquet'`), `CREATE EXTERNAL TABLE ... STORED AS PARQUET` and listing
//! tables by extension read with pqcodec; [`listing_options`] gives the options for
//! `register_listing_table`. A scan takes DataFusion's projection, its split of files into
//! byte ranges (a row group belongs to the range holding its first page), its LIMIT, and its
//! filters, which prune row groups by their footer statistics and pages by the page index
//! (DataFusion's own pruning, with pqcodec reading what is left) and, with `pushdown_filters`,
//! are evaluated while reading, before the other columns are decoded. Statistics for the planner
//! come from the footers; strings are read as Utf8View where DataFusion's reader would.
//!
//! ```no_run
//! # async fn demo() -> datafusion::error::Result<()> {
//! let ctx = pqcodec_datafusion::session_context(Default::default())?;
//! let df = ctx.sql("SELECT count(*) FROM 'tests/data/pyarrow_dict_opt_v1.parquet'").await?;
//! df.show().await?;
//! # Ok(())
//! # }
//! ```

mod adjacent_joins;
#[cfg(feature = "distributed")]
pub mod distributed;
mod error;
mod format;
mod like_chain;
mod metadata;
mod metrics;
mod opener;
mod options;
mod prefix_in;
#[cfg(feature = "proto")]
mod proto;
mod routed_case;
mod row_filter;
mod source;
mod string_values;

use std::sync::Arc;

use datafusion::datasource::listing::ListingOptions;
use datafusion::execution::SessionStateBuilder;
use datafusion::execution::context::SessionContext;
use datafusion::physical_optimizer::PhysicalOptimizerRule;
use datafusion::prelude::SessionConfig;

pub use adjacent_joins::AdjacentJoinFilters;
/// The datafusion-distributed this crate builds on (feature `distributed`).
#[cfg(feature = "distributed")]
pub use datafusion_distributed;
pub use error::{Error, Result};
pub use format::{PqcodecFormat, PqcodecFormatFactory};
pub use options::PqcodecOptions;
#[cfg(feature = "proto")]
pub use proto::PqcodecExtensionCodec;
pub use source::PqcodecSource;

/// Registers pqcodec's format for the `parquet` extension of `ctx`, in place of DataFusion's:
/// later `CREATE EXTERNAL TABLE ... STORED AS PARQUET` and URL tables read with pqcodec.
/// Options are the session's (`datafusion.execution.parquet.*`). Adds [`AdjacentJoinFilters`]
/// to the session's physical optimizer rules, once.
pub fn register(ctx: &SessionContext) -> datafusion::error::Result<()> {
    register_factory(ctx, PqcodecFormatFactory::new())
}

/// As [`register`], the format reading with `options` whatever the session's.
pub fn register_with_options(
    ctx: &SessionContext,
    options: PqcodecOptions,
) -> datafusion::error::Result<()> {
    register_factory(ctx, PqcodecFormatFactory::new_with_options(options))
}

fn register_factory(
    ctx: &SessionContext,
    factory: PqcodecFormatFactory,
) -> datafusion::error::Result<()> {
    let state = ctx.state_ref();
    let mut state = state.write();
    state.register_file_format(Arc::new(factory), true)?;
    let rule = AdjacentJoinFilters;
    if !(state.physical_optimizers().iter()).any(|r| r.name() == rule.name()) {
        let session_id = state.session_id().to_string();
        *state = SessionStateBuilder::new_from_existing(state.clone())
            .with_session_id(session_id)
            .with_physical_optimizer_rule(Arc::new(rule))
            .build();
    }
    Ok(())
}

/// A session of `config` reading Parquet with pqcodec, URL tables enabled
/// (`SELECT ... FROM 'path/x.parquet'`).
pub fn session_context(config: SessionConfig) -> datafusion::error::Result<SessionContext> {
    let ctx = SessionContext::new_with_config(config).enable_url_table();
    register(&ctx)?;
    Ok(ctx)
}

/// Listing options for `SessionContext::register_listing_table`: `*.parquet` files read with
/// pqcodec and `options`.
pub fn listing_options(options: PqcodecOptions) -> ListingOptions {
    ListingOptions::new(Arc::new(PqcodecFormat::new(options))).with_file_extension(".parquet")
}
