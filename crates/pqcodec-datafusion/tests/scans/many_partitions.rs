//! pqcodec's scans on many partitions: a file's metadata read once for every partition, query
//! and schema inference; each partition reading only its row groups, and no scan more bytes
//! than DataFusion's reader; filters the scan evaluates exactly not evaluated again above it;
//! the scan's own metrics.

use std::ops::Range;
use std::path::Path as FsPath;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use datafusion::datasource::listing::FileRange;
use datafusion::datasource::physical_plan::parquet::{ParquetAccessPlan, RowGroupAccessPlanFilter};
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::prelude::SessionContext;
use futures::stream::BoxStream;
use object_store::local::LocalFileSystem;
use object_store::path::Path;
use object_store::{
    CopyOptions, GetOptions, GetResult, ListResult, MultipartUpload, ObjectMeta, ObjectStore,
    PutMultipartOptions, PutOptions, PutPayload, PutResult,
};
use parquet::file::reader::{FileReader, SerializedFileReader};
use url::Url;

use crate::common::*;

/// A local folder whose reads are recorded: the byte ranges asked of each request.
#[derive(Debug)]
struct Recorded {
    inner: LocalFileSystem,
    requests: Mutex<Vec<Vec<Range<u64>>>>,
}

impl Recorded {
    fn new(dir: &FsPath) -> Arc<Self> {
        Arc::new(Recorded {
            inner: LocalFileSystem::new_with_prefix(dir).unwrap(),
            requests: Mutex::default(),
        })
    }

    fn take(&self) -> Vec<Vec<Range<u64>>> {
        std::mem::take(&mut self.requests.lock().unwrap())
    }
}

impl std::fmt::Display for Recorded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Recorded({})", self.inner)
    }
}

#[async_trait]
impl ObjectStore for Recorded {
    async fn put_opts(
        &self,
        location: &Path,
        payload: PutPayload,
        opts: PutOptions,
    ) -> object_store::Result<PutResult> {
        self.inner.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: PutMultipartOptions,
    ) -> object_store::Result<Box<dyn MultipartUpload>> {
        self.inner.put_multipart_opts(location, opts).await
    }

    async fn get_opts(
        &self,
        location: &Path,
        options: GetOptions,
    ) -> object_store::Result<GetResult> {
        let result = self.inner.get_opts(location, options.clone()).await?;
        if options.range.is_some() || !options.head {
            self.requests
                .lock()
                .unwrap()
                .push(vec![result.range.clone()]);
        }
        Ok(result)
    }

    async fn get_ranges(
        &self,
        location: &Path,
        ranges: &[Range<u64>],
    ) -> object_store::Result<Vec<bytes::Bytes>> {
        self.requests.lock().unwrap().push(ranges.to_vec());
        self.inner.get_ranges(location, ranges).await
    }

    fn delete_stream(
        &self,
        locations: BoxStream<'static, object_store::Result<Path>>,
    ) -> BoxStream<'static, object_store::Result<Path>> {
        self.inner.delete_stream(locations)
    }

    fn list(&self, prefix: Option<&Path>) -> BoxStream<'static, object_store::Result<ObjectMeta>> {
        self.inner.list(prefix)
    }

    async fn list_with_delimiter(&self, prefix: Option<&Path>) -> object_store::Result<ListResult> {
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy_opts(
        &self,
        from: &Path,
        to: &Path,
        options: CopyOptions,
    ) -> object_store::Result<()> {
        self.inner.copy_opts(from, to, options).await
    }
}

/// The byte ranges of every column chunk of the Parquet file at `path`, by row group.
fn chunks(path: &FsPath) -> Vec<Vec<Range<u64>>> {
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    (reader.metadata().row_groups().iter())
        .map(|g| {
            (g.columns().iter())
                .map(|c| {
                    let (start, len) = c.byte_range();
                    start..start + len
                })
                .collect()
        })
        .collect()
}

