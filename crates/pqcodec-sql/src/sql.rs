//! `pqcodec sql`: SQL over Parquet files with DataFusion, decoded by pqcodec (or by
//! DataFusion's own reader, to compare).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::arrow::util::pretty::pretty_format_batches_with_schema;
use datafusion::datasource::file_format::parquet::ParquetFormat;
use datafusion::datasource::listing::ListingOptions;
use datafusion::execution::SessionStateBuilder;
use datafusion::physical_plan::metrics::MetricValue;
use datafusion::physical_plan::{ExecutionPlan, collect};
use datafusion::prelude::{SessionConfig, SessionContext};
use datafusion::sql::parser::DFParser;
use pqcodec_datafusion::PqcodecOptions;

/// Which reader decodes the Parquet files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SqlReader {
    /// pqcodec's.
    Pqcodec,
    /// DataFusion's own (arrow-rs's), for comparison.
    Datafusion,
}

/// How the result is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// An aligned table, as DataFusion's pretty printer prints it.
    Table,
    /// JSON Lines, one object per row, nulls explicit.
    Jsonl,
    /// CSV with a header line.
    Csv,
}

/// What `pqcodec sql` was asked.
#[derive(Debug, clap::Args)]
pub struct SqlArgs {
    /// The SQL: one statement, or several separated by `;` run in order (the last one's
    /// result is printed). Quoted paths are tables: `SELECT * FROM 'data/x.parquet'`. It may
    /// begin with a `--` comment.
    #[arg(allow_hyphen_values = true, required_unless_present = "file")]
    pub sql: Option<String>,
    /// Reads the SQL from this file (`-`: standard input), as `datafusion-cli -f` does.
    #[arg(long, short = 'f', value_name = "PATH", conflicts_with = "sql")]
    pub file: Option<PathBuf>,
    /// A table: `NAME=PATH`, PATH a Parquet file or a folder of them, or (feature
    /// `object-stores`) an `s3://` or `http(s)://` URL. Repeatable.
    #[arg(long = "table", value_name = "NAME=PATH")]
    pub tables: Vec<String>,
    /// How to print the result.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Partitions (and threads) the query runs on; the number of cores by default.
    #[arg(long)]
    pub partitions: Option<usize>,
    /// The Parquet reader.
    #[arg(long, value_enum, default_value_t = SqlReader::Pqcodec)]
    pub reader: SqlReader,
    /// Print on stderr the rows, the elapsed time, the process's CPU time (user and system),
    /// and the last statement's scans' `metadata_load_time` and `bytes_scanned` summed.
    #[arg(long)]
    pub timing: bool,
    /// Evaluate the filters while reading, before the other columns are decoded: `true` or
    /// `false` (the flag alone: `true`). By default the reader's default: on for pqcodec's,
    /// off for DataFusion's (its `pushdown_filters`).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
    pub pushdown_filters: Option<bool>,
    /// Print the last statement's physical plan instead of running it (with `--workers`, the
    /// distributed plan: its stages and tasks).
    #[arg(long)]
    pub explain: bool,
    /// Run the queries on these workers (`pqcodec worker`), planned by datafusion-distributed:
    /// `http://HOST:PORT`, comma-separated. Every worker must reach the tables' paths.
    #[cfg(feature = "distributed")]
    #[arg(long, value_name = "URL,...", value_delimiter = ',')]
    pub workers: Vec<String>,
}

type BoxError = Box<dyn std::error::Error>;

