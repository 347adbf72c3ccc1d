use bytes::Bytes;
use pqcodec_core::{
    BooleanType, ByteArrayType, ByteArrays, Decoder, DoubleType, Encoder, Encoding, Error,
    FixedLenByteArrayType, FloatType, Int32Type, Int64Type, Int96, Int96Type, ValueBuffer,
};
use proptest::prelude::*;

use super::*;

/// PLAIN bytes of `values`.
fn encode<T: PlainType>(values: &T::Buffer, ty: T) -> Vec<u8> {
    let mut enc = PlainEncoder::<T>::new(ty);
    enc.put(values.values()).unwrap();
    assert_eq!(enc.num_values(), values.len());
    assert_eq!(enc.estimated_size(), enc.clone().flush().unwrap().len());
    enc.flush().unwrap()
}

/// Puts `values` in pieces cut at `cuts` (any order, any size), once with [`Encoder::put`] and
/// once with [`Encoder::put_slice`], and checks both pages are the same bytes.
fn slices_match_iterators<T: PlainType + Default>(values: &[T::Value], cuts: &[usize])
where
    T::Value: Sized,
{
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (values.len() + 1)).collect();
    cuts.sort_unstable();
    let (mut by_iter, mut by_slice) = (PlainEncoder::<T>::default(), PlainEncoder::<T>::default());
    let mut at = 0;
    for end in cuts.into_iter().chain([values.len()]) {
        by_iter.put(&values[at..end]).unwrap();
        by_slice.put_slice(&values[at..end]).unwrap();
        at = end;
    }
    assert_eq!(by_slice.num_values(), values.len());
    assert_eq!(by_slice.flush().unwrap(), by_iter.flush().unwrap());
}

/// Decodes `bytes` holding `expected`, following `plan` (`(true, k)` reads `k` values, `(false,
/// k)` skips `k`), then reads the rest, and checks the values read are the expected ones,
/// compared by their PLAIN bytes (so NaN payloads and -0.0 count).
fn check_plan<T: PlainType>(bytes: &[u8], expected: &T::Buffer, ty: T, plan: &[(bool, usize)]) {
    let n = expected.len();
    let mut dec = PlainDecoder::<T>::new(Bytes::copy_from_slice(bytes), n, ty).unwrap();
    let mut got = T::Buffer::default();
    let mut want = T::Buffer::default();
    let mut at = 0;
    for &(read, k) in plan {
        let step = k.min(n - at);
        assert_eq!(dec.remaining(), n - at);
        if read {
            assert_eq!(dec.read(&mut got, k).unwrap(), step);
            for i in at..at + step {
                want.push(expected.get(i).unwrap());
            }
        } else {
            assert_eq!(dec.skip(k).unwrap(), step);
        }
        at += step;
    }
    let rest = dec.read_all().unwrap();
    for v in rest.values() {
        got.push(v);
    }
    for i in at..n {
        want.push(expected.get(i).unwrap());
    }
    assert_eq!(dec.remaining(), 0);
    assert_eq!(dec.read(&mut got, 10).unwrap(), 0);
    assert_eq!(dec.skip(10).unwrap(), 0);
    assert_eq!(got.len(), want.len());
    assert_eq!(encode::<T>(&got, ty), encode::<T>(&want, ty));
}

/// Encodes `values`, checks the page length, decodes it whole and along `plan`.
fn round_trip<T: PlainType>(
    values: &T::Buffer,
    ty: T,
    width: impl Fn(&T::Value) -> usize,
    plan: &[(bool, usize)],
) {
    let bytes = encode::<T>(values, ty);
    let expected_len: usize = values.values().map(width).sum();
    if T::TYPE == pqcodec_core::PhysicalType::Boolean {
        assert_eq!(bytes.len(), values.len().div_ceil(8));
    } else {
        assert_eq!(bytes.len(), expected_len);
    }
    let whole = decode_plain_page::<T>(&bytes, values.len(), ty).unwrap();
    assert_eq!(encode::<T>(&whole, ty), bytes);
    check_plan::<T>(&bytes, values, ty, plan);
    // Trailing bytes after the values are ignored.
    let mut longer = bytes.clone();
    longer.extend_from_slice(&[0xAB; 13]);
    check_plan::<T>(&longer, values, ty, plan);
}

const LENGTHS: [usize; 14] = [0, 1, 7, 8, 9, 31, 32, 33, 127, 128, 129, 255, 256, 257];