/// Whether `range` lies among the column chunks (adjacent ones may be read as one), not in
/// the page index or footer after them.
fn in_the_chunks(range: &Range<u64>, chunks: &[Vec<Range<u64>>]) -> bool {
    let end = chunks.iter().flatten().map(|c| c.end).max().unwrap();
    range.end <= end
}

/// A session on `partitions` partitions whose files are split into byte ranges however small,
/// reading `sample.parquet` of `dir` through `store` as table `t`.
async fn session(reader: Reader, partitions: usize, store: Arc<Recorded>) -> SessionContext {
    let config = config(partitions).with_repartition_file_min_size(1);
    with_table(context(reader, config), store).await
}

/// `ctx` with table `t`: `sample.parquet` of `store`'s folder.
async fn with_table(ctx: SessionContext, store: Arc<Recorded>) -> SessionContext {
    ctx.register_object_store(&Url::parse("recorded://data").unwrap(), store);
    let create =
        "CREATE EXTERNAL TABLE t STORED AS PARQUET LOCATION 'recorded://data/sample.parquet'";
    ctx.sql(create).await.unwrap();
    ctx
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metadata_is_read_once_for_every_partition_and_query() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample_file(dir.path());
    let chunks = chunks(&path);
    let store = Recorded::new(dir.path());

    // What one load of the footer and page index asks for.
    let source = pqcodec_file::ObjectStoreSource::new(
        Arc::clone(&store) as Arc<dyn ObjectStore>,
        Path::from("sample.parquet"),
    );
    let meta = pqcodec_file::FileMetadata::load_async(&source, true)
        .await
        .unwrap();
    assert!(meta.metadata().offset_index().is_some());
    let one_load = store.take();
    assert!(
        one_load
            .iter()
            .flatten()
            .all(|r| !in_the_chunks(r, &chunks))
    );

    let ctx = session(Reader::Pqcodec, 16, Arc::clone(&store)).await;
    let queries = [
        "SELECT count(*) FROM t WHERE id BETWEEN 2510 AND 2560",
        "SELECT name, max(score) FROM t WHERE id % 7 = 1 GROUP BY name",
        "SELECT sum(id) FROM t WHERE score > 100",
        "SELECT sum(length(name)) FROM t",
    ];
    for sql in queries {
        let (batches, plan) = run_plan(&ctx, sql).await;
        assert!(!batches.is_empty());
        let explain = datafusion::physical_plan::displayable(plan.as_ref()).indent(true);
        assert!(
            explain.to_string().contains("file_groups={16 groups"),
            "{explain}"
        );
    }
    // Schema inference, statistics and the 16 partitions of 4 queries: one load in all.
    let metadata: Vec<Vec<Range<u64>>> = (store.take().into_iter())
        .filter(|ranges| ranges.iter().any(|r| !in_the_chunks(r, &chunks)))
        .collect();
    assert_eq!(metadata, one_load);

    // DataFusion's cache lists it, with its page index.
    let cache = ctx.runtime_env().cache_manager.get_file_metadata_cache();
    let entries = cache.list_entries();
    assert_eq!(entries.len(), 1);
    let info = entries
        .values()
        .next()
        .unwrap()
        .value
        .file_metadata
        .extra_info();
    assert_eq!(info["reader"], "pqcodec");
    assert_eq!(info["page_index"], "true");
}

