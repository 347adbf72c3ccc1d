use bytes::Bytes;
use pqcodec_core::{ByteArrayType, ByteArrays, Decoder, Encoder, Encoding, Error, Int32Type};
use proptest::prelude::*;

use super::{DeltaLengthByteArrayDecoder, DeltaLengthByteArrayEncoder};
use crate::delta_binary_packed::DeltaBinaryPackedEncoder;
use crate::delta_binary_packed::tests::assert_interleaved;
use crate::kernels::varint::{write_uleb128, zigzag_encode};

fn encode(values: &[Vec<u8>]) -> Vec<u8> {
    let mut enc = DeltaLengthByteArrayEncoder::new();
    Encoder::<ByteArrayType>::put(&mut enc, values.iter().map(Vec::as_slice)).unwrap();
    assert_eq!(Encoder::<ByteArrayType>::num_values(&enc), values.len());
    let estimate = Encoder::<ByteArrayType>::estimated_size(&enc);
    let bytes = Encoder::<ByteArrayType>::flush(&mut enc).unwrap();
    assert!(estimate >= bytes.len(), "{estimate} < {}", bytes.len());
    assert_eq!(Encoder::<ByteArrayType>::num_values(&enc), 0);
    bytes
}

/// A page with the given raw lengths (any sign) and data.
fn page(lengths: &[i32], data: &[u8]) -> Vec<u8> {
    let mut enc = DeltaBinaryPackedEncoder::<Int32Type>::new();
    enc.put(lengths).unwrap();
    let mut out = enc.flush().unwrap();
    out.extend_from_slice(data);
    out
}

#[test]
fn spec_example() {
    let values: Vec<Vec<u8>> = ["Hello", "World", "Foobar", "ABCDEF"]
        .map(|s| s.as_bytes().to_vec())
        .to_vec();
    let mut bytes = vec![
        0x80, 0x01, 0x04, 0x04, 0x0A, 0x00, 0x01, 0, 0, 0, 0x02, 0, 0, 0,
    ];
    bytes.extend_from_slice(b"HelloWorldFoobarABCDEF");
    assert_eq!(encode(&values), bytes);
    assert_eq!(page(&[5, 5, 6, 6], b"HelloWorldFoobarABCDEF"), bytes);
    let mut dec = DeltaLengthByteArrayDecoder::new(Bytes::copy_from_slice(&bytes), 4).unwrap();
    let got = dec.read_all().unwrap();
    assert_eq!(got.iter().collect::<Vec<_>>(), values);
}

#[test]
fn empty_page_and_edge_values() {
    let bytes = encode(&[]);
    assert_eq!(bytes, [0x80, 0x01, 0x04, 0x00, 0x00]);
    let mut dec = DeltaLengthByteArrayDecoder::new(Bytes::copy_from_slice(&bytes), 0).unwrap();
    assert_eq!(dec.read_all().unwrap(), ByteArrays::new());

    let values = vec![vec![], vec![0xAB; 65536], vec![], vec![1]];
    let bytes = encode(&values);
    let mut dec = DeltaLengthByteArrayDecoder::new(Bytes::copy_from_slice(&bytes), 4).unwrap();
    let got = dec.read_all().unwrap();
    assert_eq!(got.iter().collect::<Vec<_>>(), values);
}

#[test]
fn header_with_more_values_than_asked() {
    let values: Vec<Vec<u8>> = (0..300u32)
        .map(|i| i.to_le_bytes()[..(i % 4) as usize].to_vec())
        .collect();
    let bytes = encode(&values);
    let mut dec = DeltaLengthByteArrayDecoder::new(Bytes::copy_from_slice(&bytes), 200).unwrap();
    assert_eq!(dec.remaining(), 200);
    let got = dec.read_all().unwrap();
    assert_eq!(got.iter().collect::<Vec<_>>(), values[..200]);
}

#[test]
fn count_larger_than_header() {
    let bytes = encode(&[b"a".to_vec()]);
    assert_eq!(
        DeltaLengthByteArrayDecoder::new(Bytes::copy_from_slice(&bytes), 2).unwrap_err(),
        Error::CountTooLarge {
            encoding: Encoding::DeltaLengthByteArray,
            field: "length count",
            count: 2,
            capacity: 1
        }
    );
}

#[test]
fn negative_length() {
    let bytes = page(&[1, -1, 1], b"abc");
    let mut dec = DeltaLengthByteArrayDecoder::new(Bytes::copy_from_slice(&bytes), 3).unwrap();
    assert!(matches!(
        dec.read_all(),
        Err(Error::Invalid {
            encoding: Encoding::DeltaLengthByteArray,
            field: "length",
            ..
        })
    ));
    let mut dec = DeltaLengthByteArrayDecoder::new(Bytes::copy_from_slice(&bytes), 3).unwrap();
    assert!(matches!(
        dec.skip(3),
        Err(Error::Invalid {
            field: "length",
            ..
        })
    ));
}

