//! Row filters (late materialisation) against arrow-rs's `RowFilter` with the same predicates,
//! row selection, offset, limit, batch size and predicate cache bound (proptest-chosen), over a
//! file of several row groups and many small pages with an offset index; the async stream too;
//! the predicate cache's records; predicates that fail or answer for the wrong number of rows.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::Int64Type;
use arrow_array::{
    ArrayRef, BooleanArray, Int64Array, RecordBatch, RecordBatchReader, StringArray,
};
use arrow_schema::ArrowError;
use bytes::Bytes;
use futures::TryStreamExt;
use object_store::ObjectStoreExt;
use parquet::arrow::ArrowWriter;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{
    ArrowPredicateFn as PqPredicate, ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
    RowFilter as PqFilter, RowSelection as PqSelection, RowSelector as PqSelector,
};
use parquet::file::metadata::PageIndexPolicy;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use pqcodec_file::{
    ArrowPredicateFn, Projection, ReadMetrics, ReaderBuilder, ReaderOptions, RowFilter, RowSelector,
};
use proptest::prelude::*;

const ROWS: usize = 2000;

fn file() -> &'static Bytes {
    static FILE: std::sync::OnceLock<Bytes> = std::sync::OnceLock::new();
    FILE.get_or_init(|| {
        let ids = Int64Array::from_iter_values((0..ROWS as i64).map(|i| i * 7919 % 1000));
        let names: StringArray = (0..ROWS)
            .map(|i| (i % 9 != 4).then(|| format!("n{}", i % 23)))
            .collect();
        let other = Int64Array::from_iter((0..ROWS as i64).map(|i| (i % 5 != 0).then_some(i)));
        let batch = RecordBatch::try_from_iter([
            ("id", Arc::new(ids) as ArrayRef),
            ("name", Arc::new(names) as ArrayRef),
            ("other", Arc::new(other) as ArrayRef),
        ])
        .unwrap();
        let props = WriterProperties::builder()
            .set_max_row_group_row_count(Some(700))
            .set_data_page_row_count_limit(50)
            .set_write_batch_size(50)
            .set_statistics_enabled(EnabledStatistics::Page)
            .build();
        let mut out = Vec::new();
        let mut writer = ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();
        Bytes::from(out)
    })
}

/// What to read: ids below `below`, names ending in `suffix` (when set), rows of a null name
/// or an id not a multiple of `modulo` (when set: a predicate reading both columns again), and
/// the rest.
#[derive(Debug, Clone)]
struct Request {
    below: i64,
    suffix: Option<char>,
    modulo: Option<i64>,
    selection: Option<Vec<(usize, bool)>>,
    offset: usize,
    limit: Option<usize>,
    batch_size: usize,
    /// Leaves read: all, or only `other` (columns the filter reads are not read out).
    only_other: bool,
    /// The predicate cache's bound, in bytes a row group.
    cache: usize,
}

/// The predicate cache's bound by default.
const CACHE: usize = 100 << 20;

fn id_below(batch: &RecordBatch, below: i64) -> BooleanArray {
    let ids = batch.column(0).as_primitive::<Int64Type>();
    ids.iter().map(|id| id.map(|id| id < below)).collect()
}

fn name_ends(batch: &RecordBatch, suffix: char) -> BooleanArray {
    let names = batch.column(0).as_string::<i32>();
    names
        .iter()
        .map(|n| n.map(|n| n.ends_with(suffix)))
        .collect()
}

fn not_multiple(batch: &RecordBatch, modulo: i64) -> BooleanArray {
    let ids = batch.column(0).as_primitive::<Int64Type>();
    let names = batch.column(1).as_string::<i32>();
    (ids.iter().zip(names.iter()))
        .map(|(id, name)| Some(name.is_none() || id? % modulo != 0))
        .collect()
}

