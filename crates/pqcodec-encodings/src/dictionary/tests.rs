use super::*;
use bytes::Bytes;
use pqcodec_core::{
    BooleanType, ByteArrayType, ByteArrays, Decoder, DoubleType, Encoder, Encoding, Error,
    FixedLenByteArrayType, FixedWidth, FloatType, Int32Type, Int64Type, Int96, Int96Type, Sink,
    ValueBuffer,
};
use proptest::prelude::*;
use std::sync::Arc;

use crate::plain::{PlainDecoder, PlainEncoder, PlainType, decode_plain_page};
use crate::rle::RleEncoder;

/// The PLAIN bytes of values: how values are compared (floats by their bits).
fn plain_bytes<'v, T: PlainType>(values: impl IntoIterator<Item = &'v T::Value>, ty: T) -> Vec<u8>
where
    T::Value: 'v,
{
    let mut e = PlainEncoder::<T>::new(ty);
    e.put(values).unwrap();
    e.flush().unwrap()
}

#[test]
fn grammar_example_both_directions() {
    let dictionary_page = [7, 0, 0, 0, 9, 0, 0, 0];
    let data_page = [0x01, 0x03, 0b0000_0010];
    let dictionary = decode_plain_page::<Int32Type>(&dictionary_page, 2, Int32Type).unwrap();
    let mut d = DictionaryDecoder::<Int32Type>::new(
        Bytes::copy_from_slice(&data_page),
        4,
        Arc::new(dictionary.clone()),
    )
    .unwrap();
    assert_eq!(d.read_all().unwrap(), [7, 9, 7, 7]);

    let mut e = DictionaryEncoder::<Int32Type>::new(Int32Type, DictionaryLimits::default());
    e.put(&[7, 9, 7, 7]).unwrap();
    assert_eq!(e.num_values(), 4);
    assert_eq!(e.dictionary_len(), 2);
    assert_eq!(e.page_encoding(), Encoding::RleDictionary);
    assert_eq!(e.flush().unwrap(), data_page);
    assert_eq!(e.dictionary_page().unwrap(), dictionary_page);
}

#[test]
fn index_decoder_checks_every_index() {
    // RLE run of index 5 into a dictionary of 5.
    let data = [3, 4 << 1, 5];
    let mut d = IndexDecoder::new(Bytes::copy_from_slice(&data), 4, 5).unwrap();
    assert_eq!(
        d.read(&mut Vec::new(), 4),
        Err(Error::DictionaryIndex {
            encoding: Encoding::RleDictionary,
            index: 5,
            len: 5
        })
    );
    let mut out = Vec::new();
    IndexDecoder::new(Bytes::copy_from_slice(&data), 4, 6)
        .unwrap()
        .read(&mut out, 4)
        .unwrap();
    assert_eq!(out, [5; 4]);
    // Bit-packed indices 0..8 at width 3, dictionary of 7: index 7 is out of range.
    let data = [3, 0x03, 0b1000_1000, 0b1100_0110, 0b1111_1010];
    let mut d = IndexDecoder::new(Bytes::copy_from_slice(&data), 8, 7).unwrap();
    assert!(matches!(
        d.read(&mut Vec::new(), 8),
        Err(Error::DictionaryIndex { index: 7, .. })
    ));
    // ... but the first seven are fine, and skipping does not look at indices.
    let mut d = IndexDecoder::new(Bytes::copy_from_slice(&data), 8, 7).unwrap();
    let mut out = Vec::new();
    assert_eq!(d.read(&mut out, 7).unwrap(), 7);
    assert_eq!(out, [0, 1, 2, 3, 4, 5, 6]);
    let mut d = IndexDecoder::new(Bytes::copy_from_slice(&data), 8, 7).unwrap();
    assert_eq!(d.skip(8).unwrap(), 8);
    // The fixed-width gather checks them too, in runs and in chunks.
    let dict: Vec<i32> = (0..7).collect();
    let mut d = DictionaryDecoder::<Int32Type>::new(
        Bytes::copy_from_slice(&data),
        8,
        Arc::new(dict.clone()),
    )
    .unwrap();
    assert!(matches!(
        d.read_fixed(&mut Vec::new(), 8),
        Err(Error::DictionaryIndex {
            index: 7,
            len: 7,
            ..
        })
    ));
    let mut d = DictionaryDecoder::<Int32Type>::new(
        Bytes::copy_from_slice(&[3, 4 << 1, 7]),
        4,
        Arc::new(dict.clone()),
    )
    .unwrap();
    assert!(matches!(
        d.read_fixed(&mut Vec::new(), 8),
        Err(Error::DictionaryIndex {
            index: 7,
            len: 7,
            ..
        })
    ));
    // An empty dictionary has no valid index.
    let values = decode_plain_page::<Int32Type>(&[], 0, Int32Type).unwrap();
    let mut d = DictionaryDecoder::<Int32Type>::new(
        Bytes::copy_from_slice(&[0, 2, 0]),
        1,
        Arc::new(values.clone()),
    )
    .unwrap();
    assert!(matches!(
        d.read_all(),
        Err(Error::DictionaryIndex {
            index: 0,
            len: 0,
            ..
        })
    ));
}

