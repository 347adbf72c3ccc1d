//! The writer against arrow-rs: files pqcodec writes, with every encoding, codec and page
//! version, read back by arrow-rs's reader equal to what was written; their footer statistics
//! equal to what arrow-rs's `ArrowWriter` writes for the same data; bad batches refused before
//! anything is written; no footer without `close()`.

use std::sync::Arc;

use arrow_array::builder::{Int32Builder, ListBuilder, MapBuilder, StringBuilder};
use arrow_array::types::Int32Type;
use arrow_array::*;
use arrow_buffer::{OffsetBuffer, i256};
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef};
use bytes::Bytes;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::properties::WriterProperties;
use parquet::file::reader::{FileReader, SerializedFileReader};
use pqcodec_core::Encoding;
use pqcodec_file::{ColumnSettings, Compression, FileWriter, PageVersion, WriterOptions};

const ROWS: usize = 3000;

/// Every `k`-th row null.
fn valid(i: usize, k: usize) -> bool {
    i % k != k / 2
}

fn flat_columns() -> Vec<(&'static str, ArrayRef)> {
    let n = ROWS;
    let i32s = |k| {
        Int32Array::from_iter((0..n).map(|i| valid(i, k).then_some((i as i32 * 7919) % 1000 - 500)))
    };
    vec![
        (
            "bool",
            Arc::new(BooleanArray::from_iter(
                (0..n).map(|i| valid(i, 5).then_some(i % 3 == 0)),
            )) as ArrayRef,
        ),
        (
            "i8",
            Arc::new(Int8Array::from_iter(
                (0..n).map(|i| valid(i, 7).then_some((i % 200) as i8)),
            )),
        ),
        (
            "i16",
            Arc::new(Int16Array::from_iter((0..n).map(|i| Some((i * 31) as i16)))),
        ),
        ("i32", Arc::new(i32s(11))),
        (
            "i64",
            Arc::new(Int64Array::from_iter(
                (0..n).map(|i| valid(i, 13).then_some(i as i64 * 1_000_003 - 7)),
            )),
        ),
        (
            "u8",
            Arc::new(UInt8Array::from_iter((0..n).map(|i| Some((i % 256) as u8)))),
        ),
        (
            "u16",
            Arc::new(UInt16Array::from_iter(
                (0..n).map(|i| Some((i * 13) as u16)),
            )),
        ),
        (
            "u32",
            Arc::new(UInt32Array::from_iter(
                (0..n).map(|i| valid(i, 3).then_some(u32::MAX - i as u32)),
            )),
        ),
        (
            "u64",
            Arc::new(UInt64Array::from_iter(
                (0..n).map(|i| Some(u64::MAX - i as u64 * 3)),
            )),
        ),
        (
            "f32",
            Arc::new(Float32Array::from_iter(
                (0..n).map(|i| valid(i, 17).then_some(i as f32 / 4.0 - 100.0)),
            )),
        ),
        (
            "f64",
            Arc::new(Float64Array::from_iter((0..n).map(|i| {
                Some(match i % 50 {
                    0 => f64::NAN,
                    1 => -0.0,
                    _ => i as f64 * 0.01,
                })
            }))),
        ),
        (
            "f16",
            Arc::new(Float16Array::from_iter((0..n).map(|i| {
                valid(i, 9).then(|| half::f16::from_f32(i as f32 / 8.0))
            }))),
        ),
        (
            "date32",
            Arc::new(Date32Array::from_iter(
                (0..n).map(|i| Some(i as i32 - 1000)),
            )),
        ),
        (
            "date64",
            Arc::new(Date64Array::from_iter(
                (0..n).map(|i| Some(i as i64 * 86_400_000)),
            )),
        ),
        (
            "time32",
            Arc::new(Time32MillisecondArray::from_iter(
                (0..n).map(|i| Some(i as i32 * 1000)),
            )),
        ),
        (
            "time64",
            Arc::new(Time64MicrosecondArray::from_iter(
                (0..n).map(|i| Some(i as i64 * 1000)),
            )),
        ),
        (
            "ts_s",
            Arc::new(TimestampSecondArray::from_iter(
                (0..n).map(|i| valid(i, 4).then_some(i as i64 * 3600)),
            )),
        ),
        (
            "ts_us_tz",
            Arc::new(
                TimestampMicrosecondArray::from_iter((0..n).map(|i| Some(i as i64 * 1_000_001)))
                    .with_timezone("+02:00"),
            ),
        ),
        (
            "dec_9",
            Arc::new(
                Decimal128Array::from_iter(
                    (0..n).map(|i| valid(i, 6).then_some(i as i128 * 101 - 9999)),
                )
                .with_precision_and_scale(9, 2)
                .unwrap(),
            ),
        ),
        (
            "dec_18",
            Arc::new(
                Decimal128Array::from_iter((0..n).map(|i| Some(i as i128 * 1_000_000_007 - 5)))
                    .with_precision_and_scale(18, 3)
                    .unwrap(),
            ),
        ),
        (
            "dec_30",
            Arc::new(
                Decimal128Array::from_iter(
                    (0..n).map(|i| valid(i, 8).then_some((i as i128 - 1500) * 10i128.pow(25))),
                )
                .with_precision_and_scale(30, 4)
                .unwrap(),
            ),
        ),
        (
            "dec_50",
            Arc::new(
                Decimal256Array::from_iter((0..n).map(|i| {
                    Some(i256::from_i128(i as i128 - 7) * i256::from_i128(10i128.pow(30)))
                }))
                .with_precision_and_scale(50, 1)
                .unwrap(),
            ),
        ),
        (
            "utf8",
            Arc::new(StringArray::from_iter(
                (0..n).map(|i| valid(i, 10).then(|| format!("v{}", (i * 7) % 97))),
            )),
        ),
        (
            "large_utf8",
            Arc::new(LargeStringArray::from_iter(
                (0..n).map(|i| Some(format!("long value number {i}"))),
            )),
        ),
        (
            "utf8_view",
            Arc::new(StringViewArray::from_iter(
                (0..n).map(|i| valid(i, 12).then(|| "é".repeat(i % 20))),
            )),
        ),
        (
            "binary",
            Arc::new(BinaryArray::from_iter(
                (0..n).map(|i| valid(i, 6).then(|| vec![(i % 256) as u8; i % 5])),
            )),
        ),
        (
            "binary_view",
            Arc::new(BinaryViewArray::from_iter(
                (0..n).map(|i| Some(vec![(i % 7) as u8; i % 30])),
            )),
        ),
        (
            "fixed",
            Arc::new(
                FixedSizeBinaryArray::try_from_sparse_iter_with_size(
                    (0..n).map(|i| valid(i, 5).then(|| (i as u32).to_be_bytes())),
                    4,
                )
                .unwrap(),
            ),
        ),
        (
            "ym",
            Arc::new(IntervalYearMonthArray::from_iter(
                (0..n).map(|i| Some(i as i32 - 10)),
            )),
        ),
        (
            "dict",
            Arc::new(
                (0..n)
                    .map(|i| valid(i, 7).then(|| ["red", "green", "blue"][i % 3]))
                    .collect::<DictionaryArray<Int32Type>>(),
            ),
        ),
    ]
}