fn arrow_rs(r: &Request) -> RecordBatch {
    let options = ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Optional);
    let mut b = ParquetRecordBatchReaderBuilder::try_new_with_options(file().clone(), options)
        .unwrap()
        .with_batch_size(r.batch_size)
        .with_offset(r.offset);
    let schema = b.parquet_schema().clone();
    let below = r.below;
    let mut predicates: Vec<Box<dyn parquet::arrow::arrow_reader::ArrowPredicate>> =
        vec![Box::new(PqPredicate::new(
            ProjectionMask::leaves(&schema, [0]),
            move |batch| Ok(id_below(&batch, below)),
        ))];
    if let Some(suffix) = r.suffix {
        predicates.push(Box::new(PqPredicate::new(
            ProjectionMask::leaves(&schema, [1]),
            move |batch| Ok(name_ends(&batch, suffix)),
        )));
    }
    if let Some(modulo) = r.modulo {
        predicates.push(Box::new(PqPredicate::new(
            ProjectionMask::leaves(&schema, [0, 1]),
            move |batch| Ok(not_multiple(&batch, modulo)),
        )));
    }
    b = b.with_row_filter(PqFilter::new(predicates));
    if r.only_other {
        b = b.with_projection(ProjectionMask::leaves(&schema, [2]));
    }
    if let Some(runs) = &r.selection {
        let selectors: Vec<PqSelector> = runs
            .iter()
            .map(|&(n, skip)| {
                if skip {
                    PqSelector::skip(n)
                } else {
                    PqSelector::select(n)
                }
            })
            .collect();
        b = b.with_row_selection(PqSelection::from(selectors));
    }
    if let Some(limit) = r.limit {
        b = b.with_limit(limit);
    }
    let reader = b.build().unwrap();
    let schema = reader.schema();
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    arrow_select::concat::concat_batches(&schema, &batches).unwrap()
}

fn builder<T>(b: ReaderBuilder<T>, r: &Request) -> ReaderBuilder<T> {
    let below = r.below;
    let mut predicates: Vec<Box<dyn pqcodec_file::ArrowPredicate>> = vec![Box::new(
        ArrowPredicateFn::new(Projection::paths(["id"]), move |batch| {
            Ok(id_below(&batch, below))
        }),
    )];
    if let Some(suffix) = r.suffix {
        predicates.push(Box::new(ArrowPredicateFn::new(
            Projection::leaves([1]),
            move |batch| Ok(name_ends(&batch, suffix)),
        )));
    }
    if let Some(modulo) = r.modulo {
        predicates.push(Box::new(ArrowPredicateFn::new(
            Projection::paths(["name", "id"]),
            move |batch| Ok(not_multiple(&batch, modulo)),
        )));
    }
    let mut b = b
        .with_row_filter(RowFilter::new(predicates))
        .with_max_predicate_cache_size(r.cache)
        .with_batch_size(r.batch_size)
        .with_offset(r.offset);
    if r.only_other {
        b = b.with_projection(Projection::paths(["other"]));
    }
    if let Some(runs) = &r.selection {
        let selectors: Vec<RowSelector> = runs
            .iter()
            .map(|&(n, skip)| {
                if skip {
                    RowSelector::skip(n)
                } else {
                    RowSelector::select(n)
                }
            })
            .collect();
        b = b.with_row_selection(selectors.into());
    }
    if let Some(limit) = r.limit {
        b = b.with_limit(limit);
    }
    b
}

fn pqcodec(r: &Request) -> RecordBatch {
    let (schema, batches) = pqcodec_batches(r);
    arrow_select::concat::concat_batches(&schema, &batches).unwrap()
}

fn pqcodec_batches(r: &Request) -> (arrow_schema::SchemaRef, Vec<RecordBatch>) {
    let options = ReaderOptions::new().with_page_index(true);
    let b = ReaderBuilder::try_new_with_options(file().clone(), options).unwrap();
    let reader = builder(b, r).build().unwrap();
    let schema = reader.schema();
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    for batch in &batches {
        assert!(batch.num_rows() <= r.batch_size);
    }
    (schema, batches)
}

