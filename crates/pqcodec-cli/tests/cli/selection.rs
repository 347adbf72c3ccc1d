//! The file commands' selection flags against arrow-rs: `pqcodec cat` with `--columns`,
//! `--row-groups`, `--offset` and `--limit` prints, line for line, what arrow-rs's
//! `ParquetRecordBatchReaderBuilder` reads with the same projection, row groups, offset and
//! limit, written by arrow-json; `scan --threads N` counts the rows the other readers count;
//! `inspect` shows each data page's first row and whether the page index is there; a closed
//! pipe ends a command quietly; bad requests are one clear error line.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, OnceLock};

use arrow_array::builder::{Int32Builder, ListBuilder};
use arrow_array::{Array, StructArray};
use arrow_array::{ArrayRef, Float64Array, Int32Array, Int64Array, RecordBatch, StringArray};
use arrow_json::writer::{LineDelimited, WriterBuilder};
use arrow_schema::{DataType, Field, Fields, Schema};
use parquet::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use parquet::arrow::{ArrowWriter, ProjectionMask};
use parquet::file::metadata::PageIndexPolicy;
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterVersion};

use crate::common::{command, corpus_file, ok, pqcodec};

/// `pqcodec args`, which must fail with exit status 1 and one line on stderr naming `what`;
/// that line.
fn one_error_line(args: &[&str], what: &str) -> String {
    let out = pqcodec(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "pqcodec {args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "pqcodec {args:?} printed output");
    assert_eq!(stderr.lines().count(), 1, "pqcodec {args:?}: {stderr}");
    assert!(
        stderr.starts_with("pqcodec: error: ") && stderr.contains(what),
        "pqcodec {args:?}: {stderr:?} should name {what:?}"
    );
    assert!(!stderr.contains("panic"), "pqcodec {args:?}: {stderr}");
    stderr
}

/// The folder of the files these tests write (in the target directory, rewritten by each run).
fn scratch() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pqcodec-cli-selection");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Rows of the written files: `id` (Int64), `name` (Utf8, some nulls), `s` (a nullable
/// struct of `a`, a nullable Int32, and `b`, a nullable list of nullable Int32) and `f`
/// (Float64), all derived from the row number.
fn rows(start: usize, n: usize) -> RecordBatch {
    let range = start..start + n;
    let id = Int64Array::from_iter_values(range.clone().map(|i| i as i64));
    let name: StringArray = range
        .clone()
        .map(|i| (i % 7 != 3).then(|| format!("n{}", i * 31 % 1000)))
        .collect();
    let a: Int32Array = range
        .clone()
        .map(|i| (i % 5 != 0).then_some(i as i32 * 3))
        .collect();
    let mut b = ListBuilder::new(Int32Builder::new());
    for i in range.clone() {
        for j in 0..i % 4 {
            let null = j == 1 && i % 3 == 0;
            b.values().append_option((!null).then_some((i + j) as i32));
        }
        b.append(i % 13 != 0);
    }
    let b = b.finish();
    let struct_fields = Fields::from(vec![
        Field::new("a", DataType::Int32, true),
        Field::new("b", b.data_type().clone(), true),
    ]);
    let struct_nulls = range.clone().map(|i| i % 11 != 5).collect();
    let s = StructArray::try_new(
        struct_fields.clone(),
        vec![Arc::new(a) as ArrayRef, Arc::new(b)],
        Some(struct_nulls),
    )
    .unwrap();
    let f = Float64Array::from_iter_values(range.map(|i| i as f64 / 4.0));
    let schema = Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("name", DataType::Utf8, true),
        Field::new("s", DataType::Struct(struct_fields), true),
        Field::new("f", DataType::Float64, false),
    ]);
    RecordBatch::try_new(
        Arc::new(schema),
        vec![Arc::new(id), Arc::new(name), Arc::new(s), Arc::new(f)],
    )
    .unwrap()
}

/// Writes `total` rows to `path` in row groups of `group_rows` and pages of about `page_rows`.
fn write(path: &Path, total: usize, group_rows: usize, page_rows: usize, props: WriterProperties) {
    let props = props
        .into_builder()
        .set_max_row_group_row_count(Some(group_rows))
        .set_data_page_row_count_limit(page_rows)
        .set_write_batch_size(page_rows)
        .build();
    let schema = rows(0, 0).schema();
    // Written beside, then renamed: a concurrent run never reads half a file.
    let partial = path.with_extension(format!("{}.partial", std::process::id()));
    let file = File::create(&partial).unwrap();
    let mut writer = ArrowWriter::try_new(file, schema, Some(props)).unwrap();
    for start in (0..total).step_by(1000) {
        writer.write(&rows(start, 1000.min(total - start))).unwrap();
    }
    writer.close().unwrap();
    std::fs::rename(&partial, path).unwrap();
}

