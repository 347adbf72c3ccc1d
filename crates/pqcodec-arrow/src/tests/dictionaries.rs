//! Dictionary pages: widened to decimals small and large, kept as Arrow dictionaries, a
//! writer's PLAIN fallback mid-chunk, one decoder over several chunks, and key widths.

use arrow_array::builder::StringDictionaryBuilder;
use arrow_array::types::Int32Type as ArrowInt32;
use arrow_array::{Array, StringArray};
use pqcodec_core::{ByteArrayType, PhysicalType};
use pqcodec_encodings::dictionary::{DictionaryEncoder, DictionaryLimits};

use super::*;

/// INT64 dictionaries read as Decimal128, one column chunk after another through one decoder:
/// small ones converted once and gathered, large ones (70,000 entries, 1.1 MB once widened)
/// left as the page's numbers, converted as looked up; each chunk's dictionary (decoded into
/// the last one's allocation) gives its own values.
#[test]
fn widened_dictionaries_small_and_large() {
    use pqcodec_core::Int64Type;
    let chunk = |entries: usize, seed: i64| {
        let values: Vec<i64> = (0..140_000)
            .map(|i| (i * 7919 % entries) as i64 * 3 - seed)
            .collect();
        let mut dict = DictionaryEncoder::<Int64Type>::new(Int64Type, DictionaryLimits::default());
        dict.put(&values).unwrap();
        let indices = dict.flush().unwrap();
        let dictionary = dict.dictionary_page().unwrap();
        let pages_ = dictionary_chunk(Buffer::from_vec(dictionary), entries, indices, values.len());
        (pages(pages_), values)
    };
    let desc = ColumnDesc::flat("d", ColumnType::Int64, false);
    let data_type = DataType::Decimal128(18, 2);
    let field = Arc::new(Field::new("d", data_type.clone(), false));
    let (first, values) = chunk(100, 5);
    let mut decoder = ArrayDecoder::try_new(field, vec![Column::new(desc, first)]).unwrap();
    let mut want: Vec<i64> = values;
    let mut got: Vec<i128> = Vec::new();
    for (entries, seed) in [(70_000, 1), (69_000, 2), (80_000, 3), (100, 4), (0, 0)] {
        for array in drain(&mut decoder, 8192, 0) {
            assert_eq!(array.data_type(), &data_type);
            let array = array
                .as_any()
                .downcast_ref::<arrow_array::Decimal128Array>()
                .unwrap();
            got.extend(array.values().iter());
        }
        let expected: Vec<i128> = want.iter().map(|&v| i128::from(v)).collect();
        assert_eq!(got, expected, "before the chunk of {entries} entries");
        if entries > 0 {
            let (next, values) = chunk(entries, seed);
            decoder.set_pages(vec![Box::new(next)]).unwrap();
            got.clear();
            want.clear();
            want.extend(values);
        }
    }
}

/// FIXED_LEN_BYTE_ARRAY(7) dictionaries read as Decimal128 and Decimal256, chunk after chunk:
/// small ones converted once, large ones (70,000 and 20,000 entries) kept as their pages and
/// converted as looked up, negative values sign extended.
#[test]
fn fixed_len_decimal_dictionaries_small_and_large() {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Decimal128Type, Decimal256Type};
    use arrow_buffer::i256;
    use pqcodec_core::FixedLenByteArrayType;
    let chunk = |entries: usize| {
        let values: Vec<i64> = (0..100_000)
            .map(|i| ((i * 7919 % entries) as i64 - entries as i64 / 2) * 1_000_003)
            .collect();
        let bytes: Vec<[u8; 7]> = values
            .iter()
            .map(|v| v.to_be_bytes()[1..].try_into().unwrap())
            .collect();
        let mut dict = DictionaryEncoder::<FixedLenByteArrayType>::new(
            FixedLenByteArrayType::new(7).unwrap(),
            DictionaryLimits::default(),
        );
        dict.put(bytes.iter().map(|b| &b[..])).unwrap();
        let indices = dict.flush().unwrap();
        let dictionary = Buffer::from_vec(dict.dictionary_page().unwrap());
        let pages_ = dictionary_chunk(dictionary, entries, indices, values.len());
        (pages(pages_), values)
    };
    for data_type in [DataType::Decimal128(16, 2), DataType::Decimal256(16, 2)] {
        let desc = ColumnDesc::flat(
            "d",
            ColumnType::new(PhysicalType::FixedLenByteArray, 7).unwrap(),
            false,
        );
        let field = Arc::new(Field::new("d", data_type.clone(), false));
        let (first, mut want) = chunk(100);
        let mut decoder = ArrayDecoder::try_new(field, vec![Column::new(desc, first)]).unwrap();
        for entries in [70_000, 20_000, 100, 0] {
            let mut got: Vec<i128> = Vec::new();
            for array in drain(&mut decoder, 8192, 0) {
                assert_eq!(array.data_type(), &data_type);
                match &data_type {
                    DataType::Decimal128(..) => {
                        got.extend(array.as_primitive::<Decimal128Type>().values().iter());
                    }
                    _ => got.extend(
                        array
                            .as_primitive::<Decimal256Type>()
                            .values()
                            .iter()
                            .map(|v: &i256| v.to_i128().unwrap()),
                    ),
                }
            }
            let expected: Vec<i128> = want.iter().map(|&v| i128::from(v)).collect();
            assert_eq!(
                got, expected,
                "{data_type}, before the chunk of {entries} entries"
            );
            if entries > 0 {
                let (next, values) = chunk(entries);
                decoder.set_pages(vec![Box::new(next)]).unwrap();
                want = values;
            }
        }
    }
}

