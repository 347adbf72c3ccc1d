//! Dictionary encoding against arrow-rs, for the seven non-boolean types: arrow-rs's
//! `DictEncoder` pages decoded by pqcodec, and pqcodec's dictionary and data pages decoded by
//! arrow-rs's `PlainDecoder` + `DictDecoder`.

use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::Type as ParquetType;
use parquet::data_type::{self as pt, DataType};
use parquet::encodings::decoding::{
    Decoder as ArrowDecoder, DictDecoder, PlainDecoder as ArrowPlainDecoder,
};
use parquet::encodings::encoding::{DictEncoder, Encoder as ArrowEncoder};
use pqcodec_core::{
    ByteArrayType, ByteArrays, Decoder, DoubleType, Encoder, FixedLenByteArrayType, FloatType,
    Int32Type, Int64Type, Int96, Int96Type, ValueBuffer,
};
use pqcodec_encodings::dictionary::{
    DictionaryDecoder, DictionaryEncoder, DictionaryLimits, DictionaryValue,
};
use pqcodec_encodings::plain::{PlainEncoder, PlainType, decode_plain_page};
use proptest::prelude::*;

use crate::common::descr;

/// PLAIN bytes: how values are compared (floats by their bits).
fn plain<T: PlainType>(values: &T::Buffer, type_length: usize) -> Vec<u8> {
    let mut e = PlainEncoder::new(pqcodec_testkit::marker::<T>(type_length));
    e.put(values.values()).unwrap();
    e.flush().unwrap()
}

/// Both directions for one batch of values, given as pqcodec's buffer and arrow-rs's values.
fn check<T: DictionaryValue, A: DataType>(
    ours: &T::Buffer,
    arrow: &[A::T],
    physical: ParquetType,
    type_length: usize,
    from_arrow: impl Fn(&[A::T]) -> T::Buffer,
) -> Result<(), TestCaseError> {
    let n = ours.len();
    let ty = pqcodec_testkit::marker::<T>(type_length);
    let column = descr(physical, type_length as i32);
    let expected = plain::<T>(ours, type_length);

    // arrow-rs encodes, pqcodec decodes.
    let mut e = DictEncoder::<A>::new(column.clone());
    e.put(arrow).unwrap();
    let dict_page = e.write_dict().unwrap();
    let entries = e.num_entries();
    let data_page = e.write_indices().unwrap();
    let dict = decode_plain_page(&dict_page, entries, ty).unwrap();
    let got = DictionaryDecoder::<T>::new(
        Bytes::copy_from_slice(&data_page),
        n,
        Arc::new(dict.clone()),
    )
    .unwrap()
    .read_all()
    .unwrap();
    prop_assert_eq!(plain::<T>(&got, type_length), expected.clone());

    // pqcodec encodes, arrow-rs decodes.
    let mut e = DictionaryEncoder::<T>::new(ty, DictionaryLimits::default());
    e.put(ours.values()).unwrap();
    prop_assert!(!e.has_fallen_back());
    let data_page = e.flush().unwrap();
    let dict_page = e.dictionary_page().unwrap();
    // Same distinct values, in the same first-seen order, as arrow-rs.
    prop_assert_eq!(e.dictionary_len(), entries);
    let mut dict = ArrowPlainDecoder::<A>::new(type_length as i32);
    dict.set_data(Bytes::from(dict_page), e.dictionary_len())
        .unwrap();
    let mut d = DictDecoder::<A>::new();
    d.set_dict(Box::new(dict)).unwrap();
    d.set_data(Bytes::from(data_page), n).unwrap();
    let mut out = vec![A::T::default(); n];
    prop_assert_eq!(d.get(&mut out).unwrap(), n);
    prop_assert_eq!(plain::<T>(&from_arrow(&out), type_length), expected);
    Ok(())
}

/// `len` values drawn from a pool of distinct-ish values.
fn pooled<V: std::fmt::Debug + Clone + 'static>(
    value: impl Strategy<Value = V> + Clone,
) -> impl Strategy<Value = Vec<V>> {
    (
        prop::collection::vec(value, 1..60),
        prop_oneof![0usize..10, 0usize..800],
    )
        .prop_flat_map(|(pool, len)| prop::collection::vec(prop::sample::select(pool), len))
}

fn byte_arrays(values: &[Vec<u8>]) -> ByteArrays {
    values.iter().map(|v| &v[..]).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn int32(values in pooled(prop_oneof![any::<i32>(), Just(i32::MIN), Just(i32::MAX)])) {
        check::<Int32Type, pt::Int32Type>(&values, &values, ParquetType::INT32, 0, |v| v.to_vec())?;
    }

    #[test]
    fn int64(values in pooled(prop_oneof![any::<i64>(), Just(i64::MIN), Just(i64::MAX)])) {
        check::<Int64Type, pt::Int64Type>(&values, &values, ParquetType::INT64, 0, |v| v.to_vec())?;
    }

    #[test]
    fn int96(values in pooled(any::<[u32; 3]>())) {
        let ours: Vec<Int96> = values.iter().copied().map(Int96).collect();
        let arrow: Vec<pt::Int96> = values.iter().map(|v| pt::Int96::from(v.to_vec())).collect();
        check::<Int96Type, pt::Int96Type>(&ours, &arrow, ParquetType::INT96, 0, |v| {
            v.iter().map(|x| {
                let d = x.data();
                Int96([d[0], d[1], d[2]])
            }).collect()
        })?;
    }

    #[test]
    fn float(values in pooled(prop_oneof![any::<f32>(), Just(-0.0f32), Just(0.0f32), Just(f32::NAN)])) {
        check::<FloatType, pt::FloatType>(&values, &values, ParquetType::FLOAT, 0, |v| v.to_vec())?;
    }

    #[test]
    fn double(values in pooled(prop_oneof![any::<f64>(), Just(-0.0f64), Just(0.0f64), Just(f64::NAN)])) {
        check::<DoubleType, pt::DoubleType>(&values, &values, ParquetType::DOUBLE, 0, |v| v.to_vec())?;
    }

    #[test]
    fn byte_array(values in pooled(prop_oneof![
        8 => prop::collection::vec(any::<u8>(), 0..16),
        1 => Just(vec![7u8; 1 << 16]),
    ])) {
        let arrow: Vec<pt::ByteArray> = values.iter().map(|v| pt::ByteArray::from(v.clone())).collect();
        check::<ByteArrayType, pt::ByteArrayType>(&byte_arrays(&values), &arrow, ParquetType::BYTE_ARRAY, 0, |v| {
            v.iter().map(|x| x.data()).collect()
        })?;
    }

    #[test]
    fn fixed_len_byte_array(
        (len, values) in (1usize..24).prop_flat_map(|len| (Just(len), pooled(prop::collection::vec(any::<u8>(), len)))),
    ) {
        let arrow: Vec<pt::FixedLenByteArray> =
            values.iter().map(|v| pt::FixedLenByteArray::from(v.clone())).collect();
        check::<FixedLenByteArrayType, pt::FixedLenByteArrayType>(
            &byte_arrays(&values), &arrow, ParquetType::FIXED_LEN_BYTE_ARRAY, len,
            |v| v.iter().map(|x| x.data()).collect(),
        )?;
    }
}