/// Runs `args`, printing the last statement's result to `out`. Errors of the query are one
/// line; errors of writing are kept as they are (a closed pipe is seen as one).
pub fn sql(args: &SqlArgs, out: &mut dyn std::io::Write) -> Result<(), BoxError> {
    let one_line = |e: BoxError| -> BoxError { e.to_string().replace('\n', " ").into() };
    let partitions = match args.partitions {
        Some(0) => return Err("--partitions must be at least 1".into()),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let tables = args
        .tables
        .iter()
        .map(|t| parse_table(t))
        .collect::<Result<Vec<_>, _>>()
        .map_err(one_line)?;
    let sql = read_sql(args).map_err(one_line)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(partitions)
        .enable_all()
        .build()?;
    let start = Instant::now();
    let outcome = runtime
        .block_on(query(args, &sql, partitions, &tables))
        .map_err(one_line)?;
    let (schema, batches, scans) = match outcome {
        Outcome::Plan(plan) => {
            writeln!(out, "{plan}")?;
            return Ok(());
        }
        Outcome::Rows {
            schema,
            batches,
            scans,
        } => (schema, batches, scans),
    };
    let rows: usize = batches.iter().map(RecordBatch::num_rows).sum();
    write(args.format, &schema, &batches, out)?;
    if args.timing {
        let wall = start.elapsed().as_secs_f64();
        let Usage {
            user,
            system,
            faults,
        } = usage();
        eprintln!(
            "rows {rows} seconds {wall:.6} cpu {:.6} user {user:.6} system {system:.6} \
             faults {faults} metadata_load_seconds {:.6} bytes_scanned {} reader {:?} \
             partitions {partitions}",
            user + system,
            scans.metadata_load_seconds,
            scans.bytes_scanned,
            args.reader
        );
    }
    Ok(())
}

/// What the last statement gave.
enum Outcome {
    /// Its rows, and its scans' metrics.
    Rows {
        schema: SchemaRef,
        batches: Vec<RecordBatch>,
        scans: ScanMetrics,
    },
    /// Its plan (`--explain`).
    Plan(String),
}

/// The SQL given, or read from `--file`.
fn read_sql(args: &SqlArgs) -> Result<String, BoxError> {
    match (&args.sql, &args.file) {
        (Some(sql), _) => Ok(sql.clone()),
        (None, Some(path)) if path.as_os_str() == "-" => {
            let mut sql = String::new();
            std::io::stdin()
                .read_to_string(&mut sql)
                .map_err(|e| format!("--file -: {e}"))?;
            Ok(sql)
        }
        (None, Some(path)) => std::fs::read_to_string(path)
            .map_err(|e| format!("--file {}: {e}", path.display()).into()),
        (None, None) => Err("no SQL given: pass it, or --file PATH".into()),
    }
}

/// What this process has used so far.
struct Usage {
    /// CPU time in user and system mode, in seconds.
    user: f64,
    system: f64,
    /// Page faults, minor and major: memory touched for the first time since it was mapped.
    faults: libc::c_long,
}

fn usage() -> Usage {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: `getrusage` writes a `rusage` through the pointer, which points to one.
    let status = unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) };
    if status != 0 {
        return Usage {
            user: f64::NAN,
            system: f64::NAN,
            faults: -1,
        };
    }
    // SAFETY: it succeeded, so it wrote the whole struct (which was zeroed before anyway).
    let usage = unsafe { usage.assume_init() };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Usage {
        user: seconds(usage.ru_utime),
        system: seconds(usage.ru_stime),
        faults: usage.ru_minflt.saturating_add(usage.ru_majflt),
    }
}

/// `NAME=PATH`, the path checked.
fn parse_table(arg: &str) -> Result<(String, String), BoxError> {
    let (name, path) = arg
        .split_once('=')
        .filter(|(n, p)| !n.is_empty() && !p.is_empty())
        .ok_or_else(|| format!("--table {arg:?}: expected NAME=PATH"))?;
    // An object store's URL (`s3://bucket/key`, `https://host/x.parquet`) as it is.
    if path.contains("://") && !path.starts_with("file://") {
        return Ok((name.to_string(), path.to_string()));
    }
    let full = Path::new(path)
        .canonicalize()
        .map_err(|e| format!("--table {name}: {path}: {e}"))?;
    let mut location = full
        .to_str()
        .ok_or_else(|| format!("--table {name}: {path}: not a UTF-8 path"))?
        .to_string();
    if full.is_dir() && !location.ends_with('/') {
        location.push('/');
    }
    Ok((name.to_string(), location))
}

async fn query(
    args: &SqlArgs,
    sql: &str,
    partitions: usize,
    tables: &[(String, String)],
) -> Result<Outcome, BoxError> {
    let mut config = SessionConfig::new().with_target_partitions(partitions);
    // DataFusion's setting is its reader's; pqcodec's reader takes its own default.
    config.options_mut().execution.parquet.pushdown_filters = args.pushdown_filters == Some(true);
    let ctx = context(args, config)?;
    let parquet = ctx.state().default_table_options().parquet;
    for (name, location) in tables {
        let options = match args.reader {
            SqlReader::Pqcodec => {
                let mut options = PqcodecOptions::from(&parquet.global);
                if let Some(pushdown) = args.pushdown_filters {
                    options = options.with_pushdown_filters(pushdown);
                }
                pqcodec_datafusion::listing_options(options)
            }
            SqlReader::Datafusion => {
                let format = ParquetFormat::default().with_options(parquet.clone());
                ListingOptions::new(Arc::new(format)).with_file_extension(".parquet")
            }
        };
        // A single file is listed whatever its extension.
        let options = match location.ends_with('/') {
            true => options,
            false => options.with_file_extension(""),
        };
        ctx.register_listing_table(name.as_str(), location, options, None, None)
            .await
            .map_err(|e| format!("--table {name}: {e}"))?;
    }
    let statements = DFParser::parse_sql(sql)?;
    if statements.is_empty() {
        return Err("no SQL statement given".into());
    }
    let mut last = None;
    for statement in statements {
        let state = ctx.state();
        let plan = state.statement_to_plan(statement).await?;
        let df = ctx.execute_logical_plan(plan).await?;
        let schema: SchemaRef = Arc::new(df.schema().as_arrow().clone());
        let task = df.task_ctx();
        let plan = df.create_physical_plan().await?;
        if args.explain {
            last = Some(Outcome::Plan(explain(&plan)));
            continue;
        }
        let batches = collect(Arc::clone(&plan), Arc::new(task)).await?;
        let scans = ScanMetrics::of(&with_workers_metrics(plan).await?);
        last = Some(Outcome::Rows {
            schema,
            batches,
            scans,
        });
    }
    last.ok_or_else(|| "no SQL statement given".into())
}

