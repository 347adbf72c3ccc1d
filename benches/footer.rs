//! Reading a file's metadata: pqcodec's footer decoder (`FileMetadata::load`) beside arrow-rs's
//! (`ArrowReaderMetadata::load`), each to the parquet crate's metadata and the Arrow schema,
//! without the page index, on an in-memory file of many row groups (a footer of about 1 MB, as
//! TPC-H SF 10's lineitem from tpchgen has).
//!
//! `cargo bench --bench footer`

use std::hint::black_box;
use std::sync::Arc;

use arrow_array::{ArrayRef, Float64Array, Int32Array, Int64Array, RecordBatch, StringArray};
use bytes::Bytes;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions};
use parquet::file::metadata::PageIndexPolicy;
use parquet::file::properties::WriterProperties;
use pqcodec::file::FileMetadata;

/// 16 columns (integers, doubles, strings), `groups` row groups of 64 rows, statistics per
/// chunk.
fn file(groups: usize) -> Bytes {
    const ROWS: usize = 64;
    let mut columns: Vec<(String, ArrayRef)> = Vec::new();
    for c in 0..16 {
        let column: ArrayRef = match c % 4 {
            0 => Arc::new(Int64Array::from_iter_values(0..ROWS as i64)),
            1 => Arc::new(Int32Array::from_iter_values(
                (0..ROWS as i32).map(|i| i * 7),
            )),
            2 => Arc::new(Float64Array::from_iter_values(
                (0..ROWS).map(|i| i as f64 / 3.0),
            )),
            _ => Arc::new(StringArray::from_iter_values(
                (0..ROWS).map(|i| format!("comment {i} of a column")),
            )),
        };
        columns.push((format!("column_{c}"), column));
    }
    let batch = RecordBatch::try_from_iter(columns).unwrap();
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(ROWS))
        .build();
    let mut out = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
    for _ in 0..groups {
        writer.write(&batch).unwrap();
    }
    writer.close().unwrap();
    Bytes::from(out)
}

fn footer(c: &mut Criterion) {
    let data = file(500);
    let n = data.len();
    let footer_len = u32::from_le_bytes(data[n - 8..n - 4].try_into().unwrap());
    let mut group = c.benchmark_group("footer");
    group.throughput(Throughput::Bytes(footer_len.into()));
    group.bench_function("pqcodec", |b| {
        b.iter(|| black_box(FileMetadata::load(&data, false).unwrap()))
    });
    group.bench_function("arrow-rs", |b| {
        let options = ArrowReaderOptions::new().with_page_index_policy(PageIndexPolicy::Skip);
        b.iter(|| black_box(ArrowReaderMetadata::load(&data, options.clone()).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, footer);
criterion_main!(benches);