#[test]
fn spec_grammar_bytes_every_type() {
    let mut enc = PlainEncoder::<Int64Type>::new(Int64Type);
    enc.put(&[1, i64::MIN]).unwrap();
    let bytes = enc.flush().unwrap();
    assert_eq!(bytes, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80]);
    assert_eq!(
        PlainDecoder::<Int64Type>::new(Bytes::copy_from_slice(&bytes), 2, Int64Type)
            .unwrap()
            .read_all()
            .unwrap(),
        [1, i64::MIN]
    );

    let v = Int96([0x0403_0201, 0x0807_0605, 0x0C0B_0A09]);
    let mut enc = PlainEncoder::<Int96Type>::new(Int96Type);
    enc.put(&[v]).unwrap();
    let bytes = enc.flush().unwrap();
    assert_eq!(bytes, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    assert_eq!(
        decode_plain_page::<Int96Type>(&bytes, 1, Int96Type).unwrap(),
        [v]
    );

    let mut enc = PlainEncoder::<FloatType>::new(FloatType);
    enc.put(&[1.0f32, -0.0]).unwrap();
    let bytes = enc.flush().unwrap();
    assert_eq!(bytes, [0, 0, 0x80, 0x3F, 0, 0, 0, 0x80]);
    let back = decode_plain_page::<FloatType>(&bytes, 2, FloatType).unwrap();
    assert_eq!(back[1].to_bits(), (-0.0f32).to_bits());

    let mut enc = PlainEncoder::<DoubleType>::new(DoubleType);
    enc.put(&[1.0f64]).unwrap();
    assert_eq!(enc.flush().unwrap(), [0, 0, 0, 0, 0, 0, 0xF0, 0x3F]);

    let mut enc =
        PlainEncoder::<FixedLenByteArrayType>::new(FixedLenByteArrayType::new(3).unwrap());
    enc.put([&b"abc"[..], b"xyz"]).unwrap();
    let bytes = enc.flush().unwrap();
    assert_eq!(bytes, *b"abcxyz");
    let back = decode_plain_page::<FixedLenByteArrayType>(
        &bytes,
        2,
        FixedLenByteArrayType::new(3).unwrap(),
    )
    .unwrap();
    assert_eq!(back.iter().collect::<Vec<_>>(), [&b"abc"[..], b"xyz"]);

    // The module doc's examples.
    let mut enc = PlainEncoder::<Int32Type>::new(Int32Type);
    enc.put(&[1, -2]).unwrap();
    assert_eq!(enc.flush().unwrap(), [1, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF]);
    let mut enc = PlainEncoder::<BooleanType>::new(BooleanType);
    enc.put(&[true, false, true, true, false, false, false, false, true])
        .unwrap();
    assert_eq!(enc.flush().unwrap(), [0b0000_1101, 0b0000_0001]);
    let mut enc = PlainEncoder::<ByteArrayType>::new(ByteArrayType);
    enc.put([&b"ab"[..], b""]).unwrap();
    assert_eq!(enc.flush().unwrap(), [2, 0, 0, 0, b'a', b'b', 0, 0, 0, 0]);
}

#[test]
fn booleans_across_puts_and_bit_offsets() {
    let values: Vec<bool> = (0..300).map(|i| (i * 7 + i / 3) % 5 < 2).collect();
    let mut enc = PlainEncoder::<BooleanType>::new(BooleanType);
    // Puts of odd sizes continue the partial last byte.
    let mut at = 0;
    for k in [3, 1, 13, 8, 0, 100, 175] {
        enc.put(&values[at..at + k]).unwrap();
        at += k;
    }
    let bytes = enc.flush().unwrap();
    assert_eq!(bytes.len(), 300usize.div_ceil(8));
    for (i, &v) in values.iter().enumerate() {
        assert_eq!((bytes[i / 8] >> (i % 8)) & 1 == 1, v, "bit {i}");
    }
    assert_eq!(bytes[37] >> 4, 0, "padding bits are zero");
    for skip in 0..17 {
        let mut dec =
            PlainDecoder::<BooleanType>::new(Bytes::copy_from_slice(&bytes), 300, BooleanType)
                .unwrap();
        assert_eq!(dec.skip(skip).unwrap(), skip);
        let mut out = Vec::new();
        assert_eq!(dec.read(&mut out, 283).unwrap(), 283);
        assert_eq!(out, values[skip..skip + 283]);
    }
}

