//! Writing RecordBatches to Parquet, pqcodec's `FileWriter` beside arrow-rs's `ArrowWriter`
//! with the same options (data page v1, statistics and page index, uncompressed unless named,
//! dictionary only where named, one row group): one column of 262,144 rows per case, for each
//! encoding the writers share, plus nulls, decimals and lists.
//!
//! `cargo bench --bench writer` (`python3 benches/criterion_table.py` tabulates it)

use std::hint::black_box;
use std::sync::Arc;

use arrow_array::types::Int32Type;
use arrow_array::{
    ArrayRef, BooleanArray, Decimal128Array, Float64Array, Int32Array, Int64Array, ListArray,
    RecordBatch, StringArray,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression as PqCompression, Encoding as PqEncoding};
use parquet::file::properties::WriterProperties;
use pqcodec::core::Encoding;
use pqcodec::file::{Compression, FileWriter, WriterOptions};

mod common;

const ROWS: usize = 1 << 18;

fn ints() -> ArrayRef {
    Arc::new(Int64Array::from_iter_values(
        (0..ROWS as i64).map(|i| i * 7 + (i * 7919) % 13),
    ))
}

fn few_ints() -> ArrayRef {
    Arc::new(Int64Array::from_iter_values(
        (0..ROWS as i64).map(|i| (i * 7919) % 50),
    ))
}

fn doubles() -> ArrayRef {
    Arc::new(Float64Array::from_iter_values(
        (0..ROWS).map(|i| (i * 7919 % 100_000) as f64 / 100.0),
    ))
}

fn strings() -> ArrayRef {
    let text = "carefully final deposits detect slyly regular ideas. furiously bold accounts";
    Arc::new(StringArray::from_iter_values((0..ROWS).map(|i| {
        let start = i * 31 % 30;
        &text[start..start + 10 + i % 34]
    })))
}

fn words() -> ArrayRef {
    let words = ["RAIL", "SHIP", "AIR", "TRUCK", "MAIL", "FOB", "REG AIR"];
    Arc::new(StringArray::from_iter_values(
        (0..ROWS).map(|i| words[i * 7919 % 7]),
    ))
}

fn optional_ints() -> ArrayRef {
    Arc::new(Int32Array::from_iter(
        (0..ROWS as i32).map(|i| (i % 5 != 0).then_some(i)),
    ))
}

fn bools() -> ArrayRef {
    Arc::new(BooleanArray::from_iter((0..ROWS).map(|i| Some(i % 3 == 0))))
}

fn decimals() -> ArrayRef {
    let values = (0..ROWS as i128).map(|i| 90_000 + i * 7919 % (1 << 20));
    Arc::new(
        Decimal128Array::from_iter_values(values)
            .with_precision_and_scale(20, 2)
            .unwrap(),
    )
}

fn lists() -> ArrayRef {
    Arc::new(ListArray::from_iter_primitive::<Int32Type, _, _>(
        (0..ROWS / 4).map(|i| {
            (i % 7 != 0).then(|| (0..i % 8).map(|k| Some((i + k) as i32)).collect::<Vec<_>>())
        }),
    ))
}

/// A case: its column, the encoding (None: dictionary), the codec.
struct Case {
    name: &'static str,
    column: fn() -> ArrayRef,
    encoding: Option<Encoding>,
    compression: Compression,
}

fn write_pqcodec(batch: &RecordBatch, case: &Case) -> usize {
    let mut options = WriterOptions::new()
        .with_compression(case.compression)
        .with_max_row_group_row_count(ROWS);
    options = match case.encoding {
        Some(e) => options.with_encoding(e),
        None => options.with_dictionary(true),
    };
    let mut writer = FileWriter::try_new(Vec::new(), batch.schema(), options).unwrap();
    writer.write(batch).unwrap();
    black_box(writer.into_inner().unwrap()).len()
}

fn write_arrow_rs(batch: &RecordBatch, case: &Case) -> usize {
    let compression = match case.compression {
        Compression::Snappy => PqCompression::SNAPPY,
        Compression::Zstd(_) => PqCompression::ZSTD(Default::default()),
        _ => PqCompression::UNCOMPRESSED,
    };
    let mut props = WriterProperties::builder()
        .set_compression(compression)
        .set_max_row_group_row_count(Some(ROWS))
        .set_dictionary_enabled(case.encoding.is_none());
    if let Some(e) = case.encoding {
        props = props.set_encoding(e.name().parse::<PqEncoding>().unwrap());
    }
    let mut out = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut out, batch.schema(), Some(props.build())).unwrap();
    writer.write(batch).unwrap();
    writer.close().unwrap();
    black_box(out).len()
}

fn writers(c: &mut Criterion) {
    let none = Compression::Uncompressed;
    let case = |name, column, encoding, compression| Case {
        name,
        column,
        encoding,
        compression,
    };
    let cases = [
        case(
            "INT64 PLAIN",
            ints as fn() -> ArrayRef,
            Some(Encoding::Plain),
            none,
        ),
        case(
            "INT64 DELTA_BINARY_PACKED",
            ints,
            Some(Encoding::DeltaBinaryPacked),
            none,
        ),
        case("INT64 RLE_DICTIONARY", few_ints, None, none),
        case("DOUBLE PLAIN", doubles, Some(Encoding::Plain), none),
        case(
            "DOUBLE BYTE_STREAM_SPLIT",
            doubles,
            Some(Encoding::ByteStreamSplit),
            none,
        ),
        case("BYTE_ARRAY PLAIN", strings, Some(Encoding::Plain), none),
        case(
            "BYTE_ARRAY DELTA_LENGTH_BYTE_ARRAY",
            strings,
            Some(Encoding::DeltaLengthByteArray),
            none,
        ),
        case(
            "BYTE_ARRAY DELTA_BYTE_ARRAY",
            strings,
            Some(Encoding::DeltaByteArray),
            none,
        ),
        case("BYTE_ARRAY RLE_DICTIONARY", words, None, none),
        case("BOOLEAN PLAIN", bools, Some(Encoding::Plain), none),
        case("BOOLEAN RLE", bools, Some(Encoding::Rle), none),
        case(
            "optional INT32 PLAIN",
            optional_ints,
            Some(Encoding::Plain),
            none,
        ),
        case(
            "Decimal128(20) FLBA PLAIN",
            decimals,
            Some(Encoding::Plain),
            none,
        ),
        case("List<INT32> PLAIN", lists, Some(Encoding::Plain), none),
        case(
            "BYTE_ARRAY PLAIN SNAPPY",
            strings,
            Some(Encoding::Plain),
            Compression::Snappy,
        ),
        case(
            "INT64 PLAIN ZSTD",
            ints,
            Some(Encoding::Plain),
            Compression::Zstd(1),
        ),
    ];
    for case in &cases {
        let batch = RecordBatch::try_from_iter([("c", (case.column)())]).unwrap();
        let mut g = c.benchmark_group(format!("write/{}", case.name));
        g.throughput(Throughput::Elements(batch.num_rows() as u64));
        g.bench_function("pqcodec", |b| b.iter(|| write_pqcodec(&batch, case)));
        g.bench_function("arrow-rs", |b| b.iter(|| write_arrow_rs(&batch, case)));
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = writers
}
criterion_main!(benches);
