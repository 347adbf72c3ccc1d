//! The reader against arrow-rs's `ParquetRecordBatchReaderBuilder` with the same projection,
//! row groups, row selection, offset and limit (proptest-chosen, over a file written here with
//! many small pages and an offset index, and over the corpus); what it fetches; what it does
//! not decode; the async stream over object stores; bad requests and bad sources.

use std::io;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use arrow_array::builder::{Int32Builder, ListBuilder, StringBuilder};
use arrow_array::{
    Array, ArrayRef, Float64Array, Int64Array, RecordBatch, RecordBatchReader, StructArray,
};
use arrow_schema::{DataType, Field, Schema};
use bytes::Bytes;
use futures::TryStreamExt;
use parquet::arrow::ArrowWriter;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{
    ArrowReaderOptions, ParquetRecordBatchReaderBuilder, RowSelection as PqSelection,
    RowSelector as PqSelector,
};
use parquet::file::metadata::PageIndexPolicy;
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};
use pqcodec_file::framing::FramingError;
use pqcodec_file::{
    Error, FileMetadata, ObjectStoreSource, Projection, RangeRead, ReaderBuilder, ReaderOptions,
    RowSelector,
};
use proptest::prelude::*;

/// Rows of the written file.
const ROWS: usize = 1000;

/// A table of flat, optional, nested and dictionary-encodable columns.
fn table() -> RecordBatch {
    let ids = Int64Array::from_iter_values((0..ROWS as i64).map(|i| i * 3));
    let names = (0..ROWS)
        .map(|i| (i % 7 != 0).then(|| format!("name {}", i % 13)))
        .collect::<arrow_array::StringArray>();
    let mut lists = ListBuilder::new(Int32Builder::new());
    for i in 0..ROWS {
        if i % 11 == 0 {
            lists.append_null();
        } else {
            for j in 0..(i % 4) {
                lists.values().append_value((i * j) as i32);
            }
            lists.append(true);
        }
    }
    let mut tags = StringBuilder::new();
    for i in 0..ROWS {
        tags.append_option((i % 5 != 1).then(|| ["a", "bb", "ccc"][i % 3]));
    }
    let nested = StructArray::from(vec![
        (
            Arc::new(Field::new("x", DataType::Float64, true)),
            Arc::new(Float64Array::from_iter(
                (0..ROWS).map(|i| (i % 9 != 0).then_some(i as f64 / 4.0)),
            )) as ArrayRef,
        ),
        (
            Arc::new(Field::new("tag", DataType::Utf8, true)),
            Arc::new(tags.finish()) as ArrayRef,
        ),
    ]);
    RecordBatch::try_from_iter([
        ("id", Arc::new(ids) as ArrayRef),
        ("name", Arc::new(names) as ArrayRef),
        ("list", Arc::new(lists.finish()) as ArrayRef),
        ("s", Arc::new(nested) as ArrayRef),
    ])
    .unwrap()
}

/// The table written with row groups of 300 rows and pages of at most 37 rows, an offset
/// index and a column index, data pages v1 or v2.
fn write(version: WriterVersion) -> Bytes {
    let batch = table();
    let props = WriterProperties::builder()
        .set_writer_version(version)
        .set_max_row_group_row_count(Some(300))
        .set_data_page_row_count_limit(37)
        .set_write_batch_size(37)
        .set_statistics_enabled(EnabledStatistics::Page)
        .build();
    let mut out = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    Bytes::from(out)
}

fn file(v2: bool) -> &'static Bytes {
    static V1: OnceLock<Bytes> = OnceLock::new();
    static V2: OnceLock<Bytes> = OnceLock::new();
    match v2 {
        false => V1.get_or_init(|| write(WriterVersion::PARQUET_1_0)),
        true => V2.get_or_init(|| write(WriterVersion::PARQUET_2_0)),
    }
}

/// What to read, for both readers.
#[derive(Debug, Clone)]
struct Request {
    leaves: Option<Vec<usize>>,
    row_groups: Option<Vec<usize>>,
    selection: Option<Vec<(usize, bool)>>,
    offset: usize,
    limit: Option<usize>,
    batch_size: usize,
}

impl Request {
    fn all() -> Self {
        Request {
            leaves: None,
            row_groups: None,
            selection: None,
            offset: 0,
            limit: None,
            batch_size: 64,
        }
    }
}

