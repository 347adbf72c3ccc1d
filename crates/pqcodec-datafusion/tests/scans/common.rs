//! What the DataFusion tests share: sessions of either reader, files written with arrow-rs (the
//! TPC-H tables, a sample of nested columns), queries run, their rows and metrics.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::{
    Array, ArrayRef, Float32Array, Float64Array, Int32Array, Int64Array, ListArray, RecordBatch,
    StringArray, StructArray,
};
use arrow_schema::{DataType, Field, Fields, Schema};
use datafusion::arrow::util::display::{ArrayFormatter, FormatOptions};
use datafusion::arrow::util::pretty::pretty_format_batches;
use datafusion::error::Result;
use datafusion::physical_plan::{ExecutionPlan, collect};
use datafusion::prelude::{SessionConfig, SessionContext};
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;
use pqcodec_datafusion::PqcodecOptions;

pub const TPCH_TABLES: [&str; 8] = [
    "part", "supplier", "partsupp", "customer", "orders", "lineitem", "nation", "region",
];

/// Which reader a session decodes Parquet with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reader {
    Pqcodec,
    /// pqcodec's reader, the filters evaluated above the scan only.
    PqcodecWithoutPushdown,
    DataFusion,
}

pub fn context(reader: Reader, config: SessionConfig) -> SessionContext {
    match reader {
        Reader::Pqcodec => pqcodec_datafusion::session_context(config).unwrap(),
        Reader::PqcodecWithoutPushdown => {
            let ctx = SessionContext::new_with_config(config).enable_url_table();
            let session = ctx.state().default_table_options().parquet.global;
            let options = PqcodecOptions::from(&session).with_pushdown_filters(false);
            pqcodec_datafusion::register_with_options(&ctx, options).unwrap();
            ctx
        }
        Reader::DataFusion => SessionContext::new_with_config(config).enable_url_table(),
    }
}

pub fn config(partitions: usize) -> SessionConfig {
    SessionConfig::new()
        .with_target_partitions(partitions)
        .with_batch_size(1024)
}

/// Writes `batches` to `path` with `props`.
pub fn write(path: &Path, batches: &[RecordBatch], props: WriterProperties) {
    let file = std::fs::File::create(path).unwrap();
    let mut writer = ArrowWriter::try_new(file, batches[0].schema(), Some(props)).unwrap();
    for batch in batches {
        writer.write(batch).unwrap();
    }
    writer.close().unwrap();
}

/// Small row groups of small pages, with the page index: much to prune and to split.
pub fn layered(rows_per_group: usize, rows_per_page: usize) -> WriterProperties {
    WriterProperties::builder()
        .set_max_row_group_row_count(Some(rows_per_group))
        .set_data_page_row_count_limit(rows_per_page)
        .set_write_batch_size(rows_per_page.min(1024))
        .build()
}

/// The TPC-H tables at scale factor `sf`, one Parquet file each.
pub fn tpch_tables(dir: &Path, sf: f64) {
    use tpchgen::generators::*;
    use tpchgen_arrow::*;
    fn all<I: Iterator<Item = Result<RecordBatch, arrow_schema::ArrowError>>>(
        it: I,
    ) -> Vec<RecordBatch> {
        it.map(|b| b.unwrap()).collect()
    }
    let tables: [(&str, Vec<RecordBatch>); 8] = [
        ("part", all(PartArrow::new(PartGenerator::new(sf, 1, 1)))),
        (
            "supplier",
            all(SupplierArrow::new(SupplierGenerator::new(sf, 1, 1))),
        ),
        (
            "partsupp",
            all(PartSuppArrow::new(PartSuppGenerator::new(sf, 1, 1))),
        ),
        (
            "customer",
            all(CustomerArrow::new(CustomerGenerator::new(sf, 1, 1))),
        ),
        (
            "orders",
            all(OrderArrow::new(OrderGenerator::new(sf, 1, 1))),
        ),
        (
            "lineitem",
            all(LineItemArrow::new(LineItemGenerator::new(sf, 1, 1))),
        ),
        (
            "nation",
            all(NationArrow::new(NationGenerator::new(sf, 1, 1))),
        ),
        (
            "region",
            all(RegionArrow::new(RegionGenerator::new(sf, 1, 1))),
        ),
    ];
    for (name, batches) in tables {
        write(
            &dir.join(format!("{name}.parquet")),
            &batches,
            layered(16 * 1024, 2048),
        );
    }
}

/// The rows of `batches`, one string each, floats rounded, sorted.
pub fn rows(batches: &[RecordBatch]) -> Vec<String> {
    let options = FormatOptions::default().with_null("NULL");
    let mut out = Vec::new();
    for batch in batches {
        let columns: Vec<ArrayRef> = batch
            .columns()
            .iter()
            .map(|c| match c.data_type() {
                DataType::Float64 | DataType::Float32 => {
                    let c = datafusion::arrow::compute::cast(c, &DataType::Float64).unwrap();
                    let f = c.as_any().downcast_ref::<Float64Array>().unwrap();
                    let rounded: Float64Array = f
                        .iter()
                        .map(|v| v.map(|v| (v * 1e6).round() / 1e6))
                        .collect();
                    Arc::new(rounded) as ArrayRef
                }
                _ => Arc::clone(c),
            })
            .collect();
        let formatters: Vec<ArrayFormatter> = columns
            .iter()
            .map(|c| ArrayFormatter::try_new(c.as_ref(), &options).unwrap())
            .collect();
        for row in 0..batch.num_rows() {
            let cells: Vec<String> = formatters
                .iter()
                .map(|f| f.value(row).to_string())
                .collect();
            out.push(cells.join(" | "));
        }
    }
    out.sort();
    out
}

