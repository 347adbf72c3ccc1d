//! RLE / bit-packing hybrid against arrow-rs: levels at every bit width through
//! `parquet::encodings::rle::{RleEncoder, RleDecoder}`, and RLE-encoded BOOLEAN pages through
//! `get_encoder` / `get_decoder`.

use bytes::Bytes;
use parquet::basic::{Encoding as ArrowEncoding, Type as ParquetType};
use parquet::data_type::BoolType;
use parquet::encodings::decoding::get_decoder;
use parquet::encodings::encoding::get_encoder;
use parquet::encodings::rle;
use pqcodec_core::{BooleanType, Decoder, Encoder};
use pqcodec_encodings::rle::{RleBooleanDecoder, RleBooleanEncoder, RleDecoder, RleEncoder};
use proptest::prelude::*;

use crate::common::descr;

/// Levels made of runs, long and short, of values that fit `width` bits.
fn levels() -> impl Strategy<Value = (u32, Vec<u32>)> {
    (1u32..=32).prop_flat_map(|width| {
        let max = if width == 32 {
            u32::MAX
        } else {
            (1u32 << width) - 1
        };
        let value = prop_oneof![Just(0), Just(max), 0..=max];
        let runs = prop::collection::vec(
            (value, prop_oneof![1usize..3, 1usize..12, 1usize..300]),
            0..40,
        );
        (
            Just(width),
            runs.prop_map(|runs| {
                runs.into_iter()
                    .flat_map(|(v, n)| std::iter::repeat_n(v, n))
                    .collect()
            }),
        )
    })
}

fn arrow_encode(width: u32, values: &[u32]) -> Vec<u8> {
    let mut e = rle::RleEncoder::new(width as u8, 1024);
    for &v in values {
        e.put(u64::from(v));
    }
    e.consume()
}

fn arrow_decode(width: u32, data: Vec<u8>, n: usize) -> Vec<u32> {
    let mut d = rle::RleDecoder::new(width as u8);
    d.set_data(Bytes::from(data)).unwrap();
    let mut out = vec![0u32; n];
    let mut got = 0;
    while got < n {
        let k = d.get_batch(&mut out[got..]).unwrap();
        assert!(k > 0, "arrow-rs stopped at {got} of {n}");
        got += k;
    }
    out
}

fn bools() -> impl Strategy<Value = Vec<bool>> {
    prop::collection::vec((any::<bool>(), prop_oneof![1usize..3, 1usize..40]), 0..60).prop_map(
        |runs| {
            runs.into_iter()
                .flat_map(|(v, n)| std::iter::repeat_n(v, n))
                .collect()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn arrow_levels_decode_in_pqcodec((width, values) in levels(), batch in 1usize..200) {
        let data = arrow_encode(width, &values);
        let mut d = RleDecoder::new(Bytes::copy_from_slice(&data), values.len(), width).unwrap();
        let mut out = Vec::new();
        while d.remaining() > 0 {
            d.read(&mut out, batch).unwrap();
        }
        prop_assert_eq!(out, values);
    }

    #[test]
    fn pqcodec_levels_decode_in_arrow((width, values) in levels()) {
        let mut e = RleEncoder::new(width);
        for &v in &values {
            e.put(v);
        }
        let mut data = Vec::new();
        e.flush_into(&mut data);
        prop_assert_eq!(arrow_decode(width, data, values.len()), values);
    }

    #[test]
    fn arrow_skips_like_pqcodec((width, values) in levels(), skip in 0usize..400) {
        let data = arrow_encode(width, &values);
        let skip = skip.min(values.len());
        let mut ours = RleDecoder::new(Bytes::copy_from_slice(&data), values.len(), width).unwrap();
        prop_assert_eq!(ours.skip(skip).unwrap(), skip);
        let mut out = Vec::new();
        ours.read(&mut out, usize::MAX).unwrap();
        prop_assert_eq!(&out[..], &values[skip..]);
    }

    #[test]
    fn arrow_booleans_decode_in_pqcodec(values in bools()) {
        let mut e = get_encoder::<BoolType>(ArrowEncoding::RLE, &descr(ParquetType::BOOLEAN, 0)).unwrap();
        e.put(&values).unwrap();
        let page = e.flush_buffer().unwrap();
        let mut d = RleBooleanDecoder::new(Bytes::copy_from_slice(&page), values.len()).unwrap();
        prop_assert_eq!(d.read_all().unwrap(), values);
    }

    #[test]
    fn pqcodec_booleans_decode_in_arrow(values in bools()) {
        let mut e = RleBooleanEncoder::new();
        e.put(&values).unwrap();
        let page = Encoder::<BooleanType>::flush(&mut e).unwrap();
        let mut d = get_decoder::<BoolType>(descr(ParquetType::BOOLEAN, 0), ArrowEncoding::RLE).unwrap();
        d.set_data(Bytes::from(page), values.len()).unwrap();
        let mut out = vec![false; values.len()];
        prop_assert_eq!(d.get(&mut out).unwrap(), values.len());
        prop_assert_eq!(out, values);
    }
}

#[test]
fn spec_example_in_arrow() {
    // arrow-rs decodes the spec's bytes as pqcodec does.
    let bytes = vec![0x03, 0b1000_1000, 0b1100_0110, 0b1111_1010];
    assert_eq!(arrow_decode(3, bytes, 8), [0, 1, 2, 3, 4, 5, 6, 7]);
}
