//! Page decompression: pqcodec's SNAPPY decoder beside the `snap` crate's (which arrow-rs and
//! the parquet crate use) on the same pages, each a page's worth of values as PLAIN lays them
//! out, compressed by `snap`.
//!
//! `cargo bench --bench decompress`; with `PQCODEC_BENCH_FILE=PATH` (and optionally
//! `PQCODEC_BENCH_COLUMNS=i,j`, default every column), also the first 8 pages of each column
//! of that file, decompressed by pqcodec and compressed again by `snap` (as arrow-rs writes).

use std::hint::black_box;

use bytes::Bytes;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pqcodec::arrow::Page;
use pqcodec::file::ParquetFile;
use pqcodec::file::framing::snappy;

const PAGE: usize = 1 << 20;

/// PLAIN BYTE_ARRAY comments of 10 to 43 characters (as TPC-H's).
fn comments() -> Vec<u8> {
    let words = [
        "carefully",
        "final",
        "deposits",
        "detect",
        "slyly",
        "regular",
        "ideas",
        "furiously",
        "bold",
        "accounts",
        "pending",
        "foxes",
        "quickly",
        "express",
        "packages",
        "sleep",
    ];
    let mut out = Vec::with_capacity(PAGE + 64);
    let mut rng = pqcodec_testkit::Rng::new(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.next_u64();
    while out.len() < PAGE {
        let len = 10 + (next() % 34) as usize;
        let mut text = String::new();
        while text.len() < len {
            text.push_str(words[(next() % 16) as usize]);
            text.push(' ');
        }
        text.truncate(len);
        out.extend_from_slice(&(len as u32).to_le_bytes());
        out.extend_from_slice(text.as_bytes());
    }
    out
}

/// PLAIN INT64: increasing keys, each repeated 1 to 7 times (as `l_orderkey`).
fn keys() -> Vec<u8> {
    let mut out = Vec::with_capacity(PAGE);
    let mut key = 1i64;
    let mut i = 0u64;
    while out.len() < PAGE {
        out.extend_from_slice(&key.to_le_bytes());
        i += 1;
        if i * 2_654_435_761 % 7 < 2 {
            key += 1 + (i % 5) as i64;
        }
    }
    out
}

/// PLAIN INT64 prices in cents (as `l_extendedprice` read as decimals).
fn prices() -> Vec<u8> {
    let mut out = Vec::with_capacity(PAGE);
    let mut i = 0u64;
    while out.len() < PAGE {
        let price = 90_000 + (i * 2_654_435_761 % 10_000_000) as i64;
        out.extend_from_slice(&price.to_le_bytes());
        i += 1;
    }
    out
}

/// The first 8 pages of the chosen columns of `PQCODEC_BENCH_FILE`, decompressed.
fn file_pages() -> Vec<(String, Vec<Vec<u8>>)> {
    let Ok(path) = std::env::var("PQCODEC_BENCH_FILE") else {
        return Vec::new();
    };
    let file = ParquetFile::from_bytes(Bytes::from(std::fs::read(&path).unwrap())).unwrap();
    let columns = file.column_descs();
    let chosen: Vec<usize> = match std::env::var("PQCODEC_BENCH_COLUMNS") {
        Ok(list) => list.split(',').map(|i| i.parse().unwrap()).collect(),
        Err(_) => (0..columns.len()).collect(),
    };
    chosen
        .into_iter()
        .map(|column| {
            let pages = file.pages(column).take(8).map(|page| match page.unwrap() {
                Page::Dictionary(p) => p.data.to_vec(),
                Page::DataV1(p) => p.data.to_vec(),
                Page::DataV2(p) => p.data.to_vec(),
            });
            (columns[column].path.clone(), pages.collect())
        })
        .collect()
}

fn decompress(c: &mut Criterion) {
    let mut group = c.benchmark_group("decompress");
    group.sample_size(20);
    let synthetic = [
        ("comments", comments()),
        ("keys", keys()),
        ("prices", prices()),
    ];
    let cases = synthetic
        .into_iter()
        .map(|(name, page)| (name.to_owned(), vec![page]));
    for (name, pages) in cases.chain(file_pages()) {
        let mut encoder = snap::raw::Encoder::new();
        let compressed: Vec<(Vec<u8>, usize)> = pages
            .iter()
            .map(|page| (encoder.compress_vec(page).unwrap(), page.len()))
            .collect();
        let bytes = pages.iter().map(Vec::len).sum::<usize>();
        group.throughput(Throughput::Bytes(bytes as u64));
        group.bench_function(format!("SNAPPY/{name}/pqcodec"), |b| {
            b.iter(|| {
                for (page, len) in &compressed {
                    let mut out = Vec::new();
                    snappy::decompress_into(black_box(page), *len, &mut out).unwrap();
                    black_box(out);
                }
            })
        });
        group.bench_function(format!("SNAPPY/{name}/snap"), |b| {
            let mut decoder = snap::raw::Decoder::new();
            b.iter(|| {
                for (page, len) in &compressed {
                    // As the parquet crate does: the buffer zeroed to the page's size, then
                    // decoded (`resize` on a buffer the reader allocated, not `calloc`).
                    #[allow(clippy::slow_vector_initialization)]
                    let mut out = Vec::with_capacity(*len);
                    out.resize(*len, 0);
                    decoder.decompress(black_box(page), &mut out).unwrap();
                    black_box(out);
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, decompress);
criterion_main!(benches);
