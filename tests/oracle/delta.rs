//! DELTA_BINARY_PACKED (INT32, INT64), DELTA_LENGTH_BYTE_ARRAY (BYTE_ARRAY) and
//! DELTA_BYTE_ARRAY (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY) against arrow-rs, both directions:
//! arrow-rs's bytes decoded by pqcodec (whole, in batches, after skips) and pqcodec's decoded by
//! arrow-rs give the values put; with the same block layout both write the same bytes.

use bytes::Bytes;
use parquet::basic::Encoding as PqEncoding;
use parquet::data_type as pq;
use pqcodec_core::{
    ByteArrayType, ByteArrays, Decoder, Encoder, Error, FixedLenByteArrayType, Int32Type, Int64Type,
};
use pqcodec_encodings::delta_binary_packed::{DeltaBinaryPackedDecoder, DeltaBinaryPackedEncoder};
use pqcodec_encodings::delta_byte_array::{DeltaByteArrayDecoder, DeltaByteArrayEncoder};
use pqcodec_encodings::delta_length_byte_array::{
    DeltaLengthByteArrayDecoder, DeltaLengthByteArrayEncoder,
};
use proptest::prelude::*;

use crate::common::{arrow_decode, arrow_encode};

/// Decodes `bytes` with `new` three ways (at once, in batches of `batch`, after skipping a
/// third) and checks each against `expected`.
fn check_ours<T, D, E>(
    new: impl Fn() -> D,
    expected: &[E],
    batch: usize,
    key: impl Fn(&T::Value) -> E,
) where
    T: pqcodec_core::Physical,
    D: Decoder<T>,
    E: PartialEq + std::fmt::Debug,
{
    use pqcodec_core::ValueBuffer;
    let keys = |b: &T::Buffer| b.values().map(&key).collect::<Vec<_>>();
    let n = expected.len();
    assert_eq!(keys(&new().read_all().unwrap()), expected);

    let mut dec = new();
    let mut out = T::Buffer::default();
    while dec.remaining() > 0 {
        assert!(dec.read(&mut out, batch.max(1)).unwrap() > 0);
    }
    assert_eq!(keys(&out), expected);

    let mut dec = new();
    let skipped = dec.skip(n / 3).unwrap();
    assert_eq!(skipped, n / 3);
    assert_eq!(keys(&dec.read_all().unwrap()), &expected[skipped..]);
}

fn check_i32(values: &[i32], batch: usize) {
    // arrow-rs -> pqcodec; arrow-rs's INT32 layout (128 values, 4 miniblocks) is our default.
    let theirs = arrow_encode::<pq::Int32Type>(PqEncoding::DELTA_BINARY_PACKED, 0, values);
    check_ours::<Int32Type, _, _>(
        || {
            DeltaBinaryPackedDecoder::<Int32Type>::new(
                Bytes::copy_from_slice(&theirs),
                values.len(),
            )
            .unwrap()
        },
        values,
        batch,
        |v| *v,
    );
    assert_eq!(
        DeltaBinaryPackedDecoder::<Int32Type>::from_header(Bytes::copy_from_slice(&theirs))
            .unwrap()
            .end_offset()
            .unwrap(),
        theirs.len()
    );
    // pqcodec -> arrow-rs.
    let mut enc = DeltaBinaryPackedEncoder::<Int32Type>::new();
    enc.put(values).unwrap();
    let ours = enc.flush().unwrap();
    let back = arrow_decode::<pq::Int32Type>(
        PqEncoding::DELTA_BINARY_PACKED,
        0,
        &ours,
        values.len(),
        batch,
    );
    assert_eq!(back, values);
    assert_eq!(ours, theirs, "same layout, same bytes");
    // Deltas of INT32 are taken in 32 bits by both: no bit width over 32 in arrow-rs's pages.
    assert!(
        DeltaBinaryPackedDecoder::<Int32Type>::from_header(Bytes::copy_from_slice(&theirs))
            .unwrap()
            .read_all()
            .is_ok()
    );
}

