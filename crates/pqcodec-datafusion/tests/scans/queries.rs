//! pqcodec inside DataFusion: the 22 TPC-H queries give DataFusion's own reader's results;
//! projections, LIMIT, COUNT(*), pruning, byte-range splitting, nested columns and folders of
//! files read as DataFusion reads them.

use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::{ArrayRef, Int32Array, Int64Array, RecordBatch, StringArray};
use datafusion::prelude::SessionContext;
use parquet::file::properties::{WriterProperties, WriterVersion};

use crate::common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_22_tpch_queries_give_datafusion_s_results() {
    let dir = tempfile::tempdir().unwrap();
    tpch_tables(dir.path(), 0.01);
    let queries = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../benches/tpch");
    let mut contexts = Vec::new();
    // pqcodec (evaluating the filters while reading), DataFusion's reader, and pqcodec leaving
    // them to DataFusion.
    let sessions = [
        (Reader::Pqcodec, config(2)),
        (Reader::DataFusion, config(2)),
        (Reader::PqcodecWithoutPushdown, config(2)),
    ];
    for (reader, config) in sessions {
        let ctx = context(reader, config);
        for table in TPCH_TABLES {
            let path = dir.path().join(format!("{table}.parquet"));
            let sql = create_table(table, path.display());
            ctx.sql(&sql).await.unwrap();
        }
        contexts.push(ctx);
    }
    // The scans are pqcodec's.
    let explain = run(&contexts[0], "EXPLAIN SELECT l_orderkey FROM lineitem")
        .await
        .unwrap();
    assert!(explain_text(&explain).contains("reader=pqcodec"));
    for q in 1..=22 {
        let sql = std::fs::read_to_string(queries.join(format!("q{q:02}.sql"))).unwrap();
        let ours = run(&contexts[0], &sql).await.unwrap();
        let theirs = run(&contexts[1], &sql).await.unwrap();
        let filtered = run(&contexts[2], &sql).await.unwrap();
        let (ours, theirs) = (rows(&ours), rows(&theirs));
        assert!(!theirs.is_empty() || q == 20, "q{q}: no rows");
        assert_eq!(ours, theirs, "q{q}");
        assert_eq!(rows(&filtered), theirs, "q{q}, filters pushed down");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn projections_limits_counts_and_nested_columns() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample_file(dir.path());
    let setup = [create_table("t", path.display())];
    for sql in [
        "SELECT * FROM t",
        "SELECT name, id FROM t WHERE id % 97 = 3",
        "SELECT point, tags FROM t WHERE id < 50",
        "SELECT get_field(point, 'label'), tags FROM t WHERE id > 19950",
        "SELECT count(*) FROM t",
        "SELECT count(*) FROM t WHERE name IS NULL",
        "SELECT count(name), sum(score), min(name), max(id) FROM t",
        "SELECT arrow_typeof(name), arrow_typeof(point) FROM t LIMIT 1",
        "SELECT * FROM t ORDER BY id DESC LIMIT 5",
    ] {
        let (ours, theirs) = both(sql, &setup).await;
        assert_eq!(ours, theirs, "{sql}");
        assert!(!ours.is_empty(), "{sql}");
    }
    // Strings are read as views, as DataFusion's reader reads them.
    let (ours, _) = both("SELECT arrow_typeof(name) FROM t LIMIT 1", &setup).await;
    assert_eq!(ours, ["Utf8View"]);

    // LIMIT reaches the reader: only the first row group is fetched.
    let ctx = context(Reader::Pqcodec, config(1));
    ctx.sql(&setup[0]).await.unwrap();
    let (batches, plan) = run_plan(&ctx, "SELECT id, name FROM t LIMIT 7").await;
    assert_eq!(batches.iter().map(|b| b.num_rows()).sum::<usize>(), 7);
    let limited = metric(&plan, "bytes_scanned");
    let (_, plan) = run_plan(&ctx, "SELECT id, name FROM t").await;
    let all = metric(&plan, "bytes_scanned");
    assert!(
        limited * 10 < all,
        "{limited} bytes read for 7 rows, {all} for all"
    );
    // Projection: fewer columns, fewer bytes.
    let (_, plan) = run_plan(&ctx, "SELECT id FROM t").await;
    let one = metric(&plan, "bytes_scanned");
    assert!(one < all, "{one} bytes read for one column, {all} for two");
    // The footer's statistics answer COUNT(*), MIN and MAX without a scan.
    let sql = "SELECT count(*), min(id), max(id) FROM t";
    let explain = explain_text(&run(&ctx, &format!("EXPLAIN {sql}")).await.unwrap());
    assert!(!explain.contains("DataSourceExec"), "{explain}");
    assert_eq!(rows(&run(&ctx, sql).await.unwrap()), ["20000 | 0 | 19999"]);
    // Without statistics, COUNT(*) scans with an empty projection: no page is read.
    let config = config(2).set_bool("datafusion.execution.collect_statistics", false);
    let ctx = context(Reader::Pqcodec, config);
    ctx.sql(&setup[0]).await.unwrap();
    let (batches, plan) = run_plan(&ctx, "SELECT count(*) FROM t").await;
    assert_eq!(rows(&batches), ["20000"]);
    assert_eq!(metric(&plan, "bytes_scanned"), 0);
    let explain = explain_text(&run(&ctx, "EXPLAIN SELECT count(*) FROM t").await.unwrap());
    assert!(explain.contains("reader=pqcodec"), "{explain}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filters_prune_row_groups_and_pages() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample_file(dir.path());
    let create = create_table("t", path.display());
    let ctx = context(Reader::Pqcodec, config(1));
    ctx.sql(&create).await.unwrap();

    // The footer and page index read once (and cached): what follows counts the pages read.
    run(&ctx, "SELECT count(*) FROM t WHERE id = -1")
        .await
        .unwrap();
    // Row groups by their statistics, then pages by the page index.
    let (batches, plan) = run_plan(
        &ctx,
        "SELECT count(*), sum(id) FROM t WHERE id BETWEEN 2510 AND 2560",
    )
    .await;
    assert_eq!(rows(&batches), ["51 | 129285"]);
    let explain = explain_text(
        &run(
            &ctx,
            "EXPLAIN ANALYZE SELECT count(*) FROM t WHERE id BETWEEN 2510 AND 2560",
        )
        .await
        .unwrap(),
    );
    assert!(
        explain.contains("row_groups_pruned_statistics=20 total \u{2192} 1 matched"),
        "{explain}"
    );
    assert!(
        explain.contains("page_index_rows_pruned=1.00 K total \u{2192} 100 matched"),
        "{explain}"
    );
    assert!(explain.contains("reader=pqcodec"), "{explain}");
    let pruned = metric(&plan, "bytes_scanned");
    // A filter that prunes nothing reads every row group.
    let (batches, plan) = run_plan(&ctx, "SELECT count(*) FROM t WHERE score >= 0").await;
    assert_eq!(rows(&batches), ["20000"]);
    let unpruned = metric(&plan, "bytes_scanned");
    assert!(
        pruned * 5 < unpruned,
        "{pruned} bytes read pruned, {unpruned} not"
    );

    // The same results as DataFusion's reader, pruned or not, pages or strings.
    let setup = [create];
    for sql in [
        "SELECT id, name FROM t WHERE id BETWEEN 2510 AND 2560",
        "SELECT id FROM t WHERE id IN (5, 17000, 19999) OR id > 19990",
        "SELECT count(*) FROM t WHERE name = 'name-3'",
        "SELECT count(*) FROM t WHERE name > 'name-40' AND id < 9000",
        "SELECT count(*) FROM t WHERE score > 4000 AND score < 4010.5",
        "SELECT count(*) FROM t WHERE id < 0",
        "SELECT count(*) FROM t WHERE get_field(point, 'x') = 7",
    ] {
        let (ours, theirs) = both(sql, &setup).await;
        assert_eq!(ours, theirs, "{sql}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filters_pushed_down_are_evaluated_while_reading() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample_file(dir.path());
    let create = create_table("t", path.display());
    let mut pushdown = config(2);
    pushdown.options_mut().execution.parquet.pushdown_filters = true;
    let ctx = context(Reader::Pqcodec, pushdown);
    ctx.sql(&create).await.unwrap();
    let plain = context(Reader::DataFusion, config(2));
    plain.sql(&create).await.unwrap();

    // A conjunct on a column not projected: the rows it rejects are counted in the scan.
    let sql = "SELECT name FROM t WHERE score > 100 AND id % 3 = 0 AND name LIKE 'name-1%'";
    let explain = explain_text(&run(&ctx, &format!("EXPLAIN ANALYZE {sql}")).await.unwrap());
    assert!(explain.contains("reader=pqcodec"), "{explain}");
    let pruned = explain
        .split("pushdown_rows_pruned=")
        .nth(1)
        .and_then(|m| m.split([',', ' ']).next())
        .unwrap_or("");
    assert!(!pruned.is_empty() && pruned != "0", "{explain}");

    for sql in [
        sql,
        "SELECT id, name FROM t WHERE name IS NULL AND id > 15000",
        // LIKEs the scan matches piece by piece (nulls among the names).
        "SELECT id FROM t WHERE name LIKE 'name%1%2' AND id > 10",
        "SELECT count(*) FROM t WHERE name NOT LIKE '%e-%3%'",
        // A string's first characters compared with literals (q22's `substring ... in`).
        "SELECT id FROM t WHERE substring(name from 1 for 6) IN ('name-1', 'name-', 'x') AND id > 10",
        "SELECT count(*) FROM t WHERE left(name, 6) <> 'name-3'",
        "SELECT count(*) FROM t WHERE name = 'name-3' OR score < 10",
        "SELECT id FROM t WHERE get_field(point, 'x') = 7 AND get_field(point, 'label') IS NOT NULL",
        "SELECT id FROM t WHERE id > 100 ORDER BY id LIMIT 7",
        "SELECT count(*) FROM t WHERE id < 0",
        "SELECT count(*) FROM t WHERE array_length(tags) = 3 AND score > 2000",
        "SELECT name, sum(score) FROM t WHERE id BETWEEN 2510 AND 9560 GROUP BY name",
    ] {
        let ours = rows(&run(&ctx, sql).await.unwrap());
        let theirs = rows(&run(&plain, sql).await.unwrap());
        assert_eq!(ours, theirs, "{sql}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_split_over_1_to_8_partitions_lose_and_repeat_no_row() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample_file(dir.path());
    for partitions in 1..=8 {
        let config = config(partitions).with_repartition_file_min_size(1);
        let ctx = context(Reader::Pqcodec, config);
        let create = create_table("t", path.display());
        ctx.sql(&create).await.unwrap();
        // Aggregates over a scan (not answered by statistics).
        let batches = run(
            &ctx,
            "SELECT count(*), count(DISTINCT id), sum(id), min(id), max(id) FROM t WHERE name IS NULL OR name IS NOT NULL",
        )
        .await
        .unwrap();
        assert_eq!(
            rows(&batches),
            ["20000 | 20000 | 199990000 | 0 | 19999"],
            "{partitions} partitions"
        );
        let explain = explain_text(&run(&ctx, "EXPLAIN SELECT id FROM t").await.unwrap());
        if partitions > 1 {
            assert!(
                explain.contains(&format!("file_groups={{{partitions} groups")),
                "{partitions}: {explain}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_folder_of_files_with_different_layouts() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("t");
    std::fs::create_dir(&folder).unwrap();
    write(
        &folder.join("a.parquet"),
        &[sample(3000, 0)],
        layered(700, 50),
    );
    let v2 = WriterProperties::builder()
        .set_writer_version(WriterVersion::PARQUET_2_0)
        .set_dictionary_enabled(false)
        .set_max_row_group_row_count(Some(4096))
        .build();
    write(&folder.join("b.parquet"), &[sample(5000, 3000)], v2);
    // A file without two of the columns: they read as nulls.
    let narrow = sample(1000, 8000);
    let narrow = narrow.project(&[0, 2, 3]).unwrap();
    write(
        &folder.join("c.parquet"),
        &[narrow],
        WriterProperties::builder().build(),
    );
    let setup = [create_table("t", format!("{}/", folder.display()))];
    for sql in [
        "SELECT * FROM t",
        "SELECT count(*), count(name), count(tags), sum(id) FROM t",
        "SELECT id, name FROM t WHERE id BETWEEN 2990 AND 3010",
        "SELECT count(*) FROM t WHERE name = 'name-4'",
    ] {
        let (ours, theirs) = both(sql, &setup).await;
        assert_eq!(ours, theirs, "{sql}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn url_tables_and_listing_tables_read_with_pqcodec() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample_file(dir.path());
    let ctx = context(Reader::Pqcodec, config(2));
    let url = format!("SELECT count(*), sum(id) FROM '{}'", path.display());
    assert_eq!(rows(&run(&ctx, &url).await.unwrap()), ["20000 | 199990000"]);
    let explain = run(&ctx, &format!("EXPLAIN {url}")).await.unwrap();
    assert!(explain_text(&explain).contains("reader=pqcodec"));

    let ctx = SessionContext::new();
    let options = pqcodec_datafusion::listing_options(Default::default());
    ctx.register_listing_table("t", dir.path().to_str().unwrap(), options, None, None)
        .await
        .unwrap();
    let explain = run(&ctx, "EXPLAIN SELECT id FROM t WHERE id > 5")
        .await
        .unwrap();
    assert!(explain_text(&explain).contains("reader=pqcodec"));
    let batches = run(&ctx, "SELECT count(*) FROM t WHERE id % 2 = 0")
        .await
        .unwrap();
    assert_eq!(rows(&batches), ["10000"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_file_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.parquet");
    std::fs::write(&path, b"PAR1 not really a parquet file PAR1").unwrap();
    let ctx = context(Reader::Pqcodec, config(1));
    let e = run(&ctx, &format!("SELECT * FROM '{}'", path.display()))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("bad.parquet"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn columns_of_one_value_are_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("constant.parquet");
    let n = 20_000;
    let batch = RecordBatch::try_from_iter([
        (
            "v",
            Arc::new(Int64Array::from_iter_values(0..n)) as ArrayRef,
        ),
        ("k", Arc::new(Int32Array::from(vec![7; n as usize]))),
        (
            "s",
            Arc::new(StringArray::from(vec!["one value"; n as usize])),
        ),
    ])
    .unwrap();
    write(&path, &[batch], layered(5_000, 1_000));
    let setup = [create_table("t", path.display())];
    for sql in [
        "SELECT v, k, s FROM t WHERE v % 1000 = 3",
        "SELECT s, count(*), sum(k) FROM t GROUP BY s",
        "SELECT count(v) FROM t WHERE k = 7 AND s = 'one value'",
        "SELECT count(v) FROM t WHERE k = 8",
        "SELECT arrow_typeof(s), arrow_typeof(k) FROM t LIMIT 1",
    ] {
        let (ours, theirs) = both(sql, &setup).await;
        assert_eq!(ours, theirs, "{sql}");
    }
    // The statistics give `k` and `s` one value and no null: their values are not read, as
    // DataFusion's reader does not read them.
    let mut read = Vec::new();
    for reader in [Reader::Pqcodec, Reader::DataFusion] {
        let ctx = context(reader, config(2));
        ctx.sql(&setup[0]).await.unwrap();
        for sql in ["SELECT sum(v + k) FROM t", "SELECT sum(v) FROM t"] {
            let (_, plan) = run_plan(&ctx, sql).await;
            read.push(metric(&plan, "bytes_scanned"));
        }
    }
    assert!(read[1] > 0, "{read:?}");
    assert_eq!(read, [read[1]; 4]);
}
