//! Decode and encode throughput per encoding x physical type, pqcodec side by side with arrow-rs
//! (the `parquet` crate), both on the same page bytes: pages of 64 Ki values.
//!
//! Groups are named `decode/ENCODING/TYPE` and `encode/ENCODING/TYPE`, with the functions
//! `pqcodec` and `arrow-rs`; throughput is in values. Decoding reads the whole page into a
//! buffer reused across iterations on both sides (fixed-width values into a slice allocated
//! once, as arrow-rs's decoders take them: [`Output`]); encoding puts the whole page and
//! flushes it (for the dictionary encodings: the dictionary page and the indices page).
//!
//! Run with `cargo bench --bench encodings` (optionally a filter, e.g. `-- decode/PLAIN`).

use pqcodec_testkit::Rng;
use std::sync::Arc;

use std::hint::black_box;

use bytes::Bytes;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parquet::basic::{Encoding as ArrowEncoding, Type as ParquetType};
use parquet::data_type::{self as pt, DataType};
use parquet::encodings::decoding::{
    Decoder as ArrowDecoder, DictDecoder, PlainDecoder as ArrowPlainDecoder, get_decoder,
};
use parquet::encodings::encoding::{DictEncoder, Encoder as ArrowEncoder, get_encoder};
use parquet::encodings::rle::{RleDecoder as ArrowRleDecoder, RleEncoder as ArrowRleEncoder};
use parquet::schema::types::{ColumnDescPtr, ColumnDescriptor, ColumnPath, Type};
use pqcodec::core::{
    BooleanType, ByteArrayType, ByteArrays, Decoder, DoubleType, Encoder, Encoding,
    FixedLenByteArrayType, FloatType, Int32Type, Int64Type, Int96, Int96Type, Sink, ValueBuffer,
};
use pqcodec::encodings::bit_packed::{BitPackedDecoder, BitPackedEncoder};
use pqcodec::encodings::dynamic::DynamicType;
use pqcodec::encodings::plain::decode_plain_page;
use pqcodec::encodings::rle::{RleDecoder, RleEncoder};

mod common;

/// Values per page.
const N: usize = 64 * 1024;
/// FIXED_LEN_BYTE_ARRAY width.
const FLBA_LEN: usize = 16;

/// Where the pqcodec side of a decode bench puts a page's values: fixed-width values in a
/// slice allocated once and overwritten ([`Decoder::read_into`]), as arrow-rs's side does;
/// byte arrays in a buffer cleared each time (arrow-rs's side overwrites a `Vec` of them).
trait Output: DynamicType {
    /// Decodes `n` values from `d` into `out` and returns how many it read.
    fn decode(d: &mut Self::Decoder, out: &mut Self::Buffer, n: usize) -> usize;
}

macro_rules! slice_output {
    ($($t:ty),*) => {$(
        impl Output for $t {
            fn decode(d: &mut Self::Decoder, out: &mut Self::Buffer, n: usize) -> usize {
                out.resize(n, Default::default());
                d.read_into(out).expect("pqcodec decodes")
            }
        }
    )*};
}
slice_output!(
    BooleanType,
    Int32Type,
    Int64Type,
    Int96Type,
    FloatType,
    DoubleType
);

macro_rules! cleared_output {
    ($($t:ty),*) => {$(
        impl Output for $t {
            fn decode(d: &mut Self::Decoder, out: &mut Self::Buffer, n: usize) -> usize {
                out.clear();
                d.read(out, n).expect("pqcodec decodes")
            }
        }
    )*};
}
cleared_output!(ByteArrayType, FixedLenByteArrayType);

/// A required column of `physical` type, as arrow-rs's encoders and decoders want it.
fn descr(physical: ParquetType, type_length: usize) -> ColumnDescPtr {
    let mut builder = Type::primitive_type_builder("c", physical)
        .with_repetition(parquet::basic::Repetition::REQUIRED);
    if physical == ParquetType::FIXED_LEN_BYTE_ARRAY {
        builder = builder.with_length(type_length as i32);
    }
    let tp = builder.build().expect("valid column type");
    std::sync::Arc::new(ColumnDescriptor::new(
        std::sync::Arc::new(tp),
        0,
        0,
        ColumnPath::from("c"),
    ))
}

