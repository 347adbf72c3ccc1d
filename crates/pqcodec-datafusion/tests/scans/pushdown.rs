//! Filters pushed into pqcodec's scans (`pushdown_filters`): a column both filtered and
//! projected decoded once (the predicate cache); conjuncts over the same columns evaluated as
//! one; a dynamic join filter that keeps every row left out once measured, and one right below
//! its join (or below the probe sides of joins between) that spares no decoding; results equal
//! to DataFusion's reader's.

use std::path::Path;
use std::sync::Arc;

use arrow_array::{ArrayRef, BooleanArray, Int64Array, RecordBatch};
use datafusion::prelude::{SessionConfig, SessionContext};
use parquet::file::properties::WriterProperties;

use crate::common::*;

fn pushdown(partitions: usize, cache: Option<usize>) -> SessionConfig {
    let mut config = config(partitions);
    // One file split in byte ranges, whatever its size.
    config.options_mut().optimizer.repartition_file_min_size = 0;
    let parquet = &mut config.options_mut().execution.parquet;
    parquet.pushdown_filters = true;
    parquet.max_predicate_cache_size = cache;
    config
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_column_filtered_and_projected_is_decoded_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample_file(dir.path());
    let sql = format!(
        "SELECT id, score, name FROM '{}' WHERE score > 1000 AND name LIKE '%-1%'",
        path.display()
    );
    let theirs = rows(
        &run(&context(Reader::DataFusion, config(1)), &sql)
            .await
            .unwrap(),
    );
    // `score` kept by its conjunct for every row (no page is pruned: the filter is not on the
    // sorted `id`), `name` for the rows `score` kept; both taken for the rows kept.
    let scored = (0..20_000).filter(|i| *i as f32 / 4.0 > 1000.0).count();
    for (cache, inner, served) in [(None, 20_000 + scored, 2 * theirs.len()), (Some(0), 0, 0)] {
        let mut config = pushdown(1, cache);
        config.options_mut().execution.parquet.enable_page_index = false;
        config.options_mut().execution.parquet.pruning = false;
        let ctx = context(Reader::Pqcodec, config);
        let (batches, plan) = run_plan(&ctx, &sql).await;
        assert_eq!(rows(&batches), theirs);
        assert_eq!(metric(&plan, "predicate_cache_inner_records"), inner);
        assert_eq!(metric(&plan, "predicate_cache_records"), served);
        // The conjuncts' evaluation is timed apart from decoding (nanoseconds).
        assert!(metric(&plan, "row_pushdown_eval_time") > 1000);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conjuncts_over_the_same_columns_are_evaluated_as_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = sample_file(dir.path());
    let sql = format!(
        "SELECT id FROM '{}' WHERE score > 1000 AND score < 3000",
        path.display()
    );
    let theirs = rows(
        &run(&context(Reader::DataFusion, config(1)), &sql)
            .await
            .unwrap(),
    );
    let mut config = pushdown(1, None);
    config.options_mut().execution.parquet.enable_page_index = false;
    config.options_mut().execution.parquet.pruning = false;
    let (batches, plan) = run_plan(&context(Reader::Pqcodec, config), &sql).await;
    assert_eq!(rows(&batches), theirs);
    // Both bounds are one predicate: it sees each of the 20 000 rows once (apart, the second
    // would see again the rows the first kept), and `score` is decoded for it alone, never
    // cached for a second.
    assert!(!theirs.is_empty());
    let seen = metric(&plan, "pushdown_rows_matched") + metric(&plan, "pushdown_rows_pruned");
    assert_eq!(seen, 20_000);
    assert_eq!(metric(&plan, "predicate_cache_inner_records"), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dynamic_join_filter_keeping_every_row_is_left_out() {
    let dir = tempfile::tempdir().unwrap();
    // Every key of the facts in the dimension.
    write_facts(dir.path());
    let keys = Int64Array::from_iter_values(0..1000);
    let dim = RecordBatch::try_from_iter([("k", Arc::new(keys) as ArrayRef)]).unwrap();
    write(
        &dir.path().join("dim.parquet"),
        &[dim],
        WriterProperties::default(),
    );
    let sql = "SELECT count(*), sum(facts.k) FROM facts JOIN dim ON facts.k = dim.k";
    let theirs = context(Reader::DataFusion, config(1));
    tables(&theirs, dir.path()).await;
    let want = rows(&run(&theirs, sql).await.unwrap());
    for partitions in [1, 4] {
        let ours = context(Reader::Pqcodec, pushdown(partitions, None));
        tables(&ours, dir.path()).await;
        let plan = explain_text(&run(&ours, &format!("EXPLAIN {sql}")).await.unwrap());
        assert!(plan.contains("DynamicFilter"), "{plan}");
        let (batches, plan) = run_plan(&ours, sql).await;
        assert_eq!(rows(&batches), want);
        // The join's filter, the scan's only conjunct, is measured over 64 Ki rows or more
        // (batches of 1024), then left out. On one partition: 19 batches of 1024 and one of 544
        // a row group, three row groups and six batches. On four, measured by all partitions
        // together: each may be one batch past the bound when it is reached (each alone would
        // have evaluated its 50 000 rows, 200 000 in all).
        let evaluated =
            metric(&plan, "pushdown_rows_matched") + metric(&plan, "pushdown_rows_pruned");
        match partitions {
            1 => assert_eq!(evaluated, 3 * 20_000 + 6 * 1024),
            _ => assert!(
                (65_536..=65_536 + partitions * 1024).contains(&evaluated),
                "{evaluated} rows evaluated on {partitions} partitions"
            ),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_join_filter_right_below_its_join_sparing_no_decoding_is_left_out() {
    let dir = tempfile::tempdir().unwrap();
    // The dimension's `flag` keeps one key in seven, so the join's filter keeps one fact in
    // seven, scattered.
    write_facts(dir.path());
    let keys = Int64Array::from_iter_values(0..1000);
    let flags = BooleanArray::from_iter((0..1000).map(|k| Some(k % 7 == 0)));
    let dim = RecordBatch::try_from_iter([
        ("k", Arc::new(keys) as ArrayRef),
        ("flag", Arc::new(flags) as ArrayRef),
    ])
    .unwrap();
    write(
        &dir.path().join("dim.parquet"),
        &[dim],
        WriterProperties::default(),
    );
    // The facts' scan right below the join, and below an aggregate below the join.
    let adjacent = "SELECT count(*), sum(facts.k) FROM facts JOIN dim ON facts.k = dim.k \
                    WHERE dim.flag";
    let aggregated = "SELECT count(*), sum(c) FROM (SELECT k, count(*) AS c FROM facts GROUP BY k) f \
                      JOIN dim ON f.k = dim.k WHERE dim.flag";
    let theirs = context(Reader::DataFusion, config(1));
    tables(&theirs, dir.path()).await;
    for partitions in [1, 4] {
        let ours = context(Reader::Pqcodec, pushdown(partitions, None));
        // The rule is added once, however many times the format is registered.
        pqcodec_datafusion::register(&ours).unwrap();
        let state = ours.state();
        let rules = (state.physical_optimizers().iter())
            .filter(|r| r.name() == "pqcodec_adjacent_join_filters")
            .count();
        assert_eq!(rules, 1);
        tables(&ours, dir.path()).await;
        for (sql, marked) in [(adjacent, true), (aggregated, false)] {
            let want = rows(&run(&theirs, sql).await.unwrap());
            let plan = explain_text(&run(&ours, &format!("EXPLAIN {sql}")).await.unwrap());
            let facts = (plan.lines())
                .find(|l| l.contains("facts.parquet"))
                .unwrap_or_default();
            assert!(facts.contains("DynamicFilter"), "{plan}");
            assert_eq!(facts.contains("adjacent_join_filters=1"), marked, "{plan}");
            let (batches, plan) = run_plan(&ours, sql).await;
            assert_eq!(rows(&batches), want);
            // The dimension's 1000 rows, evaluated by its own filter, and the facts' rows the
            // join's filter saw: right below the join, measured over 64 Ki rows or more, then
            // left out (as in `a_dynamic_join_filter_keeping_every_row_is_left_out`); below
            // the aggregate, whose work it spares, evaluated throughout.
            let evaluated =
                metric(&plan, "pushdown_rows_matched") + metric(&plan, "pushdown_rows_pruned");
            let facts = evaluated - 1000;
            match (marked, partitions) {
                (false, _) => assert_eq!(facts, 200_000),
                (true, 1) => assert_eq!(facts, 3 * 20_000 + 6 * 1024),
                (true, _) => assert!(
                    (65_536..=65_536 + partitions * 1024).contains(&facts),
                    "{facts} rows evaluated on {partitions} partitions"
                ),
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn join_filters_through_the_probe_sides_of_joins_between_are_marked() {
    let dir = tempfile::tempdir().unwrap();
    write_facts(dir.path());
    // Two dimensions: one keeps a key in seven, the other a key in two.
    for (name, every) in [("dim", 7), ("dim2", 2)] {
        let keys = Int64Array::from_iter_values(0..1000);
        let flags = BooleanArray::from_iter((0..1000).map(|k| Some(k % every == 0)));
        let dim = RecordBatch::try_from_iter([
            ("k", Arc::new(keys) as ArrayRef),
            ("flag", Arc::new(flags) as ArrayRef),
        ])
        .unwrap();
        let path = dir.path().join(format!("{name}.parquet"));
        write(&path, &[dim], WriterProperties::default());
    }
    // The facts' rows go to one join's probe side, and what it keeps to the other's: both
    // joins take them right away.
    let sql = "SELECT count(*), sum(facts.k) FROM facts \
               JOIN dim ON facts.k = dim.k JOIN dim2 ON facts.k = dim2.k \
               WHERE dim.flag AND dim2.flag";
    let theirs = context(Reader::DataFusion, config(1));
    tables(&theirs, dir.path()).await;
    let want = rows(&run(&theirs, sql).await.unwrap());
    for partitions in [1, 4] {
        let ours = context(Reader::Pqcodec, pushdown(partitions, None));
        pqcodec_datafusion::register(&ours).unwrap();
        tables(&ours, dir.path()).await;
        let plan = explain_text(&run(&ours, &format!("EXPLAIN {sql}")).await.unwrap());
        let facts = (plan.lines())
            .find(|l| l.contains("facts.parquet"))
            .unwrap_or_default();
        assert_eq!(facts.matches("DynamicFilter").count(), 2, "{plan}");
        assert!(facts.contains("adjacent_join_filters=2"), "{plan}");
        let (batches, plan) = run_plan(&ours, sql).await;
        assert_eq!(rows(&batches), want);
        // Both measured, then left out: neither evaluated over all 200 000 facts (the
        // dimensions' 2000 rows are evaluated by their own filters).
        let evaluated =
            metric(&plan, "pushdown_rows_matched") + metric(&plan, "pushdown_rows_pruned");
        assert!(evaluated < 2000 + 200_000, "{evaluated} rows evaluated");
    }
}

/// `facts.parquet` in `dir`: 200 000 facts `k` over 1000 keys, in row groups of 20 000.
fn write_facts(dir: &Path) {
    let keys = Int64Array::from_iter_values((0..200_000).map(|i| i * 7 % 1000));
    let facts = RecordBatch::try_from_iter([("k", Arc::new(keys) as ArrayRef)]).unwrap();
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(20_000))
        .build();
    write(&dir.join("facts.parquet"), &[facts], props);
}

/// Registers the tables of `dir` by their file names.
async fn tables(ctx: &SessionContext, dir: &Path) {
    let mut paths: Vec<_> = (std::fs::read_dir(dir).unwrap())
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for path in paths {
        let name = path.file_stem().unwrap().to_str().unwrap();
        let create = create_table(name, path.display());
        ctx.sql(&create).await.unwrap();
    }
}
