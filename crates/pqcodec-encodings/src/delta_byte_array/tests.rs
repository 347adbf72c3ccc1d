use bytes::Bytes;
use pqcodec_core::{
    Binary, ByteArrayType, ByteArrays, Decoder, Encoder, Encoding, Error, FixedLenByteArrayType,
    Int32Type,
};
use proptest::prelude::*;

use super::{DeltaByteArrayDecoder, DeltaByteArrayEncoder};
use crate::delta_binary_packed::DeltaBinaryPackedEncoder;
use crate::delta_binary_packed::tests::assert_interleaved;
use crate::delta_length_byte_array::tests::repeated_lengths;

fn encode<T: Binary>(values: &[Vec<u8>], ty: T) -> Vec<u8> {
    let mut enc = DeltaByteArrayEncoder::<T>::new(ty);
    enc.put(values.iter().map(Vec::as_slice)).unwrap();
    assert_eq!(enc.num_values(), values.len());
    let estimate = enc.estimated_size();
    let bytes = enc.flush().unwrap();
    assert!(estimate >= bytes.len(), "{estimate} < {}", bytes.len());
    assert_eq!(enc.num_values(), 0);
    bytes
}

fn lengths(values: &[i32]) -> Vec<u8> {
    let mut enc = DeltaBinaryPackedEncoder::<Int32Type>::new();
    enc.put(values).unwrap();
    enc.flush().unwrap()
}

/// A page from raw prefix lengths, suffix lengths and suffix data.
fn page(prefixes: &[i32], suffixes: &[i32], data: &[u8]) -> Vec<u8> {
    let mut out = lengths(prefixes);
    out.extend(lengths(suffixes));
    out.extend_from_slice(data);
    out
}

fn decode<T: Binary>(bytes: &[u8], n: usize, ty: T) -> Result<Vec<Vec<u8>>, Error> {
    let mut dec = DeltaByteArrayDecoder::<T>::new(Bytes::copy_from_slice(bytes), n, ty)?;
    let mut out = Vec::new();
    dec.read(&mut out, n)?;
    Ok(out)
}

fn strings(values: &[&str]) -> Vec<Vec<u8>> {
    values.iter().map(|s| s.as_bytes().to_vec()).collect()
}

#[test]
fn spec_example() {
    let values = strings(&["axis", "axle", "babble", "babyhood"]);
    let bytes = page(&[0, 2, 0, 3], &[4, 2, 6, 5], b"axislebabbleyhood");
    assert_eq!(
        &bytes[..22],
        [
            0x80, 0x01, 0x04, 0x04, 0x00, 0x03, 0x03, 0, 0, 0, 0x44, 0x01, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0
        ]
    );
    assert_eq!(encode::<ByteArrayType>(&values, ByteArrayType), bytes);
    assert_eq!(
        decode::<ByteArrayType>(&bytes, 4, ByteArrayType).unwrap(),
        values
    );
}

#[test]
fn empty_page_and_edge_values() {
    let bytes = encode::<ByteArrayType>(&[], ByteArrayType);
    assert_eq!(
        bytes,
        [0x80, 0x01, 0x04, 0x00, 0x00, 0x80, 0x01, 0x04, 0x00, 0x00]
    );
    assert!(
        decode::<ByteArrayType>(&bytes, 0, ByteArrayType)
            .unwrap()
            .is_empty()
    );

    let big: Vec<u8> = (0..65536u32).map(|i| (i / 7) as u8).collect();
    let mut big2 = big.clone();
    big2[60000] ^= 1;
    let values = vec![
        vec![],
        big.clone(),
        big2,
        vec![],
        big[..10].to_vec(),
        vec![],
    ];
    let bytes = encode::<ByteArrayType>(&values, ByteArrayType);
    assert!(
        bytes.len() < 65536 + 5536 + 400,
        "shared prefix not used: {}",
        bytes.len()
    );
    assert_eq!(
        decode::<ByteArrayType>(&bytes, values.len(), ByteArrayType).unwrap(),
        values
    );
}