fn concat(batches: &[RecordBatch], schema: Arc<Schema>) -> RecordBatch {
    arrow_select::concat::concat_batches(&schema, batches).unwrap()
}

fn arrow_rs(data: &Bytes, r: &Request) -> RecordBatch {
    try_arrow_rs(data, r).unwrap()
}

/// arrow-rs's read, or its refusal (it reads no map without both its keys and values).
fn try_arrow_rs(data: &Bytes, r: &Request) -> parquet::errors::Result<RecordBatch> {
    let options = ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Optional);
    let mut b = ParquetRecordBatchReaderBuilder::try_new_with_options(data.clone(), options)
        .unwrap()
        .with_batch_size(r.batch_size)
        .with_offset(r.offset);
    if let Some(leaves) = &r.leaves {
        let mask = ProjectionMask::leaves(b.parquet_schema(), leaves.iter().copied());
        b = b.with_projection(mask);
    }
    if let Some(groups) = &r.row_groups {
        b = b.with_row_groups(groups.clone());
    }
    if let Some(runs) = &r.selection {
        let selectors: Vec<PqSelector> = runs
            .iter()
            .map(|&(n, skip)| match skip {
                true => PqSelector::skip(n),
                false => PqSelector::select(n),
            })
            .collect();
        b = b.with_row_selection(PqSelection::from(selectors));
    }
    if let Some(limit) = r.limit {
        b = b.with_limit(limit);
    }
    let reader = b.build()?;
    let schema = reader.schema();
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>()?;
    Ok(concat(&batches, schema))
}

fn pqcodec_builder<T>(b: ReaderBuilder<T>, r: &Request) -> ReaderBuilder<T> {
    let mut b = b
        .with_batch_size(r.batch_size)
        .with_offset(r.offset)
        .with_coalesce_gap(0);
    if let Some(leaves) = &r.leaves {
        b = b.with_projection(Projection::leaves(leaves.iter().copied()));
    }
    if let Some(groups) = &r.row_groups {
        b = b.with_row_groups(groups.clone());
    }
    if let Some(runs) = &r.selection {
        let selectors: Vec<RowSelector> = runs
            .iter()
            .map(|&(n, skip)| match skip {
                true => RowSelector::skip(n),
                false => RowSelector::select(n),
            })
            .collect();
        b = b.with_row_selection(selectors.into());
    }
    if let Some(limit) = r.limit {
        b = b.with_limit(limit);
    }
    b
}

fn pqcodec(source: impl RangeRead + 'static, r: &Request) -> Result<RecordBatch, Error> {
    let options = ReaderOptions::new().with_page_index(true);
    let reader =
        pqcodec_builder(ReaderBuilder::try_new_with_options(source, options)?, r).build()?;
    let schema = reader.schema();
    let mut batches = Vec::new();
    let mut reader = reader;
    while let Some(batch) = reader.next_batch()? {
        assert!(batch.num_rows() > 0 && batch.num_rows() <= r.batch_size);
        batches.push(batch);
    }
    Ok(concat(&batches, schema))
}

fn same(expected: &RecordBatch, actual: &RecordBatch) -> Result<(), String> {
    if expected.schema() != actual.schema() {
        return Err(format!(
            "schema {:?} != {:?}",
            actual.schema(),
            expected.schema()
        ));
    }
    if expected.num_rows() != actual.num_rows() {
        return Err(format!(
            "{} rows, arrow-rs {}",
            actual.num_rows(),
            expected.num_rows()
        ));
    }
    for (i, (e, a)) in expected.columns().iter().zip(actual.columns()).enumerate() {
        if e.as_ref() != a.as_ref() {
            return Err(format!("column {i}: {a:?} != {e:?}"));
        }
    }
    Ok(())
}