fn nested_columns() -> Vec<(&'static str, ArrayRef)> {
    let n = ROWS;
    let mut list = ListBuilder::new(Int32Builder::new());
    for i in 0..n {
        match i % 6 {
            0 => list.append_null(),
            1 => list.append(true),
            _ => {
                for k in 0..(i % 4) {
                    list.values()
                        .append_option((k != 2).then_some((i + k) as i32));
                }
                list.append(true);
            }
        }
    }
    let list = list.finish();
    let large = LargeListArray::new(
        Arc::new(Field::new("item", DataType::Utf8, true)),
        OffsetBuffer::from_lengths((0..n).map(|i| i % 3)),
        Arc::new(StringArray::from_iter((0..n).flat_map(|i| {
            (0..i % 3).map(move |k| (k != 1).then(|| format!("{i}.{k}")))
        }))),
        None,
    );
    let inner = StructArray::new(
        Fields::from(vec![
            Field::new("x", DataType::Int64, false),
            Field::new("y", DataType::Utf8, true),
        ]),
        vec![
            Arc::new(Int64Array::from_iter_values((0..n).map(|i| i as i64))),
            Arc::new(StringArray::from_iter(
                (0..n).map(|i| valid(i, 4).then(|| i.to_string())),
            )),
        ],
        Some((0..n).map(|i| valid(i, 9)).collect()),
    );
    let mut map = MapBuilder::new(None, StringBuilder::new(), Int32Builder::new());
    for i in 0..n {
        if i % 10 == 3 {
            map.append(false).unwrap();
            continue;
        }
        for k in 0..(i % 3) {
            map.keys().append_value(format!("k{k}"));
            map.values().append_option((k != 1).then_some(i as i32));
        }
        map.append(true).unwrap();
    }
    let map = map.finish();
    // A list of structs with a list inside.
    let points = StructArray::new(
        Fields::from(vec![
            Field::new("id", DataType::Int32, true),
            Field::new_list("tags", Field::new("item", DataType::Int32, true), true),
        ]),
        vec![
            Arc::new(Int32Array::from_iter(
                (0..2 * n).map(|i| valid(i, 5).then_some(i as i32)),
            )),
            Arc::new(ListArray::from_iter_primitive::<Int32Type, _, _>(
                (0..2 * n).map(|i| {
                    valid(i, 7).then(|| (0..i % 3).map(|k| Some(k as i32)).collect::<Vec<_>>())
                }),
            )),
        ],
        None,
    );
    let nested_list = ListArray::new(
        Arc::new(Field::new("item", points.data_type().clone(), true)),
        OffsetBuffer::from_lengths((0..n).map(|i| if i % 2 == 0 { 1 } else { 3 }).scan(
            0,
            |total, l| {
                // Stay within the 2n points.
                let l = if *total + l > 2 * n { 0 } else { l };
                *total += l;
                Some(l)
            },
        )),
        Arc::new(points),
        Some((0..n).map(|i| valid(i, 11)).collect()),
    );
    vec![
        ("list", Arc::new(list) as ArrayRef),
        ("large_list", Arc::new(large)),
        ("struct", Arc::new(inner)),
        ("map", Arc::new(map)),
        ("list_of_structs", Arc::new(nested_list)),
    ]
}