fn check_i64(values: &[i64], batch: usize) {
    let theirs = arrow_encode::<pq::Int64Type>(PqEncoding::DELTA_BINARY_PACKED, 0, values);
    check_ours::<Int64Type, _, _>(
        || {
            DeltaBinaryPackedDecoder::<Int64Type>::new(
                Bytes::copy_from_slice(&theirs),
                values.len(),
            )
            .unwrap()
        },
        values,
        batch,
        |v| *v,
    );
    for layout in [(128, 4), (256, 4), (512, 2)] {
        let mut enc =
            DeltaBinaryPackedEncoder::<Int64Type>::with_block_size(layout.0, layout.1).unwrap();
        enc.put(values).unwrap();
        let ours = enc.flush().unwrap();
        let back = arrow_decode::<pq::Int64Type>(
            PqEncoding::DELTA_BINARY_PACKED,
            0,
            &ours,
            values.len(),
            batch,
        );
        assert_eq!(back, values, "layout {layout:?}");
        // arrow-rs writes INT64 in blocks of 256 values in 4 miniblocks.
        if layout == (256, 4) {
            assert_eq!(ours, theirs, "same layout, same bytes");
        }
    }
}

fn check_dlba(values: &[Vec<u8>], batch: usize) {
    let arrow: Vec<pq::ByteArray> = values
        .iter()
        .map(|v| pq::ByteArray::from(v.clone()))
        .collect();
    let theirs = arrow_encode::<pq::ByteArrayType>(PqEncoding::DELTA_LENGTH_BYTE_ARRAY, 0, &arrow);
    check_ours::<ByteArrayType, _, _>(
        || DeltaLengthByteArrayDecoder::new(Bytes::copy_from_slice(&theirs), values.len()).unwrap(),
        values,
        batch,
        <[u8]>::to_vec,
    );
    let mut enc = DeltaLengthByteArrayEncoder::new();
    Encoder::<ByteArrayType>::put(&mut enc, values.iter().map(Vec::as_slice)).unwrap();
    let ours = Encoder::<ByteArrayType>::flush(&mut enc).unwrap();
    let back = arrow_decode::<pq::ByteArrayType>(
        PqEncoding::DELTA_LENGTH_BYTE_ARRAY,
        0,
        &ours,
        values.len(),
        batch,
    );
    assert_eq!(back, arrow);
    assert_eq!(ours, theirs, "same bytes");
}

fn check_dba_byte_array(values: &[Vec<u8>], batch: usize) {
    let arrow: Vec<pq::ByteArray> = values
        .iter()
        .map(|v| pq::ByteArray::from(v.clone()))
        .collect();
    let theirs = arrow_encode::<pq::ByteArrayType>(PqEncoding::DELTA_BYTE_ARRAY, 0, &arrow);
    check_ours::<ByteArrayType, _, _>(
        || {
            DeltaByteArrayDecoder::new(Bytes::copy_from_slice(&theirs), values.len(), ByteArrayType)
                .unwrap()
        },
        values,
        batch,
        <[u8]>::to_vec,
    );
    let mut enc = DeltaByteArrayEncoder::<ByteArrayType>::new(ByteArrayType);
    enc.put(values.iter().map(Vec::as_slice)).unwrap();
    let ours = enc.flush().unwrap();
    let back = arrow_decode::<pq::ByteArrayType>(
        PqEncoding::DELTA_BYTE_ARRAY,
        0,
        &ours,
        values.len(),
        batch,
    );
    assert_eq!(back, arrow);
    assert_eq!(ours, theirs, "same bytes");
}

