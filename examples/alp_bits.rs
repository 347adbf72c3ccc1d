//! Bits per value of ALP (pqcodec's and arrow-rs 60.1's encoders), BYTE_STREAM_SPLIT + ZSTD and
//! PLAIN + ZSTD on a few generated DOUBLE columns, in pages of 128 Ki values (1 MiB of PLAIN),
//! for BENCHMARKS.md.
//!
//! `cargo run --release --example alp_bits`

use parquet::basic::{Compression, ZstdLevel};
use parquet::compression::{CodecOptionsBuilder, create_codec};
use parquet60::encoding::{AlpEncoder as ArrowAlpEncoder, Encoder as _};
use pqcodec::core::{ColumnType, DoubleType, Encoder, Encoding};
use pqcodec::encodings::alp::AlpEncoder;
use pqcodec::encodings::dynamic::{Values, encode};
use pqcodec_testkit::Rng;

/// Values per column.
const N: usize = 1 << 20;
/// Values per page.
const PAGE: usize = 128 * 1024;

/// TPC-H's `l_extendedprice` as a double: quantity (1 to 50) times the part's retail price,
/// `(90000 + (partkey / 10) % 20001 + 100 * (partkey % 1000)) / 100`.
fn tpch_prices(rng: &mut Rng) -> Vec<f64> {
    (0..N)
        .map(|_| {
            let partkey = 1 + rng.next_u64() % 200_000;
            let quantity = 1 + rng.next_u64() % 50;
            let cents = 90_000 + (partkey / 10) % 20_001 + 100 * (partkey % 1000);
            (quantity * cents) as f64 / 100.0
        })
        .collect()
}

/// A temperature-like series to 0.01: a slow sine plus a little noise.
fn smooth(rng: &mut Rng) -> Vec<f64> {
    (0..N)
        .map(|i| {
            let noise = (rng.next_u64() % 21) as f64 / 100.0 - 0.1;
            ((20.0 + 5.0 * (i as f64 * 0.0005).sin() + noise) * 100.0).round() / 100.0
        })
        .collect()
}

/// Uniform doubles in [0, 1): 52 random mantissa bits, no decimal structure.
fn random(rng: &mut Rng) -> Vec<f64> {
    (0..N)
        .map(|_| (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64)
        .collect()
}

fn zstd(bytes: &[u8]) -> usize {
    let options = CodecOptionsBuilder::default().build();
    let mut codec = create_codec(Compression::ZSTD(ZstdLevel::default()), &options)
        .expect("zstd codec")
        .expect("zstd is compiled in");
    let mut out = Vec::new();
    codec.compress(bytes, &mut out).expect("zstd compresses");
    out.len()
}

fn main() {
    let mut rng = Rng::new(0x0005_EED0_FA1B);
    let columns = [
        ("TPC-H l_extendedprice", tpch_prices(&mut rng)),
        ("smooth series (0.01)", smooth(&mut rng)),
        ("random doubles [0, 1)", random(&mut rng)),
    ];
    println!(
        "| column | ALP (pqcodec) | ALP (arrow-rs 60.1) | ALP + ZSTD | BYTE_STREAM_SPLIT + ZSTD | PLAIN + ZSTD |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    for (name, values) in &columns {
        let mut sizes = [0usize; 5];
        let mut ours = AlpEncoder::<DoubleType>::new();
        let mut theirs = ArrowAlpEncoder::<parquet60::data_type::DoubleType>::new();
        for page in values.chunks(PAGE) {
            ours.put_slice(page).expect("encodes");
            let alp = ours.flush().expect("flushes");
            theirs.put(page).expect("arrow-rs encodes");
            let arrow_alp = theirs.flush_buffer().expect("arrow-rs flushes");
            let page_values = Values::Double(page.to_vec());
            let split = encode(Encoding::ByteStreamSplit, &page_values, ColumnType::Double)
                .expect("encodes");
            let plain = encode(Encoding::Plain, &page_values, ColumnType::Double).expect("encodes");
            sizes[0] += alp.len();
            sizes[1] += arrow_alp.len();
            sizes[2] += zstd(&alp);
            sizes[3] += zstd(&split.data);
            sizes[4] += zstd(&plain.data);
        }
        let bits = |bytes: usize| bytes as f64 * 8.0 / values.len() as f64;
        println!(
            "| {name} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
            bits(sizes[0]),
            bits(sizes[1]),
            bits(sizes[2]),
            bits(sizes[3]),
            bits(sizes[4])
        );
    }
}
