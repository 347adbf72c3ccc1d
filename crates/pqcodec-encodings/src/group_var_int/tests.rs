use bytes::Bytes;
use pqcodec_core::{Decoder, Encoder, Encoding, Error, Int32Type, Int64Type, Integer};
use proptest::prelude::*;

use super::*;

fn encode<T: Integer>(values: &[T::Int]) -> Vec<u8> {
    let mut enc = GroupVarIntEncoder::<T>::new();
    enc.put(values).unwrap();
    assert_eq!(enc.num_values(), values.len());
    let size = enc.estimated_size();
    let bytes = enc.flush().unwrap();
    assert_eq!(bytes.len(), size);
    assert_eq!(enc.num_values(), 0);
    bytes
}

/// The format written out plainly, independently of the decoder: every value of every group,
/// padding included.
fn naive_decode(data: &[u8], bits: u32) -> Vec<u64> {
    let (g, h) = if bits == 32 { (4, 1) } else { (5, 2) };
    let mut out = Vec::new();
    let mut at = 0;
    while at < data.len() {
        let header: u32 = if h == 1 {
            u32::from(data[at])
        } else {
            u32::from(data[at]) << 8 | u32::from(data[at + 1])
        };
        at += h;
        let width = if h == 1 { 2 } else { 3 };
        for j in 0..g {
            let shift = width * (g - 1 - j);
            let len = ((header >> shift) & ((1 << width) - 1)) as usize + 1;
            let mut v = 0u64;
            for (i, &b) in data[at..at + len].iter().enumerate() {
                v |= u64::from(b) << (8 * i);
            }
            out.push(v);
            at += len;
        }
    }
    out
}

/// Encodes `values`, checks the bytes against the naive reading, and decodes them along
/// `plan`: `(true, k)` reads `k` values, `(false, k)` skips `k`.
fn round_trip<T: Integer>(values: &[T::Int], plan: &[(bool, usize)]) {
    let bytes = encode::<T>(values);
    let g = if T::Int::BITS == 32 { 4 } else { 5 };
    let naive = naive_decode(&bytes, T::Int::BITS);
    assert_eq!(naive.len(), values.len().div_ceil(g) * g);
    for (i, &v) in naive.iter().enumerate() {
        let want = values.get(i).map_or(0, |v| v.to_u64_bits());
        assert_eq!(v, want, "value {i}");
    }

    let n = values.len();
    let mut dec = GroupVarIntDecoder::<T>::new(Bytes::copy_from_slice(&bytes), n).unwrap();
    let mut got = Vec::new();
    let mut want = Vec::new();
    let mut at = 0;
    for &(read, k) in plan {
        let step = k.min(n - at);
        assert_eq!(dec.remaining(), n - at);
        if read {
            assert_eq!(dec.read(&mut got, k).unwrap(), step);
            want.extend_from_slice(&values[at..at + step]);
        } else {
            assert_eq!(dec.skip(k).unwrap(), step);
        }
        at += step;
    }
    got.extend(dec.read_all().unwrap());
    want.extend_from_slice(&values[at..]);
    assert_eq!(got, want);
    assert_eq!(dec.remaining(), 0);
    assert_eq!(dec.read(&mut got, 4).unwrap(), 0);
    assert_eq!(dec.skip(4).unwrap(), 0);
}

#[test]
fn spec_example_lengths_byte() {
    let values = [0x12, 0x00AB_CDEF, 0x7654_3210, 0x1234];
    let bytes = [
        0b0010_1101,
        0x12,
        0xEF,
        0xCD,
        0xAB,
        0x10,
        0x32,
        0x54,
        0x76,
        0x34,
        0x12,
    ];
    assert_eq!(encode::<Int32Type>(&values), bytes);
    assert_eq!(bytes.len(), 11);
    let mut dec = GroupVarIntDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 4).unwrap();
    assert_eq!(dec.read_all().unwrap(), values);
    // Maximum values for each length, as the spec lists them.
    let max = [0xFF, 0x00FF_FFFF, 0xFFFF_FFFFu32 as i32, 0xFFFF];
    let bytes = encode::<Int32Type>(&max);
    assert_eq!(bytes[0], 0b0010_1101);
    assert_eq!(
        GroupVarIntDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 4)
            .unwrap()
            .read_all()
            .unwrap(),
        max
    );
}

#[test]
fn spec_example_padding() {
    let bytes = encode::<Int32Type>(&[1, 2, 3, 4, 5]);
    assert_eq!(bytes, [0, 1, 2, 3, 4, 0, 5, 0, 0, 0]);
    assert_eq!(bytes, encode::<Int32Type>(&[1, 2, 3, 4, 5, 0, 0, 0]));
    let mut dec = GroupVarIntDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 5).unwrap();
    assert_eq!(dec.read_all().unwrap(), [1, 2, 3, 4, 5]);
    let mut dec = GroupVarIntDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 8).unwrap();
    assert_eq!(dec.read_all().unwrap(), [1, 2, 3, 4, 5, 0, 0, 0]);
}

