//! One round-trip matrix over every encoding x physical type: encode a page, then decode it
//! with reads of random sizes (into the buffer, or into a slice with `Decoder::read_into`) and
//! skips interleaved, and compare with the values that were not skipped. Values are compared by
//! their PLAIN bytes, so NaN payloads and -0.0 count.

use bytes::Bytes;
use std::sync::Arc;

use pqcodec::core::{
    BooleanType, ByteArrayType, ByteArrays, ColumnType, Decoder, DoubleType, Encoder, Encoding,
    Error, FixedLenByteArrayType, FloatType, Int32Type, Int64Type, Int96, Int96Type, NativeType,
    PhysicalType, ValueBuffer,
};
use pqcodec::encodings::dynamic::{self, DynamicType, Values};
use proptest::prelude::*;

/// A test's view of a physical type: its encodings, a value strategy, and value bytes.
trait Case: DynamicType {
    const ENCODINGS: &'static [Encoding];
    /// The marker of the column written (FIXED_LEN_BYTE_ARRAY: [`FLBA_LENGTH`] wide).
    fn ty() -> Self;
    fn value() -> BoxedStrategy<Vec<u8>>;
    fn buffer(raw: &[Vec<u8>]) -> Self::Buffer;
    fn bytes(buffer: &Self::Buffer) -> Vec<Vec<u8>>;
    /// Reads up to `n` values through a slice of `n` ([`Decoder::read_into`]) and appends
    /// them to `out`; types of unsized values read straight into `out`.
    fn read_via_slice(
        decoder: &mut Self::Decoder,
        out: &mut Self::Buffer,
        n: usize,
    ) -> pqcodec::core::Result<usize> {
        decoder.read(out, n)
    }
}

/// [`Case::read_via_slice`] of sized values.
fn read_via_slice<T: DynamicType<Buffer = Vec<V>, Value = V>, V: Copy + Default>(
    decoder: &mut T::Decoder,
    out: &mut Vec<V>,
    n: usize,
) -> pqcodec::core::Result<usize> {
    // Slots holding the default value, which the read overwrites.
    let mut slots = vec![V::default(); n];
    let read = decoder.read_into(&mut slots)?;
    out.extend_from_slice(&slots[..read]);
    Ok(read)
}

const DICT: [Encoding; 2] = [Encoding::PlainDictionary, Encoding::RleDictionary];

fn fixed_bytes<N: NativeType>(b: &[N]) -> Vec<Vec<u8>> {
    b.iter()
        .map(|v| v.to_le_bytes().as_ref().to_vec())
        .collect()
}

fn fixed_buffer<N: NativeType>(raw: &[Vec<u8>]) -> Vec<N> {
    raw.iter().map(|b| N::from_le_slice(b)).collect()
}

fn int_value(min: Vec<u8>, max: Vec<u8>, size: usize) -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        4 => prop::collection::vec(any::<u8>(), size),
        2 => (0u8..4).prop_map(move |v| { let mut b = vec![0; size]; b[0] = v; b }),
        1 => Just(min),
        1 => Just(max),
        1 => Just(vec![0xFF; size]),
    ]
    .boxed()
}

fn float_value(size: usize, specials: Vec<Vec<u8>>) -> BoxedStrategy<Vec<u8>> {
    prop_oneof![4 => prop::collection::vec(any::<u8>(), size), 1 => prop::sample::select(specials)]
        .boxed()
}

impl Case for BooleanType {
    const ENCODINGS: &'static [Encoding] = &[Encoding::Plain, Encoding::Rle, DICT[0], DICT[1]];
    fn ty() -> Self {
        BooleanType
    }
    fn value() -> BoxedStrategy<Vec<u8>> {
        prop_oneof![3 => Just(vec![1u8]), 1 => Just(vec![0u8])].boxed()
    }
    fn buffer(raw: &[Vec<u8>]) -> Vec<bool> {
        raw.iter().map(|b| b[0] == 1).collect()
    }
    fn bytes(b: &Vec<bool>) -> Vec<Vec<u8>> {
        b.iter().map(|&v| vec![u8::from(v)]).collect()
    }
    fn read_via_slice(
        decoder: &mut Self::Decoder,
        out: &mut Vec<bool>,
        n: usize,
    ) -> pqcodec::core::Result<usize> {
        read_via_slice::<Self, bool>(decoder, out, n)
    }
}