#[test]
fn malformed_index_pages() {
    assert_eq!(
        IndexDecoder::new(Bytes::copy_from_slice(&[]), 1, 1).err(),
        Some(Error::truncated(Encoding::RleDictionary, "bit width", 1, 0))
    );
    assert!(IndexDecoder::new(Bytes::copy_from_slice(&[]), 0, 1).is_ok());
    assert_eq!(
        IndexDecoder::new(Bytes::copy_from_slice(&[33, 2, 0]), 1, 1).err(),
        Some(Error::BitWidth {
            encoding: Encoding::RleDictionary,
            field: "bit width",
            width: 33,
            max: 32
        })
    );
    // Errors from the hybrid name RLE_DICTIONARY.
    assert!(matches!(
        IndexDecoder::new(Bytes::copy_from_slice(&[1, 0]), 1, 1),
        Err(Error::Invalid {
            encoding: Encoding::RleDictionary,
            ..
        })
    ));
    let dict = vec![1i64, 2];
    assert!(matches!(
        DictionaryDecoder::<Int64Type>::new(
            Bytes::copy_from_slice(&[1]),
            1,
            Arc::new(dict.clone())
        ),
        Err(Error::Truncated {
            encoding: Encoding::RleDictionary,
            ..
        })
    ));
}

#[test]
fn rle_runs_become_one_push_repeated() {
    #[derive(Default)]
    struct Calls(Vec<(Vec<u8>, usize)>, usize);
    impl Sink<[u8]> for Calls {
        fn push(&mut self, _: &[u8]) {
            self.1 += 1;
        }
        fn push_repeated(&mut self, v: &[u8], n: usize) {
            self.0.push((v.to_vec(), n));
        }
    }
    let dict: ByteArrays = [&b"x"[..], b"hello"].into_iter().collect();
    let mut page = vec![1];
    let mut rle = RleEncoder::new(1);
    rle.put_repeated(1, 1000);
    rle.put(0);
    rle.flush_into(&mut page);
    let mut d = DictionaryDecoder::<ByteArrayType>::new(
        Bytes::copy_from_slice(&page),
        1001,
        Arc::new(dict.clone()),
    )
    .unwrap();
    let mut calls = Calls::default();
    assert_eq!(d.read(&mut calls, 2000).unwrap(), 1001);
    assert_eq!(calls.0, [(b"hello".to_vec(), 1000), (b"x".to_vec(), 1)]);
    assert_eq!(calls.1, 0);
}

#[test]
fn fallback_writes_pending_indices_then_plain() {
    let limits = DictionaryLimits {
        max_dictionary_bytes: usize::MAX,
        max_distinct_values: 3,
    };
    let mut e = DictionaryEncoder::<Int32Type>::new(Int32Type, limits);
    e.put(&[1, 2, 1, 3]).unwrap();
    assert!(!e.has_fallen_back());
    e.put(&[1, 4, 5, 1]).unwrap();
    assert!(e.has_fallen_back());
    assert_eq!(e.dictionary_len(), 3);
    // First the indices of 1, 2, 1, 3, 1.
    assert_eq!(e.page_encoding(), Encoding::RleDictionary);
    assert_eq!(e.num_values(), 5);
    let indices = e.flush().unwrap();
    let dict = decode_plain_page::<Int32Type>(&e.dictionary_page().unwrap(), 3, Int32Type).unwrap();
    assert_eq!(dict, [1, 2, 3]);
    let mut d = DictionaryDecoder::<Int32Type>::new(
        Bytes::copy_from_slice(&indices),
        5,
        Arc::new(dict.clone()),
    )
    .unwrap();
    assert_eq!(d.read_all().unwrap(), [1, 2, 1, 3, 1]);
    // Then 4, 5, 1 and every later value in PLAIN.
    assert_eq!(e.page_encoding(), Encoding::Plain);
    assert_eq!(e.num_values(), 3);
    e.put(&[2]).unwrap();
    assert_eq!(e.num_values(), 4);
    assert_eq!(e.estimated_size(), 16);
    let plain = e.flush().unwrap();
    assert_eq!(
        PlainDecoder::<Int32Type>::new(Bytes::copy_from_slice(&plain), 4, Int32Type)
            .unwrap()
            .read_all()
            .unwrap(),
        [4, 5, 1, 2]
    );
    assert_eq!(e.page_encoding(), Encoding::Plain);
    assert_eq!(e.num_values(), 0);
    assert_eq!(e.dictionary_len(), 3);
}