/// A column of strings: a dictionary page, a dictionary-encoded page, then a PLAIN page (the
/// writer's fallback), all v1 with nulls.
fn string_pages() -> (Vec<Page>, Vec<Option<&'static str>>) {
    let rows: Vec<Option<&str>> = vec![
        Some("red"),
        None,
        Some("green"),
        Some("red"),
        None,
        Some("blue"),
        Some("long value past twelve bytes"),
        Some("red"),
    ];
    let mut dict =
        DictionaryEncoder::<ByteArrayType>::new(ByteArrayType, DictionaryLimits::default());
    let first: Vec<&[u8]> = rows[..4].iter().flatten().map(|s| s.as_bytes()).collect();
    dict.put(first).unwrap();
    let indices = dict.flush().unwrap();
    let dictionary = dict.dictionary_page().unwrap();
    let mut plain = PlainEncoder::<ByteArrayType>::new(ByteArrayType);
    let rest: Vec<&[u8]> = rows[4..].iter().flatten().map(|s| s.as_bytes()).collect();
    plain.put(rest).unwrap();
    let plain = plain.flush().unwrap();
    let def: Vec<u16> = rows.iter().map(|r| u16::from(r.is_some())).collect();
    let pages_ = vec![
        Page::Dictionary(DictionaryPage {
            data: Buffer::from_vec(dictionary),
            num_values: 2,
            encoding: Encoding::PlainDictionary,
        }),
        v1(PageSpec {
            def: &def[..4],
            rep: &[],
            max_def: 1,
            max_rep: 0,
            values: indices,
            encoding: Encoding::RleDictionary,
        }),
        v1(PageSpec {
            def: &def[4..],
            rep: &[],
            max_def: 1,
            max_rep: 0,
            values: plain,
            encoding: Encoding::Plain,
        }),
    ];
    (pages_, rows)
}

#[test]
fn dictionary_fallback_as_strings_views_and_dictionary() {
    for data_type in [
        DataType::Utf8,
        DataType::LargeUtf8,
        DataType::Utf8View,
        DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8)),
        DataType::Dictionary(Box::new(DataType::Int16), Box::new(DataType::LargeUtf8)),
        DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
        DataType::Dictionary(Box::new(DataType::Int64), Box::new(DataType::Utf8)),
        DataType::Dictionary(Box::new(DataType::UInt8), Box::new(DataType::Utf8View)),
        DataType::Dictionary(Box::new(DataType::UInt16), Box::new(DataType::Utf8)),
        DataType::Dictionary(Box::new(DataType::UInt32), Box::new(DataType::Utf8)),
        DataType::Dictionary(Box::new(DataType::UInt64), Box::new(DataType::Utf8)),
    ] {
        for batch in [1, 3, 8] {
            let (pages_, rows) = string_pages();
            let mut decoder = string_decoder(data_type.clone(), pages_);
            let got = drain(&mut decoder, batch, 0);
            let got: Vec<ArrayRef> = got
                .iter()
                .map(|a| {
                    assert_eq!(a.data_type(), &data_type);
                    arrow_cast_to_utf8(a)
                })
                .collect();
            let flat: Vec<Option<String>> = got
                .iter()
                .flat_map(|a| {
                    let s = a.as_any().downcast_ref::<StringArray>().unwrap().clone();
                    s.iter().map(|v| v.map(str::to_owned)).collect::<Vec<_>>()
                })
                .collect();
            let want: Vec<Option<String>> = rows.iter().map(|r| r.map(str::to_owned)).collect();
            assert_eq!(flat, want, "{data_type} in batches of {batch}");
        }
    }
}