#[test]
fn fixed_len_round_trip_and_length_checks() {
    let values: Vec<Vec<u8>> = (0..300u32)
        .map(|i| (i / 3).to_be_bytes().to_vec())
        .collect();
    let bytes = encode::<FixedLenByteArrayType>(&values, FixedLenByteArrayType::new(4).unwrap());
    assert_eq!(
        decode::<FixedLenByteArrayType>(&bytes, 300, FixedLenByteArrayType::new(4).unwrap())
            .unwrap(),
        values
    );
    // No decoder of a zero-width FIXED_LEN_BYTE_ARRAY can be asked for.
    assert!(matches!(
        FixedLenByteArrayType::new(0),
        Err(Error::TypeLength { type_length: 0 })
    ));
    assert!(matches!(
        decode::<FixedLenByteArrayType>(&bytes, 300, FixedLenByteArrayType::new(5).unwrap()),
        Err(Error::Invalid {
            encoding: Encoding::DeltaByteArray,
            field: "value length",
            ..
        })
    ));
    // BYTE_ARRAY values of one length are BYTE_ARRAY values still.
    assert_eq!(
        decode::<ByteArrayType>(&bytes, 300, ByteArrayType).unwrap(),
        values
    );

    let mut enc =
        DeltaByteArrayEncoder::<FixedLenByteArrayType>::new(FixedLenByteArrayType::new(4).unwrap());
    enc.put([&b"abcd"[..]]).unwrap();
    assert_eq!(
        enc.put([&b"abc"[..]]),
        Err(Error::Value {
            encoding: Encoding::DeltaByteArray,
            index: 1,
            reason: "3 bytes, not the column's 4".into()
        })
    );
    assert_eq!(enc.num_values(), 1);
    let mut enc = DeltaByteArrayEncoder::new(ByteArrayType);
    enc.put([&b"abc"[..]]).unwrap();
}

#[test]
fn bad_prefix_lengths() {
    let invalid = |prefixes: &[i32], suffixes: &[i32], data: &[u8]| match decode::<ByteArrayType>(
        &page(prefixes, suffixes, data),
        prefixes.len(),
        ByteArrayType,
    ) {
        Err(Error::Invalid {
            encoding: Encoding::DeltaByteArray,
            field: "prefix length",
            reason,
        }) => reason,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        invalid(&[1], &[1], b"a"),
        "the first value has prefix length 1, not 0"
    );
    assert_eq!(
        invalid(&[0, 3], &[2, 1], b"abc"),
        "value 1 has prefix length 3, longer than the previous value (2 bytes)"
    );
    assert_eq!(
        invalid(&[0, -1], &[2, 1], b"abc"),
        "value 1 has negative prefix length -1"
    );
    // A prefix exactly the previous value's length is fine.
    assert_eq!(
        decode::<ByteArrayType>(&page(&[0, 2, 3], &[2, 1, 0], b"abc"), 3, ByteArrayType).unwrap(),
        strings(&["ab", "abc", "abc"])
    );
}

#[test]
fn counts_short_of_num_values() {
    let bytes = page(&[0, 0], &[1, 1, 1], b"abc");
    assert_eq!(
        DeltaByteArrayDecoder::<ByteArrayType>::new(
            Bytes::copy_from_slice(&bytes),
            3,
            ByteArrayType
        )
        .unwrap_err(),
        Error::CountTooLarge {
            encoding: Encoding::DeltaByteArray,
            field: "prefix length count",
            count: 3,
            capacity: 2
        }
    );
    let bytes = page(&[0, 0, 0], &[1, 1], b"ab");
    assert_eq!(
        DeltaByteArrayDecoder::<ByteArrayType>::new(
            Bytes::copy_from_slice(&bytes),
            3,
            ByteArrayType
        )
        .unwrap_err(),
        Error::CountTooLarge {
            encoding: Encoding::DeltaByteArray,
            field: "suffix count",
            count: 3,
            capacity: 2
        }
    );
    // More of either than asked for is fine.
    let bytes = page(&[0, 1, 0, 0], &[1, 1, 1], b"abc");
    assert_eq!(
        decode::<ByteArrayType>(&bytes, 3, ByteArrayType).unwrap(),
        strings(&["a", "ab", "c"])
    );
}