/// Rows in the row groups of [`small`].
const SMALL_GROUPS: [usize; 4] = [1500, 1500, 1500, 500];

/// 5000 rows in row groups of 1500 rows, pages of about 100 rows, with an offset index and
/// a column index.
fn small() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let path = scratch().join("small.parquet");
        write(&path, 5000, 1500, 100, WriterProperties::builder().build());
        path
    })
}

/// The same rows in the same row groups and pages, written without statistics or offset
/// index, v2 data pages (whose headers give their row count).
fn small_without_index() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let path = scratch().join("small-no-index.parquet");
        let props = WriterProperties::builder()
            .set_statistics_enabled(EnabledStatistics::None)
            .set_offset_index_disabled(true)
            .set_writer_version(WriterVersion::PARQUET_2_0)
            .build();
        write(&path, 5000, 1500, 100, props);
        path
    })
}

/// 200,000 rows (about 15 MB of JSON, far over a pipe's buffer; thousands of pages).
fn big() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let path = scratch().join("big.parquet");
        write(
            &path,
            200_000,
            50_000,
            500,
            WriterProperties::builder().build(),
        );
        path
    })
}

/// What to read: the selection flags.
#[derive(Debug, Default, Clone, Copy)]
struct Select<'a> {
    columns: Option<&'a [&'a str]>,
    row_groups: Option<&'a [usize]>,
    offset: usize,
    limit: Option<usize>,
}

impl Select<'_> {
    fn args(&self) -> Vec<String> {
        let mut args = Vec::new();
        if let Some(columns) = self.columns {
            args.extend(["--columns".into(), columns.join(",")]);
        }
        if let Some(groups) = self.row_groups {
            let groups: Vec<String> = groups.iter().map(usize::to_string).collect();
            args.extend(["--row-groups".into(), groups.join(",")]);
        }
        if self.offset > 0 {
            args.extend(["--offset".into(), self.offset.to_string()]);
        }
        if let Some(limit) = self.limit {
            args.extend(["--limit".into(), limit.to_string()]);
        }
        args
    }

    /// The rows read of a file whose row groups hold `groups` rows.
    fn row_count(&self, groups: &[usize]) -> usize {
        let all: Vec<usize> = (0..groups.len()).collect();
        let chosen = self.row_groups.unwrap_or(&all);
        let total: usize = chosen.iter().map(|&g| groups[g]).sum();
        let after_offset = total.saturating_sub(self.offset);
        self.limit.map_or(after_offset, |l| l.min(after_offset))
    }
}

/// What arrow-rs reads of `path` as `select` says, as JSON Lines with explicit nulls.
fn arrow_rs_json(path: &Path, select: &Select<'_>) -> String {
    let mut builder = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap())
        .unwrap()
        .with_batch_size(8192)
        .with_offset(select.offset);
    if let Some(columns) = select.columns {
        let mask = ProjectionMask::columns(builder.parquet_schema(), columns.iter().copied());
        builder = builder.with_projection(mask);
    }
    if let Some(groups) = select.row_groups {
        builder = builder.with_row_groups(groups.to_vec());
    }
    if let Some(limit) = select.limit {
        builder = builder.with_limit(limit);
    }
    let mut writer = WriterBuilder::new()
        .with_explicit_nulls(true)
        .build::<_, LineDelimited>(Vec::new());
    for batch in builder.build().unwrap() {
        writer.write(&batch.unwrap()).unwrap();
    }
    writer.finish().unwrap();
    String::from_utf8(writer.into_inner()).unwrap()
}

/// `pqcodec cat path` with `select`'s flags prints what arrow-rs reads, row by row; and as
/// many rows as `groups` (the row groups' sizes) say, when given.
fn cat_matches_arrow_rs(path: &Path, select: Select<'_>, groups: Option<&[usize]>) {
    let mut args = vec!["cat".to_owned(), path.to_str().unwrap().to_owned()];
    args.extend(select.args());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let got = ok(&args);
    let expected = arrow_rs_json(path, &select);
    if let Some(groups) = groups {
        assert_eq!(
            expected.lines().count(),
            select.row_count(groups),
            "arrow-rs reads {select:?} of {} unlike the test expects",
            path.display()
        );
    }
    let (got, expected): (Vec<&str>, Vec<&str>) =
        (got.lines().collect(), expected.lines().collect());
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(g, e, "{args:?}: row {i} differs from arrow-rs");
    }
    assert_eq!(got.len(), expected.len(), "{args:?}: rows printed");
}