#[test]
fn int64_lengths_are_a_big_endian_word() {
    let values = [7, -1, 0x0100, 0, 0x01_0000];
    let bytes = encode::<Int64Type>(&values);
    assert_eq!(
        bytes,
        [
            0b0000_1110,
            0b0100_0010,
            7,
            0xFF,
            0xFF,
            0xFF,
            0xFF,
            0xFF,
            0xFF,
            0xFF,
            0xFF,
            0x00,
            0x01,
            0,
            0x00,
            0x00,
            0x01
        ]
    );
    let mut dec = GroupVarIntDecoder::<Int64Type>::new(Bytes::copy_from_slice(&bytes), 5).unwrap();
    assert_eq!(dec.read_all().unwrap(), values);
    // Bit 15 is unused: set, it changes nothing.
    let mut flagged = bytes.clone();
    flagged[0] |= 0x80;
    let mut dec =
        GroupVarIntDecoder::<Int64Type>::new(Bytes::copy_from_slice(&flagged), 5).unwrap();
    assert_eq!(dec.read_all().unwrap(), values);
    // Each position alone at each length.
    for j in 0..5 {
        for len in 1..=8usize {
            let mut group = [0i64; 5];
            group[j] = (1u64 << (8 * len - 1)) as i64;
            let bytes = encode::<Int64Type>(&group);
            let word = u16::from_be_bytes([bytes[0], bytes[1]]);
            assert_eq!(word, ((len - 1) as u16) << (12 - 3 * j), "j {j} len {len}");
            assert_eq!(bytes.len(), 2 + 4 + len);
        }
    }
}

#[test]
fn minimal_byte_lengths() {
    let cases: [(i64, usize); 12] = [
        (0, 1),
        (1, 1),
        (0xFF, 1),
        (0x100, 2),
        (0xFFFF, 2),
        (0x1_0000, 3),
        (0xFF_FFFF_FFFF, 5),
        (0x100_0000_0000, 6),
        (i64::MAX, 8),
        (i64::MIN, 8),
        (-1, 8),
        (0x7F_FFFF_FFFF_FFFF, 7),
    ];
    for (v, len) in cases {
        let bytes = encode::<Int64Type>(&[v]);
        assert_eq!(bytes.len(), 2 + len + 4, "{v:#x}");
        assert_eq!(
            GroupVarIntDecoder::<Int64Type>::new(Bytes::copy_from_slice(&bytes), 1)
                .unwrap()
                .read_all()
                .unwrap(),
            [v]
        );
    }
    for (v, len) in [(-1i32, 4), (i32::MIN, 4), (i32::MAX, 4), (0x7F_FFFF, 3)] {
        let bytes = encode::<Int32Type>(&[v]);
        assert_eq!(bytes.len(), 1 + len + 3, "{v:#x}");
    }
}

#[test]
fn boundary_lengths() {
    let plan = [(true, 3), (false, 6), (true, 41), (false, 1), (true, 130)];
    for n in [
        0usize, 1, 3, 4, 5, 7, 8, 9, 31, 32, 33, 127, 128, 129, 255, 256, 257, 1000,
    ] {
        let ints: Vec<i32> = (0..n as i32)
            .map(|i| i.wrapping_mul(0x0101_0101).rotate_left(i as u32 % 32))
            .collect();
        round_trip::<Int32Type>(&ints, &plan);
        let longs: Vec<i64> = (0..n as i64)
            .map(|i| (i * 0x0123_4567).rotate_left(i as u32 % 64))
            .collect();
        round_trip::<Int64Type>(&longs, &plan);
    }
    round_trip::<Int32Type>(&[i32::MIN, i32::MAX, 0, -1, 1], &[(false, 3)]);
    round_trip::<Int64Type>(&[i64::MIN, i64::MAX, 0, -1, 1, 2], &[(true, 5)]);
}

