//! PLAIN against arrow-rs, all eight physical types, both directions: arrow-rs's bytes decoded
//! by pqcodec and pqcodec's decoded by arrow-rs give the values put, and both write the same
//! bytes.

use bytes::Bytes;
use parquet::basic::Encoding as PqEncoding;
use parquet::data_type::{self as pq, DataType};
use pqcodec_core::{
    BooleanType, ByteArrayType, ByteArrays, Decoder, DoubleType, Encoder, FixedLenByteArrayType,
    FloatType, Int32Type, Int64Type, Int96, Int96Type, NativeType, Physical, ValueBuffer,
};
use pqcodec_encodings::plain::{PlainDecoder, PlainEncoder, PlainType};
use proptest::prelude::*;

use crate::common::{arrow_decode, arrow_encode};

/// A physical type as both libraries see it: how values map across and how to compare them
/// (by bytes, so NaN payloads and -0.0 count).
pub(crate) trait Pair {
    /// arrow-rs's marker.
    type A: DataType;
    /// pqcodec's marker.
    type O: PlainType;
    /// The value as arrow-rs holds it.
    fn to_arrow(v: &<Self::O as Physical>::Value) -> <Self::A as DataType>::T;
    /// pqcodec's value as bytes.
    fn key_ours(v: &<Self::O as Physical>::Value) -> Vec<u8>;
    /// arrow-rs's value as bytes.
    fn key_arrow(v: &<Self::A as DataType>::T) -> Vec<u8>;

    fn keys_ours(values: &<Self::O as Physical>::Buffer) -> Vec<Vec<u8>> {
        values.values().map(Self::key_ours).collect()
    }
    fn keys_arrow(values: &[<Self::A as DataType>::T]) -> Vec<Vec<u8>> {
        values.iter().map(Self::key_arrow).collect()
    }
}

macro_rules! native_pair {
    ($name:ident, $arrow:ty, $ours:ty, $native:ty) => {
        pub(crate) struct $name;
        impl Pair for $name {
            type A = $arrow;
            type O = $ours;
            fn to_arrow(v: &$native) -> $native {
                *v
            }
            fn key_ours(v: &$native) -> Vec<u8> {
                v.to_le_bytes().to_vec()
            }
            fn key_arrow(v: &$native) -> Vec<u8> {
                v.to_le_bytes().to_vec()
            }
        }
    };
}

native_pair!(I32, pq::Int32Type, Int32Type, i32);
native_pair!(I64, pq::Int64Type, Int64Type, i64);
native_pair!(F32, pq::FloatType, FloatType, f32);
native_pair!(F64, pq::DoubleType, DoubleType, f64);

pub(crate) struct Bool;
impl Pair for Bool {
    type A = pq::BoolType;
    type O = BooleanType;
    fn to_arrow(v: &bool) -> bool {
        *v
    }
    fn key_ours(v: &bool) -> Vec<u8> {
        vec![u8::from(*v)]
    }
    fn key_arrow(v: &bool) -> Vec<u8> {
        vec![u8::from(*v)]
    }
}

pub(crate) struct I96;
impl Pair for I96 {
    type A = pq::Int96Type;
    type O = Int96Type;
    fn to_arrow(v: &Int96) -> pq::Int96 {
        let mut out = pq::Int96::new();
        out.set_data(v.0[0], v.0[1], v.0[2]);
        out
    }
    fn key_ours(v: &Int96) -> Vec<u8> {
        NativeType::to_le_bytes(*v).to_vec()
    }
    fn key_arrow(v: &pq::Int96) -> Vec<u8> {
        v.data().iter().flat_map(|w| w.to_le_bytes()).collect()
    }
}

pub(crate) struct Ba;
impl Pair for Ba {
    type A = pq::ByteArrayType;
    type O = ByteArrayType;
    fn to_arrow(v: &[u8]) -> pq::ByteArray {
        pq::ByteArray::from(v.to_vec())
    }
    fn key_ours(v: &[u8]) -> Vec<u8> {
        v.to_vec()
    }
    fn key_arrow(v: &pq::ByteArray) -> Vec<u8> {
        v.data().to_vec()
    }
}

pub(crate) struct Flba;
impl Pair for Flba {
    type A = pq::FixedLenByteArrayType;
    type O = FixedLenByteArrayType;
    fn to_arrow(v: &[u8]) -> pq::FixedLenByteArray {
        pq::FixedLenByteArray::from(pq::ByteArray::from(v.to_vec()))
    }
    fn key_ours(v: &[u8]) -> Vec<u8> {
        v.to_vec()
    }
    fn key_arrow(v: &pq::FixedLenByteArray) -> Vec<u8> {
        v.data().to_vec()
    }
}

