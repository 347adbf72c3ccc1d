//! Pages built by hand (levels by the codec core's RLE encoder, values by its PLAIN and
//! dictionary encoders) decoded through the public API: flat and nested columns, v1 and v2
//! pages, records spanning pages, batch reads and skips interleaved, dictionaries kept and
//! looked up, and malformed pages.

use std::sync::Arc;

use arrow_array::builder::{
    Int32Builder, ListBuilder, MapBuilder, MapFieldNames, StringDictionaryBuilder,
};
use arrow_array::types::Int32Type as ArrowInt32;
use arrow_array::{Array, ArrayRef, Int32Array, StringArray};
use arrow_buffer::Buffer;
use arrow_schema::{DataType, Field};
use pqcodec_core::{ByteArrayType, ColumnType, Encoder, Encoding, Int32Type, PhysicalType};
use pqcodec_encodings::bits::bit_width;
use pqcodec_encodings::dictionary::{DictionaryEncoder, DictionaryLimits};
use pqcodec_encodings::plain::PlainEncoder;
use pqcodec_encodings::rle::RleEncoder;
use proptest::prelude::*;

use crate::{
    ArrayDecoder, Column, ColumnDesc, DataPageV1, DataPageV2, DictionaryPage, Error, Page,
};

fn rle(levels: &[u16], max: u16) -> Vec<u8> {
    let mut e = RleEncoder::new(bit_width(u64::from(max)));
    for &l in levels {
        e.put(u32::from(l));
    }
    let mut out = Vec::new();
    e.flush_into(&mut out);
    out
}

/// A page of `levels` (definition, repetition) and `values` in `encoding`.
struct PageSpec<'a> {
    def: &'a [u16],
    rep: &'a [u16],
    max_def: u16,
    max_rep: u16,
    values: Vec<u8>,
    encoding: Encoding,
}

fn v1(p: PageSpec<'_>) -> Page {
    let mut data = Vec::new();
    for (levels, max) in [(p.rep, p.max_rep), (p.def, p.max_def)] {
        if max > 0 {
            let body = rle(levels, max);
            data.extend_from_slice(&(body.len() as u32).to_le_bytes());
            data.extend_from_slice(&body);
        }
    }
    data.extend_from_slice(&p.values);
    Page::DataV1(DataPageV1 {
        data: Buffer::from_vec(data),
        num_values: p.def.len().max(p.rep.len()),
        encoding: p.encoding,
        def_level_encoding: Encoding::Rle,
        rep_level_encoding: Encoding::Rle,
    })
}

fn v2(p: PageSpec<'_>) -> Page {
    let rep = if p.max_rep > 0 {
        rle(p.rep, p.max_rep)
    } else {
        Vec::new()
    };
    let def = if p.max_def > 0 {
        rle(p.def, p.max_def)
    } else {
        Vec::new()
    };
    let num_values = p.def.len().max(p.rep.len());
    let nulls = p.def.iter().filter(|&&d| d < p.max_def).count();
    let records = if p.max_rep > 0 {
        p.rep.iter().filter(|&&r| r == 0).count()
    } else {
        num_values
    };
    let mut data = rep.clone();
    data.extend_from_slice(&def);
    data.extend_from_slice(&p.values);
    Page::DataV2(DataPageV2 {
        data: Buffer::from_vec(data),
        num_values,
        num_nulls: nulls,
        num_rows: records,
        encoding: p.encoding,
        def_levels_byte_len: def.len(),
        rep_levels_byte_len: rep.len(),
    })
}

fn plain_i32(values: &[i32]) -> Vec<u8> {
    let mut e = PlainEncoder::<Int32Type>::new(Int32Type);
    e.put(values).unwrap();
    e.flush().unwrap()
}

fn pages(pages: Vec<Page>) -> impl crate::PageSource + 'static {
    pages.into_iter().map(Ok::<_, std::io::Error>)
}