#[test]
fn lengths_past_the_data() {
    let bytes = page(&[2, 2, i32::MAX], b"abcd");
    let mut dec = DeltaLengthByteArrayDecoder::new(Bytes::copy_from_slice(&bytes), 3).unwrap();
    let mut out = ByteArrays::new();
    assert_eq!(dec.read(&mut out, 2).unwrap(), 2);
    assert!(matches!(
        dec.read(&mut out, 1),
        Err(Error::Truncated {
            field: "byte array data",
            needed: 2147483647,
            available: 0,
            ..
        })
    ));
    // Lengths whose sum overflows usize are truncation too, not a panic.
    let bytes = page(&[i32::MAX; 300], b"abcd");
    let mut dec = DeltaLengthByteArrayDecoder::new(Bytes::copy_from_slice(&bytes), 300).unwrap();
    assert!(matches!(dec.skip(300), Err(Error::Truncated { .. })));
}

#[test]
fn truncated_anywhere() {
    let values: Vec<Vec<u8>> = (0..150u8).map(|i| vec![i; usize::from(i % 7)]).collect();
    let bytes = encode(&values);
    for cut in 0..bytes.len() {
        let r = DeltaLengthByteArrayDecoder::new(Bytes::copy_from_slice(&bytes[..cut]), 150)
            .and_then(|mut d| d.read_all());
        assert!(
            matches!(r, Err(Error::Truncated { .. })),
            "cut {cut}: {r:?}"
        );
    }
}

/// Lengths `first` then `first + min_delta` for every next value, `n` in all, as one block of
/// one zero-width miniblock holding them all.
pub(crate) fn repeated_lengths(n: u64, first: i64) -> Vec<u8> {
    let mut out = Vec::new();
    for v in [n.next_multiple_of(128), 1, n] {
        write_uleb128(&mut out, v);
    }
    write_uleb128(&mut out, zigzag_encode(first));
    out.extend([0, 0]);
    out
}

/// Three billion empty values in a dozen bytes skip at once; equal lengths over them that the
/// data cannot hold fail at once.
#[test]
fn repeated_lengths_skip_at_once() {
    let n = 3usize << 30;
    let page = repeated_lengths(n as u64, 0);
    let mut dec = DeltaLengthByteArrayDecoder::new(Bytes::copy_from_slice(&page), n).unwrap();
    assert_eq!(dec.skip(n - 3).unwrap(), n - 3);
    let mut out = Vec::<Vec<u8>>::new();
    assert_eq!(dec.read(&mut out, 10).unwrap(), 3);
    assert_eq!(out, vec![Vec::<u8>::new(); 3]);

    // Lengths of 2: the first values are unpacked and read, the run after them fails whole.
    let mut page = repeated_lengths(n as u64, 2);
    page.extend([b'x'; 1000]);
    let mut dec = DeltaLengthByteArrayDecoder::new(Bytes::copy_from_slice(&page), n).unwrap();
    assert!(matches!(
        dec.skip(usize::MAX),
        Err(Error::Truncated { needed, available, .. }) if needed > n && available < 1000
    ));
    let mut page = repeated_lengths(n as u64, -1);
    page.extend(b"abcd");
    let mut dec = DeltaLengthByteArrayDecoder::new(Bytes::copy_from_slice(&page), n).unwrap();
    assert!(matches!(dec.skip(n), Err(Error::Invalid { .. })));
}

/// Runs of values of one length, which DELTA_BINARY_PACKED packs at width 0.
fn equal_length_runs() -> impl Strategy<Value = Vec<Vec<u8>>> {
    let run = (0usize..4, 1usize..300, any::<u8>())
        .prop_map(|(len, count, byte)| vec![vec![byte; len]; count]);
    prop::collection::vec(run, 0..6).prop_map(|runs| runs.concat())
}

fn byte_values() -> impl Strategy<Value = Vec<Vec<u8>>> {
    let value = prop_oneof![
        4 => prop::collection::vec(any::<u8>(), 0..12),
        1 => Just(Vec::new()),
        1 => prop::collection::vec(any::<u8>(), 0..600),
    ];
    let lens = prop_oneof![0usize..3, 126usize..131, 0usize..400];
    lens.prop_flat_map(move |n| prop::collection::vec(value.clone(), n))
}

fn ops() -> impl Strategy<Value = Vec<(bool, usize)>> {
    prop::collection::vec((any::<bool>(), prop_oneof![0usize..10, 0usize..300]), 0..10)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn round_trip(values in prop_oneof![byte_values(), equal_length_runs()], ops in ops()) {
        let bytes = encode(&values);
        let all: ByteArrays = values.iter().map(Vec::as_slice).collect();
        let mut dec = DeltaLengthByteArrayDecoder::new(Bytes::copy_from_slice(&bytes), values.len()).unwrap();
        assert_interleaved::<ByteArrayType, _>(&mut dec, &all, &ops);
    }

    #[test]
    fn garbage_never_panics(data in prop::collection::vec(any::<u8>(), 0..200), n in 0usize..300, ops in ops()) {
        if let Ok(mut dec) = DeltaLengthByteArrayDecoder::new(Bytes::copy_from_slice(&data), n) {
            let mut out = Vec::<Vec<u8>>::new();
            for (skip, k) in ops {
                let _ = if skip { dec.skip(k) } else { dec.read(&mut out, k) };
            }
        }
    }
}
