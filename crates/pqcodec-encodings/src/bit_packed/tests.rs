use super::*;
use bytes::Bytes;
use pqcodec_core::{Encoding, Error};
use proptest::prelude::*;

const SPEC_BYTES: [u8; 3] = [0b0000_0101, 0b0011_1001, 0b0111_0111];

fn encode(width: u32, values: &[u32]) -> Vec<u8> {
    let mut e = BitPackedEncoder::new(width);
    for &v in values {
        e.put(v);
    }
    assert_eq!(e.num_values(), values.len());
    let size = e.estimated_size();
    let mut out = Vec::new();
    e.flush_into(&mut out);
    assert_eq!(out.len(), size);
    out
}

/// Bit by bit, most significant first.
fn naive_pack(width: u32, values: &[u32]) -> Vec<u8> {
    let mut bits = Vec::new();
    for &v in values {
        for b in (0..width).rev() {
            bits.push((v >> b) & 1 == 1);
        }
    }
    bits.chunks(8)
        .map(|c| {
            c.iter()
                .enumerate()
                .fold(0u8, |acc, (i, &b)| acc | (u8::from(b) << (7 - i)))
        })
        .collect()
}

#[test]
fn spec_example_both_directions() {
    let mut out = Vec::new();
    let mut d = BitPackedDecoder::new(Bytes::copy_from_slice(&SPEC_BYTES), 8, 3).unwrap();
    assert_eq!(d.read(&mut out, 100).unwrap(), 8);
    assert_eq!(out, [0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(encode(3, &[0, 1, 2, 3, 4, 5, 6, 7]), SPEC_BYTES);
    assert_eq!(naive_pack(3, &[0, 1, 2, 3, 4, 5, 6, 7]), SPEC_BYTES);
}

#[test]
fn thirty_values_of_two_bits_take_eight_bytes() {
    // The spec: 30 values of 2 bits are 60 bits, 8 bytes.
    let values: Vec<u32> = (0..30).map(|i| i % 4).collect();
    let data = encode(2, &values);
    assert_eq!(data.len(), 8);
    assert_eq!(data[7] & 0x0F, 0, "padding is zeros");
    let mut out = Vec::new();
    BitPackedDecoder::new(Bytes::copy_from_slice(&data), 30, 2)
        .unwrap()
        .read(&mut out, 30)
        .unwrap();
    assert_eq!(out, values);
}

#[test]
fn malformed_inputs() {
    assert_eq!(
        BitPackedDecoder::new(Bytes::copy_from_slice(&SPEC_BYTES), 9, 3).err(),
        Some(Error::truncated(Encoding::BitPacked, "values", 4, 3))
    );
    assert_eq!(
        BitPackedDecoder::new(Bytes::copy_from_slice(&[]), 0, 33).err(),
        Some(Error::BitWidth {
            encoding: Encoding::BitPacked,
            field: "bit width",
            width: 33,
            max: 32
        })
    );
    assert!(matches!(
        BitPackedDecoder::new(Bytes::copy_from_slice(&[0; 4]), usize::MAX, 32),
        Err(Error::Truncated { .. })
    ));
    // Width 0 needs no bytes.
    let mut d = BitPackedDecoder::new(Bytes::copy_from_slice(&[]), 5, 0).unwrap();
    let mut out = Vec::new();
    assert_eq!(d.read(&mut out, 10).unwrap(), 5);
    assert_eq!(out, [0; 5]);
}

fn width_and_values() -> impl Strategy<Value = (u32, Vec<u32>)> {
    (0u32..=32, prop_oneof![0usize..10, 0usize..600]).prop_flat_map(|(w, len)| {
        let max = if w == 32 { u32::MAX } else { (1u32 << w) - 1 };
        (
            Just(w),
            prop::collection::vec(prop_oneof![Just(0), Just(max), 0..=max], len),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn round_trip_with_reads_and_skips(
        (width, values) in width_and_values(),
        steps in prop::collection::vec((any::<bool>(), prop_oneof![0usize..10, 0usize..300]), 1..20),
    ) {
        let data = encode(width, &values);
        prop_assert_eq!(&data, &naive_pack(width, &values));
        let mut d = BitPackedDecoder::new(Bytes::copy_from_slice(&data), values.len(), width).unwrap();
        let mut pos = 0;
        for (read, n) in steps {
            let want = n.min(values.len() - pos);
            if read {
                let mut out = Vec::new();
                prop_assert_eq!(d.read(&mut out, n).unwrap(), want);
                prop_assert_eq!(&out[..], &values[pos..pos + want]);
            } else {
                prop_assert_eq!(d.skip(n).unwrap(), want);
            }
            pos += want;
            prop_assert_eq!(d.remaining(), values.len() - pos);
        }
        let mut rest = Vec::new();
        d.read(&mut rest, usize::MAX).unwrap();
        prop_assert_eq!(&rest[..], &values[pos..]);
    }

    #[test]
    fn garbage_never_panics(width in 0u32..=33, data in prop::collection::vec(any::<u8>(), 0..64), n in 0usize..600) {
        if let Ok(mut d) = BitPackedDecoder::new(Bytes::copy_from_slice(&data), n, width) {
            let mut out = Vec::new();
            prop_assert_eq!(d.read(&mut out, usize::MAX).unwrap(), n);
        }
    }
}