macro_rules! fixed_case {
    ($t:ty, $n:ty, $encodings:expr, $value:expr) => {
        impl Case for $t {
            const ENCODINGS: &'static [Encoding] = $encodings;
            fn ty() -> Self {
                <$t>::default()
            }
            fn value() -> BoxedStrategy<Vec<u8>> {
                $value
            }
            fn buffer(raw: &[Vec<u8>]) -> Vec<$n> {
                fixed_buffer(raw)
            }
            fn bytes(b: &Vec<$n>) -> Vec<Vec<u8>> {
                fixed_bytes(b)
            }
            fn read_via_slice(
                decoder: &mut Self::Decoder,
                out: &mut Vec<$n>,
                n: usize,
            ) -> pqcodec::core::Result<usize> {
                read_via_slice::<Self, $n>(decoder, out, n)
            }
        }
    };
}

const INTEGER: &[Encoding] = &[
    Encoding::Plain,
    Encoding::GroupVarInt,
    DICT[0],
    DICT[1],
    Encoding::DeltaBinaryPacked,
    Encoding::ByteStreamSplit,
];
const FLOATING: &[Encoding] = &[
    Encoding::Plain,
    DICT[0],
    DICT[1],
    Encoding::ByteStreamSplit,
    Encoding::Alp,
];

fixed_case!(
    Int32Type,
    i32,
    INTEGER,
    int_value(
        i32::MIN.to_le_bytes().to_vec(),
        i32::MAX.to_le_bytes().to_vec(),
        4
    )
);
fixed_case!(
    Int64Type,
    i64,
    INTEGER,
    int_value(
        i64::MIN.to_le_bytes().to_vec(),
        i64::MAX.to_le_bytes().to_vec(),
        8
    )
);
fixed_case!(
    Int96Type,
    Int96,
    &[Encoding::Plain, DICT[0], DICT[1]],
    int_value(vec![0; 12], vec![0xFF; 12], 12)
);
fixed_case!(
    FloatType,
    f32,
    FLOATING,
    float_value(
        4,
        vec![
            (-0.0f32).to_le_bytes().to_vec(),
            f32::NAN.to_le_bytes().to_vec(),
            0x7FC0_1234u32.to_le_bytes().to_vec(),
            0xFF80_0001u32.to_le_bytes().to_vec(),
            f32::INFINITY.to_le_bytes().to_vec(),
        ]
    )
);
fixed_case!(
    DoubleType,
    f64,
    FLOATING,
    float_value(
        8,
        vec![
            (-0.0f64).to_le_bytes().to_vec(),
            f64::NAN.to_le_bytes().to_vec(),
            0x7FF8_0000_DEAD_BEEFu64.to_le_bytes().to_vec(),
            f64::NEG_INFINITY.to_le_bytes().to_vec(),
        ]
    )
);

/// Byte strings over a small alphabet, so that neighbours share prefixes.
fn byte_string(len: std::ops::Range<usize>) -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        3 => prop::collection::vec(prop::sample::select(b"ab".to_vec()), len.clone()),
        1 => prop::collection::vec(any::<u8>(), len),
    ]
    .boxed()
}

impl Case for ByteArrayType {
    fn ty() -> Self {
        ByteArrayType
    }
    const ENCODINGS: &'static [Encoding] = &[
        Encoding::Plain,
        DICT[0],
        DICT[1],
        Encoding::DeltaLengthByteArray,
        Encoding::DeltaByteArray,
    ];
    fn value() -> BoxedStrategy<Vec<u8>> {
        byte_string(0..12)
    }
    fn buffer(raw: &[Vec<u8>]) -> ByteArrays {
        raw.iter().map(Vec::as_slice).collect()
    }
    fn bytes(b: &ByteArrays) -> Vec<Vec<u8>> {
        b.iter().map(<[u8]>::to_vec).collect()
    }
}