#[test]
fn fallback_on_dictionary_bytes() {
    let limits = DictionaryLimits {
        max_dictionary_bytes: 10,
        max_distinct_values: usize::MAX,
    };
    let mut e = DictionaryEncoder::<ByteArrayType>::new(ByteArrayType, limits);
    // "abc" takes 7 PLAIN bytes, "d" 5: too many.
    e.put([&b"abc"[..], b"abc", b"d", b"abc"]).unwrap();
    assert!(e.has_fallen_back());
    assert_eq!(e.dictionary_page().unwrap(), b"\x03\0\0\0abc");
    assert_eq!(e.num_values(), 2);
    e.flush().unwrap();
    assert_eq!(e.num_values(), 2);
    assert_eq!(e.flush().unwrap(), b"\x01\0\0\0d\x03\0\0\0abc");
    // A fallback on the very first value: nothing pending, the first page is PLAIN.
    let limits = DictionaryLimits {
        max_dictionary_bytes: 0,
        max_distinct_values: usize::MAX,
    };
    let mut e = DictionaryEncoder::<Int64Type>::new(Int64Type, limits);
    e.put(&[5]).unwrap();
    assert_eq!(e.page_encoding(), Encoding::Plain);
    assert_eq!(e.flush().unwrap(), 5i64.to_le_bytes());
    assert_eq!(e.dictionary_len(), 0);
}

#[test]
fn floats_are_told_apart_by_bits() {
    let nan1 = f32::from_bits(0x7FC0_0001);
    let nan2 = f32::from_bits(0x7FC0_0002);
    let values = [0.0f32, -0.0, nan1, nan2, nan1, 0.0, -0.0];
    let mut e = DictionaryEncoder::<FloatType>::new(FloatType, DictionaryLimits::default());
    e.put(&values).unwrap();
    assert_eq!(e.dictionary_len(), 4);
    let page = e.flush().unwrap();
    let dict = decode_plain_page::<FloatType>(&e.dictionary_page().unwrap(), 4, FloatType).unwrap();
    let got = DictionaryDecoder::<FloatType>::new(
        Bytes::copy_from_slice(&page),
        7,
        Arc::new(dict.clone()),
    )
    .unwrap()
    .read_all()
    .unwrap();
    assert_eq!(
        got.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        values.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    );
}

#[test]
fn a_failed_put_changes_nothing() {
    let mut e = DictionaryEncoder::<FixedLenByteArrayType>::new(
        FixedLenByteArrayType::new(2).unwrap(),
        DictionaryLimits::default(),
    );
    e.put([&b"ab"[..], b"cd"]).unwrap();
    let err = e.put([&b"ab"[..], b"ef", b"xyz"]).unwrap_err();
    // The index is the value's position in the page.
    assert!(matches!(err, Error::Value { index: 4, .. }), "{err:?}");
    assert_eq!(e.dictionary_len(), 2);
    assert_eq!(e.num_values(), 2);
    e.put([&b"gh"[..], b"ab"]).unwrap();
    assert_eq!(e.dictionary_page().unwrap(), b"abcdgh");
    let page = e.flush().unwrap();
    let dict = decode_plain_page::<FixedLenByteArrayType>(
        b"abcdgh",
        3,
        FixedLenByteArrayType::new(2).unwrap(),
    )
    .unwrap();
    let got = DictionaryDecoder::<FixedLenByteArrayType>::new(
        Bytes::copy_from_slice(&page),
        4,
        Arc::new(dict.clone()),
    )
    .unwrap()
    .read_all()
    .unwrap();
    assert_eq!(got.iter().collect::<Vec<_>>(), [b"ab", b"cd", b"gh", b"ab"]);
    // Failing in the PLAIN part after a fallback in the same put undoes the fallback too.
    let limits = DictionaryLimits {
        max_dictionary_bytes: 4,
        max_distinct_values: usize::MAX,
    };
    let mut e = DictionaryEncoder::<FixedLenByteArrayType>::new(
        FixedLenByteArrayType::new(2).unwrap(),
        limits,
    );
    e.put([&b"ab"[..]]).unwrap();
    let err = e.put([&b"ab"[..], b"cd", b"ef", b"g"]).unwrap_err();
    assert!(matches!(err, Error::Value { index: 4, .. }), "{err:?}");
    assert!(!e.has_fallen_back());
    assert_eq!(e.num_values(), 1);
    assert_eq!(e.dictionary_len(), 1);
    // After a fallback, a failed put leaves the PLAIN page as it was.
    e.put([&b"cd"[..], b"ef"]).unwrap();
    assert!(e.has_fallen_back());
    assert_eq!(e.flush().unwrap(), [1, 0x03, 0b10]);
    assert!(matches!(
        e.put([&b"gh"[..], b"i"]),
        Err(Error::Value { index: 2, .. })
    ));
    e.put([&b"jk"[..]]).unwrap();
    assert_eq!(e.num_values(), 2);
    assert_eq!(e.flush().unwrap(), b"efjk");
}

