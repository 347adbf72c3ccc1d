//! BYTE_STREAM_SPLIT against arrow-rs for FLOAT, DOUBLE, INT32, INT64 and
//! FIXED_LEN_BYTE_ARRAY, both directions, and byte-identical pages.

use bytes::Bytes;
use parquet::basic::Encoding as PqEncoding;
use pqcodec_core::{ByteArrays, Decoder, Encoder, Physical, ValueBuffer};
use pqcodec_encodings::byte_stream_split::{
    ByteStreamSplitDecoder, ByteStreamSplitEncoder, ByteStreamSplitType,
};
use proptest::prelude::*;

use crate::common::{arrow_decode, arrow_encode};
use crate::plain::{F32, F64, Flba, I32, I64, Pair};

/// Both directions of BYTE_STREAM_SPLIT for `values`.
fn check<P: Pair>(values: &<P::O as Physical>::Buffer, type_length: usize)
where
    P::O: ByteStreamSplitType,
{
    let n = values.len();
    let ty = pqcodec_testkit::marker::<P::O>(type_length);
    let theirs: Vec<_> = values.values().map(P::to_arrow).collect();
    let keys = P::keys_ours(values);
    let enc = PqEncoding::BYTE_STREAM_SPLIT;

    // arrow-rs encodes, pqcodec decodes: whole, in batches, after a skip, and a prefix.
    let arrow_bytes = arrow_encode::<P::A>(enc, type_length, &theirs);
    let mut dec =
        ByteStreamSplitDecoder::<P::O>::new(Bytes::copy_from_slice(&arrow_bytes), n, ty).unwrap();
    let mut got = <P::O as Physical>::Buffer::default();
    dec.read(&mut got, 3).unwrap();
    dec.read(&mut got, 300).unwrap();
    dec.read(&mut got, usize::MAX).unwrap();
    assert_eq!(P::keys_ours(&got), keys);
    let mut dec =
        ByteStreamSplitDecoder::<P::O>::new(Bytes::copy_from_slice(&arrow_bytes), n, ty).unwrap();
    let skipped = dec.skip(n / 2 + 1).unwrap();
    assert_eq!(P::keys_ours(&dec.read_all().unwrap()), keys[skipped..]);
    let mut dec =
        ByteStreamSplitDecoder::<P::O>::new(Bytes::copy_from_slice(&arrow_bytes), n / 2, ty)
            .unwrap();
    assert_eq!(P::keys_ours(&dec.read_all().unwrap()), keys[..n / 2]);

    // pqcodec encodes the same bytes, which arrow-rs decodes.
    let mut ours_enc = ByteStreamSplitEncoder::<P::O>::new(ty);
    ours_enc.put(values.values()).unwrap();
    let ours = ours_enc.flush().unwrap();
    assert_eq!(
        ours, arrow_bytes,
        "pqcodec and arrow-rs write the same page"
    );
    for batch in [1, 100, n] {
        let back = arrow_decode::<P::A>(enc, type_length, &ours, n, batch);
        assert_eq!(P::keys_arrow(&back), keys);
    }
}

#[test]
fn spec_example_and_boundaries() {
    let floats = vec![
        f32::from_le_bytes([0xAA, 0xBB, 0xCC, 0xDD]),
        f32::from_le_bytes([0x00, 0x11, 0x22, 0x33]),
        f32::from_le_bytes([0xA3, 0xB4, 0xC5, 0xD6]),
    ];
    check::<F32>(&floats, 0);
    for n in [0usize, 1, 7, 8, 9, 31, 32, 33, 127, 128, 129, 1000] {
        let floats: Vec<f32> = (0..n as u32)
            .map(|i| f32::from_bits(i.wrapping_mul(0x9E37_79B9)))
            .collect();
        check::<F32>(&floats, 0);
        let doubles: Vec<f64> = (0..n as u64)
            .map(|i| f64::from_bits(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
            .collect();
        check::<F64>(&doubles, 0);
        let ints: Vec<i32> = (0..n as i32)
            .map(|i| i.wrapping_mul(-0x0123_4567))
            .collect();
        check::<I32>(&ints, 0);
        let longs: Vec<i64> = (0..n as i64)
            .map(|i| i.wrapping_mul(i64::MAX - 9))
            .collect();
        check::<I64>(&longs, 0);
        let fixed: ByteArrays = (0..n)
            .map(|i| &b"0123456789abcdef"[i % 5..i % 5 + 7])
            .collect();
        check::<Flba>(&fixed, 7);
    }
}

#[test]
fn special_values() {
    check::<F32>(
        &vec![-0.0, f32::from_bits(0x7FC0_0001), f32::MIN, f32::MAX],
        0,
    );
    check::<F64>(&vec![-0.0, f64::from_bits(0xFFF0_0000_0000_0001)], 0);
    check::<I32>(&vec![i32::MIN, i32::MAX, 0, -1], 0);
    check::<I64>(&vec![i64::MIN, i64::MAX, 0, -1], 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn float(bits in prop::collection::vec(any::<u32>(), 0..700)) {
        check::<F32>(&bits.into_iter().map(f32::from_bits).collect(), 0);
    }

    #[test]
    fn double(bits in prop::collection::vec(any::<u64>(), 0..700)) {
        check::<F64>(&bits.into_iter().map(f64::from_bits).collect(), 0);
    }

    #[test]
    fn int32(values in prop::collection::vec(any::<i32>(), 0..700)) {
        check::<I32>(&values, 0);
    }

    #[test]
    fn int64(values in prop::collection::vec(any::<i64>(), 0..700)) {
        check::<I64>(&values, 0);
    }

    #[test]
    fn fixed_len_byte_array(
        (width, values) in (1usize..40).prop_flat_map(|w| {
            (Just(w), prop::collection::vec(prop::collection::vec(any::<u8>(), w), 0..300))
        }),
    ) {
        let buffer: ByteArrays = values.iter().map(Vec::as_slice).collect();
        check::<Flba>(&buffer, width);
    }
}
