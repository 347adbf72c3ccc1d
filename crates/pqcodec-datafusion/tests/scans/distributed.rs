//! pqcodec's scans on workers (datafusion-distributed): TPC-H queries through two workers on
//! ephemeral ports give the single-node results, the workers' scans are pqcodec's (EXPLAIN
//! ANALYZE shows it per task), split by byte ranges of one file and of a folder's files, each
//! byte read once; a worker that cannot be reached, or a file a worker cannot read,
//! is an error naming it, in bounded time.

use std::path::Path;
use std::time::Duration;

use datafusion::physical_plan::collect;
use datafusion::prelude::SessionContext;
use datafusion_distributed::{DistributedConfig, DistributedExt, display_plan_ascii};
use pqcodec_datafusion::distributed::{self, WorkerUrls};
use tokio::net::TcpListener;
use tokio::sync::oneshot;

use crate::common::*;

/// A worker serving on an ephemeral port of 127.0.0.1 until dropped.
struct TestWorker {
    url: String,
    _stop: oneshot::Sender<()>,
}

impl TestWorker {
    async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = oneshot::channel::<()>();
        tokio::spawn(distributed::serve(distributed::worker(), listener, async {
            let _ = stopped.await;
        }));
        TestWorker { url, _stop: stop }
    }
}

/// [`coordinator_of`] with the TPC-H tables of `dir`.
async fn coordinator(urls: &[String], dir: &Path) -> SessionContext {
    let ctx = coordinator_of(urls);
    register_tpch(&ctx, dir).await;
    ctx
}

/// A coordinating session over `urls`, whose scans are split into tasks however small the
/// files.
fn coordinator_of(urls: &[String]) -> SessionContext {
    let config = config(2)
        .with_option_extension(DistributedConfig::default())
        .with_distributed_file_scan_config_bytes_per_partition(1)
        .unwrap();
    distributed::distributed_session_context(config, WorkerUrls::parse(urls).unwrap()).unwrap()
}

async fn register_tpch(ctx: &SessionContext, dir: &Path) {
    for table in TPCH_TABLES {
        let path = dir.join(format!("{table}.parquet"));
        let sql = create_table(table, path.display());
        ctx.sql(&sql).await.unwrap();
    }
}