#[test]
fn boolean_dictionary_page_is_bit_packed() {
    let mut e = DictionaryEncoder::<BooleanType>::new(BooleanType, DictionaryLimits::default());
    e.put(&[true, true, false, true]).unwrap();
    assert_eq!(e.dictionary_page().unwrap(), [0b01]);
    let page = e.flush().unwrap();
    let dict = decode_plain_page::<BooleanType>(&[0b01], 2, BooleanType).unwrap();
    let got = DictionaryDecoder::<BooleanType>::new(
        Bytes::copy_from_slice(&page),
        4,
        Arc::new(dict.clone()),
    )
    .unwrap()
    .read_all()
    .unwrap();
    assert_eq!(got, [true, true, false, true]);
}

#[test]
fn index_bit_width_grows_with_the_dictionary() {
    let mut e = DictionaryEncoder::<Int32Type>::new(Int32Type, DictionaryLimits::default());
    e.put(&[1, 1]).unwrap();
    // One value: bit width 0, an RLE run of two zero-byte zeros.
    assert_eq!(e.flush().unwrap(), [0, 2 << 1]);
    e.put(&(0..300).collect::<Vec<_>>()).unwrap();
    assert_eq!(e.dictionary_len(), 300);
    let page = e.flush().unwrap();
    assert_eq!(page[0], 9);
    let dict =
        decode_plain_page::<Int32Type>(&e.dictionary_page().unwrap(), 300, Int32Type).unwrap();
    let got = DictionaryDecoder::<Int32Type>::new(
        Bytes::copy_from_slice(&page),
        300,
        Arc::new(dict.clone()),
    )
    .unwrap()
    .read_all()
    .unwrap();
    assert_eq!(got, (0..300).collect::<Vec<_>>());
}

#[test]
fn tables_grow_and_keep_every_key() {
    // Many distinct keys of every kind of table, each seen twice.
    let n = 5000usize;
    let plan = Plan {
        batches: vec![777],
        flush_after: vec![false, true],
        steps: vec![(true, 1000), (false, 3), (true, 1)],
        limits: DictionaryLimits {
            max_dictionary_bytes: usize::MAX,
            max_distinct_values: usize::MAX,
        },
    };
    let i32s: Vec<i32> = (0..2 * n).map(|i| (i % n) as i32 * 65_537).collect();
    round_trip::<Int32Type>(&i32s, Int32Type, &plan).unwrap();
    let i64s: Vec<i64> = (0..2 * n)
        .map(|i| (i % n) as i64 * -4_294_967_311)
        .collect();
    round_trip::<Int64Type>(&i64s, Int64Type, &plan).unwrap();
    let i96s: Vec<Int96> = (0..2 * n)
        .map(|i| Int96([7, (i % n) as u32, (i % n % 3) as u32]))
        .collect();
    round_trip::<Int96Type>(&i96s, Int96Type, &plan).unwrap();
    let strings: Vec<String> = (0..2 * n)
        .map(|i| "x".repeat(i % n % 40) + &(i % n).to_string())
        .collect();
    let bytes: ByteArrays = strings.iter().map(|s| s.as_bytes()).collect();
    round_trip::<ByteArrayType>(&bytes, ByteArrayType, &plan).unwrap();
    let fixed: ByteArrays = (0..2 * n)
        .map(|i| ((i % n) as u64).to_le_bytes())
        .collect::<Vec<_>>()
        .iter()
        .map(|b| &b[..5])
        .collect();
    round_trip::<FixedLenByteArrayType>(&fixed, FixedLenByteArrayType::new(5).unwrap(), &plan)
        .unwrap();
    let mut e = DictionaryEncoder::<Int96Type>::new(Int96Type, DictionaryLimits::default());
    e.put(&i96s).unwrap();
    assert_eq!(e.dictionary_len(), n);
    let mut e = DictionaryEncoder::<ByteArrayType>::new(ByteArrayType, plan.limits);
    e.put(bytes.iter()).unwrap();
    assert_eq!(e.dictionary_len(), n);
}

/// What a round trip does: put `values` in batches, flushing at some points, then decode every
/// page (dictionary pages with reads and skips interleaved) and compare with what was not
/// skipped.
#[derive(Debug, Clone)]
struct Plan {
    batches: Vec<usize>,
    flush_after: Vec<bool>,
    steps: Vec<(bool, usize)>,
    limits: DictionaryLimits,
}

fn plan() -> impl Strategy<Value = Plan> {
    (
        prop::collection::vec(prop_oneof![1usize..4, 1usize..200], 1..30),
        prop::collection::vec(any::<bool>(), 30),
        prop::collection::vec((any::<bool>(), prop_oneof![0usize..5, 0usize..100]), 1..30),
        prop_oneof![Just(usize::MAX), 1usize..10, 0usize..300],
        prop_oneof![Just(usize::MAX), 0usize..40],
    )
        .prop_map(|(batches, flush_after, steps, bytes, distinct)| Plan {
            batches,
            flush_after,
            steps,
            limits: DictionaryLimits {
                max_dictionary_bytes: bytes,
                max_distinct_values: distinct,
            },
        })
}

