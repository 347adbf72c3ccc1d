//! The reader's paths into the Arrow types engines ask for, pqcodec beside arrow-rs on the same
//! in-memory file: strings as Utf8View (PLAIN and dictionary-encoded) and as Utf8 (PLAIN and
//! DELTA_BYTE_ARRAY), decimals from INT64 and FIXED_LEN_BYTE_ARRAY (PLAIN, dictionary-encoded
//! and DELTA_BYTE_ARRAY), and pages compressed with SNAPPY and ZSTD. Each file is written by arrow-rs's `ArrowWriter` (its `ARROW:schema` asks for the
//! types), 262,144 rows in one row group; each iteration reads it whole in batches of 8192.
//!
//! `cargo bench --bench reader_paths`

use std::hint::black_box;
use std::sync::Arc;

use arrow_array::{ArrayRef, Decimal128Array, RecordBatch, StringArray, StringViewArray};
use bytes::Bytes;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::properties::WriterProperties;
use pqcodec::file::ReaderBuilder;

mod common;

const ROWS: usize = 1 << 18;
const BATCH: usize = 8192;

/// Comments of 10 to 43 characters (as TPC-H's), or one of seven words.
fn strings(distinct_words: bool) -> ArrayRef {
    let words = ["RAIL", "SHIP", "AIR", "TRUCK", "MAIL", "FOB", "REG AIR"];
    let text = "carefully final deposits detect slyly regular ideas. furiously bold accounts";
    let values = (0..ROWS).map(|i| {
        if distinct_words {
            words[i * 7919 % words.len()].to_owned()
        } else {
            let start = i * 31 % 30;
            text[start..start + 10 + i % 34].to_owned()
        }
    });
    Arc::new(StringViewArray::from_iter_values(values))
}

/// Two-decimal prices: `distinct` of them.
fn decimals(precision: u8, distinct: i128) -> ArrayRef {
    let values = (0..ROWS as i128).map(|i| 90_000 + i * 7919 % distinct);
    Arc::new(
        Decimal128Array::from_iter_values(values)
            .with_precision_and_scale(precision, 2)
            .unwrap(),
    )
}

/// The comments of [`strings`] as Utf8.
fn utf8_strings() -> ArrayRef {
    let views = strings(false);
    let views = views.as_any().downcast_ref::<StringViewArray>().unwrap();
    Arc::new(views.iter().collect::<StringArray>())
}

fn file(column: ArrayRef, dictionary: bool, compression: Compression) -> Bytes {
    write(column, |props| {
        props
            .set_dictionary_enabled(dictionary)
            .set_compression(compression)
    })
}

/// Pages of `encoding`, uncompressed, no dictionary.
fn encoded(column: ArrayRef, encoding: Encoding) -> Bytes {
    write(column, |props| {
        props.set_dictionary_enabled(false).set_encoding(encoding)
    })
}

fn write(
    column: ArrayRef,
    settings: impl FnOnce(
        parquet::file::properties::WriterPropertiesBuilder,
    ) -> parquet::file::properties::WriterPropertiesBuilder,
) -> Bytes {
    let batch = RecordBatch::try_from_iter([("c", column)]).unwrap();
    let props = settings(WriterProperties::builder())
        .set_max_row_group_row_count(Some(ROWS))
        .build();
    let mut out = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    Bytes::from(out)
}

fn read_pqcodec(data: &Bytes) -> usize {
    let reader = ReaderBuilder::try_new(data.clone())
        .unwrap()
        .with_batch_size(BATCH)
        .build()
        .unwrap();
    reader.map(|b| black_box(b.unwrap()).num_rows()).sum()
}

fn read_arrow_rs(data: &Bytes) -> usize {
    let reader = ParquetRecordBatchReaderBuilder::try_new(data.clone())
        .unwrap()
        .with_batch_size(BATCH)
        .build()
        .unwrap();
    reader.map(|b| black_box(b.unwrap()).num_rows()).sum()
}

fn paths(c: &mut Criterion) {
    let zstd = Compression::ZSTD(ZstdLevel::default());
    let cases = [
        (
            "Utf8View PLAIN",
            file(strings(false), false, Compression::UNCOMPRESSED),
        ),
        (
            "Utf8View dictionary",
            file(strings(true), true, Compression::UNCOMPRESSED),
        ),
        (
            "Decimal128 from INT64 PLAIN",
            file(decimals(15, 1 << 20), false, Compression::UNCOMPRESSED),
        ),
        (
            "Decimal128 from INT64 dictionary",
            file(decimals(15, 100), true, Compression::UNCOMPRESSED),
        ),
        (
            "Decimal128 from FLBA(9) PLAIN",
            file(decimals(20, 1 << 20), false, Compression::UNCOMPRESSED),
        ),
        (
            "Decimal128 from FLBA(9) dictionary",
            file(decimals(20, 100), true, Compression::UNCOMPRESSED),
        ),
        (
            "Decimal128 from FLBA(9) DELTA_BYTE_ARRAY",
            encoded(decimals(20, 1 << 20), Encoding::DELTA_BYTE_ARRAY),
        ),
        (
            "Utf8 PLAIN",
            file(utf8_strings(), false, Compression::UNCOMPRESSED),
        ),
        (
            "Utf8 DELTA_BYTE_ARRAY",
            encoded(utf8_strings(), Encoding::DELTA_BYTE_ARRAY),
        ),
        (
            "Utf8View PLAIN SNAPPY",
            file(strings(false), false, Compression::SNAPPY),
        ),
        ("Utf8View PLAIN ZSTD", file(strings(false), false, zstd)),
        (
            "Decimal128 from INT64 PLAIN ZSTD",
            file(decimals(15, 1 << 20), false, zstd),
        ),
    ];
    for (name, data) in &cases {
        assert_eq!(read_pqcodec(data), ROWS);
        assert_eq!(read_arrow_rs(data), ROWS);
        let mut g = c.benchmark_group(format!("read/{name}"));
        g.throughput(Throughput::Elements(ROWS as u64));
        g.bench_function("pqcodec", |b| b.iter(|| read_pqcodec(data)));
        g.bench_function("arrow-rs", |b| b.iter(|| read_arrow_rs(data)));
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = paths
}
criterion_main!(benches);
