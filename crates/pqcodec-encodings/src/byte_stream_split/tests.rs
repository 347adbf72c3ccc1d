use bytes::Bytes;
use pqcodec_core::{
    ByteArrays, Decoder, DoubleType, Encoder, Encoding, Error, FixedLenByteArrayType, FloatType,
    Int32Type, Int64Type, ValueBuffer,
};
use proptest::prelude::*;

use super::*;
use crate::plain::PlainEncoder;

/// The value-major (PLAIN) bytes of `values`: how values are compared, by their bits.
fn plain<T: ByteStreamSplitType>(values: &T::Buffer, ty: T) -> Vec<u8> {
    let mut enc = PlainEncoder::<T>::new(ty);
    enc.put(values.values()).unwrap();
    enc.flush().unwrap()
}

/// The spec's definition, written out: byte `k` of value `i` goes to `k * N + i`.
fn naive_split(plain: &[u8], width: usize) -> Vec<u8> {
    let n = plain.len() / width;
    let mut out = vec![0; plain.len()];
    for i in 0..n {
        for k in 0..width {
            out[k * n + i] = plain[i * width + k];
        }
    }
    out
}

fn encode<T: ByteStreamSplitType>(values: &T::Buffer, ty: T) -> Vec<u8> {
    let mut enc = ByteStreamSplitEncoder::<T>::new(ty);
    enc.put(values.values()).unwrap();
    assert_eq!(enc.num_values(), values.len());
    let size = enc.estimated_size();
    let bytes = enc.flush().unwrap();
    assert_eq!(bytes.len(), size);
    assert_eq!(enc.num_values(), 0);
    bytes
}

/// Encodes `values`, checks the bytes against the naive split, then decodes the first
/// `take` of them (of a page holding them all) along `plan`: `(true, k)` reads `k` values,
/// `(false, k)` skips `k`.
fn round_trip<T: ByteStreamSplitType>(
    values: &T::Buffer,
    ty: T,
    take: usize,
    plan: &[(bool, usize)],
) {
    let width = ty.split_width();
    let bytes = encode::<T>(values, ty);
    let plain_bytes = plain::<T>(values, ty);
    assert_eq!(bytes, naive_split(&plain_bytes, width));

    let n = take.min(values.len());
    let mut dec = ByteStreamSplitDecoder::<T>::new(Bytes::copy_from_slice(&bytes), n, ty).unwrap();
    let mut got = T::Buffer::default();
    let mut want = T::Buffer::default();
    let mut at = 0;
    for &(read, k) in plan {
        let step = k.min(n - at);
        assert_eq!(dec.remaining(), n - at);
        if read {
            assert_eq!(dec.read(&mut got, k).unwrap(), step);
            for i in at..at + step {
                want.push(values.get(i).unwrap());
            }
        } else {
            assert_eq!(dec.skip(k).unwrap(), step);
        }
        at += step;
    }
    for v in dec.read_all().unwrap().values() {
        got.push(v);
    }
    for i in at..n {
        want.push(values.get(i).unwrap());
    }
    assert_eq!(dec.remaining(), 0);
    assert_eq!(dec.read(&mut got, 3).unwrap(), 0);
    assert_eq!(plain::<T>(&got, ty), plain::<T>(&want, ty));
}

#[test]
fn spec_example() {
    let floats = [
        f32::from_le_bytes([0xAA, 0xBB, 0xCC, 0xDD]),
        f32::from_le_bytes([0x00, 0x11, 0x22, 0x33]),
        f32::from_le_bytes([0xA3, 0xB4, 0xC5, 0xD6]),
    ];
    let encoded = [
        0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6,
    ];
    let mut enc = ByteStreamSplitEncoder::<FloatType>::new(FloatType);
    enc.put(&floats).unwrap();
    assert_eq!(enc.flush().unwrap(), encoded);
    let mut dec =
        ByteStreamSplitDecoder::<FloatType>::new(Bytes::copy_from_slice(&encoded), 3, FloatType)
            .unwrap();
    let decoded = dec.read_all().unwrap();
    let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&decoded), bits(&floats));

    // The same bytes as INT32 and as a 4-byte FIXED_LEN_BYTE_ARRAY.
    let ints =
        ByteStreamSplitDecoder::<Int32Type>::new(Bytes::copy_from_slice(&encoded), 3, Int32Type)
            .unwrap()
            .read_all()
            .unwrap();
    assert_eq!(
        ints,
        [0xDDCC_BBAAu32 as i32, 0x3322_1100, 0xD6C5_B4A3u32 as i32]
    );
    let fixed = ByteStreamSplitDecoder::new(
        Bytes::copy_from_slice(&encoded),
        3,
        FixedLenByteArrayType::new(4).unwrap(),
    )
    .unwrap()
    .read_all()
    .unwrap();
    assert_eq!(
        fixed.iter().collect::<Vec<_>>(),
        [
            &[0xAA, 0xBB, 0xCC, 0xDD][..],
            &[0x00, 0x11, 0x22, 0x33],
            &[0xA3, 0xB4, 0xC5, 0xD6]
        ]
    );
}