#[test]
fn boundary_lengths_every_type() {
    let plan = [(true, 3), (false, 5), (true, 64), (false, 1), (true, 200)];
    for n in LENGTHS {
        let bools: Vec<bool> = (0..n).map(|i| i % 3 == 0).collect();
        round_trip::<BooleanType>(&bools, BooleanType, |_| 0, &plan);
        let ints: Vec<i32> = (0..n as i32)
            .map(|i| i.wrapping_mul(-0x0123_4567))
            .collect();
        round_trip::<Int32Type>(&ints, Int32Type, |_| 4, &plan);
        let longs: Vec<i64> = (0..n as i64)
            .map(|i| i.wrapping_mul(i64::MIN + 3))
            .collect();
        round_trip::<Int64Type>(&longs, Int64Type, |_| 8, &plan);
        let int96: Vec<Int96> = (0..n as u32).map(|i| Int96([i, !i, i << 3])).collect();
        round_trip::<Int96Type>(&int96, Int96Type, |_| 12, &plan);
        let floats: Vec<f32> = (0..n as u32)
            .map(|i| f32::from_bits(i.wrapping_mul(0x9E37_79B9)))
            .collect();
        round_trip::<FloatType>(&floats, FloatType, |_| 4, &plan);
        let doubles: Vec<f64> = (0..n as u64)
            .map(|i| f64::from_bits(i.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
            .collect();
        round_trip::<DoubleType>(&doubles, DoubleType, |_| 8, &plan);
        let arrays: ByteArrays = (0..n).map(|i| &b"abcdefghij"[..i % 11]).collect();
        round_trip::<ByteArrayType>(&arrays, ByteArrayType, |v| 4 + v.len(), &plan);
        let fixed: ByteArrays = (0..n).map(|i| &b"abcdefghij"[i % 5..i % 5 + 4]).collect();
        round_trip::<FixedLenByteArrayType>(
            &fixed,
            FixedLenByteArrayType::new(4).unwrap(),
            |v| v.len(),
            &plan,
        );
    }
}

#[test]
fn extremes_and_special_floats() {
    let plan = [(true, 2), (false, 1)];
    round_trip::<Int32Type>(&vec![i32::MIN, i32::MAX, 0, -1], Int32Type, |_| 4, &plan);
    round_trip::<Int64Type>(&vec![i64::MIN, i64::MAX, 0, -1], Int64Type, |_| 8, &plan);
    let nans = vec![
        f32::from_bits(0x7FC0_0001),
        f32::from_bits(0xFF80_0001),
        -0.0,
        f32::INFINITY,
        f32::MIN_POSITIVE,
    ];
    round_trip::<FloatType>(&nans, FloatType, |_| 4, &plan);
    let bytes = encode::<FloatType>(&nans, FloatType);
    let back = decode_plain_page::<FloatType>(&bytes, nans.len(), FloatType).unwrap();
    let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&back), bits(&nans));
    let dnans = vec![f64::from_bits(0x7FF0_0000_0000_0001), -0.0, f64::MAX];
    round_trip::<DoubleType>(&dnans, DoubleType, |_| 8, &plan);
    let big = vec![0x5Au8; 65536];
    let arrays: ByteArrays = [&big[..], b"", &big[..7]].into_iter().collect();
    round_trip::<ByteArrayType>(&arrays, ByteArrayType, |v| 4 + v.len(), &plan);
    let fixed: ByteArrays = [&big[..], &big[..]].into_iter().collect();
    round_trip::<FixedLenByteArrayType>(
        &fixed,
        FixedLenByteArrayType::new(65536).unwrap(),
        |v| v.len(),
        &plan,
    );
}