/// The session `args` ask for, of `config`: tables in files or object stores
/// ([`crate::stores`]), on this process or on workers.
fn context(args: &SqlArgs, config: SessionConfig) -> Result<SessionContext, BoxError> {
    let on_this_process = |config| {
        SessionStateBuilder::new()
            .with_config(config)
            .with_default_features()
    };
    #[cfg(not(feature = "distributed"))]
    let builder = on_this_process(config);
    #[cfg(feature = "distributed")]
    let (builder, local_workers) = match args.workers.is_empty() {
        true => (on_this_process(config), false),
        false => {
            use pqcodec_datafusion::distributed::{self, WorkerUrls};
            let workers = WorkerUrls::parse(&args.workers)?;
            let local = workers.on_this_machine();
            (
                distributed::distributed_state_builder(config, workers),
                local,
            )
        }
    };
    let state = builder.with_runtime_env(crate::stores::runtime()?).build();
    let ctx = SessionContext::new_with_state(state).enable_url_table();
    if args.reader == SqlReader::Pqcodec {
        pqcodec_datafusion::register(&ctx)?;
    }
    #[cfg(feature = "distributed")]
    if local_workers {
        // Batches between workers of one machine go uncompressed (a statement's `SET
        // distributed.compression` still applies).
        let state = ctx.state_ref();
        let mut state = state.write();
        state
            .config_mut()
            .options_mut()
            .set("distributed.compression", "none")?;
    }
    Ok(ctx)
}

/// `plan` as text: with workers, its stages and tasks.
fn explain(plan: &Arc<dyn ExecutionPlan>) -> String {
    #[cfg(feature = "distributed")]
    return pqcodec_datafusion::datafusion_distributed::display_plan_ascii(plan.as_ref(), false);
    #[cfg(not(feature = "distributed"))]
    datafusion::physical_plan::displayable(plan.as_ref())
        .indent(true)
        .to_string()
}

/// An executed plan with the metrics its workers sent back, where it ran on workers.
async fn with_workers_metrics(
    plan: Arc<dyn ExecutionPlan>,
) -> Result<Arc<dyn ExecutionPlan>, BoxError> {
    #[cfg(feature = "distributed")]
    return Ok(
        pqcodec_datafusion::datafusion_distributed::rewrite_distributed_plan_with_metrics(
            plan,
            pqcodec_datafusion::datafusion_distributed::DistributedMetricsFormat::Aggregated,
        )
        .await?,
    );
    #[cfg(not(feature = "distributed"))]
    Ok(plan)
}

/// The metrics of a plan's scans, summed.
#[derive(Debug, Default)]
struct ScanMetrics {
    metadata_load_seconds: f64,
    bytes_scanned: usize,
}

impl ScanMetrics {
    fn of(plan: &Arc<dyn ExecutionPlan>) -> Self {
        let mut sums = ScanMetrics::default();
        let mut nodes = vec![plan];
        while let Some(node) = nodes.pop() {
            for metric in node.metrics().iter().flat_map(|m| m.iter()) {
                match metric.value() {
                    MetricValue::Count { name, count } if name == "bytes_scanned" => {
                        sums.bytes_scanned += count.value();
                    }
                    MetricValue::Time { name, time } if name == "metadata_load_time" => {
                        sums.metadata_load_seconds += time.value() as f64 / 1e9;
                    }
                    _ => {}
                }
            }
            nodes.extend(node.children());
        }
        sums
    }
}

fn write(
    format: Format,
    schema: &SchemaRef,
    batches: &[RecordBatch],
    out: &mut dyn std::io::Write,
) -> Result<(), BoxError> {
    match format {
        Format::Table => {
            let table = pretty_format_batches_with_schema(Arc::clone(schema), batches)?;
            writeln!(out, "{table}")?;
        }
        Format::Jsonl => {
            let mut writer = arrow_json::WriterBuilder::new()
                .with_explicit_nulls(true)
                .build::<_, arrow_json::writer::LineDelimited>(&mut *out);
            for batch in batches {
                writer.write(batch)?;
            }
            writer.finish()?;
        }
        Format::Csv => {
            let mut writer = datafusion::arrow::csv::WriterBuilder::new()
                .with_header(true)
                .build(&mut *out);
            if batches.is_empty() {
                // The header alone.
                writer.write(&RecordBatch::new_empty(Arc::clone(schema)))?;
            }
            for batch in batches {
                writer.write(batch)?;
            }
        }
    }
    out.flush()?;
    Ok(())
}