#[test]
fn cat_selects_like_arrow_rs_on_a_file_with_small_pages() {
    let path = small();
    let g = Some(&SMALL_GROUPS[..]);
    let columns: [&[&str]; 6] = [
        &["id"],
        &["s.b"],
        &["name", "s.a"],
        &["s"],
        &["f", "s.b.list.item", "id"],
        &["s.a", "s.b"],
    ];
    for columns in columns {
        let select = Select {
            columns: Some(columns),
            ..Select::default()
        };
        cat_matches_arrow_rs(path, select, g);
    }
    let row_groups: [&[usize]; 4] = [&[0, 2], &[3], &[2, 0], &[1, 2, 3, 0]];
    for row_groups in row_groups {
        let select = Select {
            row_groups: Some(row_groups),
            ..Select::default()
        };
        cat_matches_arrow_rs(path, select, g);
    }
    // Offsets and limits at and around page (100 rows) and row group (1500 rows) bounds, and
    // past the end.
    for offset in [1, 99, 100, 101, 1499, 1500, 4321, 4999, 5000, 6000] {
        let select = Select {
            offset,
            ..Select::default()
        };
        cat_matches_arrow_rs(path, select, g);
    }
    for limit in [0, 1, 7, 100, 1501, 5000, 10_000] {
        let select = Select {
            limit: Some(limit),
            ..Select::default()
        };
        cat_matches_arrow_rs(path, select, g);
    }
    let combinations = [
        Select {
            offset: 150,
            limit: Some(1400),
            ..Select::default()
        },
        Select {
            columns: Some(&["s.b", "name"]),
            offset: 1450,
            limit: Some(120),
            ..Select::default()
        },
        Select {
            row_groups: Some(&[0, 2]),
            offset: 1499,
            limit: Some(3),
            ..Select::default()
        },
        Select {
            columns: Some(&["s"]),
            row_groups: Some(&[3, 1]),
            offset: 499,
            limit: Some(250),
        },
        Select {
            columns: Some(&["id", "s.a"]),
            row_groups: Some(&[1, 2]),
            limit: Some(2),
            ..Select::default()
        },
        Select {
            columns: Some(&["f"]),
            row_groups: Some(&[2]),
            offset: 1600,
            ..Select::default()
        },
    ];
    for select in combinations {
        cat_matches_arrow_rs(path, select, g);
    }
}

#[test]
fn cat_selects_like_arrow_rs_on_a_file_without_page_index() {
    let path = small_without_index();
    let g = Some(&SMALL_GROUPS[..]);
    for select in [
        Select {
            offset: 1550,
            limit: Some(130),
            ..Select::default()
        },
        Select {
            columns: Some(&["s.b"]),
            row_groups: Some(&[2, 1]),
            offset: 99,
            limit: Some(1500),
        },
    ] {
        cat_matches_arrow_rs(path, select, g);
    }
}

#[test]
fn cat_selects_like_arrow_rs_on_corpus_files() {
    // Nested columns (structs, lists, maps), dictionary pages, row groups of 333, 333, 333
    // and 1 row.
    let path = corpus_file("pyarrow_dict_opt_v1.parquet");
    let groups = Some(&[333, 333, 333, 1][..]);
    for select in [
        Select {
            columns: Some(&["struct.x", "list_list_str"]),
            row_groups: Some(&[0, 2]),
            ..Select::default()
        },
        Select {
            row_groups: Some(&[3, 1]),
            offset: 1,
            limit: Some(300),
            ..Select::default()
        },
        Select {
            columns: Some(&["map", "s_urls"]),
            offset: 499,
            limit: Some(3),
            ..Select::default()
        },
    ] {
        cat_matches_arrow_rs(&path, select, groups);
    }
    // DuckDB's v2 pages, zstd: one row group of 1000 rows.
    let path = corpus_file("duckdb_v2_zstd.parquet");
    for select in [
        Select {
            offset: 7,
            limit: Some(40),
            ..Select::default()
        },
        Select {
            row_groups: Some(&[0]),
            limit: Some(5),
            ..Select::default()
        },
    ] {
        cat_matches_arrow_rs(&path, select, Some(&[1000]));
    }
}