fn round_trip<T: DictionaryValue>(
    values: &T::Buffer,
    ty: T,
    plan: &Plan,
) -> std::result::Result<(), TestCaseError> {
    let mut e = DictionaryEncoder::<T>::new(ty, plan.limits);
    let mut pages = Vec::new();
    let mut flush = |e: &mut DictionaryEncoder<T>| {
        let encoding = e.page_encoding();
        let n = e.num_values();
        let size = e.estimated_size();
        let bytes = e.flush().unwrap();
        if encoding == Encoding::Plain {
            assert_eq!(size, bytes.len());
        }
        pages.push((encoding, n, bytes));
    };
    let mut iter = values.values();
    let mut put = 0;
    for (i, &batch) in plan.batches.iter().cycle().enumerate() {
        let n = batch.min(values.len() - put);
        e.put(iter.by_ref().take(n)).unwrap();
        put += n;
        if plan.flush_after[i % plan.flush_after.len()] {
            flush(&mut e);
        }
        if put == values.len() {
            break;
        }
    }
    while e.num_values() > 0 {
        flush(&mut e);
    }
    prop_assert!(e.dictionary_len() <= plan.limits.max_distinct_values);
    let dict_page = e.dictionary_page().unwrap();
    prop_assert!(
        dict_page.len() <= plan.limits.max_dictionary_bytes
            || T::TYPE == pqcodec_core::PhysicalType::Boolean
    );
    let dict = decode_plain_page::<T>(&dict_page, e.dictionary_len(), ty).unwrap();
    prop_assert_eq!(dict.len(), e.dictionary_len());
    // Decode, with the plan's reads and skips; `kept` are the values not skipped.
    let mut decoded = T::Buffer::default();
    let mut kept = T::Buffer::default();
    let mut pos = 0;
    let mut steps = plan.steps.iter().cycle();
    for (encoding, n, bytes) in &pages {
        let mut dict_decoder;
        let mut plain_decoder;
        let d: &mut dyn FnMut(bool, usize, &mut T::Buffer) -> usize = match encoding {
            Encoding::RleDictionary => {
                dict_decoder = DictionaryDecoder::<T>::new(
                    Bytes::copy_from_slice(bytes),
                    *n,
                    Arc::new(dict.clone()),
                )
                .unwrap();
                &mut move |read, k, out: &mut T::Buffer| {
                    if read {
                        dict_decoder.read(out, k).unwrap()
                    } else {
                        dict_decoder.skip(k).unwrap()
                    }
                }
            }
            _ => {
                plain_decoder =
                    PlainDecoder::<T>::new(Bytes::copy_from_slice(bytes), *n, ty).unwrap();
                &mut move |read, k, out: &mut T::Buffer| {
                    if read {
                        plain_decoder.read(out, k).unwrap()
                    } else {
                        plain_decoder.skip(k).unwrap()
                    }
                }
            }
        };
        let mut left = *n;
        while left > 0 {
            let &(read, k) = steps.next().unwrap();
            let k = k.max(1);
            let done = d(read, k, &mut decoded);
            prop_assert_eq!(done, k.min(left));
            if read {
                for i in pos..pos + done {
                    kept.push(values.get(i).unwrap());
                }
            }
            pos += done;
            left -= done;
        }
    }
    prop_assert_eq!(pos, values.len());
    prop_assert_eq!(decoded.len(), kept.len());
    prop_assert_eq!(
        plain_bytes::<T>(decoded.values(), ty),
        plain_bytes::<T>(kept.values(), ty)
    );
    Ok(())
}

/// A sink that does not lend its slots ([`Sink::grow_slots`]): decoders stage values for it.
struct NotLending<V>(Vec<V>);

impl<V: Copy> Sink<V> for NotLending<V> {
    fn push(&mut self, value: &V) {
        self.0.push(*value);
    }
    fn push_repeated(&mut self, value: &V, count: usize) {
        self.0.resize(self.0.len() + count, *value);
    }
    fn extend_from_slice(&mut self, values: &[V]) {
        self.0.extend_from_slice(values);
    }
}