fn batch(columns: Vec<(&'static str, ArrayRef)>) -> RecordBatch {
    RecordBatch::try_from_iter_with_nullable(columns.into_iter().map(|(name, a)| (name, a, true)))
        .unwrap()
}

/// Writes `batches` with `options`; the file.
pub(crate) fn write(batches: &[RecordBatch], options: WriterOptions) -> Bytes {
    let mut writer = FileWriter::try_new(Vec::new(), batches[0].schema(), options).unwrap();
    for b in batches {
        writer.write(b).unwrap();
    }
    Bytes::from(writer.into_inner().unwrap())
}

/// The file read back by arrow-rs, as one batch.
pub(crate) fn read_arrow_rs(file: Bytes) -> RecordBatch {
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .with_batch_size(1 << 20)
        .build()
        .unwrap();
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    arrow_select::concat::concat_batches(&batches[0].schema(), &batches).unwrap()
}

fn expected(batches: &[RecordBatch]) -> RecordBatch {
    arrow_select::concat::concat_batches(&batches[0].schema(), batches).unwrap()
}

/// Compares column by column, naming the first column that differs.
fn assert_same(read: &RecordBatch, want: &RecordBatch, what: &str) {
    assert_eq!(read.num_rows(), want.num_rows(), "{what}: rows");
    for (i, field) in want.schema().fields().iter().enumerate() {
        let (got, exp) = (read.column(i), want.column(i));
        assert_eq!(
            got.data_type(),
            exp.data_type(),
            "{what}: column {}",
            field.name()
        );
        assert!(
            got.as_ref() == exp.as_ref(),
            "{what}: column {} differs:\n{:?}\n{:?}",
            field.name(),
            got.slice(0, 12.min(got.len())),
            exp.slice(0, 12.min(exp.len()))
        );
    }
}

/// Two batches, the second a slice of a bigger one, so that sliced arrays are written too.
fn batches(columns: fn() -> Vec<(&'static str, ArrayRef)>) -> Vec<RecordBatch> {
    let whole = batch(columns());
    vec![whole.slice(0, 1700), whole.slice(1703, ROWS - 1703)]
}

#[test]
fn every_type_reads_back_through_arrow_rs() {
    for columns in [flat_columns as fn() -> _, nested_columns] {
        let input = batches(columns);
        let want = expected(&input);
        for version in [PageVersion::V1, PageVersion::V2] {
            for dictionary in [true, false] {
                let options = WriterOptions::new()
                    .with_data_page_version(version)
                    .with_dictionary(dictionary)
                    .with_data_page_row_count_limit(700)
                    .with_max_row_group_row_count(1100);
                let file = write(&input, options);
                assert_same(
                    &read_arrow_rs(file),
                    &want,
                    &format!("{version:?} dictionary {dictionary}"),
                );
            }
        }
    }
}

#[test]
fn every_codec_reads_back() {
    let input = batches(flat_columns);
    let want = expected(&input);
    for codec in [
        Compression::Uncompressed,
        Compression::Snappy,
        Compression::Gzip(6),
        Compression::Lz4Raw(1),
        #[cfg(feature = "lz4-hc")]
        Compression::Lz4Raw(9),
        Compression::Zstd(3),
        #[cfg(feature = "brotli")]
        Compression::Brotli(1),
    ] {
        for version in [PageVersion::V1, PageVersion::V2] {
            let options = WriterOptions::new()
                .with_compression(codec)
                .with_data_page_version(version);
            let file = write(&input, options);
            assert_same(&read_arrow_rs(file), &want, &format!("{codec} {version:?}"));
        }
    }
}

/// Each encoding on the columns it applies to, read back by arrow-rs and by pqcodec.
#[test]
fn every_encoding_reads_back() {
    let cases: [(Encoding, &[&str]); 5] = [
        (
            Encoding::DeltaBinaryPacked,
            &[
                "i8", "i32", "i64", "u32", "u64", "date32", "ts_s", "dec_9", "dec_18",
            ],
        ),
        (
            Encoding::DeltaLengthByteArray,
            &["utf8", "large_utf8", "utf8_view", "binary", "binary_view"],
        ),
        (
            Encoding::DeltaByteArray,
            &["utf8", "binary_view", "fixed", "dec_30", "f16"],
        ),
        (
            Encoding::ByteStreamSplit,
            &["i32", "i64", "f32", "f64", "fixed", "dec_30", "f16"],
        ),
        (Encoding::Rle, &["bool"]),
    ];
    let input = batches(flat_columns);
    let want = expected(&input);
    for (encoding, columns) in cases {
        for version in [PageVersion::V1, PageVersion::V2] {
            let mut options = WriterOptions::new()
                .with_data_page_version(version)
                .with_data_page_row_count_limit(500);
            for c in columns {
                options = options.with_column(*c, ColumnSettings::new().with_encoding(encoding));
            }
            let file = write(&input, options);
            let metadata = SerializedFileReader::new(file.clone())
                .unwrap()
                .metadata()
                .clone();
            for chunk in metadata.row_group(0).columns() {
                let path = chunk.column_path().string();
                if columns.contains(&path.as_str()) {
                    let name = format!("{encoding}").replace(' ', "_");
                    assert!(
                        chunk.encodings().any(|e| format!("{e}") == name),
                        "{path}: {:?} lacks {name}",
                        chunk.encodings().collect::<Vec<_>>()
                    );
                }
            }
            assert_same(
                &read_arrow_rs(file.clone()),
                &want,
                &format!("{encoding} {version:?}"),
            );
            let ours: Vec<RecordBatch> = pqcodec_file::ReaderBuilder::try_new(file)
                .unwrap()
                .build()
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            assert_same(
                &expected(&ours),
                &want,
                &format!("pqcodec {encoding} {version:?}"),
            );
        }
    }
}

/// Each page's bounds and null count from a column index (empty without one).
fn page_bounds(
    ci: &parquet::file::page_index::column_index::ColumnIndexMetaData,
) -> Vec<(Option<String>, Option<String>, Option<i64>)> {
    use parquet::file::page_index::column_index::ColumnIndexMetaData as C;
    macro_rules! pages {
        ($i:expr) => {
            (0..$i.num_pages() as usize)
                .map(|p| {
                    let (lo, hi) = ($i.min_value(p), $i.max_value(p));
                    (
                        lo.map(|v| format!("{v:?}")),
                        hi.map(|v| format!("{v:?}")),
                        $i.null_count(p),
                    )
                })
                .collect()
        };
    }
    match ci {
        C::NONE => Vec::new(),
        C::BOOLEAN(i) => pages!(i),
        C::INT32(i) => pages!(i),
        C::INT64(i) => pages!(i),
        C::INT96(i) => pages!(i),
        C::FLOAT(i) => pages!(i),
        C::DOUBLE(i) => pages!(i),
        C::BYTE_ARRAY(i) | C::FIXED_LEN_BYTE_ARRAY(i) => pages!(i),
    }
}

/// The metadata, page index included, of `input` written by pqcodec under `options` and by
/// arrow-rs's ArrowWriter under `props`.
fn both_metadata(
    input: &RecordBatch,
    options: WriterOptions,
    props: WriterProperties,
) -> (
    parquet::file::metadata::ParquetMetaData,
    parquet::file::metadata::ParquetMetaData,
) {
    let ours = write(std::slice::from_ref(input), options);
    let mut theirs = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut theirs, input.schema(), Some(props)).unwrap();
    writer.write(input).unwrap();
    writer.close().unwrap();
    let parse = |bytes: &Bytes| {
        parquet::file::metadata::ParquetMetaDataReader::new()
            .with_page_index_policy(parquet::file::metadata::PageIndexPolicy::Required)
            .parse_and_finish(bytes)
            .unwrap()
    };
    (parse(&ours), parse(&Bytes::from(theirs)))
}

/// Chunk statistics (min, max, null count) and each page's bounds in the column index as
/// arrow-rs's ArrowWriter writes them (pages cut at the same rows: 1024 a page), dictionary
/// encoded or not; an offset index for every column.
#[test]
fn statistics_match_arrow_writer() {
    let input = batch(flat_columns());
    for dictionary in [true, false] {
        let options = WriterOptions::new()
            .with_dictionary(dictionary)
            .with_compression(Compression::Uncompressed)
            .with_data_page_row_count_limit(1024);
        let props = WriterProperties::builder()
            .set_dictionary_enabled(dictionary)
            .set_data_page_row_count_limit(1024)
            .build();
        let (ours, theirs) = both_metadata(&input, options, props);
        assert_eq!(
            ours.file_metadata().schema_descr().root_schema(),
            theirs.file_metadata().schema_descr().root_schema()
        );
        let (a, b) = (ours.row_group(0), theirs.row_group(0));
        for (x, y) in a.columns().iter().zip(b.columns()) {
            let path = format!("{} (dictionary {dictionary})", x.column_path());
            let (sx, sy) = (x.statistics(), y.statistics());
            assert_eq!(
                sx.and_then(|s| s.null_count_opt()),
                sy.and_then(|s| s.null_count_opt()),
                "{path}: null count"
            );
            assert_eq!(
                sx.and_then(|s| s.min_bytes_opt()),
                sy.and_then(|s| s.min_bytes_opt()),
                "{path}: min"
            );
            assert_eq!(
                sx.and_then(|s| s.max_bytes_opt()),
                sy.and_then(|s| s.max_bytes_opt()),
                "{path}: max"
            );
            assert_eq!(x.num_values(), y.num_values(), "{path}: values");
            if !dictionary {
                // Without dictionaries both writers make the same pages: the same encodings
                // and page encoding stats (each in its own order).
                let sorted = |mut v: Vec<String>| {
                    v.sort();
                    v
                };
                let encodings = |c: &parquet::file::metadata::ColumnChunkMetaData| {
                    sorted(c.encodings().map(|e| e.to_string()).collect())
                };
                assert_eq!(encodings(x), encodings(y), "{path}: encodings");
                let stats = |c: &parquet::file::metadata::ColumnChunkMetaData| {
                    sorted(
                        c.page_encoding_stats()
                            .into_iter()
                            .flatten()
                            .map(|s| format!("{:?} {} {}", s.page_type, s.encoding, s.count))
                            .collect(),
                    )
                };
                assert_eq!(stats(x), stats(y), "{path}: page encoding stats");
            }
        }
        let (ci, oi) = (ours.column_index().unwrap(), ours.offset_index().unwrap());
        let their_ci = theirs.column_index().unwrap();
        for (col, chunk) in a.columns().iter().enumerate() {
            let path = chunk.column_path();
            assert_eq!(oi[0][col].page_locations().len(), 3, "{path}: offset index");
            let has_bounds = chunk
                .statistics()
                .is_some_and(|s| s.min_bytes_opt().is_some());
            let ours = page_bounds(&ci[0][col]);
            assert!(!has_bounds || ours.len() == 3, "{path}: column index");
            let theirs = page_bounds(&their_ci[0][col]);
            if !theirs.is_empty() && !ours.is_empty() {
                assert_eq!(
                    ours, theirs,
                    "{path} (dictionary {dictionary}): page bounds"
                );
                assert_eq!(
                    ci[0][col].get_boundary_order(),
                    their_ci[0][col].get_boundary_order(),
                    "{path} (dictionary {dictionary}): boundary order"
                );
            }
        }
        let kv = ours.file_metadata().key_value_metadata().unwrap();
        assert!(kv.iter().any(|kv| kv.key == "ARROW:schema"));
    }
}

/// Strings and bytes longer than 64 bytes: their bounds cut as arrow-rs's ArrowWriter cuts
/// them under the defaults of both (64 bytes), in the chunk statistics, with whether each is
/// exact, and in the column index.
#[test]
fn long_bounds_are_cut_as_arrow_writer_cuts_them() {
    let chars = ['a', '\u{e9}', '\u{7f}', '\u{fff0}', 'z'];
    let text: ArrayRef = Arc::new(StringArray::from_iter_values((0..ROWS).map(|i| {
        let c = chars[i % chars.len()].to_string();
        format!("{}{i}{}", c.repeat(70 + i % 50), "tail".repeat(i % 7))
    })));
    let bytes: ArrayRef = Arc::new(BinaryArray::from_iter_values((0..ROWS).map(|i| {
        let mut v = vec![0xffu8; 70 + i % 10];
        v.extend_from_slice(&(i as u32).to_be_bytes());
        if i % 3 == 0 {
            v[0] = (i % 256) as u8;
        }
        v
    })));
    let input = batch(vec![("text", text), ("bytes", bytes)]);
    let (ours, theirs) = both_metadata(
        &input,
        WriterOptions::new().with_data_page_row_count_limit(1024),
        WriterProperties::builder()
            .set_data_page_row_count_limit(1024)
            .build(),
    );
    let mut inexact = 0;
    for col in 0..2 {
        let (x, y) = (
            ours.row_group(0).column(col),
            theirs.row_group(0).column(col),
        );
        let path = x.column_path().string();
        let (sx, sy) = (x.statistics().unwrap(), y.statistics().unwrap());
        assert_eq!(sx.min_bytes_opt(), sy.min_bytes_opt(), "{path}: min");
        assert_eq!(sx.max_bytes_opt(), sy.max_bytes_opt(), "{path}: max");
        assert_eq!(sx.min_is_exact(), sy.min_is_exact(), "{path}: min exact");
        assert_eq!(sx.max_is_exact(), sy.max_is_exact(), "{path}: max exact");
        // A cut bound is at most 64 bytes; a greatest value of 0xff bytes cannot be cut.
        assert!(sx.min_is_exact() || sx.min_bytes_opt().unwrap().len() <= 64);
        assert!(sx.max_is_exact() || sx.max_bytes_opt().unwrap().len() <= 64);
        inexact += usize::from(!sx.min_is_exact()) + usize::from(!sx.max_is_exact());
        let (ci, their_ci) = (ours.column_index().unwrap(), theirs.column_index().unwrap());
        assert_eq!(
            page_bounds(&ci[0][col]),
            page_bounds(&their_ci[0][col]),
            "{path}: page bounds"
        );
    }
    assert_eq!(inexact, 3, "bounds cut");
}

fn one_column(name: &str, array: ArrayRef, nullable: bool) -> (SchemaRef, RecordBatch) {
    let field = Field::new(name, array.data_type().clone(), nullable);
    let schema = Arc::new(Schema::new(vec![field]));
    (
        schema.clone(),
        RecordBatch::try_new(schema, vec![array]).unwrap(),
    )
}

#[test]
fn bad_batches_are_refused_before_anything_is_written() {
    // A batch of another schema.
    let (schema, good) = one_column("a", Arc::new(Int32Array::from(vec![1, 2])), true);
    let mut writer = FileWriter::try_new(Vec::new(), schema, WriterOptions::new()).unwrap();
    writer.write(&good).unwrap();
    let other = batch(vec![("a", Arc::new(Int64Array::from(vec![1])) as ArrayRef)]);
    let err = writer.write(&other).unwrap_err().to_string();
    assert!(err.contains("schema"), "{err}");
    writer.write(&good).unwrap();
    let file = Bytes::from(writer.into_inner().unwrap());
    assert_eq!(read_arrow_rs(file).num_rows(), 4);

    // An encoding that does not apply.
    let (schema, _) = one_column("s", Arc::new(StringArray::from(vec!["x"])), true);
    let options = WriterOptions::new().with_encoding(Encoding::ByteStreamSplit);
    let err = FileWriter::try_new(Vec::new(), schema.clone(), options)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("BYTE_STREAM_SPLIT") && err.contains('s'),
        "{err}"
    );
    let options = WriterOptions::new().with_encoding(Encoding::DeltaBinaryPacked);
    assert!(FileWriter::try_new(Vec::new(), schema, options).is_err());

    // A dictionary key past the dictionary.
    let keys = Int32Array::from(vec![0, 5, 1]);
    let values: ArrayRef = Arc::new(StringArray::from(vec!["x", "y"]));
    // SAFETY: the key past the dictionary is the point; only the writer reads this array.
    let dict = unsafe { DictionaryArray::<Int32Type>::new_unchecked(keys, values) };
    let (schema, bad) = one_column("d", Arc::new(dict), true);
    let mut writer = FileWriter::try_new(Vec::new(), schema, WriterOptions::new()).unwrap();
    let err = writer.write(&bad).unwrap_err();
    // The encoder's own error, kept.
    assert!(matches!(err, pqcodec_file::Error::Encode(_)), "{err:?}");
    let err = err.to_string();
    assert!(err.contains("key 5"), "{err}");
    assert_eq!(writer.in_progress_rows(), 0);

    // A list offset past its child.
    let child = Arc::new(Int32Array::from(vec![1, 2, 3]));
    let field = Arc::new(Field::new("item", DataType::Int32, true));
    let data = ListArray::new(
        field.clone(),
        OffsetBuffer::new(vec![0, 2, 3].into()),
        child,
        None,
    )
    .into_data()
    .into_builder()
    .buffers(vec![arrow_buffer::Buffer::from_vec(vec![0i32, 2, 9])]);
    // SAFETY: built invalid on purpose; only the writer reads it, and checks its offsets.
    let list = ListArray::from(unsafe { data.build_unchecked() });
    let (schema, bad) = one_column("l", Arc::new(list), true);
    let mut writer = FileWriter::try_new(Vec::new(), schema, WriterOptions::new()).unwrap();
    let err = writer.write(&bad).unwrap_err().to_string();
    assert!(err.contains("offsets"), "{err}");
    assert_eq!(writer.in_progress_rows(), 0);
}