#[test]
fn counts_the_data_cannot_hold() {
    let count_too_large = |e: Error, count: u64, capacity: u64| {
        assert_eq!(
            e,
            Error::CountTooLarge {
                encoding: Encoding::Plain,
                field: "num_values",
                count,
                capacity
            }
        );
    };
    count_too_large(
        PlainDecoder::<Int32Type>::new(Bytes::copy_from_slice(&[0; 7]), 2, Int32Type).unwrap_err(),
        2,
        1,
    );
    count_too_large(
        PlainDecoder::<Int64Type>::new(Bytes::copy_from_slice(&[0; 8]), usize::MAX, Int64Type)
            .unwrap_err(),
        usize::MAX as u64,
        1,
    );
    count_too_large(
        PlainDecoder::<Int96Type>::new(Bytes::copy_from_slice(&[0; 23]), 2, Int96Type).unwrap_err(),
        2,
        1,
    );
    count_too_large(
        PlainDecoder::<BooleanType>::new(Bytes::copy_from_slice(&[0; 1]), 9, BooleanType)
            .unwrap_err(),
        9,
        8,
    );
    count_too_large(
        PlainDecoder::<ByteArrayType>::new(Bytes::copy_from_slice(&[0; 11]), 3, ByteArrayType)
            .unwrap_err(),
        3,
        2,
    );
    count_too_large(
        PlainDecoder::<FixedLenByteArrayType>::new(
            Bytes::copy_from_slice(&[0; 11]),
            3,
            FixedLenByteArrayType::new(4).unwrap(),
        )
        .unwrap_err(),
        3,
        2,
    );
    assert!(
        PlainDecoder::<BooleanType>::new(Bytes::copy_from_slice(&[0; 1]), 8, BooleanType).is_ok()
    );
    assert!(PlainDecoder::<DoubleType>::new(Bytes::copy_from_slice(&[]), 0, DoubleType).is_ok());
}

#[test]
fn fixed_len_needs_a_type_length() {
    // A zero-width FIXED_LEN_BYTE_ARRAY marker cannot be made, so no PLAIN decoder or encoder
    // of one can either.
    assert_eq!(
        FixedLenByteArrayType::new(0),
        Err(Error::TypeLength { type_length: 0 })
    );
    let one = FixedLenByteArrayType::new(1).unwrap();
    let mut dec = PlainDecoder::new(Bytes::copy_from_slice(&[1, 2]), 2, one).unwrap();
    assert_eq!(
        dec.read_all().unwrap().iter().collect::<Vec<_>>(),
        [[1], [2]]
    );
}

#[test]
fn byte_array_lengths_past_the_data() {
    // Second value says 100 bytes, 3 are left.
    let bytes = [1, 0, 0, 0, b'x', 100, 0, 0, 0, b'a', b'b', b'c'];
    let mut dec =
        PlainDecoder::<ByteArrayType>::new(Bytes::copy_from_slice(&bytes), 2, ByteArrayType)
            .unwrap();
    let mut out = ByteArrays::new();
    assert_eq!(
        dec.read(&mut out, 2),
        Err(Error::truncated(
            Encoding::Plain,
            "byte array value",
            100,
            3
        ))
    );
    // The values before the bad one may reach the sink; the page's position is kept.
    assert_eq!(out.iter().collect::<Vec<_>>(), [&b"x"[..]]);
    out.clear();
    assert_eq!(dec.read(&mut out, 1), Ok(1));
    assert_eq!(out.get(0), Some(&b"x"[..]));
    assert_eq!(
        dec.skip(1),
        Err(Error::truncated(
            Encoding::Plain,
            "byte array value",
            100,
            3
        ))
    );

    // A length of u32::MAX allocates nothing.
    let bytes = [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0];
    let mut dec =
        PlainDecoder::<ByteArrayType>::new(Bytes::copy_from_slice(&bytes), 2, ByteArrayType)
            .unwrap();
    assert_eq!(
        dec.read_all(),
        Err(Error::truncated(
            Encoding::Plain,
            "byte array value",
            u32::MAX as usize,
            4
        ))
    );

    // The data ends inside the second length.
    let bytes = [0, 0, 0, 0, 0, 0, 0, 0, 5, 0];
    let mut dec =
        PlainDecoder::<ByteArrayType>::new(Bytes::copy_from_slice(&bytes), 2, ByteArrayType)
            .unwrap();
    assert_eq!(dec.skip(1), Ok(1));
    assert_eq!(dec.skip(1), Ok(1));
    let mut dec =
        PlainDecoder::<ByteArrayType>::new(Bytes::copy_from_slice(&bytes[..5]), 1, ByteArrayType)
            .unwrap();
    assert_eq!(dec.read_all().unwrap().len(), 1);
    let bytes = [1, 0, 0, 0, 7, 9, 0, 0];
    let mut dec =
        PlainDecoder::<ByteArrayType>::new(Bytes::copy_from_slice(&bytes), 2, ByteArrayType)
            .unwrap();
    assert_eq!(
        dec.read_all(),
        Err(Error::truncated(Encoding::Plain, "byte array length", 4, 3))
    );
}