#[test]
fn batches_use_streams_of_the_whole_page() {
    let values: Vec<i64> = (0..1000)
        .map(|i: i64| i.wrapping_mul(0x0102_0304_0506_0708))
        .collect();
    let bytes = encode::<Int64Type>(&values, Int64Type);
    let mut dec =
        ByteStreamSplitDecoder::<Int64Type>::new(Bytes::copy_from_slice(&bytes), 1000, Int64Type)
            .unwrap();
    let mut out = Vec::new();
    assert_eq!(dec.read(&mut out, 3).unwrap(), 3);
    assert_eq!(dec.skip(500).unwrap(), 500);
    assert_eq!(dec.read(&mut out, 300).unwrap(), 300);
    assert_eq!(out[..3], values[..3]);
    assert_eq!(out[3..], values[503..803]);
    // Decoding fewer values than the page holds still reads streams of length 1000.
    let mut dec =
        ByteStreamSplitDecoder::<Int64Type>::new(Bytes::copy_from_slice(&bytes), 10, Int64Type)
            .unwrap();
    assert_eq!(dec.read_all().unwrap(), values[..10]);
}

/// A sink that only pushes: it offers no memory to write in place.
#[derive(Default)]
struct PushOnly<V>(Vec<V>);

impl<V: Copy> pqcodec_core::Sink<V> for PushOnly<V> {
    fn push(&mut self, value: &V) {
        self.0.push(*value);
    }
}

/// Values joined in place in a sink's memory ([`Sink::grow_le_bytes`]) are those joined a chunk
/// at a time for a sink without it, with reads of every length and from every start.
#[test]
fn in_place_and_chunked_joins_agree() {
    let n = 3 * 8192 + 77;
    let values: Vec<i32> = (0..n as i32)
        .map(|i| i.wrapping_mul(-0x0765_4321))
        .collect();
    let bytes = encode::<Int32Type>(&values, Int32Type);
    for read in [1, 63, 64, 65, 8191, 8192, 20000] {
        let mut in_place =
            ByteStreamSplitDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), n, Int32Type)
                .unwrap();
        let mut chunked =
            ByteStreamSplitDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), n, Int32Type)
                .unwrap();
        let (mut a, mut b) = (vec![7], PushOnly(vec![7]));
        while in_place.remaining() > 0 {
            let k = in_place.read(&mut a, read).unwrap();
            assert_eq!(chunked.read(&mut b, read).unwrap(), k);
        }
        assert_eq!(a, b.0, "reads of {read}");
        assert_eq!(a[1..], values[..]);
    }
}