/// One decoder over two column chunks: the first left part way through a page, its batch
/// kept; the second read whole. A third chunk whose dictionary-encoded page comes without a
/// dictionary page is an error, not a lookup in the last chunk's dictionary.
#[test]
fn set_pages_continues_with_the_next_chunk() {
    for data_type in [
        DataType::Utf8,
        DataType::Utf8View,
        DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
    ] {
        let (pages_, rows) = string_pages();
        let mut decoder = string_decoder(data_type.clone(), pages_);
        // Five rows: into the second (PLAIN) page.
        assert_eq!(decoder.read_records(5).unwrap(), 5);
        let (pages_, _) = string_pages();
        decoder.set_pages(vec![Box::new(pages(pages_))]).unwrap();
        assert_eq!(decoder.read_records(100).unwrap(), rows.len());
        let got = arrow_cast_to_utf8(&decoder.consume_batch().unwrap());
        let got: Vec<Option<&str>> = arrow_array::cast::AsArray::as_string::<i32>(&got)
            .iter()
            .collect();
        let want: Vec<Option<&str>> = rows[..5].iter().chain(&rows).copied().collect();
        assert_eq!(got, want, "{data_type}");

        let (mut pages_, _) = string_pages();
        pages_.remove(0);
        decoder.set_pages(vec![Box::new(pages(pages_))]).unwrap();
        let err = decoder.read_records(100).unwrap_err().to_string();
        assert!(
            err.contains("without a dictionary page"),
            "{data_type}: {err}"
        );

        let two = vec![
            Box::new(pages(vec![])) as Box<dyn crate::PageSource>,
            Box::new(pages(vec![])),
        ];
        assert!(decoder.set_pages(two).is_err());
    }
}

/// The strings of a string-like array (Utf8, LargeUtf8, Utf8View or a dictionary of them).
fn arrow_cast_to_utf8(a: &ArrayRef) -> ArrayRef {
    use arrow_array::cast::AsArray;
    let values: Vec<Option<String>> = match a.data_type() {
        DataType::Utf8 => a
            .as_string::<i32>()
            .iter()
            .map(|v| v.map(str::to_owned))
            .collect(),
        DataType::LargeUtf8 => a
            .as_string::<i64>()
            .iter()
            .map(|v| v.map(str::to_owned))
            .collect(),
        DataType::Utf8View => a
            .as_string_view()
            .iter()
            .map(|v| v.map(str::to_owned))
            .collect(),
        DataType::Dictionary(_, _) => {
            let d = a.as_any_dictionary();
            let values = arrow_cast_to_utf8(d.values());
            let values = values.as_string::<i32>();
            let keys: Vec<Option<usize>> = (0..a.len())
                .map(|i| a.is_valid(i).then(|| d.normalized_keys()[i]))
                .collect();
            keys.iter()
                .map(|k| k.map(|k| values.value(k).to_owned()))
                .collect()
        }
        other => panic!("not a string type: {other}"),
    };
    Arc::new(StringArray::from(values))
}

#[test]
fn dictionary_array_keeps_the_dictionary() {
    let (pages_, _) = string_pages();
    let data_type = DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8));
    let mut decoder = string_decoder(data_type, pages_);
    // The first four rows all come from the dictionary page: its two values, keys only.
    let a = decoder.read(4).unwrap();
    let d = a
        .as_any()
        .downcast_ref::<arrow_array::DictionaryArray<ArrowInt32>>()
        .unwrap();
    assert_eq!(d.values().len(), 2);
    let mut want = StringDictionaryBuilder::<ArrowInt32>::new();
    want.append_value("red");
    want.append_null();
    want.append_value("green");
    want.append_value("red");
    assert_eq!(d, &want.finish());
    // The rest fell back to PLAIN: each value gets an entry of its own.
    let a = decoder.read(10).unwrap();
    assert_eq!(a.len(), 4);
    assert_eq!(a.logical_null_count(), 1);
}

/// Keys count the batch's distinct values: 200 of them fit 8 bits unsigned, not signed.
#[test]
fn dictionary_keys_must_fit_their_type() {
    let strings: Vec<String> = (0..200).map(|i| format!("value {i}")).collect();
    let mut plain = PlainEncoder::<ByteArrayType>::new(ByteArrayType);
    plain.put(strings.iter().map(|s| s.as_bytes())).unwrap();
    let page = || {
        vec![v1(PageSpec {
            def: &[1; 200],
            rep: &[],
            max_def: 1,
            max_rep: 0,
            values: plain.clone().flush().unwrap(),
            encoding: Encoding::Plain,
        })]
    };
    let dictionary = |key: DataType| DataType::Dictionary(Box::new(key), Box::new(DataType::Utf8));
    let mut unsigned = string_decoder(dictionary(DataType::UInt8), page());
    let got = unsigned.read(200).unwrap();
    let got = arrow_cast_to_utf8(&got);
    let want = StringArray::from_iter_values(&strings);
    assert_eq!(got.as_ref(), &want as &dyn Array);
    let mut signed = string_decoder(dictionary(DataType::Int8), page());
    // The first 128 values have keys 0 to 127; the next batch starts a dictionary of its own.
    assert_eq!(signed.read(128).unwrap().len(), 128);
    assert_eq!(signed.read(72).unwrap().len(), 72);
    let mut signed = string_decoder(dictionary(DataType::Int8), page());
    let err = signed.read(129).unwrap_err().to_string();
    assert!(err.contains("more values than the keys of"), "{err}");
}