#[test]
fn no_footer_without_close() {
    let input = batch(flat_columns());
    let mut out = Vec::new();
    {
        let mut writer = FileWriter::try_new(
            &mut out,
            input.schema(),
            WriterOptions::new().with_max_row_group_row_count(1000),
        )
        .unwrap();
        writer.write(&input).unwrap();
        // Dropped: two row groups are out, the third and the footer are not.
    }
    assert!(out.len() > 4);
    assert!(ParquetRecordBatchReaderBuilder::try_new(Bytes::from(out)).is_err());
}

/// An output that fails after `budget` bytes.
struct Failing {
    budget: usize,
}

impl std::io::Write for Failing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if buf.len() > self.budget {
            return Err(std::io::Error::other("disk full"));
        }
        self.budget -= buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn an_io_error_is_returned_and_the_writer_refuses_more() {
    let input = batch(flat_columns());
    let options = WriterOptions::new().with_max_row_group_row_count(500);
    let mut writer =
        FileWriter::try_new(Failing { budget: 20_000 }, input.schema(), options).unwrap();
    let err = writer.write(&input).unwrap_err();
    let io = std::error::Error::source(&err).and_then(|e| e.downcast_ref::<std::io::Error>());
    assert!(
        io.is_some_and(|io| io.to_string() == "disk full"),
        "{err:?}"
    );
    let again = writer.write(&input).unwrap_err();
    assert!(matches!(again, pqcodec_file::Error::Failed(_)), "{again:?}");
    assert!(again.to_string().contains("disk full"), "{again}");
    assert!(writer.close().is_err());
}