/// Both directions of PLAIN for `values`.
fn check<P: Pair>(values: &<P::O as Physical>::Buffer, type_length: usize) {
    let n = values.len();
    let ty = pqcodec_testkit::marker::<P::O>(type_length);
    let theirs: Vec<_> = values.values().map(P::to_arrow).collect();
    let keys = P::keys_ours(values);

    // arrow-rs encodes, pqcodec decodes: whole, in batches, and after a skip.
    let arrow_bytes = arrow_encode::<P::A>(PqEncoding::PLAIN, type_length, &theirs);
    let mut dec = PlainDecoder::<P::O>::new(Bytes::copy_from_slice(&arrow_bytes), n, ty).unwrap();
    let mut got = <P::O as Physical>::Buffer::default();
    dec.read(&mut got, 1).unwrap();
    dec.read(&mut got, 77).unwrap();
    dec.read(&mut got, usize::MAX).unwrap();
    assert_eq!(P::keys_ours(&got), keys);
    let mut dec = PlainDecoder::<P::O>::new(Bytes::copy_from_slice(&arrow_bytes), n, ty).unwrap();
    let skipped = dec.skip(n / 3).unwrap();
    assert_eq!(P::keys_ours(&dec.read_all().unwrap()), keys[skipped..]);

    // pqcodec encodes the same bytes, which arrow-rs decodes.
    let mut enc = PlainEncoder::<P::O>::new(ty);
    enc.put(values.values()).unwrap();
    let ours = enc.flush().unwrap();
    assert_eq!(
        ours, arrow_bytes,
        "pqcodec and arrow-rs write the same page"
    );
    for batch in [1, 64, n] {
        let back = arrow_decode::<P::A>(PqEncoding::PLAIN, type_length, &ours, n, batch);
        assert_eq!(P::keys_arrow(&back), keys);
    }
}

#[test]
fn spec_examples_and_boundaries() {
    for n in [0usize, 1, 7, 8, 9, 31, 32, 33, 127, 128, 129, 1000] {
        let bools: Vec<bool> = (0..n).map(|i| i % 3 != 1).collect();
        check::<Bool>(&bools, 0);
        let ints: Vec<i32> = (0..n as i32)
            .map(|i| i.wrapping_mul(-0x0765_4321))
            .collect();
        check::<I32>(&ints, 0);
        let longs: Vec<i64> = (0..n as i64)
            .map(|i| i.wrapping_mul(i64::MIN + 7))
            .collect();
        check::<I64>(&longs, 0);
        let int96: Vec<Int96> = (0..n as u32).map(|i| Int96([i, !i, i << 5])).collect();
        check::<I96>(&int96, 0);
        let floats: Vec<f32> = (0..n as u32)
            .map(|i| f32::from_bits(i.wrapping_mul(0x9E37_79B9)))
            .collect();
        check::<F32>(&floats, 0);
        let doubles: Vec<f64> = (0..n as u64)
            .map(|i| f64::from_bits(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
            .collect();
        check::<F64>(&doubles, 0);
        let arrays: ByteArrays = (0..n).map(|i| &b"parquet-plain"[..i % 14]).collect();
        check::<Ba>(&arrays, 0);
        let fixed: ByteArrays = (0..n).map(|i| &b"0123456789"[i % 4..i % 4 + 6]).collect();
        check::<Flba>(&fixed, 6);
    }
}

#[test]
fn extremes() {
    check::<I32>(&vec![i32::MIN, i32::MAX, 0, -1], 0);
    check::<I64>(&vec![i64::MIN, i64::MAX, 0, -1], 0);
    check::<F32>(
        &vec![
            -0.0,
            f32::from_bits(0x7FC0_0001),
            f32::from_bits(0xFF80_0001),
        ],
        0,
    );
    check::<F64>(&vec![-0.0, f64::from_bits(0x7FF0_0000_0000_0001)], 0);
    let big = vec![0xC3u8; 65536];
    let arrays: ByteArrays = [&big[..], b"", &big[..3]].into_iter().collect();
    check::<Ba>(&arrays, 0);
    let fixed: ByteArrays = [&big[..], &big[..]].into_iter().collect();
    check::<Flba>(&fixed, 65536);
}

fn byte_arrays() -> impl Strategy<Value = ByteArrays> {
    let value = prop_oneof![
        30 => prop::collection::vec(any::<u8>(), 0..32),
        1 => any::<u8>().prop_map(|b| vec![b; 65536]),
    ];
    prop::collection::vec(value, 0..300)
        .prop_map(|values| values.iter().map(Vec::as_slice).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn booleans(values in prop::collection::vec(any::<bool>(), 0..700)) {
        check::<Bool>(&values, 0);
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
    fn int96(words in prop::collection::vec(any::<[u32; 3]>(), 0..500)) {
        let values: Vec<Int96> = words.into_iter().map(Int96).collect();
        check::<I96>(&values, 0);
    }

    #[test]
    fn float(bits in prop::collection::vec(any::<u32>(), 0..700)) {
        check::<F32>(&bits.into_iter().map(f32::from_bits).collect(), 0);
    }

    #[test]
    fn double(bits in prop::collection::vec(any::<u64>(), 0..700)) {
        check::<F64>(&bits.into_iter().map(f64::from_bits).collect(), 0);
    }

    #[test]
    fn byte_array(values in byte_arrays()) {
        check::<Ba>(&values, 0);
    }

    #[test]
    fn fixed_len_byte_array(
        (width, values) in (1usize..33).prop_flat_map(|w| {
            (Just(w), prop::collection::vec(prop::collection::vec(any::<u8>(), w), 0..300))
        }),
    ) {
        let buffer: ByteArrays = values.iter().map(Vec::as_slice).collect();
        check::<Flba>(&buffer, width);
    }
}