fn query(q: usize) -> String {
    let queries = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benches/tpch");
    std::fs::read_to_string(queries.join(format!("q{q:02}.sql"))).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tpch_queries_through_two_workers_give_single_node_results() {
    let dir = tempfile::tempdir().unwrap();
    tpch_tables(dir.path(), 0.01);
    let workers = [TestWorker::start().await, TestWorker::start().await];
    let urls: Vec<String> = workers.iter().map(|w| w.url.clone()).collect();
    let distributed = coordinator(&urls, dir.path()).await;
    let single = pqcodec_datafusion::session_context(config(2)).unwrap();
    register_tpch(&single, dir.path()).await;
    // The scans run as tasks on the workers, decoded by pqcodec, lineitem split by byte ranges.
    let plan = physical_plan(&distributed, &query(6)).await;
    let shown = display_plan_ascii(plan.as_ref(), false);
    assert!(shown.contains("DistributedExec"), "{shown}");
    assert!(shown.contains("reader=pqcodec"), "{shown}");
    assert!(shown.contains("Stage 1"), "{shown}");
    assert!(shown.contains("lineitem.parquet:0.."), "{shown}");
    // EXPLAIN ANALYZE: every task of the scan's stage read with pqcodec.
    let analyzed = run(&distributed, &format!("EXPLAIN ANALYZE {}", query(6)))
        .await
        .unwrap();
    let analyzed = explain_text(&analyzed);
    assert!(analyzed.contains("DistributedExec"), "{analyzed}");
    for task in ["t0: DataSourceExec", "t1: DataSourceExec"] {
        let line = analyzed.lines().find(|l| l.contains(task));
        assert!(
            line.is_some_and(|l| l.contains("reader=pqcodec")),
            "{analyzed}"
        );
    }
    for q in [1, 3, 5, 6, 10, 12, 13, 14, 18, 19] {
        let sql = query(q);
        let ours = rows(&run(&distributed, &sql).await.unwrap());
        let theirs = rows(&run(&single, &sql).await.unwrap());
        assert!(!ours.is_empty(), "q{q}");
        assert_eq!(ours, theirs, "q{q}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_folder_of_files_is_split_into_byte_ranges_each_read_once() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..4 {
        let batches = [sample(2000, i * 2000)];
        write(
            &dir.path().join(format!("part-{i}.parquet")),
            &batches,
            layered(500, 100),
        );
    }
    let workers = [TestWorker::start().await, TestWorker::start().await];
    let urls: Vec<String> = workers.iter().map(|w| w.url.clone()).collect();
    let ctx = coordinator_of(&urls);
    let create = create_table("t", format!("{}/", dir.path().display()));
    ctx.sql(&create).await.unwrap();
    let sql = "SELECT name, count(*), sum(id) FROM t WHERE id % 3 = 1 GROUP BY name";
    let plan = physical_plan(&ctx, sql).await;
    let shown = display_plan_ascii(plan.as_ref(), false);
    // The tasks' byte ranges cover each file once: every byte read by one task.
    let mut ranges: Vec<(String, u64, u64, &str)> = Vec::new();
    for task in ["t0: DataSourceExec", "t1: DataSourceExec"] {
        let line = shown.lines().find(|l| l.contains(task)).unwrap_or_default();
        let mut found = 0;
        for piece in line.split(['[', ']', ',', ' ']) {
            let Some((path, range)) = piece.rsplit_once(':') else {
                continue;
            };
            let Some((start, end)) = range.split_once("..") else {
                continue;
            };
            let name = path.rsplit('/').next().unwrap().to_string();
            ranges.push((name, start.parse().unwrap(), end.parse().unwrap(), task));
            found += 1;
        }
        assert!(found > 0, "{task}: {shown}");
    }
    ranges.sort();
    for i in 0..4 {
        let name = format!("part-{i}.parquet");
        let size = std::fs::metadata(dir.path().join(&name)).unwrap().len();
        let mut next = 0;
        for (_, start, end, _) in ranges.iter().filter(|r| r.0 == name) {
            assert_eq!(*start, next, "{name}: {shown}");
            next = *end;
        }
        assert_eq!(next, size, "{name}: {shown}");
    }
    assert!(ranges.iter().any(|r| r.3.starts_with("t1")));
    let single = pqcodec_datafusion::session_context(config(2)).unwrap();
    single.sql(&create).await.unwrap();
    let ours = rows(&collect(plan, ctx.task_ctx()).await.unwrap());
    assert_eq!(ours.len(), 51, "50 names and NULL");
    assert_eq!(ours, rows(&run(&single, sql).await.unwrap()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_that_cannot_be_reached_is_named_in_bounded_time() {
    let dir = tempfile::tempdir().unwrap();
    tpch_tables(dir.path(), 0.01);
    let alive = TestWorker::start().await;
    // A port that was bound and is not any more: nothing listens there.
    let dead = {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    let ctx = coordinator(&[alive.url.clone(), dead.clone()], dir.path()).await;
    let run = async {
        let plan = ctx.sql(&query(1)).await?.create_physical_plan().await?;
        collect(plan, ctx.task_ctx()).await
    };
    let err = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("the query did not end within 60 s")
        .unwrap_err();
    let port = dead.rsplit(':').next().unwrap();
    assert!(err.to_string().contains(port), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_a_worker_cannot_read_is_named_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    tpch_tables(dir.path(), 0.01);
    let workers = [TestWorker::start().await, TestWorker::start().await];
    let urls: Vec<String> = workers.iter().map(|w| w.url.clone()).collect();
    let ctx = coordinator(&urls, dir.path()).await;
    let plan = physical_plan(&ctx, "SELECT sum(l_quantity) FROM lineitem").await;
    // Planned, then the file's pages are spoiled before the workers read them (its footer
    // kept: the metadata the coordinator read stays true).
    let path = dir.path().join("lineitem.parquet");
    let mut bytes = std::fs::read(&path).unwrap();
    let footer = u32::from_le_bytes(bytes[bytes.len() - 8..bytes.len() - 4].try_into().unwrap());
    let pages_end = bytes.len() - 8 - footer as usize;
    for b in &mut bytes[4..pages_end] {
        *b = 0xee;
    }
    std::fs::write(&path, &bytes).unwrap();
    let err = tokio::time::timeout(Duration::from_secs(60), collect(plan, ctx.task_ctx()))
        .await
        .expect("the query did not end within 60 s")
        .unwrap_err()
        .to_string();
    assert!(err.contains("lineitem.parquet"), "{err}");
}