#[test]
fn a_dictionary_falls_back_to_the_column_encoding() {
    // 600 distinct values: past the 4 KiB dictionary within the first 1024 rows, yet a
    // dictionary that pays (the first page keeps it).
    let values: ArrayRef = Arc::new(Int64Array::from_iter_values(
        (0..20_000).map(|i| i % 600 * 7),
    ));
    let input = batch(vec![("v", values)]);
    let options = WriterOptions::new()
        .with_dictionary_page_size_limit(4096)
        .with_column(
            "v",
            ColumnSettings::new()
                .with_encoding(Encoding::DeltaBinaryPacked)
                .with_dictionary(true),
        );
    let file = write(std::slice::from_ref(&input), options);
    let metadata = SerializedFileReader::new(file.clone())
        .unwrap()
        .metadata()
        .clone();
    let chunk = metadata.row_group(0).column(0);
    let encodings: Vec<String> = chunk.encodings().map(|e| format!("{e}")).collect();
    assert!(
        encodings.contains(&"RLE_DICTIONARY".to_string()),
        "{encodings:?}"
    );
    assert!(
        encodings.contains(&"DELTA_BINARY_PACKED".to_string()),
        "{encodings:?}"
    );
    assert_same(&read_arrow_rs(file), &input, "fallback");
}