/// Byte arrays reach the sink as spans of the rest of the page, shared; a value cut short is
/// an error naming it, after the values before it, and the page's position is kept.
#[test]
fn byte_arrays_come_as_spans_up_to_a_value_cut_short() {
    #[derive(Default)]
    struct Spans(Vec<(usize, usize)>, Vec<Option<(usize, usize)>>);
    impl Sink<[u8]> for Spans {
        fn push(&mut self, _: &[u8]) {
            unreachable!("values come as spans");
        }
        fn extend_from_spans<I>(&mut self, data: Data<'_>, spans: I)
        where
            I: IntoIterator<Item = (usize, usize)>,
        {
            self.0.extend(spans);
            self.1
                .push(data.buffer().map(|(page, at)| (page.len(), at)));
        }
    }
    let mut bytes = Vec::new();
    for i in 0..300u32 {
        bytes.extend_from_slice(&(i % 5).to_le_bytes());
        bytes.extend(std::iter::repeat_n(b'v', (i % 5) as usize));
    }
    let whole = bytes.len();
    bytes.extend_from_slice(&[9, 0, 0, 0, b'x']);
    let mut dec =
        PlainDecoder::<ByteArrayType>::new(Bytes::from(bytes), 301, ByteArrayType).unwrap();
    let mut sink = Spans::default();
    assert_eq!(
        dec.read(&mut sink, 301),
        Err(Error::truncated(Encoding::Plain, "byte array value", 9, 1))
    );
    assert_eq!(sink.0.len(), 300);
    assert_eq!(sink.0[299], (whole - 4, whole));
    assert_eq!(sink.1, [Some((whole + 5, 0))]);
    assert_eq!(dec.remaining(), 301);
    let mut sink = Spans::default();
    assert_eq!(dec.read(&mut sink, 10), Ok(10));
    assert_eq!(dec.read(&mut sink, 290), Ok(290));
    assert_eq!(sink.0.iter().map(|(s, e)| e - s).sum::<usize>(), 600);
    // The second read's spans start at the page's offset the first left.
    let first: usize = (0..10).map(|i| 4 + i % 5).sum();
    assert_eq!(sink.1, [Some((whole + 5, 0)), Some((whole + 5, first))]);
    assert_eq!(sink.0[10], (4, 4));
}

/// A sink that refuses byte arrays the page holds gets an error, not a panic.
#[test]
fn a_sink_refusing_sound_byte_arrays_is_an_error() {
    struct Refuses;
    impl Sink<[u8]> for Refuses {
        fn push(&mut self, _: &[u8]) {}
        fn extend_from_prefixed(&mut self, _: Data<'_>, _: usize) -> Option<usize> {
            None
        }
    }
    let bytes = [1, 0, 0, 0, b'x'];
    let mut dec =
        PlainDecoder::<ByteArrayType>::new(Bytes::copy_from_slice(&bytes), 1, ByteArrayType)
            .unwrap();
    assert!(matches!(
        dec.read(&mut Refuses, 1),
        Err(Error::Invalid {
            encoding: Encoding::Plain,
            field: "byte array",
            ..
        })
    ));
    assert_eq!(dec.remaining(), 1);
}

#[test]
fn failed_put_leaves_the_page_unchanged() {
    let mut enc =
        PlainEncoder::<FixedLenByteArrayType>::new(FixedLenByteArrayType::new(2).unwrap());
    enc.put([&b"ab"[..]]).unwrap();
    let err = enc.put([&b"cd"[..], b"e", b"fg"]).unwrap_err();
    assert!(matches!(
        err,
        Error::Value {
            encoding: Encoding::Plain,
            index: 2,
            ..
        }
    ));
    assert_eq!(enc.num_values(), 1);
    enc.put([&b"hi"[..]]).unwrap();
    assert_eq!(enc.flush().unwrap(), *b"abhi");
    assert_eq!(enc.num_values(), 0);
    assert!(enc.flush().unwrap().is_empty());

    let mut enc = PlainEncoder::<Int32Type>::new(Int32Type);
    enc.put(&[7]).unwrap();
    let mut out = vec![0xEE];
    enc.flush_into(&mut out).unwrap();
    assert_eq!(out, [0xEE, 7, 0, 0, 0]);
    assert_eq!(enc.num_values(), 0);
}

#[test]
fn reads_into_a_vec_of_vecs() {
    let bytes = [2, 0, 0, 0, b'h', b'i', 0, 0, 0, 0];
    let mut dec =
        PlainDecoder::<ByteArrayType>::new(Bytes::copy_from_slice(&bytes), 2, ByteArrayType)
            .unwrap();
    let mut out: Vec<Vec<u8>> = Vec::new();
    assert_eq!(dec.read(&mut out, 5).unwrap(), 2);
    assert_eq!(out, [b"hi".to_vec(), vec![]]);
}

fn plan() -> impl Strategy<Value = Vec<(bool, usize)>> {
    prop::collection::vec((any::<bool>(), 0usize..300), 0..6)
}

fn f32s() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<u32>().prop_map(f32::from_bits),
        Just(-0.0f32),
        Just(f32::from_bits(0x7FC0_1234)),
        Just(f32::from_bits(0xFFBF_FFFF)),
        Just(f32::MIN),
        Just(f32::MAX),
    ]
}