/// One benchmarked page: the values on both sides and the encodings' names.
struct Case<'a, T: DynamicType, A: DataType> {
    name: &'a str,
    ours: Encoding,
    /// arrow-rs's encoding, if arrow-rs implements it (it has no GROUP_VAR_INT).
    arrow: Option<ArrowEncoding>,
    ty: T,
    values: &'a T::Buffer,
    arrow_values: &'a [A::T],
}

fn group_name(dir: &str, name: &str, physical: ParquetType) -> String {
    format!("{dir}/{name}/{physical}")
}

/// Decode and encode benchmarks of one non-dictionary encoding.
fn bench_case<T: Output, A: DataType>(c: &mut Criterion, case: Case<'_, T, A>) {
    let Case {
        name,
        ours,
        arrow,
        ty,
        values,
        arrow_values,
    } = case;
    let physical = A::get_physical_type();
    let column = descr(physical, ty.value_width().unwrap_or(0));
    let n = values.len();

    // The page both sides decode: pqcodec's encoding of the values (the oracle tests check that
    // both libraries write and read the same bytes).
    let mut e = T::encoder(ours, ty).expect("pqcodec has this encoder");
    e.put(values.values()).expect("pqcodec encodes");
    let mut page = Vec::new();
    e.flush_into(&mut page).expect("pqcodec flushes");
    let page_bytes = Bytes::from(page.clone());

    let mut g = c.benchmark_group(group_name("decode", name, physical));
    g.throughput(Throughput::Elements(n as u64));
    let mut out = T::Buffer::default();
    g.bench_function("pqcodec", |b| {
        b.iter(|| {
            let mut d = T::decoder(ours, black_box(page_bytes.clone()), n, ty, None)
                .expect("pqcodec takes the page");
            assert_eq!(T::decode(&mut d, &mut out, n), n);
            black_box(out.len())
        })
    });
    let mut arrow_out = vec![A::T::default(); n];
    if let Some(arrow) = arrow {
        g.bench_function("arrow-rs", |b| {
            b.iter(|| {
                let mut d =
                    get_decoder::<A>(column.clone(), arrow).expect("arrow-rs has this decoder");
                d.set_data(black_box(page_bytes.clone()), n)
                    .expect("arrow-rs takes the page");
                assert_eq!(d.get(&mut arrow_out).expect("arrow-rs decodes"), n);
                black_box(arrow_out.len())
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group(group_name("encode", name, physical));
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("pqcodec", |b| {
        b.iter(|| {
            let mut e = T::encoder(ours, ty).expect("pqcodec has this encoder");
            T::put_buffer(&mut e, black_box(values)).expect("pqcodec encodes");
            black_box(e.flush().expect("pqcodec flushes").len())
        })
    });
    if let Some(arrow) = arrow {
        g.bench_function("arrow-rs", |b| {
            b.iter(|| {
                let mut e = get_encoder::<A>(arrow, &column).expect("arrow-rs has this encoder");
                e.put(black_box(arrow_values)).expect("arrow-rs encodes");
                black_box(e.flush_buffer().expect("arrow-rs flushes").len())
            })
        });
    }
    g.finish();
}

/// Decode and encode benchmarks of RLE_DICTIONARY.
fn bench_dictionary<T: Output, A: DataType>(
    c: &mut Criterion,
    ty: T,
    values: &T::Buffer,
    arrow_values: &[A::T],
) {
    let physical = A::get_physical_type();
    // arrow-rs reads its type length for FIXED_LEN_BYTE_ARRAY only.
    let type_length = ty.value_width().unwrap_or(0);
    let column = descr(physical, type_length);
    let n = values.len();

    // The pages both sides decode: arrow-rs's dictionary page and indices page.
    let mut e = DictEncoder::<A>::new(column.clone());
    e.put(arrow_values).expect("arrow-rs encodes");
    let dict_page = e.write_dict().expect("arrow-rs writes the dictionary");
    let entries = e.num_entries();
    let data_page = e.write_indices().expect("arrow-rs writes the indices");

    let mut g = c.benchmark_group(group_name("decode", "RLE_DICTIONARY", physical));
    g.throughput(Throughput::Elements(n as u64));
    let mut out = T::Buffer::default();
    g.bench_function("pqcodec", |b| {
        b.iter(|| {
            let dict = decode_plain_page(black_box(&dict_page), entries, ty)
                .expect("pqcodec decodes the dictionary");
            let mut d = T::decoder(
                Encoding::RleDictionary,
                black_box(data_page.clone()),
                n,
                ty,
                Some(Arc::new(dict)),
            )
            .expect("pqcodec takes the page");
            assert_eq!(T::decode(&mut d, &mut out, n), n);
            black_box(out.len())
        })
    });
    let mut arrow_out = vec![A::T::default(); n];
    g.bench_function("arrow-rs", |b| {
        b.iter(|| {
            let mut dict = ArrowPlainDecoder::<A>::new(type_length as i32);
            dict.set_data(black_box(dict_page.clone()), entries)
                .expect("arrow-rs takes the dictionary");
            let mut d = DictDecoder::<A>::new();
            d.set_dict(Box::new(dict))
                .expect("arrow-rs decodes the dictionary");
            d.set_data(black_box(data_page.clone()), n)
                .expect("arrow-rs takes the page");
            assert_eq!(d.get(&mut arrow_out).expect("arrow-rs decodes"), n);
            black_box(arrow_out.len())
        })
    });
    g.finish();

    let mut g = c.benchmark_group(group_name("encode", "RLE_DICTIONARY", physical));
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("pqcodec", |b| {
        b.iter(|| {
            let mut e = T::encoder(Encoding::RleDictionary, ty).expect("pqcodec has this encoder");
            T::put_buffer(&mut e, black_box(values)).expect("pqcodec encodes");
            let indices = e.flush().expect("pqcodec flushes");
            let dict = T::dictionary_page(&e)
                .expect("a dictionary encoder")
                .expect("pqcodec writes the dictionary");
            black_box((indices.len(), dict.len()))
        })
    });
    g.bench_function("arrow-rs", |b| {
        b.iter(|| {
            let mut e = DictEncoder::<A>::new(column.clone());
            e.put(black_box(arrow_values)).expect("arrow-rs encodes");
            let indices = e.write_indices().expect("arrow-rs writes the indices");
            let dict = e.write_dict().expect("arrow-rs writes the dictionary");
            black_box((indices.len(), dict.len()))
        })
    });
    g.finish();
}

fn booleans(c: &mut Criterion) {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    // Runs of random length, so RLE has both runs and bit-packed groups to handle.
    let mut values = Vec::with_capacity(N);
    while values.len() < N {
        let v = rng.next_u64() & 1 == 1;
        let run = if rng.next_u64().is_multiple_of(4) {
            rng.next_u64() % 64
        } else {
            1
        } as usize;
        for _ in 0..run.min(N - values.len()).max(1) {
            values.push(v);
        }
    }
    values.truncate(N);
    for (name, ours, arrow) in [
        ("PLAIN", Encoding::Plain, Some(ArrowEncoding::PLAIN)),
        ("RLE", Encoding::Rle, Some(ArrowEncoding::RLE)),
    ] {
        bench_case::<BooleanType, pt::BoolType>(
            c,
            Case {
                name,
                ours,
                arrow,
                ty: BooleanType,
                values: &values,
                arrow_values: &values,
            },
        );
    }
}

/// PLAIN, DELTA_BINARY_PACKED, BYTE_STREAM_SPLIT and RLE_DICTIONARY of one integer type.
macro_rules! integers {
    ($fn:ident, $ours:ty, $arrow:ty, $native:ty) => {
        fn $fn(c: &mut Criterion) {
            let mut rng = Rng::new(0x0123_4567_89AB_CDEF);
            // A slowly drifting series with noise: what DELTA_BINARY_PACKED is meant for.
            let mut x: $native = 0;
            let values: Vec<$native> = (0..N)
                .map(|_| {
                    x = x.wrapping_add((rng.next_u64() % 1000) as $native);
                    x
                })
                .collect();
            for (name, ours, arrow) in [
                ("PLAIN", Encoding::Plain, Some(ArrowEncoding::PLAIN)),
                (
                    "DELTA_BINARY_PACKED",
                    Encoding::DeltaBinaryPacked,
                    Some(ArrowEncoding::DELTA_BINARY_PACKED),
                ),
                (
                    "BYTE_STREAM_SPLIT",
                    Encoding::ByteStreamSplit,
                    Some(ArrowEncoding::BYTE_STREAM_SPLIT),
                ),
                ("GROUP_VAR_INT", Encoding::GroupVarInt, None),
            ] {
                bench_case::<$ours, $arrow>(
                    c,
                    Case {
                        name,
                        ours,
                        arrow,
                        ty: <$ours>::default(),
                        values: &values,
                        arrow_values: &values,
                    },
                );
            }
            // 1000 distinct values.
            let pool: Vec<$native> = (0..1000).map(|_| rng.next_u64() as $native).collect();
            let values: Vec<$native> = (0..N)
                .map(|_| pool[(rng.next_u64() % 1000) as usize])
                .collect();
            bench_dictionary::<$ours, $arrow>(c, <$ours>::default(), &values, &values);
        }
    };
}

integers!(int32, Int32Type, pt::Int32Type, i32);
integers!(int64, Int64Type, pt::Int64Type, i64);

/// PLAIN, BYTE_STREAM_SPLIT and RLE_DICTIONARY of one float type.
macro_rules! floats {
    ($fn:ident, $ours:ty, $arrow:ty, $native:ty) => {
        fn $fn(c: &mut Criterion) {
            let mut rng = Rng::new(0xDEAD_BEEF_CAFE_F00D);
            let values: Vec<$native> = (0..N)
                .map(|_| (rng.next_u64() % 1_000_000) as $native / 100.0)
                .collect();
            for (name, ours, arrow) in [
                ("PLAIN", Encoding::Plain, Some(ArrowEncoding::PLAIN)),
                (
                    "BYTE_STREAM_SPLIT",
                    Encoding::ByteStreamSplit,
                    Some(ArrowEncoding::BYTE_STREAM_SPLIT),
                ),
            ] {
                bench_case::<$ours, $arrow>(
                    c,
                    Case {
                        name,
                        ours,
                        arrow,
                        ty: <$ours>::default(),
                        values: &values,
                        arrow_values: &values,
                    },
                );
            }
            let pool: Vec<$native> = (0..1000).map(|i| i as $native * 0.25).collect();
            let values: Vec<$native> = (0..N)
                .map(|_| pool[(rng.next_u64() % 1000) as usize])
                .collect();
            bench_dictionary::<$ours, $arrow>(c, <$ours>::default(), &values, &values);
        }
    };
}

floats!(float, FloatType, pt::FloatType, f32);
floats!(double, DoubleType, pt::DoubleType, f64);

/// ALP beside arrow-rs 60.1's (the workspace's parquet 59 has none), on decimal-like values
/// (prices with two decimals) and a smooth series: decoding pqcodec's page on both sides, and
/// encoding from a fresh encoder (which samples its parameters) each time.
macro_rules! alp {
    ($fn:ident, $ours:ty, $arrow:ty, $native:ty) => {
        fn $fn(c: &mut Criterion) {
            use parquet60::decoding::{AlpDecoder as ArrowAlpDecoder, Decoder as _};
            use parquet60::encoding::{AlpEncoder as ArrowAlpEncoder, Encoder as _};
            use pqcodec::encodings::alp::{AlpDecoder, AlpEncoder};

            let mut rng = Rng::new(0xA1B2_C3D4_E5F6_0718);
            let prices: Vec<$native> = (0..N)
                .map(|_| (rng.next_u64() % 1_000_000) as $native / 100.0)
                .collect();
            let smooth: Vec<$native> = (0..N)
                .map(|i| ((i as f64 * 0.001).sin() * 1e5).round() as $native / 1000.0)
                .collect();
            let physical = <$ours as pqcodec::core::Physical>::TYPE;
            for (name, values) in [("prices", &prices), ("smooth", &smooth)] {
                let mut e = AlpEncoder::<$ours>::new();
                e.put_slice(values).expect("pqcodec encodes");
                let page = e.flush().expect("pqcodec flushes");
                let page_bytes = Bytes::from(page.clone());

                let mut g = c.benchmark_group(format!("decode/ALP/{physical} {name}"));
                g.throughput(Throughput::Elements(N as u64));
                let mut out = vec![<$native>::default(); N];
                g.bench_function("pqcodec", |b| {
                    b.iter(|| {
                        let mut d = AlpDecoder::<$ours>::new(black_box(page_bytes.clone()), N)
                            .expect("pqcodec takes the page");
                        assert_eq!(d.read_into(&mut out).expect("pqcodec decodes"), N);
                        black_box(out.len())
                    })
                });
                let mut arrow_out = vec![<$native>::default(); N];
                g.bench_function("arrow-rs", |b| {
                    b.iter(|| {
                        let mut d = ArrowAlpDecoder::<$arrow>::new();
                        d.set_data(black_box(page_bytes.clone()), N)
                            .expect("arrow-rs takes the page");
                        assert_eq!(d.get(&mut arrow_out).expect("arrow-rs decodes"), N);
                        black_box(arrow_out.len())
                    })
                });
                g.finish();

                let mut g = c.benchmark_group(format!("encode/ALP/{physical} {name}"));
                g.throughput(Throughput::Elements(N as u64));
                g.bench_function("pqcodec", |b| {
                    b.iter(|| {
                        let mut e = AlpEncoder::<$ours>::new();
                        e.put_slice(black_box(values)).expect("pqcodec encodes");
                        black_box(e.flush().expect("pqcodec flushes").len())
                    })
                });
                g.bench_function("arrow-rs", |b| {
                    b.iter(|| {
                        let mut e = ArrowAlpEncoder::<$arrow>::new();
                        e.put(black_box(values)).expect("arrow-rs encodes");
                        black_box(e.flush_buffer().expect("arrow-rs flushes").len())
                    })
                });
                g.finish();
            }
        }
    };
}

alp!(alp_float, FloatType, parquet60::data_type::FloatType, f32);
alp!(
    alp_double,
    DoubleType,
    parquet60::data_type::DoubleType,
    f64
);

fn int96(c: &mut Criterion) {
    let mut rng = Rng::new(0x1357_9BDF_2468_ACE0);
    let to_arrow = |v: &Int96| {
        let mut out = pt::Int96::new();
        out.set_data(v.0[0], v.0[1], v.0[2]);
        out
    };
    let values: Vec<Int96> = (0..N)
        .map(|_| {
            let r = rng.next_u64();
            Int96([r as u32, (r >> 32) as u32, 2_440_000 + (r % 1000) as u32])
        })
        .collect();
    let arrow_values: Vec<pt::Int96> = values.iter().map(to_arrow).collect();
    bench_case::<Int96Type, pt::Int96Type>(
        c,
        Case {
            name: "PLAIN",
            ours: Encoding::Plain,
            arrow: Some(ArrowEncoding::PLAIN),
            ty: Int96Type,
            values: &values,
            arrow_values: &arrow_values,
        },
    );
    let pool: Vec<Int96> = (0..1000u32).map(|i| Int96([i, !i, 2_440_000])).collect();
    let values: Vec<Int96> = (0..N)
        .map(|_| pool[(rng.next_u64() % 1000) as usize])
        .collect();
    let arrow_values: Vec<pt::Int96> = values.iter().map(to_arrow).collect();
    bench_dictionary::<Int96Type, pt::Int96Type>(c, Int96Type, &values, &arrow_values);
}

/// Strings of 4..=36 bytes sharing prefixes, as sorted keys do.
fn strings(rng: &mut Rng, n: usize) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = (0..n)
        .map(|_| {
            let r = rng.next_u64();
            let len = 4 + (r % 33) as usize;
            let mut s = format!("key-{:016x}-{:016x}", r % 50_000, rng.next_u64()).into_bytes();
            s.truncate(len);
            s
        })
        .collect();
    out.sort();
    out
}

fn to_buffer(values: &[Vec<u8>]) -> ByteArrays {
    let mut out = ByteArrays::new();
    for v in values {
        out.push(v.as_slice());
    }
    out
}

fn byte_array(c: &mut Criterion) {
    let mut rng = Rng::new(0xA5A5_5A5A_1234_5678);
    let raw = strings(&mut rng, N);
    let values = to_buffer(&raw);
    let arrow_values: Vec<pt::ByteArray> =
        raw.iter().map(|v| pt::ByteArray::from(v.clone())).collect();
    for (name, ours, arrow) in [
        ("PLAIN", Encoding::Plain, Some(ArrowEncoding::PLAIN)),
        (
            "DELTA_LENGTH_BYTE_ARRAY",
            Encoding::DeltaLengthByteArray,
            Some(ArrowEncoding::DELTA_LENGTH_BYTE_ARRAY),
        ),
        (
            "DELTA_BYTE_ARRAY",
            Encoding::DeltaByteArray,
            Some(ArrowEncoding::DELTA_BYTE_ARRAY),
        ),
    ] {
        bench_case::<ByteArrayType, pt::ByteArrayType>(
            c,
            Case {
                name,
                ours,
                arrow,
                ty: ByteArrayType,
                values: &values,
                arrow_values: &arrow_values,
            },
        );
    }
    let pool = strings(&mut rng, 1000);
    let raw: Vec<Vec<u8>> = (0..N)
        .map(|_| pool[(rng.next_u64() % 1000) as usize].clone())
        .collect();
    let values = to_buffer(&raw);
    let arrow_values: Vec<pt::ByteArray> =
        raw.iter().map(|v| pt::ByteArray::from(v.clone())).collect();
    bench_dictionary::<ByteArrayType, pt::ByteArrayType>(c, ByteArrayType, &values, &arrow_values);
}

fn fixed_len_byte_array(c: &mut Criterion) {
    let mut rng = Rng::new(0x0F0F_F0F0_8765_4321);
    let fixed = |raw: &[Vec<u8>]| -> (ByteArrays, Vec<pt::FixedLenByteArray>) {
        let raw: Vec<Vec<u8>> = raw
            .iter()
            .map(|v| {
                let mut v = v.clone();
                v.resize(FLBA_LEN, b'_');
                v
            })
            .collect();
        let arrow = raw
            .iter()
            .map(|v| pt::FixedLenByteArray::from(pt::ByteArray::from(v.clone())))
            .collect();
        (to_buffer(&raw), arrow)
    };
    let (values, arrow_values) = fixed(&strings(&mut rng, N));
    for (name, ours, arrow) in [
        ("PLAIN", Encoding::Plain, Some(ArrowEncoding::PLAIN)),
        (
            "DELTA_BYTE_ARRAY",
            Encoding::DeltaByteArray,
            Some(ArrowEncoding::DELTA_BYTE_ARRAY),
        ),
        (
            "BYTE_STREAM_SPLIT",
            Encoding::ByteStreamSplit,
            Some(ArrowEncoding::BYTE_STREAM_SPLIT),
        ),
    ] {
        bench_case::<FixedLenByteArrayType, pt::FixedLenByteArrayType>(
            c,
            Case {
                name,
                ours,
                arrow,
                ty: FixedLenByteArrayType::new(FLBA_LEN).expect("a width above 0"),
                values: &values,
                arrow_values: &arrow_values,
            },
        );
    }
    let pool = strings(&mut rng, 1000);
    let raw: Vec<Vec<u8>> = (0..N)
        .map(|_| pool[(rng.next_u64() % 1000) as usize].clone())
        .collect();
    let (values, arrow_values) = fixed(&raw);
    bench_dictionary::<FixedLenByteArrayType, pt::FixedLenByteArrayType>(
        c,
        FixedLenByteArrayType::new(FLBA_LEN).expect("a width above 0"),
        &values,
        &arrow_values,
    );
}

/// The RLE / bit-packing hybrid and BIT_PACKED on their own (levels, dictionary indices), as
/// `u32` values of several bit widths: runs of random length between bit-packed stretches.
fn hybrid(c: &mut Criterion) {
    let mut rng = Rng::new(0x5151_7A7A_0B0B_C3C3);
    for width in [1u32, 3, 8, 17] {
        let max = (1u64 << width) - 1;
        let mut values = Vec::with_capacity(N);
        while values.len() < N {
            let v = (rng.next_u64() & max) as u32;
            let run = if rng.next_u64().is_multiple_of(4) {
                1 + rng.next_u64() % 64
            } else {
                1
            } as usize;
            values.extend(std::iter::repeat_n(v, run.min(N - values.len())));
        }
        let as_u64: Vec<u64> = values.iter().map(|&v| u64::from(v)).collect();

        let mut e = RleEncoder::new(width);
        e.put_slice(&values);
        let mut rle_page = Vec::new();
        e.flush_into(&mut rle_page);
        let rle_bytes = Bytes::from(rle_page.clone());

        let mut g = c.benchmark_group(format!("decode/RLE/u32 width {width}"));
        g.throughput(Throughput::Elements(N as u64));
        let mut out: Vec<u32> = Vec::with_capacity(N);
        g.bench_function("pqcodec", |b| {
            b.iter(|| {
                out.clear();
                let mut d =
                    RleDecoder::new(black_box(rle_bytes.clone()), N, width).expect("valid page");
                assert_eq!(d.read(&mut out, N).expect("pqcodec decodes"), N);
                black_box(out.len())
            })
        });
        let mut arrow_out = vec![0u32; N];
        g.bench_function("arrow-rs", |b| {
            b.iter(|| {
                let mut d = ArrowRleDecoder::new(width as u8);
                d.set_data(black_box(rle_bytes.clone()))
                    .expect("arrow-rs takes the page");
                assert_eq!(d.get_batch(&mut arrow_out).expect("arrow-rs decodes"), N);
                black_box(arrow_out.len())
            })
        });
        g.finish();

        let mut g = c.benchmark_group(format!("encode/RLE/u32 width {width}"));
        g.throughput(Throughput::Elements(N as u64));
        let mut buf = Vec::new();
        g.bench_function("pqcodec", |b| {
            b.iter(|| {
                buf.clear();
                let mut e = RleEncoder::new(width);
                e.put_slice(black_box(&values));
                e.flush_into(&mut buf);
                black_box(buf.len())
            })
        });
        g.bench_function("arrow-rs", |b| {
            b.iter(|| {
                let mut e = ArrowRleEncoder::new(width as u8, 1024);
                for &v in black_box(&as_u64) {
                    e.put(v);
                }
                black_box(e.consume().len())
            })
        });
        g.finish();

        // BIT_PACKED: arrow-rs no longer implements it.
        let mut e = BitPackedEncoder::new(width);
        for &v in &values {
            e.put(v);
        }
        let mut packed_page = Vec::new();
        e.flush_into(&mut packed_page);
        let packed_page = Bytes::from(packed_page);
        let mut g = c.benchmark_group(format!("decode/BIT_PACKED/u32 width {width}"));
        g.throughput(Throughput::Elements(N as u64));
        g.bench_function("pqcodec", |b| {
            b.iter(|| {
                out.clear();
                let mut d = BitPackedDecoder::new(black_box(packed_page.clone()), N, width)
                    .expect("valid page");
                assert_eq!(d.read(&mut out, N).expect("pqcodec decodes"), N);
                black_box(out.len())
            })
        });
        g.finish();
        let mut g = c.benchmark_group(format!("encode/BIT_PACKED/u32 width {width}"));
        g.throughput(Throughput::Elements(N as u64));
        g.bench_function("pqcodec", |b| {
            b.iter(|| {
                buf.clear();
                let mut e = BitPackedEncoder::new(width);
                for &v in black_box(&values) {
                    e.put(v);
                }
                e.flush_into(&mut buf);
                black_box(buf.len())
            })
        });
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = booleans, hybrid, int32, int64, int96, float, double, alp_float, alp_double, byte_array, fixed_len_byte_array
}
criterion_main!(benches);
