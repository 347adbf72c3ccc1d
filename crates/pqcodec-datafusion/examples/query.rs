//! SQL over a Parquet file with DataFusion, every value decoded by pqcodec: register
//! pqcodec's format in place of DataFusion's, query, print.
//!
//! ```text
//! cargo run -p pqcodec-datafusion --example query [FILE.parquet]
//! ```

use datafusion::prelude::{SessionConfig, SessionContext};

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> datafusion::error::Result<()> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/data/duckdb_v2_zstd.parquet"
        )
        .to_string()
    });

    // A session whose `parquet` extension is read by pqcodec, URL tables enabled.
    let ctx = SessionContext::new_with_config(SessionConfig::new()).enable_url_table();
    pqcodec_datafusion::register(&ctx)?;

    ctx.sql(&format!(
        "CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION '{path}'"
    ))
    .await?;
    ctx.sql("SELECT count(*) AS rows FROM t")
        .await?
        .show()
        .await?;
    ctx.sql("SELECT * FROM t LIMIT 5").await?.show().await?;
    // The scan in the plan is pqcodec's (`reader=pqcodec`).
    ctx.sql("EXPLAIN SELECT * FROM t LIMIT 5")
        .await?
        .show()
        .await?;
    Ok(())
}