#[test]
fn lengths_past_the_data() {
    // The lengths byte says 4 + 4 + 4 + 4 bytes; 9 follow.
    let mut bytes = vec![0xFF];
    bytes.extend_from_slice(&[1; 9]);
    let mut dec = GroupVarIntDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 4).unwrap();
    assert_eq!(
        dec.read_all(),
        Err(Error::truncated(
            Encoding::GroupVarInt,
            "group values",
            17,
            10
        ))
    );
    let mut dec = GroupVarIntDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 4).unwrap();
    assert_eq!(
        dec.skip(4),
        Err(Error::truncated(
            Encoding::GroupVarInt,
            "group values",
            17,
            10
        ))
    );
    let mut dec = GroupVarIntDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 2).unwrap();
    assert_eq!(
        dec.skip(1),
        Err(Error::truncated(
            Encoding::GroupVarInt,
            "group values",
            17,
            10
        ))
    );

    // First group fine (5 bytes), second group's lengths run past: 0b0100_0000 needs 6 bytes.
    let bytes = [0, 1, 2, 3, 4, 0b0100_0000, 9, 9, 9, 9];
    let mut dec = GroupVarIntDecoder::<Int32Type>::new(Bytes::copy_from_slice(&bytes), 8).unwrap();
    let mut out = Vec::new();
    assert_eq!(
        dec.read(&mut out, 8),
        Err(Error::truncated(
            Encoding::GroupVarInt,
            "group values",
            6,
            5
        ))
    );
    assert_eq!(out, [1, 2, 3, 4]);
    assert_eq!(dec.remaining(), 4);

    // Two INT64 groups at 7 bytes each fit 14 bytes at best; the first takes 8 here, so the
    // second's lengths are cut short.
    let bytes = [0, 0b0000_0001, 0, 0, 0, 0, 0xAA, 0xBB, 0, 0, 0, 0, 0, 0];
    let mut dec = GroupVarIntDecoder::<Int64Type>::new(Bytes::copy_from_slice(&bytes), 10).unwrap();
    assert_eq!(dec.skip(5), Ok(5));
    assert_eq!(
        dec.skip(5),
        Err(Error::truncated(
            Encoding::GroupVarInt,
            "group values",
            7,
            6
        ))
    );
    let bytes = [0, 0, 0, 0, 0, 0, 0, 0x01];
    let mut dec =
        GroupVarIntDecoder::<Int64Type>::new(Bytes::copy_from_slice(&bytes[..7]), 5).unwrap();
    assert_eq!(dec.read_all(), Ok(vec![0; 5]));
    let mut longer = bytes.to_vec();
    longer.extend_from_slice(&[0; 7]);
    let mut dec =
        GroupVarIntDecoder::<Int64Type>::new(Bytes::copy_from_slice(&longer[..14]), 10).unwrap();
    assert!(matches!(
        dec.read_all(),
        Err(Error::Truncated {
            field: "group values" | "group lengths",
            ..
        })
    ));
}

#[test]
fn counts_the_data_cannot_hold() {
    assert_eq!(
        GroupVarIntDecoder::<Int32Type>::new(Bytes::copy_from_slice(&[0; 9]), 5).unwrap_err(),
        Error::CountTooLarge {
            encoding: Encoding::GroupVarInt,
            field: "num_values",
            count: 5,
            capacity: 4,
        }
    );
    assert!(matches!(
        GroupVarIntDecoder::<Int64Type>::new(Bytes::copy_from_slice(&[0; 13]), 6),
        Err(Error::CountTooLarge { capacity: 5, .. })
    ));
    assert!(matches!(
        GroupVarIntDecoder::<Int64Type>::new(Bytes::copy_from_slice(&[0; 13]), usize::MAX),
        Err(Error::CountTooLarge { .. })
    ));
    assert!(GroupVarIntDecoder::<Int64Type>::new(Bytes::copy_from_slice(&[]), 0).is_ok());
}

#[test]
fn puts_across_groups() {
    let values: Vec<i32> = (0..23).map(|i| i * 1000 - 7000).collect();
    let mut enc = GroupVarIntEncoder::<Int32Type>::new();
    for chunk in values.chunks(3) {
        enc.put(chunk).unwrap();
    }
    let mut out = vec![0xEE];
    enc.flush_into(&mut out).unwrap();
    assert_eq!(out[0], 0xEE);
    assert_eq!(out[1..], encode::<Int32Type>(&values));
    assert!(enc.flush().unwrap().is_empty());
}

fn plan() -> impl Strategy<Value = Vec<(bool, usize)>> {
    prop::collection::vec((any::<bool>(), 0usize..300), 0..6)
}

/// Values of every byte length, and the extremes.
fn i64s() -> impl Strategy<Value = i64> {
    prop_oneof![
        (0u32..64, any::<u64>()).prop_map(|(bits, v)| (v >> bits) as i64),
        Just(i64::MIN),
        Just(i64::MAX),
        Just(0),
        Just(-1),
    ]
}

fn i32s() -> impl Strategy<Value = i32> {
    prop_oneof![
        (0u32..32, any::<u32>()).prop_map(|(bits, v)| (v >> bits) as i32),
        Just(i32::MIN),
        Just(i32::MAX),
        Just(0),
        Just(-1),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn int32_round_trip(values in prop::collection::vec(i32s(), 0..700), plan in plan()) {
        round_trip::<Int32Type>(&values, &plan);
    }

    #[test]
    fn int64_round_trip(values in prop::collection::vec(i64s(), 0..700), plan in plan()) {
        round_trip::<Int64Type>(&values, &plan);
    }

    /// Any bytes, any count: an error or values, never a panic.
    #[test]
    fn arbitrary_bytes_never_panic(
        data in prop::collection::vec(any::<u8>(), 0..300),
        n in 0usize..80,
        plan in plan(),
    ) {
        fn drive<T: Integer>(data: &[u8], n: usize, plan: &[(bool, usize)]) {
            if let Ok(mut dec) = GroupVarIntDecoder::<T>::new(Bytes::copy_from_slice(data), n) {
                let mut out = Vec::new();
                for &(read, k) in plan {
                    let _ = if read { dec.read(&mut out, k) } else { dec.skip(k) };
                }
                let _ = dec.read_all();
            }
        }
        drive::<Int32Type>(&data, n, &plan);
        drive::<Int64Type>(&data, n, &plan);
    }
}