/// The async writer over object stores (in memory and local files): the file reads back
/// equal, and the object appears only when `close()` completes the upload.
#[tokio::test]
async fn object_stores_get_the_file_only_on_close() {
    use object_store::{ObjectStore, ObjectStoreExt, path::Path};
    use pqcodec_file::AsyncFileWriter;

    let dir = tempfile::tempdir().unwrap();
    let stores: [Arc<dyn ObjectStore>; 2] = [
        Arc::new(object_store::memory::InMemory::new()),
        Arc::new(object_store::local::LocalFileSystem::new_with_prefix(dir.path()).unwrap()),
    ];
    let input = batches(nested_columns);
    let want = expected(&input);
    for store in stores {
        let path = Path::from("t/part-0.parquet");
        let options = WriterOptions::new().with_max_row_group_row_count(700);
        let mut writer =
            AsyncFileWriter::try_new(store.clone(), path.clone(), input[0].schema(), options)
                .await
                .unwrap();
        for b in &input {
            writer.write(b).await.unwrap();
        }
        assert!(
            store.head(&path).await.is_err(),
            "{store}: the object before close"
        );
        let metadata = writer.close().await.unwrap();
        assert_eq!(
            metadata.file_metadata().num_rows() as usize,
            want.num_rows()
        );
        let bytes = store.get(&path).await.unwrap().bytes().await.unwrap();
        assert_same(&read_arrow_rs(bytes), &want, &format!("{store}"));

        let dropped = Path::from("t/dropped.parquet");
        let mut writer = AsyncFileWriter::try_new(
            store.clone(),
            dropped.clone(),
            input[0].schema(),
            WriterOptions::new().with_max_row_group_row_count(500),
        )
        .await
        .unwrap();
        writer.write(&input[0]).await.unwrap();
        drop(writer);
        assert!(
            store.head(&dropped).await.is_err(),
            "{store}: a dropped writer's object"
        );
    }
}