/// FIXED_LEN_BYTE_ARRAY values are made 5 bytes long.
const FLBA_LENGTH: usize = 5;

impl Case for FixedLenByteArrayType {
    fn ty() -> Self {
        FixedLenByteArrayType::new(FLBA_LENGTH).unwrap()
    }
    const ENCODINGS: &'static [Encoding] = &[
        Encoding::Plain,
        DICT[0],
        DICT[1],
        Encoding::DeltaByteArray,
        Encoding::ByteStreamSplit,
    ];
    fn value() -> BoxedStrategy<Vec<u8>> {
        byte_string(FLBA_LENGTH..FLBA_LENGTH + 1)
    }
    fn buffer(raw: &[Vec<u8>]) -> ByteArrays {
        raw.iter().map(Vec::as_slice).collect()
    }
    fn bytes(b: &ByteArrays) -> Vec<Vec<u8>> {
        b.iter().map(<[u8]>::to_vec).collect()
    }
}

/// What an op does with up to `n` values.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Act {
    Read,
    ReadIntoSlice,
    Skip,
}

type Op = (Act, usize);

fn ops() -> impl Strategy<Value = Vec<Op>> {
    let act = prop::sample::select(vec![Act::Read, Act::ReadIntoSlice, Act::Skip]);
    prop::collection::vec((act, prop_oneof![1usize..10, 1usize..200]), 1..12)
}

/// Encodes `raw`, decodes with `ops` then reads the rest, and compares.
fn round_trip<T: Case>(
    encoding: Encoding,
    raw: &[Vec<u8>],
    ops: &[Op],
) -> Result<(), TestCaseError> {
    let ty = T::ty();
    let values = T::buffer(raw);
    let mut encoder = T::encoder(encoding, ty).map_err(|e| TestCaseError::fail(e.to_string()))?;
    encoder
        .put(values.values())
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(encoder.num_values(), raw.len());
    let page = encoder
        .flush()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let dictionary = match T::dictionary_page(&encoder) {
        Some(bytes) => {
            let bytes = bytes.map_err(|e| TestCaseError::fail(e.to_string()))?;
            let count = dynamic::plain_value_count(ty.column_type(), &bytes).unwrap();
            Some(Arc::new(
                pqcodec::encodings::plain::decode_plain_page(&bytes, count, ty).unwrap(),
            ))
        }
        None => None,
    };

    let mut decoder = T::decoder(encoding, page.into(), raw.len(), ty, dictionary)
        .map_err(|e| TestCaseError::fail(format!("{encoding}: {e}")))?;
    let mut expected = Vec::new();
    let mut out = T::Buffer::default();
    let mut at = 0;
    for &(act, n) in ops {
        let want = n.min(raw.len() - at);
        if act != Act::Skip {
            expected.extend_from_slice(&raw[at..at + want]);
        }
        let got = match act {
            Act::Read => decoder.read(&mut out, n),
            Act::ReadIntoSlice => T::read_via_slice(&mut decoder, &mut out, n),
            Act::Skip => decoder.skip(n),
        }
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(got, want, "{:?} {} of {} at {}", act, n, raw.len(), at);
        at += want;
        prop_assert_eq!(decoder.remaining(), raw.len() - at);
    }
    expected.extend_from_slice(&raw[at..]);
    let rest = decoder
        .read(&mut out, usize::MAX)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(rest, raw.len() - at);
    prop_assert_eq!(decoder.remaining(), 0);
    prop_assert_eq!(
        decoder
            .read(&mut out, 10)
            .map_err(|e| TestCaseError::fail(e.to_string()))?,
        0
    );
    prop_assert_eq!(T::bytes(&out), expected, "{} {}", encoding, T::TYPE);
    Ok(())
}