fn f64s() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<u64>().prop_map(f64::from_bits),
        Just(-0.0f64),
        Just(f64::from_bits(0x7FF8_0000_0000_1234)),
        Just(f64::MIN),
        Just(f64::MAX),
    ]
}

fn byte_arrays() -> impl Strategy<Value = Vec<Vec<u8>>> {
    let value = prop_oneof![
        20 => prop::collection::vec(any::<u8>(), 0..24),
        1 => any::<u8>().prop_map(|b| vec![b; 65536]),
    ];
    prop::collection::vec(value, 0..300)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn put_slice_writes_what_put_does(
        bools in prop::collection::vec(any::<bool>(), 0..600),
        ints in prop::collection::vec(any::<i64>(), 0..300),
        cuts in prop::collection::vec(any::<usize>(), 0..6),
    ) {
        slices_match_iterators::<BooleanType>(&bools, &cuts);
        let narrow: Vec<i32> = ints.iter().map(|&v| v as i32).collect();
        slices_match_iterators::<Int32Type>(&narrow, &cuts);
        slices_match_iterators::<Int64Type>(&ints, &cuts);
        let floats: Vec<f32> = narrow.iter().map(|&v| f32::from_bits(v as u32)).collect();
        slices_match_iterators::<FloatType>(&floats, &cuts);
        let doubles: Vec<f64> = ints.iter().map(|&v| f64::from_bits(v as u64)).collect();
        slices_match_iterators::<DoubleType>(&doubles, &cuts);
        let int96: Vec<Int96> = ints.iter().map(|&v| Int96([v as u32, (v >> 32) as u32, !(v as u32)])).collect();
        slices_match_iterators::<Int96Type>(&int96, &cuts);
    }

    #[test]
    fn booleans_round_trip(values in prop::collection::vec(any::<bool>(), 0..600), plan in plan()) {
        round_trip::<BooleanType>(&values, BooleanType, |_| 0, &plan);
    }

    #[test]
    fn int32_round_trip(
        values in prop::collection::vec(prop_oneof![Just(i32::MIN), Just(i32::MAX), any::<i32>()], 0..600),
        plan in plan(),
    ) {
        round_trip::<Int32Type>(&values, Int32Type, |_| 4, &plan);
        let bytes = encode::<Int32Type>(&values, Int32Type);
        prop_assert_eq!(decode_plain_page::<Int32Type>(&bytes, values.len(), Int32Type).unwrap(), values);
    }

    #[test]
    fn int64_round_trip(
        values in prop::collection::vec(prop_oneof![Just(i64::MIN), Just(i64::MAX), any::<i64>()], 0..600),
        plan in plan(),
    ) {
        round_trip::<Int64Type>(&values, Int64Type, |_| 8, &plan);
        let bytes = encode::<Int64Type>(&values, Int64Type);
        prop_assert_eq!(decode_plain_page::<Int64Type>(&bytes, values.len(), Int64Type).unwrap(), values);
    }

    #[test]
    fn int96_round_trip(words in prop::collection::vec(any::<[u32; 3]>(), 0..400), plan in plan()) {
        let values: Vec<Int96> = words.into_iter().map(Int96).collect();
        round_trip::<Int96Type>(&values, Int96Type, |_| 12, &plan);
        let bytes = encode::<Int96Type>(&values, Int96Type);
        prop_assert_eq!(decode_plain_page::<Int96Type>(&bytes, values.len(), Int96Type).unwrap(), values);
    }

    #[test]
    fn float_round_trip(values in prop::collection::vec(f32s(), 0..600), plan in plan()) {
        round_trip::<FloatType>(&values, FloatType, |_| 4, &plan);
    }

    #[test]
    fn double_round_trip(values in prop::collection::vec(f64s(), 0..600), plan in plan()) {
        round_trip::<DoubleType>(&values, DoubleType, |_| 8, &plan);
    }

    #[test]
    fn byte_array_round_trip(values in byte_arrays(), plan in plan()) {
        let buffer: ByteArrays = values.iter().map(Vec::as_slice).collect();
        round_trip::<ByteArrayType>(&buffer, ByteArrayType, |v| 4 + v.len(), &plan);
        let bytes = encode::<ByteArrayType>(&buffer, ByteArrayType);
        let back = decode_plain_page::<ByteArrayType>(&bytes, values.len(), ByteArrayType).unwrap();
        prop_assert!(back.iter().eq(values.iter().map(Vec::as_slice)));
    }

    #[test]
    fn fixed_len_round_trip(
        (width, values) in (1usize..24).prop_flat_map(|w| {
            (Just(w), prop::collection::vec(prop::collection::vec(any::<u8>(), w), 0..300))
        }),
        plan in plan(),
    ) {
        let buffer: ByteArrays = values.iter().map(Vec::as_slice).collect();
        round_trip::<FixedLenByteArrayType>(&buffer, FixedLenByteArrayType::new(width).unwrap(), |v| v.len(), &plan);
        let bytes = encode::<FixedLenByteArrayType>(&buffer, FixedLenByteArrayType::new(width).unwrap());
        prop_assert_eq!(bytes, values.concat());
    }

    /// Any bytes, any count: an error or values, never a panic.
    #[test]
    fn arbitrary_bytes_never_panic(
        data in prop::collection::vec(any::<u8>(), 0..200),
        n in 0usize..120,
        type_length in 0usize..6,
        plan in plan(),
    ) {
        fn drive<T: PlainType>(data: &[u8], n: usize, ty: T, plan: &[(bool, usize)]) {
            if let Ok(mut dec) = PlainDecoder::<T>::new(Bytes::copy_from_slice(data), n, ty) {
                let mut out = T::Buffer::default();
                for &(read, k) in plan {
                    let _ = if read { dec.read(&mut out, k) } else { dec.skip(k) };
                }
                let _ = dec.read_all();
            }
        }
        drive(&data, n, BooleanType, &plan);
        drive(&data, n, Int32Type, &plan);
        drive(&data, n, Int96Type, &plan);
        drive(&data, n, DoubleType, &plan);
        drive(&data, n, ByteArrayType, &plan);
        if let Ok(ty) = FixedLenByteArrayType::new(type_length) {
            drive(&data, n, ty, &plan);
        }
    }
}