/// Dictionary arrays go in as keys: batches with their own dictionaries (a chunk's dictionary
/// merges them), entries no row uses left out of the statistics.
#[test]
fn dictionary_arrays_with_different_dictionaries() {
    let dict = |values: Vec<&str>, keys: Vec<Option<i8>>| -> ArrayRef {
        let values: ArrayRef = Arc::new(StringArray::from(values));
        Arc::new(
            DictionaryArray::<arrow_array::types::Int8Type>::try_new(Int8Array::from(keys), values)
                .unwrap(),
        )
    };
    let a = batch(vec![(
        "d",
        dict(vec!["z", "a", "m"], vec![Some(1), Some(1), None]),
    )]);
    let b = batch(vec![(
        "d",
        dict(vec!["q", "b"], vec![Some(0), Some(1), Some(0)]),
    )]);
    // Enough rows for the dictionary to pay.
    let a = arrow_select::concat::concat_batches(&a.schema(), &vec![a.clone(); 20]).unwrap();
    let b = arrow_select::concat::concat_batches(&b.schema(), &vec![b.clone(); 20]).unwrap();
    for dictionary in [true, false] {
        let options = WriterOptions::new().with_dictionary(dictionary);
        let file = write(&[a.clone(), b.clone()], options);
        let reader = SerializedFileReader::new(file.clone()).unwrap();
        let chunk = reader.metadata().row_group(0).column(0).clone();
        assert_eq!(chunk.dictionary_page_offset().is_some(), dictionary);
        let stats = chunk.statistics().unwrap();
        assert_eq!(stats.min_bytes_opt(), Some(&b"a"[..]));
        assert_eq!(stats.max_bytes_opt(), Some(&b"q"[..]));
        assert_eq!(stats.null_count_opt(), Some(20));
        let read = read_arrow_rs(file);
        let mut want: Vec<Option<&str>> = [Some("a"), Some("a"), None].repeat(20);
        want.extend([Some("q"), Some("b"), Some("q")].repeat(20));
        let got = arrow_cast::cast(read.column(0), &DataType::Utf8).unwrap();
        assert_eq!(
            got.as_any().downcast_ref::<StringArray>().unwrap(),
            &StringArray::from(want)
        );
    }
}