/// [`DictionaryDecoder::read_fixed`] with skips gives what [`Decoder::read`] does, into a
/// sink that lends its slots and into one that does not.
fn read_fixed_matches<T: DictionaryValue + FixedWidth + Default>(
    values: &[T::Native],
    steps: &[(bool, usize)],
) -> std::result::Result<(), TestCaseError>
where
    T::Native: PartialEq,
{
    let mut e = DictionaryEncoder::new(T::default(), DictionaryLimits::default());
    e.put(values).unwrap();
    let page = e.flush().unwrap();
    let dict = decode_plain_page(
        &e.dictionary_page().unwrap(),
        e.dictionary_len(),
        T::default(),
    )
    .unwrap();
    let mut a = DictionaryDecoder::<T>::new(
        Bytes::copy_from_slice(&page),
        values.len(),
        Arc::new(dict.clone()),
    )
    .unwrap();
    let mut b = DictionaryDecoder::<T>::new(
        Bytes::copy_from_slice(&page),
        values.len(),
        Arc::new(dict.clone()),
    )
    .unwrap();
    let mut c = DictionaryDecoder::<T>::new(
        Bytes::copy_from_slice(&page),
        values.len(),
        Arc::new(dict.clone()),
    )
    .unwrap();
    let (mut got_a, mut got_b): (Vec<T::Native>, Vec<T::Native>) = (Vec::new(), Vec::new());
    let mut got_c = NotLending(Vec::new());
    for &(read, k) in steps.iter().cycle().take(200) {
        if read {
            let n = a.read_fixed(&mut got_a, k).unwrap();
            prop_assert_eq!(n, b.read(&mut got_b, k).unwrap());
            prop_assert_eq!(n, c.read_fixed(&mut got_c, k).unwrap());
        } else {
            let n = a.skip(k).unwrap();
            prop_assert_eq!(n, b.skip(k).unwrap());
            prop_assert_eq!(n, c.skip(k).unwrap());
        }
    }
    a.read_fixed(&mut got_a, usize::MAX).unwrap();
    b.read(&mut got_b, usize::MAX).unwrap();
    c.read_fixed(&mut got_c, usize::MAX).unwrap();
    prop_assert_eq!(
        plain_bytes::<T>(got_a.iter(), T::default()),
        plain_bytes::<T>(got_b.iter(), T::default())
    );
    prop_assert_eq!(
        plain_bytes::<T>(got_a.iter(), T::default()),
        plain_bytes::<T>(got_c.0.iter(), T::default())
    );
    Ok(())
}

/// `len` values drawn from a pool of `pool` distinct-ish values of `value`.
fn pooled<V: std::fmt::Debug + Clone + 'static>(
    value: impl Strategy<Value = V> + Clone,
) -> impl Strategy<Value = Vec<V>> {
    (prop::collection::vec(value, 1..40), 0usize..600)
        .prop_flat_map(|(pool, len)| prop::collection::vec(prop::sample::select(pool), len))
}

fn float_bits() -> impl Strategy<Value = f32> + Clone {
    prop_oneof![
        any::<f32>(),
        Just(-0.0),
        Just(f32::MIN),
        Just(f32::MAX),
        any::<u32>().prop_map(|b| f32::from_bits(b | 0x7F80_0001)),
    ]
}

fn double_bits() -> impl Strategy<Value = f64> + Clone {
    prop_oneof![
        any::<f64>(),
        Just(-0.0),
        Just(f64::MIN),
        Just(f64::MAX),
        any::<u64>().prop_map(|b| f64::from_bits(b | 0x7FF0_0000_0000_0001)),
    ]
}