#[test]
fn boundary_lengths() {
    let plan = [(true, 1), (false, 7), (true, 33), (false, 128)];
    for n in [0, 1, 7, 8, 9, 31, 32, 33, 127, 128, 129, 255, 256, 257, 600] {
        let floats: Vec<f32> = (0..n as u32)
            .map(|i| f32::from_bits(i.wrapping_mul(0x9E37_79B9)))
            .collect();
        round_trip::<FloatType>(&floats, FloatType, n, &plan);
        let doubles: Vec<f64> = (0..n as u64)
            .map(|i| f64::from_bits(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
            .collect();
        round_trip::<DoubleType>(&doubles, DoubleType, n, &plan);
        let ints: Vec<i32> = (0..n as i32)
            .map(|i| i.wrapping_mul(-0x0765_4321))
            .collect();
        round_trip::<Int32Type>(&ints, Int32Type, n, &plan);
        let longs: Vec<i64> = (0..n as i64)
            .map(|i| i.wrapping_mul(i64::MIN + 5))
            .collect();
        round_trip::<Int64Type>(&longs, Int64Type, n / 2, &plan);
        let fixed: ByteArrays = (0..n)
            .map(|i| &b"0123456789abcdef"[i % 7..i % 7 + 5])
            .collect();
        round_trip::<FixedLenByteArrayType>(
            &fixed,
            FixedLenByteArrayType::new(5).unwrap(),
            n,
            &plan,
        );
    }
}

#[test]
fn special_values_keep_their_bits() {
    let floats = vec![
        -0.0f32,
        f32::from_bits(0x7FC0_0001),
        f32::from_bits(0xFF80_0003),
        f32::MIN,
        f32::MAX,
    ];
    round_trip::<FloatType>(&floats, FloatType, 5, &[(true, 2)]);
    let doubles = vec![-0.0f64, f64::from_bits(0x7FF0_0000_0000_0001), f64::MIN];
    round_trip::<DoubleType>(&doubles, DoubleType, 3, &[(false, 1)]);
    round_trip::<Int32Type>(&vec![i32::MIN, i32::MAX, 0, -1], Int32Type, 4, &[]);
    round_trip::<Int64Type>(&vec![i64::MIN, i64::MAX, 0, -1], Int64Type, 4, &[]);
    // A type length wider than the scratch chunk.
    let wide: Vec<u8> = (0..5000u32).map(|i| (i * 31) as u8).collect();
    let fixed: ByteArrays = [&wide[..], &wide[..]].into_iter().collect();
    round_trip::<FixedLenByteArrayType>(
        &fixed,
        FixedLenByteArrayType::new(5000).unwrap(),
        2,
        &[(true, 1)],
    );
}

#[test]
fn malformed_pages() {
    assert_eq!(
        ByteStreamSplitDecoder::<DoubleType>::new(Bytes::copy_from_slice(&[0; 12]), 1, DoubleType)
            .unwrap_err(),
        Error::invalid(
            Encoding::ByteStreamSplit,
            "page length",
            "12 bytes is not a multiple of the value width 8"
        )
    );
    assert!(matches!(
        ByteStreamSplitDecoder::<FixedLenByteArrayType>::new(
            Bytes::copy_from_slice(&[0; 10]),
            1,
            FixedLenByteArrayType::new(3).unwrap()
        ),
        Err(Error::Invalid {
            field: "page length",
            ..
        })
    ));
    assert_eq!(
        ByteStreamSplitDecoder::<FloatType>::new(Bytes::copy_from_slice(&[0; 12]), 4, FloatType)
            .unwrap_err(),
        Error::CountTooLarge {
            encoding: Encoding::ByteStreamSplit,
            field: "num_values",
            count: 4,
            capacity: 3,
        }
    );
    assert!(matches!(
        ByteStreamSplitDecoder::<Int32Type>::new(Bytes::copy_from_slice(&[]), 1, Int32Type),
        Err(Error::CountTooLarge { .. })
    ));
    // A FIXED_LEN_BYTE_ARRAY of width 0, whose K streams would be none, cannot be asked for.
    assert!(matches!(
        FixedLenByteArrayType::new(0),
        Err(Error::TypeLength { type_length: 0 })
    ));
    assert_eq!(
        ByteStreamSplitDecoder::<Int64Type>::new(Bytes::copy_from_slice(&[]), 0, Int64Type)
            .unwrap()
            .read_all()
            .unwrap(),
        Vec::<i64>::new()
    );
}

#[test]
fn encoder_rejects_wrong_lengths() {
    let mut enc = ByteStreamSplitEncoder::<FixedLenByteArrayType>::new(
        FixedLenByteArrayType::new(2).unwrap(),
    );
    enc.put([&b"ab"[..], b"cd"]).unwrap();
    assert!(matches!(
        enc.put([&b"ef"[..], b"ghi"]),
        Err(Error::Value {
            encoding: Encoding::ByteStreamSplit,
            index: 3,
            ..
        })
    ));
    assert_eq!(enc.num_values(), 2);
    let mut out = vec![9];
    enc.flush_into(&mut out).unwrap();
    assert_eq!(out, [9, b'a', b'c', b'b', b'd']);
    let mut enc = ByteStreamSplitEncoder::new(FixedLenByteArrayType::new(1).unwrap());
    assert!(matches!(
        enc.put([&b""[..]]),
        Err(Error::Value { index: 0, .. })
    ));
    assert!(enc.flush().unwrap().is_empty());
}

fn plan() -> impl Strategy<Value = Vec<(bool, usize)>> {
    prop::collection::vec((any::<bool>(), 0usize..300), 0..6)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn float_round_trip(
        bits in prop::collection::vec(prop_oneof![any::<u32>(), Just(0x8000_0000), Just(0x7FC0_0001)], 0..600),
        take in 0usize..700,
        plan in plan(),
    ) {
        let values: Vec<f32> = bits.into_iter().map(f32::from_bits).collect();
        round_trip::<FloatType>(&values, FloatType, take, &plan);
    }

    #[test]
    fn double_round_trip(
        bits in prop::collection::vec(any::<u64>(), 0..600),
        take in 0usize..700,
        plan in plan(),
    ) {
        let values: Vec<f64> = bits.into_iter().map(f64::from_bits).collect();
        round_trip::<DoubleType>(&values, DoubleType, take, &plan);
    }

    #[test]
    fn int32_round_trip(
        values in prop::collection::vec(prop_oneof![Just(i32::MIN), Just(i32::MAX), any::<i32>()], 0..600),
        take in 0usize..700,
        plan in plan(),
    ) {
        round_trip::<Int32Type>(&values, Int32Type, take, &plan);
        let bytes = encode::<Int32Type>(&values, Int32Type);
        let back = ByteStreamSplitDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), values.len(), Int32Type).unwrap().read_all().unwrap();
        prop_assert_eq!(back, values);
    }

    #[test]
    fn int64_round_trip(
        values in prop::collection::vec(prop_oneof![Just(i64::MIN), Just(i64::MAX), any::<i64>()], 0..600),
        take in 0usize..700,
        plan in plan(),
    ) {
        round_trip::<Int64Type>(&values, Int64Type, take, &plan);
        let bytes = encode::<Int64Type>(&values, Int64Type);
        let back = ByteStreamSplitDecoder::<Int64Type>::new(Bytes::copy_from_slice(&bytes), values.len(), Int64Type).unwrap().read_all().unwrap();
        prop_assert_eq!(back, values);
    }

    #[test]
    fn fixed_len_round_trip(
        (width, values) in (1usize..40).prop_flat_map(|w| {
            (Just(w), prop::collection::vec(prop::collection::vec(any::<u8>(), w), 0..300))
        }),
        take in 0usize..400,
        plan in plan(),
    ) {
        let buffer: ByteArrays = values.iter().map(Vec::as_slice).collect();
        round_trip::<FixedLenByteArrayType>(&buffer, FixedLenByteArrayType::new(width).unwrap(), take, &plan);
        let bytes = encode::<FixedLenByteArrayType>(&buffer, FixedLenByteArrayType::new(width).unwrap());
        let back = ByteStreamSplitDecoder::new(Bytes::copy_from_slice(&bytes), values.len(), FixedLenByteArrayType::new(width).unwrap())
            .unwrap()
            .read_all()
            .unwrap();
        prop_assert!(back.iter().eq(values.iter().map(Vec::as_slice)));
    }

    /// Any bytes, any count: an error or values, never a panic.
    #[test]
    fn arbitrary_bytes_never_panic(
        data in prop::collection::vec(any::<u8>(), 0..200),
        n in 0usize..80,
        type_length in 0usize..7,
        plan in plan(),
    ) {
        fn drive<T: ByteStreamSplitType>(data: &[u8], n: usize, ty: T, plan: &[(bool, usize)]) {
            if let Ok(mut dec) = ByteStreamSplitDecoder::<T>::new(Bytes::copy_from_slice(data), n, ty) {
                let mut out = T::Buffer::default();
                for &(read, k) in plan {
                    let r = if read { dec.read(&mut out, k) } else { dec.skip(k) };
                    assert!(r.is_ok(), "a page that passed new() always decodes");
                }
                assert!(dec.read_all().is_ok());
            }
        }
        drive(&data, n, FloatType, &plan);
        drive(&data, n, DoubleType, &plan);
        drive(&data, n, Int32Type, &plan);
        drive(&data, n, Int64Type, &plan);
        if let Ok(ty) = FixedLenByteArrayType::new(type_length) {
            drive(&data, n, ty, &plan);
        }
    }
}