#[test]
fn suffix_data_short_or_negative() {
    let bytes = page(&[0, 0], &[2, 2], b"abc");
    assert!(matches!(
        decode::<ByteArrayType>(&bytes, 2, ByteArrayType),
        Err(Error::Truncated {
            encoding: Encoding::DeltaByteArray,
            field: "byte array data",
            ..
        })
    ));
    let bytes = page(&[0, 0], &[2, -2], b"abc");
    assert!(matches!(
        decode::<ByteArrayType>(&bytes, 2, ByteArrayType),
        Err(Error::Invalid {
            field: "length",
            ..
        })
    ));
}

#[test]
fn truncated_anywhere() {
    let values: Vec<Vec<u8>> = (0..150u32)
        .map(|i| format!("key{:05}", i * 7).into_bytes())
        .collect();
    let bytes = encode::<ByteArrayType>(&values, ByteArrayType);
    for cut in 0..bytes.len() {
        let r = decode::<ByteArrayType>(&bytes[..cut], 150, ByteArrayType);
        assert!(
            matches!(r, Err(Error::Truncated { .. })),
            "cut {cut}: {r:?}"
        );
    }
}

/// Three billion empty values in two dozen bytes (prefix lengths and suffix lengths repeated)
/// skip at once; skips that end on repeated values leave the right last value to build on.
#[test]
fn repeated_values_skip_at_once() {
    let n = 3usize << 30;
    let mut page = repeated_lengths(n as u64, 0);
    page.extend(repeated_lengths(n as u64, 0));
    let mut dec = DeltaByteArrayDecoder::<ByteArrayType>::new(
        Bytes::copy_from_slice(&page),
        n,
        ByteArrayType,
    )
    .unwrap();
    assert_eq!(dec.skip(n - 3).unwrap(), n - 3);
    let mut out = Vec::<Vec<u8>>::new();
    assert_eq!(dec.read(&mut out, 10).unwrap(), 3);
    assert_eq!(out, vec![Vec::<u8>::new(); 3]);

    let n = 1 << 20;
    let values = vec![b"abc".to_vec(); n];
    let abc = encode::<ByteArrayType>(&values, ByteArrayType);
    let mut dec =
        DeltaByteArrayDecoder::<ByteArrayType>::new(Bytes::copy_from_slice(&abc), n, ByteArrayType)
            .unwrap();
    assert_eq!(dec.skip(n - 2).unwrap(), n - 2);
    assert_eq!(decoded(&mut dec), strings(&["abc", "abc"]));
    for (type_length, skip) in [(3, Ok(n - 2)), (4, Err(()))] {
        let mut dec = DeltaByteArrayDecoder::new(
            Bytes::copy_from_slice(&abc),
            n,
            FixedLenByteArrayType::new(type_length).unwrap(),
        );
        let dec = dec.as_mut().unwrap();
        assert_eq!(
            dec.skip(n - 2).map_err(drop),
            skip,
            "type length {type_length}"
        );
    }
    // "k" and one byte 641 times, then the last of them and "z": the prefix length changes at
    // the first delta of a miniblock, so the skip ends on a repeat and the value after it is
    // built on the repeat's last value.
    let mut values: Vec<Vec<u8>> = (0..641u32).map(|i| vec![b'k', i as u8]).collect();
    values.push([&values[640][..], b"z"].concat());
    let page = encode::<ByteArrayType>(&values, ByteArrayType);
    for skip in [640, 641] {
        let mut dec = DeltaByteArrayDecoder::<ByteArrayType>::new(
            Bytes::copy_from_slice(&page),
            642,
            ByteArrayType,
        )
        .unwrap();
        assert_eq!(dec.skip(skip).unwrap(), skip);
        assert_eq!(decoded(&mut dec), &values[skip..]);
    }
}