/// Runs the `;`-separated statements of `sql`, returning the last one's batches.
pub async fn run(ctx: &SessionContext, sql: &str) -> Result<Vec<RecordBatch>> {
    let mut last = Vec::new();
    for statement in sql.split(';').filter(|s| !s.trim().is_empty()) {
        last = ctx.sql(statement).await?.collect().await?;
    }
    Ok(last)
}

/// The physical plan of `sql`.
pub async fn physical_plan(ctx: &SessionContext, sql: &str) -> Arc<dyn ExecutionPlan> {
    ctx.sql(sql)
        .await
        .unwrap()
        .create_physical_plan()
        .await
        .unwrap()
}

/// The plan of `sql`, executed: its batches, and the plan with its metrics.
pub async fn run_plan(
    ctx: &SessionContext,
    sql: &str,
) -> (Vec<RecordBatch>, Arc<dyn ExecutionPlan>) {
    let plan = physical_plan(ctx, sql).await;
    let batches = collect(Arc::clone(&plan), ctx.task_ctx()).await.unwrap();
    (batches, plan)
}

/// The sum over the plan's nodes of metric `name` (pruning metrics: the pruned count).
pub fn metric(plan: &Arc<dyn ExecutionPlan>, name: &str) -> usize {
    let own = plan
        .metrics()
        .map(|m| {
            m.iter()
                .filter(|m| m.value().name() == name)
                .map(|m| m.value().as_usize())
                .sum::<usize>()
        })
        .unwrap_or(0);
    own + plan
        .children()
        .iter()
        .map(|c| metric(c, name))
        .sum::<usize>()
}

pub fn explain_text(batches: &[RecordBatch]) -> String {
    pretty_format_batches(batches).unwrap().to_string()
}

/// `rows` rows: a unique, sorted `id`, a string, a float, and nested columns.
pub fn sample(rows: usize, start: i64) -> RecordBatch {
    let ids: Vec<i64> = (start..start + rows as i64).collect();
    let id = Int64Array::from(ids.clone());
    let name = StringArray::from_iter(
        ids.iter()
            .map(|i| (i % 7 != 0).then(|| format!("name-{}", i % 50))),
    );
    let score = Float32Array::from_iter(ids.iter().map(|i| Some(*i as f32 / 4.0)));
    let point_fields = Fields::from(vec![
        Field::new("x", DataType::Int32, true),
        Field::new("label", DataType::Utf8, true),
    ]);
    let point = StructArray::new(
        point_fields.clone(),
        vec![
            Arc::new(Int32Array::from_iter(
                ids.iter().map(|i| Some((i % 1000) as i32)),
            )),
            Arc::new(StringArray::from_iter(
                ids.iter().map(|i| (i % 3 == 0).then(|| format!("p{i}"))),
            )),
        ],
        None,
    );
    let tags = ListArray::from_iter_primitive::<datafusion::arrow::datatypes::Int32Type, _, _>(
        ids.iter()
            .map(|i| (i % 5 != 0).then(|| (0..(i % 4) as i32).map(Some).collect::<Vec<_>>())),
    );
    let schema = Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("name", DataType::Utf8, true),
        Field::new("score", DataType::Float32, true),
        Field::new("point", DataType::Struct(point_fields), true),
        Field::new("tags", tags.data_type().clone(), true),
    ]);
    RecordBatch::try_new(
        Arc::new(schema),
        vec![
            Arc::new(id),
            Arc::new(name),
            Arc::new(score),
            Arc::new(point),
            Arc::new(tags),
        ],
    )
    .unwrap()
}

/// The statement registering the Parquet file or folder at `location` as table `name` (a
/// folder's location ends in `/`).
pub fn create_table(name: &str, location: impl std::fmt::Display) -> String {
    format!("CREATE EXTERNAL TABLE {name} STORED AS PARQUET LOCATION '{location}'")
}

/// A file of 20 000 rows in row groups of 1000 and pages of 100.
pub fn sample_file(dir: &Path) -> PathBuf {
    let path = dir.join("sample.parquet");
    let batches: Vec<RecordBatch> = (0..20).map(|i| sample(1000, i * 1000)).collect();
    write(&path, &batches, layered(1000, 100));
    path
}

pub async fn both(sql: &str, setup: &[String]) -> (Vec<String>, Vec<String>) {
    let mut out = Vec::new();
    for reader in [Reader::Pqcodec, Reader::DataFusion] {
        let ctx = context(reader, config(2));
        for s in setup {
            ctx.sql(s).await.unwrap();
        }
        out.push(rows(&run(&ctx, sql).await.unwrap()));
    }
    let theirs = out.pop().unwrap();
    (out.pop().unwrap(), theirs)
}