/// Reads `decoder` to the end in batches of `batch`, skipping `skip` rows after each batch;
/// returns the arrays read and the rows skipped.
fn drain(decoder: &mut ArrayDecoder, batch: usize, skip: usize) -> Vec<ArrayRef> {
    let mut out = Vec::new();
    loop {
        let a = decoder.read(batch).unwrap();
        if a.is_empty() {
            break;
        }
        out.push(a);
        if skip > 0 {
            decoder.skip(skip).unwrap();
        }
    }
    out
}

/// The rows a drain with `batch` and `skip` keeps of `n`.
fn kept(n: usize, batch: usize, skip: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < n {
        let end = (at + batch).min(n);
        out.push(at..end);
        at = end + skip;
    }
    out
}

/// Splits `rows` levels into pages at `cuts` (positions taken modulo the length).
fn split(len: usize, cuts: &[usize]) -> Vec<std::ops::Range<usize>> {
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (len + 1)).collect();
    points.push(0);
    points.push(len);
    points.sort_unstable();
    points.dedup();
    points.windows(2).map(|w| w[0]..w[1]).collect()
}

fn flat_pages(values: &[Option<i32>], cuts: &[usize], version2: bool) -> Vec<Page> {
    split(values.len(), cuts)
        .into_iter()
        .map(|r| {
            let chunk = &values[r];
            let def: Vec<u16> = chunk.iter().map(|v| u16::from(v.is_some())).collect();
            let dense: Vec<i32> = chunk.iter().flatten().copied().collect();
            let spec = PageSpec {
                def: &def,
                rep: &[],
                max_def: 1,
                max_rep: 0,
                values: plain_i32(&dense),
                encoding: Encoding::Plain,
            };
            if version2 { v2(spec) } else { v1(spec) }
        })
        .collect()
}

fn int_decoder(pages_: Vec<Page>) -> ArrayDecoder {
    let desc = ColumnDesc::flat("a", ColumnType::Int32, true);
    let field = Arc::new(Field::new("a", DataType::Int32, true));
    ArrayDecoder::try_new(field, vec![Column::new(desc, pages(pages_))]).unwrap()
}

/// A column chunk of a required column: a PLAIN dictionary page of `entries` values, then one
/// RLE_DICTIONARY data page of `rows` `indices`.
fn dictionary_chunk(
    dictionary: Buffer,
    entries: usize,
    indices: Vec<u8>,
    rows: usize,
) -> Vec<Page> {
    vec![
        Page::Dictionary(DictionaryPage {
            data: dictionary,
            num_values: entries,
            encoding: Encoding::Plain,
        }),
        v1(PageSpec {
            def: &vec![0; rows],
            rep: &[],
            max_def: 0,
            max_rep: 0,
            values: indices,
            encoding: Encoding::RleDictionary,
        }),
    ]
}

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

/// A page that is done is let go before the next is fetched (its buffer is freed then, not
/// held while the next is decompressed), whether the column borrows its values (PLAIN
/// required ints) or copies them (optional ints, spread over their nulls).
#[test]
fn a_done_page_is_released_before_the_next_is_fetched() {
    for optional in [false, true] {
        let values: Vec<i32> = (0..100).collect();
        let page = |values: &[i32]| {
            v1(PageSpec {
                // Levels are written only for the optional column; their count is the page's.
                def: &vec![1; values.len()],
                rep: &[],
                max_def: u16::from(optional),
                max_rep: 0,
                values: plain_i32(values),
                encoding: Encoding::Plain,
            })
        };
        let (first, second) = (page(&values), page(&values));
        let Page::DataV1(p) = &first else {
            unreachable!()
        };
        // The test's own handle on the first page's buffer, checked when the second is asked
        // for: unique then if the reader let go of it.
        let mut held = Some(p.data.clone());
        let released = Arc::new(std::sync::Mutex::new(None));
        let seen = Arc::clone(&released);
        let mut queue = vec![second, first];
        let source = std::iter::from_fn(move || {
            if queue.len() == 1 {
                let unique = held.take().map(|b| b.into_mutable().is_ok());
                *seen.lock().unwrap() = unique;
            }
            queue.pop().map(Ok::<_, std::io::Error>)
        });
        let desc = ColumnDesc::flat("a", ColumnType::Int32, optional);
        let field = Arc::new(Field::new("a", DataType::Int32, optional));
        let mut decoder = ArrayDecoder::try_new(field, vec![Column::new(desc, source)]).unwrap();
        // The whole first page, its batch dropped, then one row of the second.
        assert_eq!(decoder.read(100).unwrap().len(), 100);
        assert_eq!(decoder.read(1).unwrap().len(), 1);
        assert_eq!(
            *released.lock().unwrap(),
            Some(true),
            "optional: {optional}"
        );
    }
}

