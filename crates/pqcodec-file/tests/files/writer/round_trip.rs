//! Every type, codec and encoding written and read back by arrow-rs equal to what was written.

use arrow_array::*;
use parquet::file::reader::{FileReader, SerializedFileReader};
use pqcodec_core::Encoding;
use pqcodec_file::{ColumnSettings, Compression, PageVersion, WriterOptions};

use super::*;

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