fn byte_array() -> impl Strategy<Value = Vec<u8>> + Clone {
    prop_oneof![
        8 => prop::collection::vec(any::<u8>(), 0..12),
        1 => Just(vec![0xAB; 1 << 16]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn round_trip_int32(values in pooled(prop_oneof![any::<i32>(), Just(i32::MIN), Just(i32::MAX)]), plan in plan()) {
        round_trip::<Int32Type>(&values, Int32Type, &plan)?;
        read_fixed_matches::<Int32Type>(&values, &plan.steps)?;
    }

    #[test]
    fn round_trip_int64(values in pooled(prop_oneof![any::<i64>(), Just(i64::MIN), Just(i64::MAX)]), plan in plan()) {
        round_trip::<Int64Type>(&values, Int64Type, &plan)?;
        read_fixed_matches::<Int64Type>(&values, &plan.steps)?;
    }

    #[test]
    fn round_trip_int96(values in pooled(any::<[u32; 3]>().prop_map(Int96)), plan in plan()) {
        round_trip::<Int96Type>(&values, Int96Type, &plan)?;
        read_fixed_matches::<Int96Type>(&values, &plan.steps)?;
    }

    #[test]
    fn round_trip_float(values in pooled(float_bits()), plan in plan()) {
        round_trip::<FloatType>(&values, FloatType, &plan)?;
        read_fixed_matches::<FloatType>(&values, &plan.steps)?;
    }

    #[test]
    fn round_trip_double(values in pooled(double_bits()), plan in plan()) {
        round_trip::<DoubleType>(&values, DoubleType, &plan)?;
        read_fixed_matches::<DoubleType>(&values, &plan.steps)?;
    }

    #[test]
    fn round_trip_boolean(values in pooled(any::<bool>()), plan in plan()) {
        round_trip::<BooleanType>(&values, BooleanType, &plan)?;
    }

    #[test]
    fn round_trip_byte_array(values in pooled(byte_array()), plan in plan()) {
        let values: ByteArrays = values.iter().map(|v| &v[..]).collect();
        round_trip::<ByteArrayType>(&values, ByteArrayType, &plan)?;
    }

    #[test]
    fn round_trip_fixed_len(
        (len, values) in (1usize..20).prop_flat_map(|len| (Just(len), pooled(prop::collection::vec(any::<u8>(), len)))),
        plan in plan(),
    ) {
        let values: ByteArrays = values.iter().map(|v| &v[..]).collect();
        round_trip::<FixedLenByteArrayType>(&values, FixedLenByteArrayType::new(len).unwrap(), &plan)?;
    }

    /// Garbage never panics; errors are typed.
    #[test]
    fn garbage_never_panics(
        data in prop::collection::vec(any::<u8>(), 0..64),
        n in 0usize..1000,
        dict_len in 0usize..40,
        steps in prop::collection::vec((any::<bool>(), 0usize..300), 1..10),
    ) {
        let dict: Vec<i32> = (0..dict_len as i32).collect();
        if let Ok(mut d) = DictionaryDecoder::<Int32Type>::new(Bytes::copy_from_slice(&data), n, Arc::new(dict.clone())) {
            for (read, k) in steps {
                let r = if read { d.read(&mut Vec::new(), k) } else { d.skip(k) };
                if r.is_err() {
                    break;
                }
            }
        }
        if let Ok(mut d) = IndexDecoder::new(Bytes::copy_from_slice(&data), n, dict_len) {
            let mut out = Vec::new();
            if d.read(&mut out, n).is_ok() {
                prop_assert!(out.iter().all(|&i| (i as usize) < dict_len));
            }
        }
    }
}

#[test]
fn a_huge_claimed_count_does_not_reserve_for_it() {
    // Width 0, one bit-packed group of zero bytes, into an empty dictionary, in a page claiming
    // 2^31 values: found by fuzzing, it used to reserve 2 GiB before looking at an index.
    let data = [0, 0x03];
    let claimed = 1usize << 31;
    let mut out: Vec<u32> = Vec::new();
    let mut d = IndexDecoder::new(Bytes::copy_from_slice(&data), claimed, 0).unwrap();
    assert_eq!(
        d.read(&mut out, claimed),
        Err(Error::DictionaryIndex {
            encoding: Encoding::RleDictionary,
            index: 0,
            len: 0
        })
    );
    assert!(out.capacity() < 1 << 16, "reserved {}", out.capacity());
    let empty: Vec<i64> = Vec::new();
    let mut values: Vec<i64> = Vec::new();
    let mut d = DictionaryDecoder::<Int64Type>::new(
        Bytes::copy_from_slice(&data),
        claimed,
        Arc::new(empty.clone()),
    )
    .unwrap();
    assert!(matches!(
        Decoder::read(&mut d, &mut values, claimed),
        Err(Error::DictionaryIndex { .. })
    ));
    assert!(
        values.capacity() < 1 << 16,
        "reserved {}",
        values.capacity()
    );
    let mut values: Vec<i64> = Vec::new();
    let mut d = DictionaryDecoder::<Int64Type>::new(
        Bytes::copy_from_slice(&data),
        claimed,
        Arc::new(empty.clone()),
    )
    .unwrap();
    assert!(d.read_fixed(&mut values, claimed).is_err());
    assert!(
        values.capacity() < 1 << 16,
        "reserved {}",
        values.capacity()
    );
}

/// Byte-array values gathered through the stack buffer: every length around the 16-byte copy
/// and the buffer's size, a short value at the very end of the dictionary's data (no 16 bytes
/// to copy from), reads and skips of every size, and an index past the end.
#[test]
fn byte_array_gather_matches_lookup() {
    let lengths = [0usize, 1, 15, 16, 17, 100, 4095, 4096, 4097, 70_000, 3];
    let dict: ByteArrays = lengths
        .iter()
        .enumerate()
        .map(|(i, &len)| (0..len).map(|j| (i * 31 + j) as u8).collect::<Vec<u8>>())
        .collect::<Vec<_>>()
        .iter()
        .map(|v| v.as_slice())
        .collect();
    let mut seed = 0x2545_F491u32;
    let indices: Vec<u32> = (0..3000)
        .map(|i| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            // Short runs too, so both run kinds are gathered.
            if i % 97 < 10 { 10 } else { (seed >> 8) % 11 }
        })
        .collect();
    let mut e = RleEncoder::new(4);
    e.put_slice(&indices);
    let mut page = vec![4u8];
    e.flush_into(&mut page);
    for steps in [
        &[3000usize][..],
        &[1, 2, 3, 250, 7, 300, 1000],
        &[9, 17, 255, 256, 257],
    ] {
        let mut d = DictionaryDecoder::<ByteArrayType>::new(
            Bytes::copy_from_slice(&page),
            indices.len(),
            Arc::new(dict.clone()),
        )
        .unwrap();
        let mut pos = 0;
        for (k, &step) in steps.iter().cycle().enumerate() {
            if pos == indices.len() {
                break;
            }
            let want = step.min(indices.len() - pos);
            if k % 3 == 2 {
                assert_eq!(d.skip(step).unwrap(), want);
            } else {
                let mut out = ByteArrays::new();
                assert_eq!(d.read(&mut out, step).unwrap(), want);
                let expect: Vec<&[u8]> = indices[pos..pos + want]
                    .iter()
                    .map(|&i| dict.get(i as usize).unwrap())
                    .collect();
                assert_eq!(out.iter().collect::<Vec<_>>(), expect, "at {pos}");
            }
            pos += want;
        }
    }
    // Width 4 can point past 11 values: the bad index is reported.
    let mut e = RleEncoder::new(4);
    e.put_slice(&[1, 2, 12, 3, 4, 5, 6, 7]);
    let mut page = vec![4u8];
    e.flush_into(&mut page);
    let mut d = DictionaryDecoder::<ByteArrayType>::new(
        Bytes::copy_from_slice(&page),
        8,
        Arc::new(dict.clone()),
    )
    .unwrap();
    assert_eq!(
        d.read(&mut ByteArrays::new(), 8),
        Err(Error::DictionaryIndex {
            encoding: Encoding::RleDictionary,
            index: 12,
            len: 11
        })
    );
}

/// A bit-packed index past the end of a fixed-width dictionary is reported, wherever it sits in
/// the chunk, into a sink that lends its slots, one that does not, and the caller's slice; the
/// values before it decode as looked up.
#[test]
fn fixed_width_index_past_the_end_is_reported() {
    let dict: Vec<i64> = (0..11).map(|i| i * 100).collect();
    for bad_at in [0usize, 5, 299, 599] {
        let mut indices: Vec<u32> = (0..600).map(|i| (i * 7 % 11) as u32).collect();
        indices[bad_at] = 13;
        let mut e = RleEncoder::new(4);
        e.put_slice(&indices);
        let mut page = vec![4u8];
        e.flush_into(&mut page);
        let want = Err(Error::DictionaryIndex {
            encoding: Encoding::RleDictionary,
            index: 13,
            len: 11,
        });
        let decoder = || {
            DictionaryDecoder::<Int64Type>::new(
                Bytes::copy_from_slice(&page),
                indices.len(),
                Arc::new(dict.clone()),
            )
            .unwrap()
        };
        let mut lending = Vec::new();
        assert_eq!(decoder().read_fixed(&mut lending, 600), want, "{bad_at}");
        let mut staged = NotLending(Vec::new());
        assert_eq!(decoder().read_fixed(&mut staged, 600), want, "{bad_at}");
        assert_eq!(decoder().read_into(&mut [0; 600]), want, "{bad_at}");
        // Reads that stop before the bad index see only good values.
        let mut before = Vec::new();
        let mut d = decoder();
        assert_eq!(d.read_fixed(&mut before, bad_at), Ok(bad_at));
        let expect: Vec<i64> = indices[..bad_at]
            .iter()
            .map(|&i| dict[i as usize])
            .collect();
        assert_eq!(before, expect);
    }
    // An empty dictionary has no index in range (bit-packed indices, not a run).
    let mut e = RleEncoder::new(1);
    e.put_slice(&[0, 1].repeat(8));
    let mut page = vec![1u8];
    e.flush_into(&mut page);
    let empty: Vec<i64> = Vec::new();
    let mut d = DictionaryDecoder::<Int64Type>::new(
        Bytes::copy_from_slice(&page),
        16,
        Arc::new(empty.clone()),
    )
    .unwrap();
    assert!(matches!(
        d.read_fixed(&mut Vec::new(), 16),
        Err(Error::DictionaryIndex { len: 0, .. })
    ));
}

/// Values put by their interned indices (another dictionary's keys mapped onto this one, a
/// repeated entry merged) decode to the values; indices past the dictionary are refused.
#[test]
fn interned_indices_decode_to_their_values() {
    let dictionary: Vec<&[u8]> = vec![b"red", b"green", b"blue", b"green"];
    let keys = [2usize, 0, 0, 1, 3, 2, 1];
    let mut by_index =
        DictionaryEncoder::<ByteArrayType>::new(ByteArrayType, DictionaryLimits::default());
    let remap = by_index.intern(dictionary.iter().copied()).unwrap();
    assert_eq!(remap, [0, 1, 2, 1]);
    let indices: Vec<u32> = keys.iter().map(|&k| remap[k]).collect();
    assert!(by_index.put_indices(&[0, 3]).is_err());
    by_index.put_indices(&indices).unwrap();
    assert_eq!(by_index.num_values(), keys.len());
    let (page, dict) = (
        by_index.flush().unwrap(),
        by_index.dictionary_page().unwrap(),
    );
    let decoded_dict =
        crate::plain::decode_plain_page::<ByteArrayType>(&dict, 3, ByteArrayType).unwrap();
    let mut decoder = DictionaryDecoder::<ByteArrayType>::new(
        Bytes::copy_from_slice(&page),
        keys.len(),
        Arc::new(decoded_dict.clone()),
    )
    .unwrap();
    let values = decoder.read_all().unwrap();
    let expected: Vec<&[u8]> = keys.iter().map(|&k| dictionary[k]).collect();
    assert_eq!(values.iter().collect::<Vec<_>>(), expected);
}