/// A column whose values hardly repeat drops its dictionary at the chunk's first page (the
/// dictionary would not pay); one whose values repeat keeps it. Both read back.
#[test]
fn a_dictionary_that_does_not_pay_is_dropped() {
    let unique: ArrayRef = Arc::new(Int64Array::from_iter_values((0..50_000).map(|i| i * 7919)));
    let repeating: ArrayRef = Arc::new(StringArray::from_iter_values(
        (0..50_000).map(|i| format!("v{}", i % 100)),
    ));
    let input = batch(vec![("unique", unique), ("repeating", repeating)]);
    let file = write(std::slice::from_ref(&input), WriterOptions::new());
    let reader = SerializedFileReader::new(file.clone()).unwrap();
    let group = reader.metadata().row_group(0);
    assert!(group.column(0).dictionary_page_offset().is_none());
    assert!(
        !group
            .column(0)
            .encodings()
            .any(|e| e == parquet::basic::Encoding::RLE_DICTIONARY)
    );
    assert!(group.column(1).dictionary_page_offset().is_some());
    assert_same(&read_arrow_rs(file), &input, "dropped dictionary");
}

/// The page index and the footer pqcodec writes are, byte for byte, what arrow-rs's
/// `ParquetMetaDataWriter` writes from the metadata `close` gives back: every type, nested
/// fields, dictionaries, both page versions, several row groups, key-value metadata.
#[test]
fn page_index_and_footer_are_those_arrow_rs_writes() {
    use parquet::file::metadata::ParquetMetaDataWriter;
    use parquet::file::writer::TrackedWrite;
    use std::io::Write;

    for columns in [flat_columns as fn() -> _, nested_columns] {
        for version in [PageVersion::V1, PageVersion::V2] {
            let input = batches(columns);
            let options = WriterOptions::new()
                .with_data_page_version(version)
                .with_compression(Compression::Zstd(1))
                .with_data_page_row_count_limit(700)
                .with_max_row_group_row_count(1100)
                .with_key_value("origin", "test");
            let mut file = Vec::new();
            let mut writer = FileWriter::try_new(&mut file, input[0].schema(), options).unwrap();
            for batch in &input {
                writer.write(batch).unwrap();
            }
            let metadata = writer.close().unwrap();
            assert_eq!(metadata.num_row_groups(), 3);
            assert!(metadata.column_index().is_some() && metadata.offset_index().is_some());
            // The page index starts where the last column chunk ends.
            let last = metadata
                .row_groups()
                .last()
                .unwrap()
                .columns()
                .last()
                .unwrap();
            let (start, len) = last.byte_range();
            let index_at = (start + len) as usize;

            let mut theirs = Vec::new();
            let mut out = TrackedWrite::new(&mut theirs);
            out.write_all(&file[..index_at]).unwrap();
            ParquetMetaDataWriter::new_with_tracked(out, &metadata)
                .finish()
                .unwrap();
            assert_eq!(theirs.len(), file.len(), "{version:?}");
            assert!(theirs == file, "{version:?}: the bytes differ");
        }
    }
}