fn check_dba_fixed(values: &[Vec<u8>], type_length: usize, batch: usize) {
    let arrow: Vec<pq::FixedLenByteArray> = values
        .iter()
        .map(|v| pq::FixedLenByteArray::from(v.clone()))
        .collect();
    let theirs = arrow_encode::<pq::FixedLenByteArrayType>(
        PqEncoding::DELTA_BYTE_ARRAY,
        type_length,
        &arrow,
    );
    check_ours::<FixedLenByteArrayType, _, _>(
        || {
            DeltaByteArrayDecoder::new(
                Bytes::copy_from_slice(&theirs),
                values.len(),
                FixedLenByteArrayType::new(type_length).unwrap(),
            )
            .unwrap()
        },
        values,
        batch,
        <[u8]>::to_vec,
    );
    let mut enc = DeltaByteArrayEncoder::new(FixedLenByteArrayType::new(type_length).unwrap());
    enc.put(values.iter().map(Vec::as_slice)).unwrap();
    let ours = enc.flush().unwrap();
    let back = arrow_decode::<pq::FixedLenByteArrayType>(
        PqEncoding::DELTA_BYTE_ARRAY,
        type_length,
        &ours,
        values.len(),
        batch,
    );
    assert_eq!(back, arrow);
    assert_eq!(ours, theirs, "same bytes");
}

#[test]
fn delta_spec_examples() {
    check_i32(&[1, 2, 3, 4, 5], 2);
    check_i64(&[7, 5, 3, 1, 2, 3, 4, 5], 3);
    let strings = |s: &[&str]| s.iter().map(|s| s.as_bytes().to_vec()).collect::<Vec<_>>();
    check_dlba(&strings(&["Hello", "World", "Foobar", "ABCDEF"]), 1);
    check_dba_byte_array(&strings(&["axis", "axle", "babble", "babyhood"]), 3);
    check_dba_fixed(&strings(&["axis", "axle", "babe", "baby"]), 4, 3);
}

#[test]
fn delta_boundaries_and_extremes() {
    for n in [1, 2, 8, 9, 32, 33, 128, 129, 130, 256, 257, 1000] {
        let walk: Vec<i32> = (0..n).map(|i| (i * 7919) % 1013 - 500).collect();
        check_i32(&walk, 100);
        let walk: Vec<i64> = walk.iter().map(|&v| i64::from(v) << 20).collect();
        check_i64(&walk, 100);
    }
    // Neighbours of MIN and MAX: deltas that overflow the type wrap.
    let i32s = [
        i32::MAX,
        i32::MIN,
        i32::MAX - 1,
        i32::MIN + 1,
        0,
        i32::MAX,
        -1,
        i32::MIN,
        1,
    ];
    check_i32(&i32s, 4);
    check_i32(&[i32::MIN; 200], 7);
    let i64s = [
        i64::MAX,
        i64::MIN,
        i64::MAX - 1,
        i64::MIN + 1,
        0,
        i64::MAX,
        -1,
        i64::MIN,
        1,
    ];
    check_i64(&i64s, 4);
    check_i64(&[i64::MAX; 300], 64);

    let values = vec![
        vec![],
        vec![0x5A; 65536],
        vec![],
        vec![0x5A; 100],
        vec![0x5B; 1],
    ];
    check_dlba(&values, 2);
    check_dba_byte_array(&values, 2);
    // A zero type length is no FIXED_LEN_BYTE_ARRAY column: arrow-rs writes such a page,
    // pqcodec has no marker, hence no decoder, for it.
    let theirs = arrow_encode::<pq::FixedLenByteArrayType>(
        PqEncoding::DELTA_BYTE_ARRAY,
        0,
        &[
            pq::FixedLenByteArray::from(vec![]),
            pq::FixedLenByteArray::from(vec![]),
        ],
    );
    assert!(!theirs.is_empty());
    assert!(matches!(
        FixedLenByteArrayType::new(0),
        Err(Error::TypeLength { type_length: 0 })
    ));
}