/// The row count `pqcodec scan args` reports on its last line.
fn scanned_rows(args: &[&str]) -> usize {
    let text = ok(args);
    let last: Vec<&str> = text.lines().last().unwrap().split(' ').collect();
    assert_eq!(
        (last[0], last[2], last[4]),
        ("rows", "seconds", "peak_heap_bytes"),
        "{text}"
    );
    last[1].parse().unwrap()
}

#[test]
fn scan_on_threads_counts_the_rows_one_thread_and_arrow_rs_count() {
    let small = small().to_str().unwrap();
    let dict = corpus_file("pyarrow_dict_opt_v2.parquet");
    let dict = dict.to_str().unwrap();
    let cases: [(&str, &[&str], usize); 6] = [
        (small, &[], 5000),
        (small, &["--columns", "s.b,name"], 5000),
        (small, &["--row-groups", "0,2"], 3000),
        (small, &["--columns", "s", "--row-groups", "3,1,2"], 3500),
        (dict, &[], 1000),
        (dict, &["--columns", "map", "--row-groups", "1,3"], 334),
    ];
    for (file, select, rows) in cases {
        let run = |more: &[&str]| {
            let mut args = vec!["scan", file];
            args.extend(select);
            args.extend(more);
            scanned_rows(&args)
        };
        assert_eq!(run(&["--threads", "1"]), rows, "{file} {select:?}");
        assert_eq!(
            run(&["--threads", "2"]),
            rows,
            "{file} {select:?} on 2 threads"
        );
        assert_eq!(
            run(&["--threads", "5"]),
            rows,
            "{file} {select:?} on 5 threads"
        );
        assert_eq!(run(&["--reader", "arrow-rs"]), rows, "{file} {select:?}");
    }
    let rows = scanned_rows(&["scan", small, "--offset", "10", "--limit", "25"]);
    assert_eq!(rows, 25);
    for flag in [["--limit", "5"], ["--offset", "1"]] {
        let mut args = vec!["scan", small, "--threads", "2"];
        args.extend(flag);
        one_error_line(&args, "--threads");
    }
}

/// Per column chunk of `inspect`'s output: (row group, column, offset index shown, column
/// index shown, the first row shown of each data page).
type Chunk = (usize, usize, bool, bool, Vec<Option<i64>>);

fn inspect_chunks(path: &Path) -> Vec<Chunk> {
    let text = ok(&["inspect", path.to_str().unwrap()]);
    let mut chunks: Vec<Chunk> = Vec::new();
    let mut group = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("row group ") {
            group = Some(rest.split(':').next().unwrap().parse().unwrap());
        } else if let Some(rest) = line.strip_prefix("  column ") {
            let column = rest.split(' ').next().unwrap().parse().unwrap();
            let yes_no = |key: &str| {
                let at = rest
                    .find(key)
                    .unwrap_or_else(|| panic!("no {key:?}: {line}"));
                match rest[at + key.len()..].split([',', ' ']).next() {
                    Some("yes") => true,
                    Some("no") => false,
                    other => panic!("{key:?} {other:?}: {line}"),
                }
            };
            let (offset, column_index) = (yes_no("offset index "), yes_no("column index "));
            chunks.push((group.unwrap(), column, offset, column_index, Vec::new()));
        } else if let Some(rest) = line.strip_prefix("    page ") {
            if rest.contains("dictionary") {
                assert!(!rest.contains("first row"), "{line}");
                continue;
            }
            let first = rest
                .split_once("first row ")
                .map(|(_, r)| r.split(',').next().unwrap().parse().unwrap());
            chunks.last_mut().expect("a page in a chunk").4.push(first);
        }
    }
    chunks
}

/// The offset index of every column chunk of `path`, as the parquet crate reads it: the
/// first row of each page, or `None` for a chunk without one.
fn offset_index_first_rows(path: &Path) -> Vec<Option<Vec<i64>>> {
    let options = ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Optional);
    let builder =
        ParquetRecordBatchReaderBuilder::try_new_with_options(File::open(path).unwrap(), options)
            .unwrap();
    let meta = builder.metadata();
    let mut out = Vec::new();
    for g in 0..meta.num_row_groups() {
        for c in 0..meta.row_group(g).num_columns() {
            let pages = meta
                .offset_index()
                .and_then(|o| o.get(g)?.get(c))
                .map(|o| {
                    o.page_locations()
                        .iter()
                        .map(|p| p.first_row_index)
                        .collect()
                })
                .filter(|p: &Vec<i64>| !p.is_empty());
            out.push(pages);
        }
    }
    out
}

