//! Footer statistics, column and offset indexes: what arrow-rs's `ArrowWriter` and
//! `ParquetMetaDataWriter` write for the same data, bounds cut as it cuts them.

use std::sync::Arc;

use arrow_array::*;
use bytes::Bytes;
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;
use pqcodec_file::{Compression, FileWriter, PageVersion, WriterOptions};

use super::*;

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