fn request() -> impl Strategy<Value = Request> {
    let runs = prop::collection::vec((1usize..400, any::<bool>()), 1..8);
    (
        0i64..1100,
        (
            prop::option::of(prop::sample::select(vec!['1', '2', '7'])),
            prop::option::of(2i64..40),
        ),
        prop::option::of(runs),
        0usize..300,
        prop::option::of(0usize..500),
        1usize..700,
        any::<bool>(),
        // None, a bound some row groups pass (given up part way), the default.
        prop::sample::select(vec![0, 3_000, CACHE]),
    )
        .prop_map(
            |(below, (suffix, modulo), runs, offset, limit, batch_size, only_other, cache)| {
                // A selection covers at most the file's rows.
                let selection = runs.map(|runs| {
                    let mut left = ROWS;
                    runs.into_iter()
                        .map_while(|(n, skip)| {
                            let n = n.min(left);
                            left -= n;
                            (n > 0).then_some((n, skip))
                        })
                        .collect()
                });
                Request {
                    below,
                    suffix,
                    modulo,
                    selection,
                    offset,
                    limit,
                    batch_size,
                    only_other,
                    cache,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn filtered_reads_match_arrow_rs(r in request()) {
        let (want, got) = (arrow_rs(&r), pqcodec(&r));
        prop_assert_eq!(want.num_rows(), got.num_rows());
        prop_assert!(want == got, "{:?}", r);
    }
}

#[test]
fn a_filter_that_keeps_nothing_or_everything() {
    for (below, rows) in [(0, 0), (1000, ROWS)] {
        let r = Request {
            below,
            suffix: None,
            modulo: None,
            selection: None,
            offset: 0,
            limit: None,
            batch_size: 512,
            only_other: false,
            cache: CACHE,
        };
        let got = pqcodec(&r);
        assert_eq!(got.num_rows(), rows);
        assert!(got == arrow_rs(&r));
    }
}

#[test]
fn scattered_rows_kept_come_in_whole_batches() {
    // One row in eight kept (names ending in 1), in runs too short to skip between: each batch
    // is decoded whole and filtered, and what it keeps is gathered into batches of the size
    // asked for.
    let r = Request {
        below: 1000,
        suffix: Some('1'),
        modulo: None,
        selection: None,
        offset: 0,
        limit: None,
        batch_size: 64,
        only_other: true,
        cache: CACHE,
    };
    let (_, batches) = pqcodec_batches(&r);
    let want = arrow_rs(&r);
    assert!(want.num_rows() > 150);
    assert!(pqcodec(&r) == want);
    // Only the last batch is short: the rows kept are gathered across the file's three row
    // groups.
    let short = |batches: &[RecordBatch]| batches.iter().filter(|b| b.num_rows() < 64).count();
    assert!(short(&batches) <= 1, "{} batches", batches.len());
    // The fields projected all read by the filter: taken from the predicate cache, none left
    // to decode, and the batches whole all the same.
    let options = ReaderOptions::new().with_page_index(true);
    let b = ReaderBuilder::try_new_with_options(file().clone(), options).unwrap();
    let reader = builder(b, &r)
        .with_projection(Projection::paths(["name"]))
        .build()
        .unwrap();
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    let rows: usize = batches.iter().map(|b| b.num_rows()).sum();
    assert_eq!(rows, want.num_rows());
    assert!(short(&batches) <= 1, "{} batches", batches.len());
}

#[tokio::test]
async fn the_stream_filters_as_the_reader_does() {
    let store: Arc<dyn object_store::ObjectStore> = Arc::new(object_store::memory::InMemory::new());
    let path = object_store::path::Path::from("f.parquet");
    store.put(&path, file().clone().into()).await.unwrap();
    let r = Request {
        below: 300,
        suffix: Some('2'),
        modulo: Some(3),
        selection: Some(vec![(100, true), (1500, false)]),
        offset: 3,
        limit: Some(20),
        batch_size: 16,
        only_other: true,
        cache: CACHE,
    };
    let source = pqcodec_file::ObjectStoreSource::new(store, path);
    let options = ReaderOptions::new().with_page_index(true);
    let b = ReaderBuilder::try_new_async_with_options(source, options)
        .await
        .unwrap();
    let stream = builder(b, &r).build_stream().unwrap();
    let schema = stream.schema();
    let batches: Vec<RecordBatch> = stream.try_collect().await.unwrap();
    let got = arrow_select::concat::concat_batches(&schema, &batches).unwrap();
    assert_eq!(got.num_rows(), 20);
    assert!(got == arrow_rs(&r));
}

#[test]
fn a_column_read_again_is_decoded_once() {
    let read = |cache: usize| {
        let r = Request {
            below: 300,
            suffix: Some('2'),
            modulo: Some(3),
            selection: None,
            offset: 0,
            limit: None,
            batch_size: 128,
            only_other: false,
            cache,
        };
        let metrics = ReadMetrics::new();
        let options = ReaderOptions::new().with_page_index(true);
        let b = ReaderBuilder::try_new_with_options(file().clone(), options).unwrap();
        let reader = builder(b.with_read_metrics(metrics.clone()), &r)
            .build()
            .unwrap();
        let schema = reader.schema();
        let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
        let got = arrow_select::concat::concat_batches(&schema, &batches).unwrap();
        assert!(got == arrow_rs(&r));
        (got.num_rows(), metrics)
    };
    let (rows, metrics) = read(CACHE);
    assert!(rows > 0);
    // `id` decoded by the first predicate for every row, `name` by the second for the rows the
    // first kept; the third takes both for the rows the first two kept, the projection both
    // for the rows all three kept: neither is decoded again.
    let below_300 = |i: &i64| i * 7919 % 1000 < 300;
    let ends_in_2 = |i: &i64| i % 9 != 4 && [2, 12, 22].contains(&(i % 23));
    let first = (0..ROWS as i64).filter(below_300).count() as u64;
    let second = (0..ROWS as i64).filter(below_300).filter(ends_in_2).count() as u64;
    assert_eq!(metrics.cache_inner_records(), ROWS as u64 + first);
    assert_eq!(metrics.cache_records(), 2 * second + 2 * rows as u64);
    let (same, metrics) = read(0);
    assert_eq!(same, rows);
    assert_eq!(
        (metrics.cache_inner_records(), metrics.cache_records()),
        (0, 0)
    );
}

#[test]
fn a_failing_or_miscounting_predicate_is_an_error() {
    let read = |f: fn(RecordBatch) -> Result<BooleanArray, ArrowError>| {
        let filter = RowFilter::new(vec![Box::new(ArrowPredicateFn::new(
            Projection::leaves([0]),
            f,
        ))]);
        ReaderBuilder::try_new(file().clone())
            .unwrap()
            .with_row_filter(filter)
            .build()
            .unwrap()
            .next_batch()
            .unwrap_err()
            .to_string()
    };
    let e = read(|_| Err(ArrowError::ComputeError("no".into())));
    assert!(
        e.contains("row group 0: row filter: Compute error: no"),
        "{e}"
    );
    let e = read(|_| Ok(BooleanArray::from(vec![true])));
    assert!(e.contains("1 results for 700 rows"), "{e}");
}

#[test]
fn a_predicate_of_no_columns_sees_rows_only() {
    // Keeps every third row by its position, counted over the batches it is given.
    let mut seen = 0usize;
    let every_third = ArrowPredicateFn::new(Projection::leaves([]), move |batch| {
        assert_eq!(batch.num_columns(), 0);
        let kept = (seen..seen + batch.num_rows())
            .map(|i| Some(i % 3 == 0))
            .collect();
        seen += batch.num_rows();
        Ok(kept)
    });
    let reader = ReaderBuilder::try_new(file().clone())
        .unwrap()
        .with_projection(Projection::paths(["other"]))
        .with_row_filter(RowFilter::new(vec![Box::new(every_third)]))
        .with_batch_size(100)
        .build()
        .unwrap();
    let mut read = Vec::new();
    for batch in reader {
        let batch = batch.unwrap();
        read.extend(batch.column(0).as_primitive::<Int64Type>().iter());
    }
    let want: Vec<Option<i64>> = (0..ROWS as i64)
        .filter(|i| i % 3 == 0)
        .map(|i| (i % 5 != 0).then_some(i))
        .collect();
    assert_eq!(read, want);
}

/// A predicate keeping the rows `keep` keeps, optional or not, repeating the work above or not,
/// counting the rows it sees, taking `delay` a batch; its generation is `generation`'s.
struct Counted {
    projection: Projection,
    optional: bool,
    repeats: bool,
    keep: fn(i64) -> bool,
    delay: std::time::Duration,
    seen: Arc<std::sync::atomic::AtomicUsize>,
    generation: Arc<std::sync::atomic::AtomicU64>,
}

impl pqcodec_file::ArrowPredicate for Counted {
    fn projection(&self) -> &Projection {
        &self.projection
    }

    fn evaluate(&mut self, batch: RecordBatch) -> Result<BooleanArray, ArrowError> {
        let order = std::sync::atomic::Ordering::Relaxed;
        self.seen.fetch_add(batch.num_rows(), order);
        std::thread::sleep(self.delay);
        // With no column, the rows `keep` keeps of the batch's row numbers.
        if batch.num_columns() == 0 {
            let rows = 0..batch.num_rows() as i64;
            return Ok(rows.map(|i| Some((self.keep)(i))).collect());
        }
        let values = batch.column(0).as_primitive::<Int64Type>();
        Ok(values.iter().map(|v| v.map(self.keep)).collect())
    }

    fn is_optional(&self) -> bool {
        self.optional
    }

    fn repeats_the_work_above(&self) -> bool {
        self.repeats
    }

    fn generation(&self) -> u64 {
        self.generation.load(std::sync::atomic::Ordering::Relaxed)
    }
}

#[test]
fn an_optional_predicate_keeping_nearly_every_row_is_left_out() {
    const ROWS: i64 = 200_000;
    // The predicate reads `v`; a row it drops is spared decoding `w`.
    let values = Arc::new(Int64Array::from_iter_values(0..ROWS)) as ArrayRef;
    let batch = RecordBatch::try_from_iter([("v", values.clone()), ("w", values)]).unwrap();
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(20_000))
        .build();
    let mut out = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    let file = Bytes::from(out);
    let order = std::sync::atomic::Ordering::Relaxed;
    // Rows read and rows the predicate saw; with `update_at`, its generation changes once the
    // reader gave that many rows; with `slow`, it takes 10 ms a batch (over a microsecond a
    // row, far more than decoding one).
    struct Read {
        optional: bool,
        repeats: bool,
        keep: fn(i64) -> bool,
        update_at: Option<usize>,
        slow: bool,
    }
    let optional = |keep: fn(i64) -> bool| Read {
        optional: true,
        repeats: false,
        keep,
        update_at: None,
        slow: false,
    };
    let read = |how: Read| {
        let seen = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let generation = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let predicate = Counted {
            projection: Projection::roots([0]),
            optional: how.optional,
            repeats: how.repeats,
            keep: how.keep,
            delay: std::time::Duration::from_millis(if how.slow { 10 } else { 0 }),
            seen: Arc::clone(&seen),
            generation: Arc::clone(&generation),
        };
        let reader = ReaderBuilder::try_new(file.clone())
            .unwrap()
            .with_row_filter(RowFilter::new(vec![Box::new(predicate)]))
            .build()
            .unwrap();
        let mut rows = 0;
        for batch in reader {
            rows += batch.unwrap().num_rows();
            if how.update_at.is_some_and(|at| rows >= at) {
                generation.store(1, order);
            }
        }
        (rows, seen.load(order))
    };
    // All but one row in a thousand kept: measured over 64 Ki rows or more (batches of 8,192,
    // 8,192 and 3,616 rows a row group: 68,192 rows after the first of the fourth), then left
    // out from the next batch on; the rows it would have dropped from then on are read.
    let (rows, seen) = read(optional(|v| v % 1000 != 999));
    assert_eq!(seen, 68_192);
    assert_eq!(rows, 200_000 - 68);
    // Updated after the fifth row group: measured again from the sixth, over as many rows.
    let update_at = Some(99_000);
    let (rows, seen) = read(Read {
        update_at,
        ..optional(|v| v % 1000 != 999)
    });
    assert_eq!(seen, 2 * 68_192);
    assert_eq!(rows, 200_000 - 2 * 68);
    // Dropping one row in eight, slow: the work it spares above the reader is not known, so
    // it is evaluated throughout.
    let one_in_eight = |v| v % 8 != 7;
    let slow = |read: Read| Read { slow: true, ..read };
    assert_eq!(read(slow(optional(one_in_eight))).1, 200_000);
    // The same repeating the work above (a join's filter right below the join): the rows it
    // drops are scattered, so each batch is decoded whole and they spare no decoding; it is
    // left out as soon as measured.
    let repeats = |read: Read| Read {
        repeats: true,
        ..read
    };
    let (rows, seen) = read(repeats(slow(optional(one_in_eight))));
    assert_eq!(seen, 68_192);
    assert_eq!(rows, 200_000 - 68_192 / 8);
    // Dropping all but one row in 100 000, however slow: the batches it drops whole are not
    // decoded, so each row it drops is spared decoding `w`, and it is evaluated throughout.
    let (rows, seen) = read(repeats(slow(optional(|v| v % 100_000 == 0))));
    assert_eq!((rows, seen), (2, 200_000));
    // Required: evaluated over every row, however slow.
    let required = read(Read {
        optional: false,
        ..slow(optional(|v| v % 1000 != 999))
    });
    assert_eq!(required, (199_800, 200_000));
}

/// The rows of `file` that `filter` keeps, read by the synchronous reader.
fn rows_kept(file: &Bytes, filter: RowFilter) -> usize {
    let reader = ReaderBuilder::try_new(file.clone())
        .unwrap()
        .with_row_filter(filter)
        .build()
        .unwrap();
    reader.map(|b| b.unwrap().num_rows()).sum()
}

/// A file of one INT64 column `v` (0..200 000) in one row group, read in batches of 8 Ki.
fn one_row_group_of_200_000() -> Bytes {
    let values = Int64Array::from_iter_values(0..200_000);
    let batch = RecordBatch::try_from_iter([("v", Arc::new(values) as ArrayRef)]).unwrap();
    let mut out = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut out, batch.schema(), None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    Bytes::from(out)
}

#[test]
fn a_slow_optional_predicate_is_left_out_at_the_read_cost_readers_share() {
    let file = one_row_group_of_200_000();
    let order = std::sync::atomic::Ordering::Relaxed;
    // A predicate keeping seven rows in eight, 10 ms a batch, over `columns`, repeating the work
    // above the reader.
    let read = |columns: Vec<usize>, cost: &pqcodec_file::ReadCost| {
        let seen = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let slow = Counted {
            projection: Projection::roots(columns),
            optional: true,
            repeats: true,
            keep: |v| v % 8 != 7,
            delay: std::time::Duration::from_millis(10),
            seen: Arc::clone(&seen),
            generation: Arc::default(),
        };
        let filter = RowFilter::new(vec![Box::new(slow)]).with_read_cost(cost.clone());
        (rows_kept(&file, filter), seen.load(order))
    };
    // Reading no column, a reader measures no read cost (what the rows dropped spare is not
    // known): evaluated throughout.
    let alone = pqcodec_file::ReadCost::new();
    assert_eq!(read(vec![], &alone), (200_000 - 200_000 / 8, 200_000));
    assert_eq!(alone.per_value(), None);
    // Reading `v`, it measures decoding it from the first batch: left out after 64 Ki rows,
    // the rows it drops scattered, none of them skipped.
    let shared = pqcodec_file::ReadCost::new();
    assert_eq!(read(vec![0], &shared), (200_000 - 65_536 / 8, 65_536));
    assert!(shared.per_value().is_some());
    assert_eq!(shared.dropped_rows_skipped(), Some(0.0));
    // Reading no column, with the cost the reader before measured: left out as soon.
    assert_eq!(read(vec![], &shared), (200_000 - 65_536 / 8, 65_536));
}

#[test]
fn rows_dropped_in_runs_or_whole_batches_are_skipped_scattered_ones_decoded() {
    let file = one_row_group_of_200_000();
    // The share of the rows a predicate keeping `keep` drops that the reader skips.
    let skipped = |keep: fn(i64) -> bool| {
        let cost = pqcodec_file::ReadCost::new();
        let predicate = Counted {
            projection: Projection::roots([0]),
            optional: false,
            repeats: false,
            keep,
            delay: std::time::Duration::ZERO,
            seen: Arc::default(),
            generation: Arc::default(),
        };
        let filter = RowFilter::new(vec![Box::new(predicate)]).with_read_cost(cost.clone());
        rows_kept(&file, filter);
        cost.dropped_rows_skipped().unwrap()
    };
    // A run kept: the rest skipped.
    assert_eq!(skipped(|v| v < 50_000), 1.0);
    // One row in eight dropped: every batch decoded whole.
    assert_eq!(skipped(|v| v % 8 != 7), 0.0);
    // Rows 0 and 100 000 kept: their two batches of 8,192 decoded, the other rows skipped.
    let share = skipped(|v| v % 100_000 == 0);
    assert_eq!(share, (200_000 - 2 * 8_192) as f64 / 199_998.0);
}