fn i32s() -> impl Strategy<Value = Vec<i32>> {
    let one = prop_oneof![
        any::<i32>(),
        -3..3,
        i32::MIN..i32::MIN + 3,
        i32::MAX - 3..=i32::MAX
    ];
    prop_oneof![
        prop::collection::vec(one, 1..700),
        prop::collection::vec(-100i32..100, 1..700).prop_map(|d| d
            .iter()
            .scan(0i32, |acc, d| {
                *acc = acc.wrapping_add(*d);
                Some(*acc)
            })
            .collect()),
    ]
}

fn i64s() -> impl Strategy<Value = Vec<i64>> {
    let one = prop_oneof![
        any::<i64>(),
        -3i64..3,
        i64::MIN..i64::MIN + 3,
        i64::MAX - 3..=i64::MAX
    ];
    prop_oneof![
        prop::collection::vec(one, 1..700),
        prop::collection::vec(-100_000i64..100_000, 1..700).prop_map(|d| d
            .iter()
            .scan(1i64 << 40, |acc, d| {
                *acc = acc.wrapping_add(*d);
                Some(*acc)
            })
            .collect()),
    ]
}

fn byte_arrays() -> impl Strategy<Value = Vec<Vec<u8>>> {
    let value = prop_oneof![
        6 => prop::collection::vec(prop_oneof![Just(b'a'), Just(b'b'), any::<u8>()], 0..10),
        1 => prop::collection::vec(any::<u8>(), 0..500),
    ];
    prop::collection::vec(value, 1..400).prop_flat_map(|v| {
        let mut sorted = v.clone();
        sorted.sort();
        prop_oneof![Just(v), Just(sorted)]
    })
}

fn fixed(len: usize) -> impl Strategy<Value = Vec<Vec<u8>>> {
    prop::collection::vec(prop::collection::vec(0u8..3, len), 1..400).prop_map(|mut v| {
        v.sort();
        v
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn delta_binary_packed_int32(values in i32s(), batch in 1usize..300) {
        check_i32(&values, batch);
    }

    #[test]
    fn delta_binary_packed_int64(values in i64s(), batch in 1usize..300) {
        check_i64(&values, batch);
    }

    #[test]
    fn delta_length_byte_array(values in byte_arrays(), batch in 1usize..300) {
        check_dlba(&values, batch);
    }

    #[test]
    fn delta_byte_array_byte_array(values in byte_arrays(), batch in 1usize..300) {
        check_dba_byte_array(&values, batch);
    }

    #[test]
    fn delta_byte_array_fixed_len(
        (len, values) in (1usize..20).prop_flat_map(|len| (Just(len), fixed(len))),
        batch in 1usize..300,
    ) {
        check_dba_fixed(&values, len, batch);
    }
}

#[test]
fn delta_empty_pages() {
    // arrow-rs writes a header with count 0 (and first value 0), as pqcodec does.
    let theirs = arrow_encode::<pq::Int32Type>(PqEncoding::DELTA_BINARY_PACKED, 0, &[]);
    let mut enc = DeltaBinaryPackedEncoder::<Int32Type>::new();
    assert_eq!(enc.flush().unwrap(), theirs);
    assert!(
        DeltaBinaryPackedDecoder::<Int32Type>::new(Bytes::copy_from_slice(&theirs), 0)
            .unwrap()
            .read_all()
            .unwrap()
            .is_empty()
    );
    let theirs = arrow_encode::<pq::ByteArrayType>(PqEncoding::DELTA_BYTE_ARRAY, 0, &[]);
    let mut enc = DeltaByteArrayEncoder::<ByteArrayType>::new(ByteArrayType);
    assert_eq!(enc.flush().unwrap(), theirs);
    assert_eq!(
        DeltaByteArrayDecoder::<ByteArrayType>::new(
            Bytes::copy_from_slice(&theirs),
            0,
            ByteArrayType
        )
        .unwrap()
        .read_all()
        .unwrap(),
        ByteArrays::new()
    );
}