/// Byte arrays of every length around the short-value copies' sizes (0 to 40 bytes) are
/// written as their length then their bytes, fixed-length ones as their bytes, nothing more.
#[test]
fn byte_arrays_of_every_short_length_are_written_exactly() {
    let pool: Vec<u8> = (0..80u8).map(|i| i.wrapping_mul(37) ^ 0x5A).collect();
    let values: Vec<&[u8]> = (0..=40).map(|n| &pool[n..2 * n]).collect();
    let mut enc = PlainEncoder::<ByteArrayType>::new(ByteArrayType);
    enc.put(values.iter().copied()).unwrap();
    let page = enc.flush().unwrap();
    let mut expect = Vec::new();
    for v in &values {
        expect.extend_from_slice(&(v.len() as u32).to_le_bytes());
        expect.extend_from_slice(v);
    }
    assert_eq!(page, expect);
    // FIXED_LEN_BYTE_ARRAY: three values of each width, back to back.
    for width in 1..=40 {
        let values: Vec<&[u8]> = (0..3).map(|i| &pool[i * 13..i * 13 + width]).collect();
        let mut enc = PlainEncoder::new(FixedLenByteArrayType::new(width).unwrap());
        enc.put(values.iter().copied()).unwrap();
        assert_eq!(enc.flush().unwrap(), values.concat(), "width {width}");
    }
}