#[test]
fn inspect_shows_first_rows_from_the_offset_index() {
    let path = small();
    let chunks = inspect_chunks(path);
    let index = offset_index_first_rows(path);
    assert_eq!(chunks.len(), 4 * 5, "4 row groups of 5 leaf columns");
    assert_eq!(chunks.len(), index.len());
    for ((g, c, offset, column_index, firsts), index) in chunks.iter().zip(&index) {
        let index = index.as_ref().expect("arrow-rs writes an offset index");
        assert!(*offset && *column_index, "row group {g} column {c}");
        let firsts: Vec<i64> = firsts.iter().map(|f| f.expect("a first row")).collect();
        assert_eq!(&firsts, index, "row group {g} column {c}");
        assert!(firsts.len() >= 5, "row group {g} column {c}: small pages");
    }
}

#[test]
fn inspect_counts_first_rows_without_an_offset_index() {
    let path = small_without_index();
    assert!(
        offset_index_first_rows(path).iter().all(Option::is_none),
        "written without an offset index"
    );
    let chunks = inspect_chunks(path);
    // The same pages as the file written with an index: the first rows counted from the v2
    // page headers are the ones the index gives there.
    let indexed = inspect_chunks(small());
    assert_eq!(chunks.len(), indexed.len());
    for (chunk, indexed) in chunks.iter().zip(&indexed) {
        let (g, c, offset, column_index, firsts) = chunk;
        assert!(!offset && !column_index, "row group {g} column {c}");
        assert_eq!(firsts, &indexed.4, "row group {g} column {c}");
    }
    // pyarrow writes no page index by default; v1 pages of a flat column count their rows.
    let path = corpus_file("pyarrow_plain_opt_v1.parquet");
    assert!(offset_index_first_rows(&path).iter().all(Option::is_none));
    let chunks = inspect_chunks(&path);
    assert!(!chunks.is_empty());
    for (g, c, offset, column_index, firsts) in chunks {
        assert!(!offset && !column_index, "row group {g} column {c}");
        assert_eq!(firsts.first(), Some(&Some(0)), "row group {g} column {c}");
    }
}

#[test]
fn inspect_shows_an_offset_index_without_a_column_index() {
    let path = scratch().join("chunk-statistics.parquet");
    let props = WriterProperties::builder()
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .build();
    write(&path, 300, 200, 50, props);
    let index = offset_index_first_rows(&path);
    for ((g, c, offset, column_index, firsts), index) in inspect_chunks(&path).iter().zip(&index) {
        assert!(*offset && !column_index, "row group {g} column {c}");
        let index = index.as_ref().unwrap();
        let firsts: Vec<i64> = firsts.iter().map(|f| f.unwrap()).collect();
        assert_eq!(&firsts, index, "row group {g} column {c}");
    }
}

/// Runs `pqcodec args`, reads `lines` lines of its output, then closes the pipe; the
/// command must end with status 0 and print nothing on stderr.
fn closed_pipe_ends_quietly(args: &[&str], lines: usize) {
    let mut child = command()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pqcodec runs");
    let mut out = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..lines {
        let mut line = String::new();
        assert!(out.read_line(&mut line).unwrap() > 0, "{args:?}: no output");
    }
    drop(out);
    let done = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert!(
        done.status.success(),
        "{args:?}: {:?} {stderr}",
        done.status
    );
    assert!(stderr.is_empty(), "{args:?}: {stderr}");
}

#[test]
fn a_closed_pipe_ends_cat_and_inspect_quietly() {
    let big = big().to_str().unwrap();
    closed_pipe_ends_quietly(&["cat", big], 3);
    closed_pipe_ends_quietly(&["cat", big, "--columns", "s", "--offset", "70000"], 1);
    closed_pipe_ends_quietly(&["inspect", big], 10);
}

#[test]
fn bad_requests_are_one_clear_error_line() {
    let small = small().to_str().unwrap();
    for command in ["cat", "scan"] {
        one_error_line(&[command, small, "--columns", "nope"], "no column \"nope\"");
        one_error_line(&[command, small, "--columns", "id,s.c"], "\"s.c\"");
        one_error_line(&[command, small, "--row-groups", "99"], "no row group 99");
        one_error_line(&[command, small, "--row-groups", "1,4"], "no row group 4");
    }
    let missing = scratch().join("missing.parquet");
    let missing = missing.to_str().unwrap();
    for command in ["cat", "scan", "inspect"] {
        one_error_line(&[command, missing], missing);
    }
}