/// With DataFusion's file metadata cache too small for the file, pqcodec keeps nothing behind
/// its back: the cache lists no entry, each query reads the footer again, and the results
/// stay right.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_metadata_cache_too_small_for_the_file_keeps_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample_file(dir.path());
    let chunks = chunks(&path);
    let store = Recorded::new(dir.path());
    let runtime = RuntimeEnvBuilder::new()
        .with_metadata_cache_limit(64)
        .build_arc()
        .unwrap();
    let config = config(16).with_repartition_file_min_size(1);
    let ctx = SessionContext::new_with_config_rt(config, runtime);
    pqcodec_datafusion::register(&ctx).unwrap();
    let ctx = with_table(ctx, Arc::clone(&store)).await;
    store.take();
    let footer_reads = || {
        (store.take().iter())
            .filter(|ranges| ranges.iter().any(|r| !in_the_chunks(r, &chunks)))
            .count()
    };
    let mut reads = Vec::new();
    for _ in 0..3 {
        let (batches, plan) = run_plan(&ctx, "SELECT sum(id) FROM t WHERE score >= 0").await;
        assert_eq!(rows(&batches), ["199990000"]);
        let explain = datafusion::physical_plan::displayable(plan.as_ref()).indent(true);
        assert!(explain.to_string().contains("file_groups={16 groups"));
        reads.push(footer_reads());
    }
    assert!(reads.iter().all(|&n| n >= 1), "{reads:?}");
    let cache = ctx.runtime_env().cache_manager.get_file_metadata_cache();
    assert!(cache.list_entries().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn partitions_read_their_row_groups_and_no_more_bytes_than_datafusion_s_reader() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample_file(dir.path());
    let chunks = chunks(&path);
    let store = Recorded::new(dir.path());
    // `id` and `score`, leaves 0 and 2: `name` lies between them.
    let projected: u64 = (chunks.iter().flat_map(|g| [&g[0], &g[2]]))
        .map(|c| c.end - c.start)
        .sum();
    for partitions in [1, 3, 16] {
        let mut scanned = Vec::new();
        for reader in [Reader::Pqcodec, Reader::DataFusion] {
            let ctx = session(reader, partitions, Arc::clone(&store)).await;
            let sql = "SELECT sum(id) FROM t WHERE score >= 0";
            let (batches, plan) = run_plan(&ctx, sql).await;
            assert_eq!(rows(&batches), ["199990000"]);
            scanned.push(metric(&plan, "bytes_scanned") as u64);
            let reads = store.take();
            if reader == Reader::Pqcodec {
                // The projected chunks read once each, and nothing else among the chunks.
                let data: Vec<&Range<u64>> = (reads.iter().flatten())
                    .filter(|r| in_the_chunks(r, &chunks))
                    .collect();
                let bytes: u64 = data.iter().map(|r| r.end - r.start).sum();
                assert_eq!(bytes, projected, "{partitions} partitions: {data:?}");
            }
        }
        assert_eq!(scanned[0], projected, "{partitions} partitions");
        assert!(
            scanned[0] <= scanned[1],
            "{partitions} partitions: pqcodec read {} bytes, DataFusion's reader {}",
            scanned[0],
            scanned[1]
        );
    }
}