/// A request of `runs` (row counts, skip or not) over the rows of the chosen row groups.
fn request_strategy() -> impl Strategy<Value = Request> {
    let groups = prop::option::of(prop::sample::subsequence(vec![0usize, 1, 2, 3], 1..=4));
    let leaves = prop::option::of(prop::sample::subsequence(vec![0usize, 1, 2, 3, 4], 0..=5));
    let runs = prop::option::of(prop::collection::vec((1usize..120, any::<bool>()), 0..12));
    (
        leaves,
        groups,
        runs,
        0usize..50,
        prop::option::of(0usize..400),
        1usize..200,
    )
        .prop_map(
            |(leaves, row_groups, selection, offset, limit, batch_size)| {
                // The selection covers at most the chosen row groups' rows.
                let total = row_groups.as_ref().map_or(ROWS, |g: &Vec<usize>| {
                    g.iter().map(|&g| if g == 3 { 100 } else { 300 }).sum()
                });
                let selection = selection.map(|runs| {
                    let mut left = total;
                    runs.into_iter()
                        .map_while(|(n, skip)| {
                            let n = n.min(left);
                            left -= n;
                            (n > 0).then_some((n, skip))
                        })
                        .collect()
                });
                Request {
                    leaves,
                    row_groups,
                    selection,
                    offset,
                    limit,
                    batch_size,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn selections_read_as_arrow_rs_reads_them(r in request_strategy(), v2 in any::<bool>()) {
        let data = file(v2);
        let expected = arrow_rs(data, &r);
        let actual = pqcodec(data.clone(), &r).map_err(|e| TestCaseError::fail(e.to_string()))?;
        same(&expected, &actual).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn the_written_file_has_many_pages_and_an_offset_index() {
    let meta = FileMetadata::load(file(false), true).unwrap();
    assert_eq!(meta.num_row_groups(), 4);
    let index = meta.metadata().offset_index().expect("an offset index");
    assert!(index[0][0].page_locations().len() >= 8);
}

/// Where row group `g` of `meta` starts, worked out from the parquet crate's metadata: its
/// first column's dictionary page, else its first data page.
fn first_page(meta: &FileMetadata, g: usize) -> i64 {
    let chunk = meta.metadata().row_group(g).column(0);
    chunk
        .dictionary_page_offset()
        .unwrap_or(chunk.data_page_offset())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// A file cut into byte ranges anywhere: each range's row groups are those whose first
    /// page it holds, ordered by offset, and every row group falls in exactly one range.
    #[test]
    fn byte_ranges_share_the_row_groups_by_first_page(
        mut cuts in proptest::collection::vec(any::<u64>(), 0..6),
        v2 in any::<bool>(),
    ) {
        let data = file(v2);
        let meta = FileMetadata::load(data, false).unwrap();
        let size = meta.file_size();
        cuts.iter_mut().for_each(|c| *c %= size + 1);
        cuts.extend([0, size]);
        cuts.sort_unstable();
        let mut seen = Vec::new();
        for range in cuts.windows(2).map(|w| w[0]..w[1]) {
            let share: Vec<usize> = meta.row_groups_starting_in(range.clone()).collect();
            let mut expected: Vec<usize> = (0..meta.num_row_groups())
                .filter(|&g| range.contains(&(first_page(&meta, g) as u64)))
                .collect();
            expected.sort_by_key(|&g| first_page(&meta, g));
            prop_assert_eq!(&share, &expected, "{:?}", range);
            seen.extend(share);
        }
        seen.sort_unstable();
        prop_assert_eq!(seen, (0..meta.num_row_groups()).collect::<Vec<_>>());
    }
}

/// Ranges past the file's end, empty and reversed hold no row group; each column's size is
/// its chunks' compressed sizes summed.
#[test]
fn row_groups_and_column_sizes_from_the_layout() {
    let meta = FileMetadata::load(file(false), false).unwrap();
    let size = meta.file_size();
    assert_eq!(meta.row_groups_starting_in(0..size).count(), 4);
    assert_eq!(meta.row_groups_starting_in(size..u64::MAX).count(), 0);
    assert_eq!(meta.row_groups_starting_in(9..9).count(), 0);
    #[allow(clippy::reversed_empty_ranges)]
    let reversed = size..0;
    assert_eq!(meta.row_groups_starting_in(reversed).count(), 0);
    // The first row group's own start, and the byte before it.
    let first = first_page(&meta, 0) as u64;
    assert_eq!(
        meta.row_groups_starting_in(first..first + 1)
            .collect::<Vec<_>>(),
        [0]
    );
    assert_eq!(meta.row_groups_starting_in(0..first).count(), 0);
    for leaf in 0..meta.columns().len() {
        let summed: i64 = (meta.metadata().row_groups().iter())
            .map(|g| g.column(leaf).compressed_size())
            .sum();
        assert_eq!(
            meta.column_compressed_size(leaf),
            summed as u64,
            "leaf {leaf}"
        );
    }
    assert_eq!(meta.column_compressed_size(meta.columns().len()), 0);
}

/// Every corpus file, read by parts, equals arrow-rs's read of the same parts.
#[test]
fn the_corpus_reads_as_arrow_rs_reads_it() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "parquet") {
            continue;
        }
        let data = Bytes::from(std::fs::read(&path).unwrap());
        let leaves = FileMetadata::load(&data, false).unwrap().columns().len();
        let requests = [
            Request::all(),
            Request {
                leaves: Some((0..leaves).step_by(2).collect()),
                offset: 7,
                limit: Some(300),
                batch_size: 50,
                ..Request::all()
            },
            Request {
                selection: Some(vec![(3, true), (40, false), (100, true), (5, false)]),
                batch_size: 16,
                ..Request::all()
            },
        ];
        for r in &requests {
            let Ok(expected) = try_arrow_rs(&data, r) else {
                continue;
            };
            let actual = match pqcodec(data.clone(), r) {
                // A codec this build leaves out (`cargo test -p pqcodec-file` alone).
                Err(Error::Chunk {
                    source: FramingError::CodecNotCompiled { .. },
                    ..
                }) => continue,
                result => result.unwrap(),
            };
            if let Err(e) = same(&expected, &actual) {
                panic!("{}: {r:?}: {e}", path.display());
            }
        }
        checked += 1;
    }
    assert!(checked >= 50, "{checked} files");
}

/// A source that records the ranges read.
#[derive(Clone)]
struct Counting {
    data: Bytes,
    reads: Arc<Mutex<Vec<Range<u64>>>>,
}

impl Counting {
    fn new(data: &Bytes) -> Self {
        Counting {
            data: data.clone(),
            reads: Arc::default(),
        }
    }

    fn reads(&self) -> Vec<Range<u64>> {
        self.reads.lock().unwrap().clone()
    }
}

impl RangeRead for Counting {
    fn size(&self) -> io::Result<u64> {
        Ok(self.data.len() as u64)
    }

    fn read_range(&self, range: Range<u64>) -> io::Result<Bytes> {
        self.reads.lock().unwrap().push(range.clone());
        self.data.read_range(range)
    }
}

fn inside(range: &Range<u64>, allowed: &[Range<u64>]) -> bool {
    allowed
        .iter()
        .any(|a| a.start <= range.start && range.end <= a.end)
}

/// Only the footer and the projected column chunks are read.
#[test]
fn only_the_footer_and_projected_chunks_are_read() {
    let data = file(false);
    let meta = FileMetadata::load(data, false).unwrap();
    let source = Counting::new(data);
    let r = Request {
        leaves: Some(vec![1]),
        row_groups: Some(vec![1, 3]),
        ..Request::all()
    };
    let batch = pqcodec(source.clone(), &r).unwrap();
    assert_eq!(batch.num_rows(), 400);
    let size = data.len() as u64;
    let footer = size - size.min(64 * 1024)..size;
    let chunk = |g: usize| {
        let (start, len) = meta.metadata().row_group(g).column(1).byte_range();
        start..start + len
    };
    let reads = source.reads();
    assert_eq!(reads[0], footer, "the footer first, in one read");
    assert_eq!(&reads[1..], [chunk(1), chunk(3)]);
}

/// With the offset index, only the pages holding selected rows are read (and the chunk's
/// dictionary page); the page index is read once, beside the footer.
#[test]
fn only_the_selected_pages_are_read() {
    let data = file(false);
    let meta = FileMetadata::load(data, true).unwrap();
    let source = Counting::new(data);
    // Rows 310..330 of the file: row group 1, rows 10..30.
    let r = Request {
        leaves: Some(vec![0, 4]),
        selection: Some(vec![(310, true), (20, false)]),
        ..Request::all()
    };
    let expected = arrow_rs(data, &r);
    let actual = pqcodec(source.clone(), &r).unwrap();
    same(&expected, &actual).unwrap();
    let index = meta.metadata().offset_index().unwrap();
    let mut allowed = Vec::new();
    let mut pages_read = 0;
    for leaf in [0, 4] {
        let chunk = meta.metadata().row_group(1).column(leaf);
        let pages = index[1][leaf].page_locations();
        let dictionary_end = pages[0].offset as u64;
        allowed.push(chunk.byte_range().0..dictionary_end);
        for (i, page) in pages.iter().enumerate() {
            let end = pages.get(i + 1).map_or(300, |p| p.first_row_index);
            if page.first_row_index < 30 && end > 10 {
                let at = page.offset as u64;
                allowed.push(at..at + page.compressed_page_size as u64);
                pages_read += 1;
            }
        }
    }
    assert!((2..8).contains(&pages_read), "{pages_read} pages");
    // Adjacent pages are read together.
    allowed.sort_by_key(|r| r.start);
    let allowed = allowed
        .into_iter()
        .fold(Vec::<Range<u64>>::new(), |mut out, r| {
            match out.last_mut() {
                Some(last) if last.end == r.start => last.end = r.end,
                _ => out.push(r),
            }
            out
        });
    let reads = source.reads();
    let size = data.len() as u64;
    let tail = size - size.min(64 * 1024)..size;
    assert_eq!(reads[0], tail);
    // The page index lies in the tail for a file this small: no second read for it.
    for read in &reads[1..] {
        assert!(inside(read, &allowed), "{read:?} read, outside {allowed:?}");
    }
    let bytes: u64 = reads[1..].iter().map(|r| r.end - r.start).sum();
    let chunks: u64 = [0, 4]
        .iter()
        .map(|&c| meta.metadata().row_group(1).column(c).byte_range().1)
        .sum();
    let needed: u64 = allowed.iter().map(|r| r.end - r.start).sum();
    assert_eq!(
        bytes, needed,
        "exactly the dictionary pages and the selected pages"
    );
    assert!(bytes < chunks, "{bytes} bytes of {chunks}");
}

/// A footer read without the page index takes it later by reading the index alone: the
/// footer is not read again, and the result is what a load with the index gives.
#[test]
fn a_footer_read_alone_takes_its_page_index_without_reading_it_again() {
    let data = file(false);
    let with_index = FileMetadata::load(data, true).unwrap();
    assert!(with_index.metadata().offset_index().is_some());
    let source = Counting::new(data);
    let footer = Arc::new(FileMetadata::load(&source, false).unwrap());
    assert!(!footer.page_index_read());
    assert!(footer.metadata().offset_index().is_none());
    let footer_reads = source.reads().len();
    let completed = Arc::clone(&footer).load_page_index(&source).unwrap();
    assert!(completed.page_index_read());
    assert_eq!(completed.metadata(), with_index.metadata());
    // Only the index's own bytes, which end where the footer begins.
    let reads = &source.reads()[footer_reads..];
    let n = data.len();
    let footer_len = u32::from_le_bytes(data[n - 8..n - 4].try_into().unwrap());
    let footer_start = (n - 8) as u64 - u64::from(footer_len);
    let index_end = (with_index.metadata().row_groups().iter())
        .flat_map(|g| g.columns())
        .filter_map(|c| Some(c.offset_index_offset()? as u64 + c.offset_index_length()? as u64))
        .max()
        .unwrap();
    assert!(!reads.is_empty());
    for read in reads {
        assert!(
            read.end <= index_end && read.end <= footer_start,
            "{read:?}"
        );
    }
    // Completing a metadata that has it is free.
    let again = Arc::clone(&completed).load_page_index(&source).unwrap();
    assert!(Arc::ptr_eq(&again, &completed));
    assert_eq!(source.reads().len(), footer_reads + reads.len());
}

/// Pages that hold no selected row are not decoded: ruin their bytes and the read still
/// succeeds, while a read that needs them fails.
#[test]
fn pages_outside_the_selection_are_not_decoded() {
    let data = file(false);
    let meta = FileMetadata::load(data, true).unwrap();
    let pages = meta.metadata().offset_index().unwrap()[0][0].page_locations();
    let ruined = &pages[4];
    let mut bytes = data.to_vec();
    let at = ruined.offset as usize;
    bytes[at..at + ruined.compressed_page_size as usize].fill(0xFF);
    let bytes = Bytes::from(bytes);
    let before = pages[4].first_row_index as usize;
    let after = pages[5].first_row_index as usize;
    let around = Request {
        leaves: Some(vec![0]),
        selection: Some(vec![(before, false), (after - before, true), (5, false)]),
        ..Request::all()
    };
    let expected = arrow_rs(data, &around);
    same(&expected, &pqcodec(bytes.clone(), &around).unwrap()).unwrap();
    let through = Request {
        selection: Some(vec![(before + 1, false)]),
        ..around
    };
    let e = pqcodec(bytes, &through).unwrap_err().to_string();
    assert!(e.contains("column \"id\""), "{e}");
}

/// An empty projection gives batches of the selected rows' count and no columns.
#[test]
fn an_empty_projection_counts_rows() {
    let r = Request {
        leaves: Some(vec![]),
        selection: Some(vec![(10, true), (500, false)]),
        limit: Some(450),
        batch_size: 100,
        ..Request::all()
    };
    let batch = pqcodec(file(true).clone(), &r).unwrap();
    assert_eq!((batch.num_rows(), batch.num_columns()), (450, 0));
    assert_eq!(arrow_rs(file(true), &r).num_rows(), 450);
}

/// Nested paths keep their parents, holding only what was chosen.
#[test]
fn a_nested_path_keeps_its_parents() {
    let data = file(false);
    let reader = ReaderBuilder::try_new(data.clone())
        .unwrap()
        .with_projection(Projection::paths(["s.tag", "id"]))
        .build()
        .unwrap();
    let schema = reader.schema();
    assert_eq!(schema.fields().len(), 2);
    assert_eq!(schema.field(0).name(), "id");
    let DataType::Struct(children) = schema.field(1).data_type() else {
        panic!("{schema:?}")
    };
    assert_eq!(children.len(), 1);
    assert_eq!(children[0].name(), "tag");
    let expected = arrow_rs(
        data,
        &Request {
            leaves: Some(vec![0, 4]),
            ..Request::all()
        },
    );
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    same(&expected, &concat(&batches, schema)).unwrap();
}

/// A field read as another Arrow type: strings as Utf8View.
#[test]
fn a_field_can_be_read_as_utf8_view() {
    let data = file(false);
    let reader = ReaderBuilder::try_new(data.clone())
        .unwrap()
        .with_field(Arc::new(Field::new("name", DataType::Utf8View, true)))
        .with_projection(Projection::roots([1]))
        .build()
        .unwrap();
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    let views = batches[0].column(0);
    assert_eq!(views.data_type(), &DataType::Utf8View);
    let expected = arrow_rs(
        data,
        &Request {
            leaves: Some(vec![1]),
            ..Request::all()
        },
    );
    let cast = arrow_cast::cast(views, &DataType::Utf8).unwrap();
    assert_eq!(
        cast.as_ref(),
        expected.column(0).slice(0, views.len()).as_ref()
    );
}

#[test]
fn bad_requests_are_errors_naming_what_was_asked() {
    let data = file(false);
    let build = |f: &dyn Fn(ReaderBuilder<Bytes>) -> ReaderBuilder<Bytes>| {
        f(ReaderBuilder::try_new(data.clone()).unwrap())
            .build()
            .unwrap_err()
            .to_string()
    };
    let e = build(&|b| b.with_projection(Projection::paths(["nope"])));
    assert!(e.contains("no column \"nope\""), "{e}");
    let e = build(&|b| b.with_projection(Projection::leaves([9])));
    assert!(e.contains("no leaf column 9"), "{e}");
    let e = build(&|b| b.with_projection(Projection::roots([4])));
    assert!(e.contains("no top-level field 4"), "{e}");
    let e = build(&|b| b.with_row_groups(vec![0, 4]));
    assert!(e.contains("no row group 4"), "{e}");
    let e = build(&|b| {
        b.with_row_groups(vec![3])
            .with_row_selection(vec![RowSelector::select(101)].into())
    });
    assert!(
        e.contains("covers 101 rows") && e.contains("hold 100"),
        "{e}"
    );
    let e = build(&|b| b.with_field(Arc::new(Field::new("id", DataType::Boolean, false))));
    assert!(e.contains("cannot be read"), "{e}");
    // Typed, the decoder's error kept as its source.
    let boolean = Arc::new(Field::new("id", DataType::Boolean, false));
    let err = ReaderBuilder::try_new(data.clone())
        .unwrap()
        .with_field(boolean)
        .build()
        .unwrap_err();
    assert!(matches!(err, pqcodec_file::Error::Schema(_)), "{err:?}");
    assert!(std::error::Error::source(&err).is_some(), "{err:?}");
    let e = build(&|b| b.with_field(Arc::new(Field::new("zz", DataType::Int64, false))));
    assert!(e.contains("no top-level field \"zz\""), "{e}");
}

/// A source that gives short reads, or fails, after its first `good` reads.
struct Failing {
    data: Bytes,
    good: usize,
    short: bool,
    reads: Mutex<usize>,
}

impl RangeRead for Failing {
    fn size(&self) -> io::Result<u64> {
        Ok(self.data.len() as u64)
    }

    fn read_range(&self, range: Range<u64>) -> io::Result<Bytes> {
        let mut reads = self.reads.lock().unwrap();
        *reads += 1;
        match (*reads > self.good, self.short) {
            (false, _) => self.data.read_range(range),
            (true, true) => Ok(self.data.read_range(range)?.slice(1..)),
            (true, false) => Err(io::Error::other("the disk is gone")),
        }
    }
}

#[test]
fn short_and_failed_reads_are_errors() {
    for (good, short, says) in [
        (0, true, "bytes given"),
        (1, true, "bytes given"),
        (1, false, "the disk is gone"),
        (0, false, "the disk is gone"),
    ] {
        let source = Failing {
            data: file(false).clone(),
            good,
            short,
            reads: Mutex::new(0),
        };
        let e = pqcodec(source, &Request::all()).unwrap_err().to_string();
        assert!(
            e.contains(says) && e.contains("reading bytes"),
            "{good} {short}: {e}"
        );
    }
}

#[test]
fn readers_can_move_to_other_threads() {
    fn send<T: Send>() {}
    send::<pqcodec_file::BatchReader>();
    send::<pqcodec_file::BatchStream>();
    // One reader per row group, on its own thread, from one metadata.
    let data = file(true);
    let meta = Arc::new(FileMetadata::load(data, false).unwrap());
    let rows: usize = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|g| {
                let meta = Arc::clone(&meta);
                s.spawn(move || {
                    ReaderBuilder::new_with_metadata(data.clone(), meta)
                        .with_row_groups(vec![g])
                        .build()
                        .unwrap()
                        .map(|b| b.unwrap().num_rows())
                        .sum::<usize>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    assert_eq!(rows, ROWS);
}

async fn stream(source: ObjectStoreSource, r: &Request) -> RecordBatch {
    let options = ReaderOptions::new().with_page_index(true);
    let builder = ReaderBuilder::try_new_async_with_options(source, options)
        .await
        .unwrap();
    let stream = pqcodec_builder(builder, r).build_stream().unwrap();
    let schema = stream.schema();
    let batches: Vec<RecordBatch> = stream.try_collect().await.unwrap();
    concat(&batches, schema)
}

#[tokio::test]
async fn the_stream_reads_from_object_stores() {
    use object_store::local::LocalFileSystem;
    use object_store::memory::InMemory;
    use object_store::path::Path;
    use object_store::{ObjectStore, ObjectStoreExt};

    let data = file(true);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.parquet"), data).unwrap();
    let local: Arc<dyn ObjectStore> =
        Arc::new(LocalFileSystem::new_with_prefix(dir.path()).unwrap());
    let memory: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
    let path = Path::from("t.parquet");
    memory.put(&path, data.clone().into()).await.unwrap();
    let requests = [
        Request::all(),
        Request {
            leaves: Some(vec![2, 3]),
            row_groups: Some(vec![2, 0]),
            selection: Some(vec![(50, true), (70, false), (300, true), (10, false)]),
            offset: 3,
            limit: Some(60),
            batch_size: 9,
        },
    ];
    for store in [local, memory] {
        for r in &requests {
            let source = ObjectStoreSource::new(Arc::clone(&store), path.clone());
            let actual = stream(source, r).await;
            same(&arrow_rs(data, r), &actual).unwrap();
        }
        // A size known from a listing saves the request for it.
        let sized =
            ObjectStoreSource::new(Arc::clone(&store), path.clone()).with_size(data.len() as u64);
        assert_eq!(stream(sized, &Request::all()).await.num_rows(), ROWS);
    }
    let missing = ObjectStoreSource::new(Arc::new(InMemory::new()), Path::from("nope"));
    let e = ReaderBuilder::try_new_async(missing).await.unwrap_err();
    assert!(e.to_string().contains("size"), "{e}");
}