/// What a builder keeps of a column chunk's dictionary page (Decimal128 values looked up in
/// it) is let go when the next chunk starts, before that chunk's first page is read.
#[test]
fn a_dictionary_is_released_before_the_next_chunk_is_read() {
    use pqcodec_core::FixedLenByteArrayType;
    let decimals: Vec<[u8; 7]> = (0..20_000i64)
        .map(|v| v.to_be_bytes()[1..].try_into().unwrap())
        .collect();
    let values: Vec<&[u8]> = decimals.iter().map(|v| &v[..]).collect();
    let data_type = DataType::Decimal128(16, 2);
    let chunk = || {
        let mut e = DictionaryEncoder::<FixedLenByteArrayType>::new(
            FixedLenByteArrayType::new(7).unwrap(),
            DictionaryLimits::default(),
        );
        e.put(values.iter().copied()).unwrap();
        let (dictionary, indices) = (e.dictionary_page().unwrap(), e.flush().unwrap());
        let dictionary = Buffer::from_vec(dictionary);
        let pages_ = dictionary_chunk(dictionary.clone(), values.len(), indices, values.len());
        (pages_, dictionary)
    };
    let (first, dictionary) = chunk();
    let desc = ColumnDesc::flat(
        "v",
        ColumnType::new(PhysicalType::FixedLenByteArray, 7).unwrap(),
        false,
    );
    let field = Arc::new(Field::new("v", data_type.clone(), false));
    let mut decoder = ArrayDecoder::try_new(field, vec![Column::new(desc, pages(first))]).unwrap();
    assert_eq!(decoder.read(values.len()).unwrap().len(), values.len());
    // The test's own handle on the first dictionary page, checked when the next chunk's
    // first page is asked for: unique then if the reader let go of it.
    let mut held = Some(dictionary);
    let released = Arc::new(std::sync::Mutex::new(None));
    let seen = Arc::clone(&released);
    let mut queue = chunk().0;
    queue.reverse();
    let source = std::iter::from_fn(move || {
        if let Some(buffer) = held.take() {
            *seen.lock().unwrap() = Some(buffer.into_mutable().is_ok());
        }
        queue.pop().map(Ok::<_, std::io::Error>)
    });
    decoder.set_pages(vec![Box::new(source)]).unwrap();
    assert_eq!(decoder.read(1).unwrap().len(), 1);
    assert_eq!(*released.lock().unwrap(), Some(true));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn flat_optional_ints(
        values in prop::collection::vec(prop::option::weighted(0.8, any::<i32>()), 0..300),
        cuts in prop::collection::vec(0usize..400, 0..4),
        version2 in any::<bool>(),
        batch in 1usize..140,
        skip in 0usize..20,
    ) {
        let mut decoder = int_decoder(flat_pages(&values, &cuts, version2));
        let got = drain(&mut decoder, batch, skip);
        let expect = kept(values.len(), batch, skip);
        prop_assert_eq!(got.len(), expect.len());
        for (array, range) in got.iter().zip(expect) {
            let want = Int32Array::from(values[range].to_vec());
            prop_assert_eq!(array.as_ref(), &want as &dyn Array);
        }
    }

    #[test]
    fn lists_of_optional_ints(
        rows in prop::collection::vec(
            prop::option::weighted(0.8, prop::collection::vec(prop::option::weighted(0.8, -5i32..5), 0..5)),
            0..120,
        ),
        cuts in prop::collection::vec(0usize..400, 0..4),
        version2 in any::<bool>(),
        batch in 1usize..50,
        skip in 0usize..5,
    ) {
        // Levels: 0 null list, 1 empty list, 2 null element, 3 element.
        let mut def = Vec::new();
        let mut rep = Vec::new();
        let mut dense = Vec::new();
        let mut row_start = Vec::new();
        for row in &rows {
            row_start.push(def.len());
            match row {
                None => { def.push(0); rep.push(0); }
                Some(items) if items.is_empty() => { def.push(1); rep.push(0); }
                Some(items) => for (i, item) in items.iter().enumerate() {
                    rep.push(u16::from(i > 0));
                    match item {
                        Some(v) => { def.push(3); dense.push(*v); }
                        None => def.push(2),
                    }
                },
            }
        }
        // v2 pages start at record boundaries; v1 pages may cut a record.
        let cut_points: Vec<usize> = if version2 {
            cuts.iter().filter_map(|c| row_start.get(c % (row_start.len() + 1)).copied()).collect()
        } else {
            cuts.clone()
        };
        let mut pages_ = Vec::new();
        let mut value_at = 0;
        for r in split(def.len(), &cut_points) {
            let n = def[r.clone()].iter().filter(|&&d| d == 3).count();
            let spec = PageSpec {
                def: &def[r.clone()],
                rep: &rep[r.clone()],
                max_def: 3,
                max_rep: 1,
                values: plain_i32(&dense[value_at..value_at + n]),
                encoding: Encoding::Plain,
            };
            value_at += n;
            pages_.push(if version2 { v2(spec) } else { v1(spec) });
        }
        let item = Arc::new(Field::new("element", DataType::Int32, true));
        let field = Arc::new(Field::new("l", DataType::List(item), true));
        let desc = ColumnDesc {
            path: "l.list.element".into(),
            column_type: ColumnType::Int32,
            max_def_level: 3,
            max_rep_level: 1,
        };
        let mut decoder = ArrayDecoder::try_new(field, vec![Column::new(desc, pages(pages_))]).unwrap();
        let got = drain(&mut decoder, batch, skip);
        let expect = kept(rows.len(), batch, skip);
        prop_assert_eq!(got.len(), expect.len());
        for (array, range) in got.iter().zip(expect) {
            let mut want = ListBuilder::new(Int32Builder::new())
                .with_field(Arc::new(Field::new("element", DataType::Int32, true)));
            for row in &rows[range] {
                match row {
                    None => want.append_null(),
                    Some(items) => {
                        for item in items {
                            want.values().append_option(*item);
                        }
                        want.append(true);
                    }
                }
            }
            let want = want.finish();
            prop_assert_eq!(array.as_ref(), &want as &dyn Array);
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

fn string_decoder(data_type: DataType, pages_: Vec<Page>) -> ArrayDecoder {
    let desc = ColumnDesc::flat("s", ColumnType::ByteArray, true);
    let field = Arc::new(Field::new("s", data_type, true));
    ArrayDecoder::try_new(field, vec![Column::new(desc, pages(pages_))]).unwrap()
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

/// A batch's values take the memory of its slots and no more, also when it crosses pages and
/// nulls are spread among its values.
#[test]
fn batch_values_are_allocated_exactly() {
    let values: Vec<Option<i32>> = (0..1000).map(|i| (i % 3 != 0).then_some(i)).collect();
    let cuts: Vec<usize> = (100..1000).step_by(100).collect();
    for version2 in [false, true] {
        let mut decoder = int_decoder(flat_pages(&values, &cuts, version2));
        for array in drain(&mut decoder, 64, 0) {
            let data = array.to_data();
            assert_eq!(data.buffers()[0].capacity(), array.len() * 4, "{version2}");
        }
    }
}

#[test]
fn skips_whole_pages_and_within_pages() {
    let values: Vec<Option<i32>> = (0..100).map(|i| (i % 3 != 0).then_some(i)).collect();
    let mut decoder = int_decoder(flat_pages(&values, &[10, 50, 70], false));
    assert_eq!(decoder.skip(55).unwrap(), 55);
    let a = decoder.read(5).unwrap();
    assert_eq!(
        a.as_ref(),
        &Int32Array::from(values[55..60].to_vec()) as &dyn Array
    );
    assert_eq!(decoder.skip(1000).unwrap(), 40);
    assert_eq!(decoder.read(5).unwrap().len(), 0);
}

#[test]
fn malformed_pages_are_errors_naming_the_column_and_page() {
    // A level section whose length prefix runs past the page.
    let def = [1u16, 0, 1];
    let mut page = v1(PageSpec {
        def: &def,
        rep: &[],
        max_def: 1,
        max_rep: 0,
        values: plain_i32(&[1, 2]),
        encoding: Encoding::Plain,
    });
    if let Page::DataV1(p) = &mut page {
        let mut bytes = p.data.as_slice().to_vec();
        bytes[0] = 200;
        p.data = Buffer::from_vec(bytes);
    }
    let err = int_decoder(vec![page]).read(3).unwrap_err();
    assert!(
        matches!(&err, Error::Levels { at, levels: "definition levels", .. }
            if at.column == "a" && at.page == Some(0)),
        "{err}"
    );

    // A definition level of 2 in a column whose maximum is 1: an RLE run of three 2s.
    let mut bytes = vec![2, 0, 0, 0, 3 << 1, 2];
    bytes.extend_from_slice(&plain_i32(&[1, 2, 3]));
    let page = Page::DataV1(DataPageV1 {
        data: Buffer::from_vec(bytes),
        num_values: 3,
        encoding: Encoding::Plain,
        def_level_encoding: Encoding::Rle,
        rep_level_encoding: Encoding::Rle,
    });
    let err = int_decoder(vec![page]).read(3).unwrap_err();
    assert!(
        matches!(&err, Error::Corrupt { .. } | Error::Levels { .. }),
        "{err}"
    );

    // Fewer values than the levels say.
    let page = v1(PageSpec {
        def: &[1, 1, 1],
        rep: &[],
        max_def: 1,
        max_rep: 0,
        values: plain_i32(&[1]),
        encoding: Encoding::Plain,
    });
    let err = int_decoder(vec![page]).read(3).unwrap_err();
    assert!(
        matches!(err, Error::Codec { .. } | Error::Corrupt { .. }),
        "{err}"
    );

    // v2 level lengths past the page.
    let mut page = v2(PageSpec {
        def: &[1, 1],
        rep: &[],
        max_def: 1,
        max_rep: 0,
        values: plain_i32(&[1, 2]),
        encoding: Encoding::Plain,
    });
    if let Page::DataV2(p) = &mut page {
        p.def_levels_byte_len = 1000;
    }
    let err = int_decoder(vec![page]).read(3).unwrap_err();
    assert!(
        matches!(
            &err,
            Error::Corrupt {
                field: "level lengths",
                ..
            }
        ),
        "{err}"
    );

    // Dictionary-encoded page without a dictionary; index past the dictionary.
    let page = v1(PageSpec {
        def: &[1],
        rep: &[],
        max_def: 1,
        max_rep: 0,
        values: vec![1, 2, 1],
        encoding: Encoding::RleDictionary,
    });
    let err = int_decoder(vec![page]).read(1).unwrap_err();
    assert!(
        matches!(
            &err,
            Error::Corrupt {
                field: "dictionary page",
                ..
            }
        ),
        "{err}"
    );
    let dictionary = Page::Dictionary(DictionaryPage {
        data: Buffer::from_vec(plain_i32(&[5])),
        num_values: 1,
        encoding: Encoding::Plain,
    });
    let page = v1(PageSpec {
        def: &[1],
        rep: &[],
        max_def: 1,
        max_rep: 0,
        // Bit width 2, one RLE run of 1 value: index 3.
        values: vec![2, 2, 3],
        encoding: Encoding::RleDictionary,
    });
    let err = int_decoder(vec![dictionary, page]).read(1).unwrap_err();
    assert!(
        matches!(&err, Error::Codec { source: pqcodec_core::Error::DictionaryIndex { .. }, at } if at.page == Some(1)),
        "{err}"
    );

    // A record starting with a repetition level above 0.
    let item = Arc::new(Field::new("element", DataType::Int32, true));
    let field = Arc::new(Field::new("l", DataType::List(item), true));
    let desc = ColumnDesc {
        path: "l".into(),
        column_type: ColumnType::Int32,
        max_def_level: 3,
        max_rep_level: 1,
    };
    let page = v1(PageSpec {
        def: &[3, 3],
        rep: &[1, 0],
        max_def: 3,
        max_rep: 1,
        values: plain_i32(&[1, 2]),
        encoding: Encoding::Plain,
    });
    let mut decoder =
        ArrayDecoder::try_new(field, vec![Column::new(desc, pages(vec![page]))]).unwrap();
    let err = decoder.read(2).unwrap_err();
    assert!(
        matches!(
            &err,
            Error::Corrupt {
                field: "repetition levels",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn invalid_utf8_is_an_error_with_its_value() {
    let mut plain = PlainEncoder::<ByteArrayType>::new(ByteArrayType);
    plain.put([&b"ok"[..], b"\xC3\x28"]).unwrap();
    let page = v1(PageSpec {
        def: &[1, 0, 1],
        rep: &[],
        max_def: 1,
        max_rep: 0,
        values: plain.flush().unwrap(),
        encoding: Encoding::Plain,
    });
    let mut decoder = string_decoder(DataType::Utf8, vec![page.clone()]);
    let err = decoder.read(3).unwrap_err();
    assert!(
        matches!(&err, Error::Utf8 { index: 1, valid_up_to: 0, at } if at.column == "s"),
        "{err}"
    );
    // As Binary the same bytes are fine.
    let mut decoder = string_decoder(DataType::Binary, vec![page]);
    assert_eq!(decoder.read(3).unwrap().len(), 3);
}

#[test]
fn types_and_levels_that_do_not_fit_are_rejected() {
    let desc = ColumnDesc::flat("a", ColumnType::Int32, true);
    let field = Arc::new(Field::new("a", DataType::Utf8, true));
    let err =
        ArrayDecoder::try_new(field, vec![Column::new(desc.clone(), pages(vec![]))]).unwrap_err();
    assert!(
        matches!(
            err,
            Error::Unsupported {
                column_type: ColumnType::Int32,
                ..
            }
        ),
        "{err}"
    );
    // A zero-width FIXED_LEN_BYTE_ARRAY column cannot be described at all.
    assert!(matches!(
        ColumnType::new(PhysicalType::FixedLenByteArray, 0),
        Err(pqcodec_core::Error::TypeLength { type_length: 0 })
    ));
    let desc4 = ColumnDesc::flat(
        "f",
        ColumnType::new(PhysicalType::FixedLenByteArray, 4).unwrap(),
        true,
    );
    let field5 = Arc::new(Field::new("f", DataType::FixedSizeBinary(5), true));
    let err = ArrayDecoder::try_new(field5, vec![Column::new(desc4, pages(vec![]))]).unwrap_err();
    assert!(matches!(err, Error::Unsupported { .. }), "{err}");
    assert!(err.to_string().contains("FIXED_LEN_BYTE_ARRAY(4)"), "{err}");
    let field = Arc::new(Field::new("a", DataType::Int32, false));
    let err = ArrayDecoder::try_new(field, vec![Column::new(desc, pages(vec![]))]).unwrap_err();
    assert!(matches!(err, Error::Schema(_)), "{err}");
}

/// A decoder of an optional map of Int32 to optional Int32 whose key Parquet declares
/// OPTIONAL (as Presto, Trino and Athena wrote maps), from its columns' levels (definition:
/// 0 null map, 1 empty, 2 null key or value, 3 key or value), one v1 page per column.
fn optional_key_map(key: &[(u16, u16, i32)], value: &[(u16, u16, i32)]) -> ArrayDecoder {
    let column = |path: &str, levels: &[(u16, u16, i32)]| {
        let def: Vec<u16> = levels.iter().map(|l| l.0).collect();
        let rep: Vec<u16> = levels.iter().map(|l| l.1).collect();
        let dense: Vec<i32> = levels.iter().filter(|l| l.0 == 3).map(|l| l.2).collect();
        let page = v1(PageSpec {
            def: &def,
            rep: &rep,
            max_def: 3,
            max_rep: 1,
            values: plain_i32(&dense),
            encoding: Encoding::Plain,
        });
        let desc = ColumnDesc {
            path: path.into(),
            column_type: ColumnType::Int32,
            max_def_level: 3,
            max_rep_level: 1,
        };
        Column::new(desc, pages(vec![page]))
    };
    let field = Arc::new(Field::new("m", map_type(), true));
    let columns = vec![
        column("m.key_value.key", key),
        column("m.key_value.value", value),
    ];
    ArrayDecoder::try_new(field, columns).unwrap()
}

/// Arrow's map type as arrow-rs reads the map above: the key non-nullable.
fn map_type() -> DataType {
    let entries = Field::new(
        "key_value",
        DataType::Struct(
            vec![
                Field::new("key", DataType::Int32, false),
                Field::new("value", DataType::Int32, true),
            ]
            .into(),
        ),
        false,
    );
    DataType::Map(Arc::new(entries), false)
}

#[test]
fn maps_with_optional_keys_read_as_arrow_maps() {
    // {1: 10, 2: null}, null, {}, {3: 30}.
    let key = [(3, 0, 1), (3, 1, 2), (0, 0, 0), (1, 0, 0), (3, 0, 3)];
    let value = [(3, 0, 10), (2, 1, 0), (0, 0, 0), (1, 0, 0), (3, 0, 30)];
    let names = MapFieldNames {
        entry: "key_value".into(),
        key: "key".into(),
        value: "value".into(),
    };
    let mut want = MapBuilder::new(Some(names), Int32Builder::new(), Int32Builder::new());
    want.keys().append_value(1);
    want.values().append_value(10);
    want.keys().append_value(2);
    want.values().append_null();
    want.append(true).unwrap();
    want.append(false).unwrap();
    want.append(true).unwrap();
    want.keys().append_value(3);
    want.values().append_value(30);
    want.append(true).unwrap();
    let want = want.finish();
    assert_eq!(want.data_type(), &map_type());
    for batch in [1, 2, 4] {
        let mut decoder = optional_key_map(&key, &value);
        let got = drain(&mut decoder, batch, 0);
        let got: Vec<&dyn Array> = got.iter().map(|a| a.as_ref()).collect();
        let got = arrow_select::concat::concat(&got).unwrap();
        assert_eq!(got.as_ref(), &want as &dyn Array, "batch {batch}");
    }
    // Skipping rows reads what follows.
    let mut decoder = optional_key_map(&key, &value);
    assert_eq!(decoder.skip(3).unwrap(), 3);
    assert_eq!(
        decoder.read(5).unwrap().as_ref(),
        &want.slice(3, 1) as &dyn Array
    );
}

#[test]
fn a_null_map_key_is_an_error_naming_the_column() {
    // {1: 10}, {5: 50, null: 60}, {7: 70}: the second row's second key is null.
    let key = [(3, 0, 1), (3, 0, 5), (2, 1, 0), (3, 0, 7)];
    let value = [(3, 0, 10), (3, 0, 50), (3, 1, 60), (3, 0, 70)];
    let mut decoder = optional_key_map(&key, &value);
    let err = decoder.read(3).unwrap_err();
    assert!(
        matches!(&err, Error::NullMapKey { at, index: 2 } if at.column == "m.key_value.key"),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "column \"m.key_value.key\": map entry 2 of the batch has a null key \
         (an Arrow map's keys cannot be null)"
    );
    // Batch by batch: the first row reads, the second fails at its second entry; skipping
    // it (arrow-rs skips without looking at keys) the third reads.
    let mut decoder = optional_key_map(&key, &value);
    assert_eq!(decoder.read(1).unwrap().len(), 1);
    let err = decoder.read(1).unwrap_err();
    assert!(matches!(err, Error::NullMapKey { index: 1, .. }), "{err:?}");
    let mut decoder = optional_key_map(&key, &value);
    assert_eq!(decoder.skip(2).unwrap(), 2);
    assert_eq!(decoder.read(1).unwrap().len(), 1);
}

#[test]
fn source_errors_are_reported() {
    let desc = ColumnDesc::flat("a", ColumnType::Int32, true);
    let field = Arc::new(Field::new("a", DataType::Int32, true));
    let source = vec![Err::<Page, _>(std::io::Error::other("disk on fire"))].into_iter();
    let mut decoder = ArrayDecoder::try_new(field, vec![Column::new(desc, source)]).unwrap();
    let err = decoder.read(1).unwrap_err();
    assert!(matches!(err, Error::Source { .. }));
    assert!(err.to_string().contains("disk on fire"));
}

/// ALP pages (the encoder of `pqcodec-encodings`, levels RLE) read into Float64 and Float32
/// arrays with nulls, v1 and v2 pages, in batches with skips: the values come back bit for bit.
#[test]
fn alp_pages_into_float_arrays_with_nulls() {
    use arrow_array::{Float32Array, Float64Array};
    use pqcodec_core::{DoubleType, FloatType};
    use pqcodec_encodings::alp::AlpEncoder;

    let values: Vec<Option<f64>> = (0..3000u64)
        .map(|i| match i % 13 {
            0 | 5 => None,
            1 => Some(f64::from_bits(0x7FF8_0000_0000_0000 | i)),
            2 => Some(-0.0),
            _ => Some((i * 7919 % 100_000) as f64 / 100.0),
        })
        .collect();
    fn alp_pages<T: pqcodec_encodings::alp::AlpType>(
        values: &[Option<T::Float>],
        cuts: &[usize],
        version2: bool,
    ) -> Vec<Page> {
        split(values.len(), cuts)
            .into_iter()
            .map(|r| {
                let chunk = &values[r];
                let def: Vec<u16> = chunk.iter().map(|v| u16::from(v.is_some())).collect();
                let dense: Vec<T::Float> = chunk.iter().flatten().copied().collect();
                let mut e = AlpEncoder::<T>::new();
                e.put_slice(&dense).unwrap();
                let spec = PageSpec {
                    def: &def,
                    rep: &[],
                    max_def: 1,
                    max_rep: 0,
                    values: e.flush().unwrap(),
                    encoding: Encoding::Alp,
                };
                if version2 { v2(spec) } else { v1(spec) }
            })
            .collect()
    }
    let bits64 =
        |a: &Float64Array| -> Vec<Option<u64>> { a.iter().map(|v| v.map(f64::to_bits)).collect() };
    for version2 in [false, true] {
        let desc = ColumnDesc::flat("d", ColumnType::Double, true);
        let field = Arc::new(Field::new("d", DataType::Float64, true));
        let pages_ = alp_pages::<DoubleType>(&values, &[700, 2100], version2);
        let mut decoder =
            ArrayDecoder::try_new(field, vec![Column::new(desc, pages(pages_))]).unwrap();
        let (batch, skip) = (500, 123);
        let got = drain(&mut decoder, batch, skip);
        let expect = kept(values.len(), batch, skip);
        assert_eq!(got.len(), expect.len());
        for (array, range) in got.iter().zip(expect) {
            let array = array.as_any().downcast_ref::<Float64Array>().unwrap();
            let want: Vec<Option<u64>> =
                values[range].iter().map(|v| v.map(f64::to_bits)).collect();
            assert_eq!(bits64(array), want);
        }
    }

    let floats: Vec<Option<f32>> = values.iter().map(|v| v.map(|d| d as f32)).collect();
    let desc = ColumnDesc::flat("f", ColumnType::Float, true);
    let field = Arc::new(Field::new("f", DataType::Float32, true));
    let pages_ = alp_pages::<FloatType>(&floats, &[1024], true);
    let mut decoder = ArrayDecoder::try_new(field, vec![Column::new(desc, pages(pages_))]).unwrap();
    let got = decoder.read(floats.len()).unwrap();
    let got = got.as_any().downcast_ref::<Float32Array>().unwrap();
    let got: Vec<Option<u32>> = got.iter().map(|v| v.map(f32::to_bits)).collect();
    let want: Vec<Option<u32>> = floats.iter().map(|v| v.map(f32::to_bits)).collect();
    assert_eq!(got, want);
}