/// Each byte range of a file takes the row groups DataFusion's reader gives it
/// (`prune_by_range`, a walk of every row group), which pqcodec finds by a binary search.
#[test]
fn each_byte_range_takes_the_row_groups_datafusion_s_reader_gives_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = bytes::Bytes::from(std::fs::read(sample_file(dir.path())).unwrap());
    let meta = pqcodec_file::FileMetadata::load(&data, false).unwrap();
    let groups = meta.metadata().row_groups();
    assert_eq!(groups.len(), 20);
    let size = meta.file_size() as i64;
    for parts in [1, 2, 3, 7, 16, 64] {
        let mut taken = 0;
        for p in 0..parts {
            let range = FileRange {
                start: size * p / parts,
                end: size * (p + 1) / parts,
            };
            let mut theirs =
                RowGroupAccessPlanFilter::new(ParquetAccessPlan::new_all(groups.len()));
            theirs.prune_by_range(groups, &range);
            let theirs = theirs.build().row_group_indexes();
            let mut ours: Vec<usize> = meta
                .row_groups_starting_in(range.start as u64..range.end as u64)
                .collect();
            ours.sort_unstable();
            assert_eq!(ours, theirs, "{parts} ranges, {range:?}");
            taken += ours.len();
        }
        assert_eq!(taken, groups.len(), "{parts} ranges");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filters_the_scan_evaluates_exactly_are_not_evaluated_again() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("t");
    // Two files, one without `name`, under a partition column `part`.
    for (part, batch) in [(1, sample(3000, 0)), (2, sample(2000, 3000))] {
        let sub = folder.join(format!("part={part}"));
        std::fs::create_dir_all(&sub).unwrap();
        let batch = match part {
            1 => batch,
            _ => batch.project(&[0, 2, 3]).unwrap(),
        };
        write(&sub.join("x.parquet"), &[batch], layered(700, 50));
    }
    let create = format!(
        "CREATE EXTERNAL TABLE t (id BIGINT NOT NULL, name VARCHAR, score FLOAT, part INT) \
         STORED AS PARQUET PARTITIONED BY (part) LOCATION '{}/'",
        folder.display()
    );
    let mut pushdown = config(2);
    pushdown.options_mut().execution.parquet.pushdown_filters = true;
    let ours = context(Reader::Pqcodec, pushdown);
    ours.sql(&create).await.unwrap();
    let theirs = context(Reader::DataFusion, config(2));
    theirs.sql(&create).await.unwrap();

    let explain = |sql: &str| {
        let ours = &ours;
        let sql = format!("EXPLAIN {sql}");
        async move { explain_text(&run(ours, &sql).await.unwrap()) }
    };
    // Exact conjuncts leave no FilterExec; a volatile one and one on the partition column
    // stay above the scan.
    let plan = explain("SELECT id FROM t WHERE id % 3 = 0 AND score > 10").await;
    assert!(!plan.contains("FilterExec"), "{plan}");
    let plan = explain("SELECT id FROM t WHERE id % 3 = 0 AND random() < 2").await;
    assert!(plan.contains("FilterExec: random()"), "{plan}");
    let plan = explain("SELECT id FROM t WHERE id % 3 = 0 AND part + id > 2").await;
    assert!(plan.contains("FilterExec"), "{plan}");
    assert!(!plan.contains("FilterExec: id@0 % 3 = 0"), "{plan}");

    for sql in [
        "SELECT id, name FROM t WHERE id % 3 = 0 AND score > 10",
        // `name` is null throughout the second file: the conjunct keeps none of its rows...
        "SELECT id FROM t WHERE name = 'name-4'",
        // ... and all of them here.
        "SELECT count(*), sum(id) FROM t WHERE name IS NULL",
        "SELECT count(*) FROM t WHERE part = 2 AND score < 600",
        "SELECT count(*) FROM t WHERE id % 3 = 0 AND part + id > 2",
        "SELECT count(*) FROM t WHERE id > 100 AND random() < 2",
    ] {
        let a = rows(&run(&ours, sql).await.unwrap());
        let b = rows(&run(&theirs, sql).await.unwrap());
        assert_eq!(a, b, "{sql}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explain_analyze_shows_the_scan_s_times() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample_file(dir.path());
    let ctx = context(Reader::Pqcodec, config(2));
    let sql = format!(
        "EXPLAIN ANALYZE SELECT max(name), sum(score) FROM '{}'",
        path.display()
    );
    let explain = explain_text(&run(&ctx, &sql).await.unwrap());
    let scan = (explain.lines())
        .find(|l| l.contains("DataSourceExec"))
        .unwrap_or_else(|| panic!("{explain}"));
    for metric in [
        "elapsed_compute=",
        "decode_time=",
        "decompress_time=",
        "bytes_scanned=",
    ] {
        assert!(scan.contains(metric), "{metric} in {scan}");
    }
    // Microseconds at least, not nanoseconds: the scan decodes 20 000 strings and floats.
    let elapsed = scan.split("elapsed_compute=").nth(1).unwrap();
    let elapsed = elapsed.split([',', ' ', ']']).next().unwrap();
    assert!(!elapsed.ends_with("ns"), "{scan}");
}