fn decoded<D: Decoder<ByteArrayType>>(dec: &mut D) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    dec.read(&mut out, usize::MAX).unwrap();
    out
}

/// Runs of one value, or of one prefix and suffixes of one byte (prefix lengths and suffix
/// lengths that repeat), each followed by a value that extends the run's last.
fn runs() -> impl Strategy<Value = Vec<Vec<u8>>> {
    let run = (
        prop::collection::vec(any::<u8>(), 0..4),
        1usize..300,
        any::<bool>(),
    )
        .prop_map(|(base, count, same)| {
            let mut run: Vec<Vec<u8>> = (0..count)
                .map(|i| match same {
                    true => base.clone(),
                    false => [&base[..], &[i as u8]].concat(),
                })
                .collect();
            // Then one built on the run's last value.
            run.push([&run[count - 1][..], b"z"].concat());
            run
        });
    prop::collection::vec(run, 0..6).prop_map(|runs| runs.concat())
}

fn sorted_strings() -> impl Strategy<Value = Vec<Vec<u8>>> {
    let value = prop_oneof![
        8 => prop::collection::vec(prop_oneof![Just(b'a'), Just(b'b'), any::<u8>()], 0..12),
        1 => prop::collection::vec(any::<u8>(), 0..600),
    ];
    let lens = prop_oneof![0usize..3, 126usize..131, 250usize..260, 0usize..400];
    lens.prop_flat_map(move |n| prop::collection::vec(value.clone(), n))
        .prop_flat_map(|mut v| {
            // Sorted (long shared prefixes) or not.
            let unsorted = v.clone();
            v.sort();
            prop_oneof![Just(v), Just(unsorted)]
        })
}

fn ops() -> impl Strategy<Value = Vec<(bool, usize)>> {
    prop::collection::vec((any::<bool>(), prop_oneof![0usize..10, 0usize..300]), 0..10)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn round_trip_byte_array(values in prop_oneof![sorted_strings(), runs()], ops in ops()) {
        let bytes = encode::<ByteArrayType>(&values, ByteArrayType);
        let all: ByteArrays = values.iter().map(Vec::as_slice).collect();
        let mut dec = DeltaByteArrayDecoder::<ByteArrayType>::new(Bytes::copy_from_slice(&bytes), values.len(), ByteArrayType).unwrap();
        assert_interleaved::<ByteArrayType, _>(&mut dec, &all, &ops);
    }

    #[test]
    fn round_trip_fixed_len(len in 1usize..20, n in 0usize..300, seed in any::<u64>(), ops in ops()) {
        let values: Vec<Vec<u8>> = (0..n as u64)
            .map(|i| (0..len as u64).map(|j| ((seed ^ i.wrapping_mul(0x9E37)) >> (j % 8 * 4)) as u8 % 3).collect())
            .collect();
        let bytes = encode::<FixedLenByteArrayType>(&values, FixedLenByteArrayType::new(len).unwrap());
        let all: ByteArrays = values.iter().map(Vec::as_slice).collect();
        let mut dec = DeltaByteArrayDecoder::new(Bytes::copy_from_slice(&bytes), n, FixedLenByteArrayType::new(len).unwrap()).unwrap();
        assert_interleaved::<FixedLenByteArrayType, _>(&mut dec, &all, &ops);
    }

    #[test]
    fn garbage_never_panics(data in prop::collection::vec(any::<u8>(), 0..200), n in 0usize..300, ops in ops()) {
        if let Ok(mut dec) = DeltaByteArrayDecoder::<FixedLenByteArrayType>::new(Bytes::copy_from_slice(&data), n, FixedLenByteArrayType::new(3).unwrap()) {
            let mut out = ByteArrays::new();
            for (skip, k) in ops {
                let _ = if skip { dec.skip(k) } else { dec.read(&mut out, k) };
            }
        }
    }
}
