//! Strings and binaries read as Utf8View and BinaryView, compared with arrow-rs reading the
//! same files into the same types: dictionary pages (views gathered from the dictionary's),
//! a dictionary that falls back to PLAIN part way through a chunk, PLAIN, DELTA_LENGTH_BYTE_ARRAY
//! and DELTA_BYTE_ARRAY pages, nulls, long and short values, batches that cross pages.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, BinaryArray, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use bytes::Bytes;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::{ArrowReaderOptions, ParquetRecordBatchReaderBuilder};
use parquet::basic::Encoding;
use parquet::file::properties::{WriterProperties, WriterVersion};
use pqcodec_file::ReaderBuilder;

const ROWS: usize = 5000;

/// Strings of 0 to 40 bytes (short ones inline in their view, long ones not), some null,
/// drawn from `distinct` values.
fn strings(distinct: usize) -> Vec<Option<String>> {
    (0..ROWS)
        .map(|i| {
            let k = (i * 7919) % distinct;
            (i % 9 != 4).then(|| format!("{k:0width$}", width = k % 41))
        })
        .collect()
}

fn write(props: WriterProperties, distinct: usize) -> Bytes {
    let values = strings(distinct);
    let s = StringArray::from(values.clone());
    let b = BinaryArray::from_iter(values.iter().map(|v| v.as_ref().map(|v| v.as_bytes())));
    let batch = RecordBatch::try_from_iter([
        ("s", Arc::new(s) as ArrayRef),
        ("b", Arc::new(b) as ArrayRef),
    ])
    .unwrap();
    let mut out = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    Bytes::from(out)
}

fn view_schema() -> Arc<Schema> {
    Arc::new(Schema::new(vec![
        Field::new("s", DataType::Utf8View, true),
        Field::new("b", DataType::BinaryView, true),
    ]))
}

fn check(data: &Bytes, what: &str) {
    for batch_size in [1000, 333, 8192] {
        let options = ArrowReaderOptions::new().with_schema(view_schema());
        let expected: Vec<RecordBatch> =
            ParquetRecordBatchReaderBuilder::try_new_with_options(data.clone(), options)
                .unwrap()
                .with_batch_size(batch_size)
                .build()
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
        let actual: Vec<RecordBatch> = ReaderBuilder::try_new(data.clone())
            .unwrap()
            .with_schema(view_schema())
            .with_batch_size(batch_size)
            .build()
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let schema = view_schema();
        let e = arrow_select::concat::concat_batches(&schema, &expected).unwrap();
        let a = arrow_select::concat::concat_batches(&schema, &actual).unwrap();
        assert_eq!(e.num_rows(), ROWS, "{what}");
        for c in 0..2 {
            assert_eq!(
                e.column(c).as_ref(),
                a.column(c).as_ref(),
                "{what}, batch size {batch_size}, column {c}"
            );
        }
        for batch in &actual {
            for column in batch.columns() {
                column.to_data().validate_full().unwrap();
            }
        }
    }
}

fn props(version: WriterVersion) -> parquet::file::properties::WriterPropertiesBuilder {
    WriterProperties::builder()
        .set_writer_version(version)
        .set_data_page_row_count_limit(700)
        .set_write_batch_size(700)
}

#[test]
fn dictionary_pages_read_as_views() {
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        let data = write(props(version).build(), 50);
        check(&data, "dictionary");
        // Long values are gathered as views into the dictionary page: a batch over several
        // data pages holds the views and that one page.
        let batch = ReaderBuilder::try_new(data)
            .unwrap()
            .with_schema(view_schema())
            .build()
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        for column in batch.columns() {
            assert_eq!(
                column.to_data().buffers().len(),
                2,
                "views and the dictionary"
            );
        }
    }
}

#[test]
fn a_dictionary_falling_back_to_plain_reads_as_views() {
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        // A dictionary page of at most 2 KiB: the chunk falls back part way.
        let props = props(version).set_dictionary_page_size_limit(2048).build();
        let data = write(props, 2000);
        let meta = pqcodec_file::FileMetadata::load(&data, false).unwrap();
        let encodings = meta
            .metadata()
            .row_group(0)
            .column(0)
            .encodings()
            .collect::<Vec<_>>();
        assert!(
            encodings.contains(&Encoding::PLAIN) && encodings.contains(&Encoding::RLE_DICTIONARY),
            "{encodings:?}"
        );
        check(&data, "fallback");
    }
}

#[test]
fn plain_and_delta_pages_read_as_views() {
    for encoding in [
        Encoding::PLAIN,
        Encoding::DELTA_LENGTH_BYTE_ARRAY,
        Encoding::DELTA_BYTE_ARRAY,
    ] {
        for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
            let props = props(version)
                .set_dictionary_enabled(false)
                .set_encoding(encoding)
                .build();
            check(&write(props, 3000), &format!("{encoding}"));
        }
    }
}

/// PLAIN and DELTA_LENGTH_BYTE_ARRAY pages: long values' views point into the page.
#[test]
fn views_of_plain_pages_share_the_page() {
    for encoding in [Encoding::PLAIN, Encoding::DELTA_LENGTH_BYTE_ARRAY] {
        let props = props(WriterVersion::PARQUET_1_0)
            .set_dictionary_enabled(false)
            .set_encoding(encoding)
            .build();
        let data = write(props, 3000);
        let batch = ReaderBuilder::try_new(data)
            .unwrap()
            .with_schema(view_schema())
            .with_batch_size(500)
            .build()
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        // Long values are not copied into buffers of their own: the one data buffer is the
        // page.
        let data = batch.column(0).to_data();
        assert_eq!(data.buffers().len(), 2, "{encoding}: views and one page");
        let long: usize = strings(3000)[..500]
            .iter()
            .flatten()
            .filter(|v| v.len() > 12)
            .map(String::len)
            .sum();
        assert!(
            data.buffers()[1].len() > long,
            "{encoding}: the whole page is held"
        );
    }
}

/// A compressed dictionary page is decompressed into a buffer of its own size: Arrow measures
/// a view array's data buffers by their capacity, and arrow-select's `BatchCoalescer` (which
/// DataFusion's filters and repartitions run batches through) copies the strings out of buffers
/// over twice the bytes the views use, into blocks of up to 1 MiB for each batch it gives.
#[test]
fn dictionary_buffers_are_no_larger_than_the_dictionary() {
    use parquet::basic::{Compression, ZstdLevel};
    for codec in [Compression::SNAPPY, Compression::ZSTD(ZstdLevel::default())] {
        // Five values, one long: a dictionary of a few dozen bytes.
        let values = ["1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"];
        let s = StringArray::from_iter_values((0..ROWS).map(|i| values[i * 7 % 5]));
        let batch = RecordBatch::try_from_iter([("s", Arc::new(s) as ArrayRef)]).unwrap();
        let mut out = Vec::new();
        let props = WriterProperties::builder().set_compression(codec).build();
        let mut writer = ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();
        let schema = Arc::new(Schema::new(vec![Field::new(
            "s",
            DataType::Utf8View,
            false,
        )]));
        let read = ReaderBuilder::try_new(Bytes::from(out))
            .unwrap()
            .with_schema(schema)
            .build()
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        let views = read.column(0).as_string_view();
        assert_eq!(
            views.data_buffers().len(),
            1,
            "{codec}: views into the dictionary"
        );
        let dictionary = &views.data_buffers()[0];
        assert_eq!(dictionary.capacity(), dictionary.len(), "{codec}");
    }
}