/// Runs every encoding of `T` over random values and ops.
fn matrix<T: Case>() {
    let lengths = prop_oneof![
        0usize..40,
        prop::sample::select(vec![127, 128, 129, 255, 256, 257, 513]),
        0usize..1100
    ];
    let strategy = (
        lengths.prop_flat_map(|n| prop::collection::vec(T::value(), n)),
        ops(),
        any::<bool>(),
    );
    proptest!(ProptestConfig::with_cases(48), |((raw, ops, repeat) in strategy)| {
        // Half the cases repeat values in runs, as dictionary and RLE pages do.
        let raw: Vec<Vec<u8>> = if repeat {
            raw.iter().enumerate().map(|(i, _)| raw[i / 9 * 9].clone()).collect()
        } else {
            raw
        };
        for &encoding in T::ENCODINGS {
            round_trip::<T>(encoding, &raw, &ops)?;
        }
    });
}

#[test]
fn boolean() {
    matrix::<BooleanType>();
}
#[test]
fn int32() {
    matrix::<Int32Type>();
}
#[test]
fn int64() {
    matrix::<Int64Type>();
}
#[test]
fn int96() {
    matrix::<Int96Type>();
}
#[test]
fn float() {
    matrix::<FloatType>();
}
#[test]
fn double() {
    matrix::<DoubleType>();
}
#[test]
fn byte_array() {
    matrix::<ByteArrayType>();
}
#[test]
fn fixed_len_byte_array() {
    matrix::<FixedLenByteArrayType>();
}

#[test]
fn boundary_lengths_and_extremes() {
    for n in [0usize, 1, 7, 8, 9, 31, 32, 33, 127, 128, 129, 4097] {
        let raw: Vec<Vec<u8>> = (0..n)
            .map(|i| match i % 3 {
                0 => i32::MIN.to_le_bytes().to_vec(),
                1 => i32::MAX.to_le_bytes().to_vec(),
                _ => (i as i32).to_le_bytes().to_vec(),
            })
            .collect();
        for &encoding in <Int32Type as Case>::ENCODINGS {
            round_trip::<Int32Type>(encoding, &raw, &[(Act::Read, 3), (Act::Skip, 30)]).unwrap();
        }
        let raw: Vec<Vec<u8>> = (0..n)
            .map(|i| {
                if i % 2 == 0 { i64::MIN } else { i64::MAX }
                    .to_le_bytes()
                    .to_vec()
            })
            .collect();
        for &encoding in <Int64Type as Case>::ENCODINGS {
            round_trip::<Int64Type>(encoding, &raw, &[(Act::Skip, 9), (Act::Read, 100)]).unwrap();
        }
    }
}

#[test]
fn empty_and_64_kib_byte_arrays() {
    let big: Vec<u8> = (0..64 * 1024).map(|i| (i * 7 % 251) as u8).collect();
    let mut other = big.clone();
    other[40_000] ^= 1;
    let raw = vec![vec![], big.clone(), vec![], other, big];
    for &encoding in <ByteArrayType as Case>::ENCODINGS {
        round_trip::<ByteArrayType>(encoding, &raw, &[(Act::Read, 2), (Act::Skip, 1)]).unwrap();
    }
}

#[test]
fn encodings_that_do_not_apply_are_refused() {
    let unsupported = [
        (Encoding::DeltaBinaryPacked, PhysicalType::Double),
        (Encoding::ByteStreamSplit, PhysicalType::ByteArray),
        (
            Encoding::DeltaLengthByteArray,
            PhysicalType::FixedLenByteArray,
        ),
        (Encoding::GroupVarInt, PhysicalType::Float),
        (Encoding::Rle, PhysicalType::Int64),
        (Encoding::BitPacked, PhysicalType::Int32),
        (Encoding::DeltaByteArray, PhysicalType::Int96),
        (Encoding::Alp, PhysicalType::Int64),
        (Encoding::Alp, PhysicalType::FixedLenByteArray),
    ];
    for (encoding, physical) in unsupported {
        let column_type = ColumnType::new(physical, 4).unwrap();
        let err = dynamic::decode(encoding, column_type, Bytes::new(), 0, None).unwrap_err();
        assert!(
            matches!(err, Error::Unsupported { .. }),
            "{encoding} {physical}: {err}"
        );
    }
    let err = dynamic::encode(
        Encoding::DeltaBinaryPacked,
        &Values::Float(vec![1.0]),
        ColumnType::Float,
    )
    .unwrap_err();
    assert!(matches!(err, Error::Unsupported { .. }));
}
