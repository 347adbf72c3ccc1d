//! Cases only the Arrow adapter sees: levels, page headers, dictionary pages, UTF-8, schema.

use super::*;

/// The error an Arrow case must give.
#[derive(Debug, Clone)]
pub(super) enum ArrowVariant {
    /// [`ArrowError::Codec`] whose source is the codec error expected.
    Codec(Expect),
    /// [`ArrowError::Levels`] of these levels ("definition levels" or "repetition levels")
    /// whose source is the codec error expected.
    Levels(&'static str, Expect),
    /// [`ArrowError::Corrupt`] of `encoding` in `field`.
    Corrupt(Encoding, &'static str),
    /// [`ArrowError::Utf8`].
    Utf8,
    /// [`ArrowError::Unsupported`].
    Unsupported,
    /// [`ArrowError::Source`].
    Source,
}

/// A column's pages (or page-source errors) and the error reading them must give.
pub(super) struct ArrowCase {
    name: &'static str,
    desc: ColumnDesc,
    field: Field,
    pages: Vec<Result<Page, String>>,
    expect: ArrowVariant,
    /// The page the error must be located at.
    page: Option<usize>,
    /// More words the message must hold.
    says: &'static [&'static str],
}

pub(super) fn v1(data: Vec<u8>, num_values: usize, encoding: Encoding) -> Result<Page, String> {
    Ok(Page::DataV1(DataPageV1 {
        data: Buffer::from_vec(data),
        num_values,
        encoding,
        def_level_encoding: Rle,
        rep_level_encoding: Rle,
    }))
}

pub(super) fn v1_levels(
    data: Vec<u8>,
    num_values: usize,
    levels: Encoding,
) -> Result<Page, String> {
    Ok(Page::DataV1(DataPageV1 {
        data: Buffer::from_vec(data),
        num_values,
        encoding: Plain,
        def_level_encoding: levels,
        rep_level_encoding: levels,
    }))
}

pub(super) fn v2(
    data: Vec<u8>,
    num_values: usize,
    num_nulls: usize,
    rep_len: usize,
    def_len: usize,
) -> Result<Page, String> {
    Ok(Page::DataV2(DataPageV2 {
        data: Buffer::from_vec(data),
        num_values,
        num_nulls,
        num_rows: num_values,
        encoding: Plain,
        def_levels_byte_len: def_len,
        rep_levels_byte_len: rep_len,
    }))
}

pub(super) fn dict_page(
    data: Vec<u8>,
    num_values: usize,
    encoding: Encoding,
) -> Result<Page, String> {
    Ok(Page::Dictionary(DictionaryPage {
        data: Buffer::from_vec(data),
        num_values,
        encoding,
    }))
}

/// `n` distinct short strings, PLAIN.
pub(super) fn plain_strings(n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| {
            let s = format!("v{i}");
            [&(s.len() as u32).to_le_bytes()[..], s.as_bytes()].concat()
        })
        .collect()
}

pub(super) fn i32s(values: &[i32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

pub(super) fn arrow_cases() -> Vec<ArrowCase> {
    let opt = || ColumnDesc::flat("c", ColumnType::Int32, true);
    let req = || ColumnDesc::flat("c", ColumnType::Int32, false);
    let int = |nullable| Field::new("c", DataType::Int32, nullable);
    // A nullable struct `s` of a nullable INT32 `c`: definition levels 0 to 2.
    let nested_desc = || ColumnDesc {
        path: "s.c".into(),
        column_type: ColumnType::Int32,
        max_def_level: 2,
        max_rep_level: 0,
    };
    let nested_field = || {
        Field::new(
            "s",
            DataType::Struct(vec![Field::new("c", DataType::Int32, true)].into()),
            true,
        )
    };
    // A nullable list `l` of nullable INT32: definition levels 0 to 3, repetition 0 to 1.
    let list_desc = || ColumnDesc {
        path: "l.list.item".into(),
        column_type: ColumnType::Int32,
        max_def_level: 3,
        max_rep_level: 1,
    };
    let list_field = || {
        Field::new(
            "l",
            DataType::List(Arc::new(Field::new("item", DataType::Int32, true))),
            true,
        )
    };
    let huge_levels = {
        let mut b = vec![96, 0, 0, 0, 0x10, 0x01];
        b.resize(100, 0);
        b
    };
    let base = |name, desc, field, pages, expect, page| ArrowCase {
        name,
        desc,
        field,
        pages,
        expect,
        page,
        says: &[],
    };
    vec![
        base(
            "v1 definition levels: length prefix past the page",
            opt(),
            int(true),
            vec![v1(vec![100, 0, 0, 0, 0x02, 1], 1, Plain)],
            ArrowVariant::Levels("definition levels", Expect::Truncated(Rle, "encoded data")),
            Some(0),
        ),
        base(
            "v1 definition levels: fewer levels than num_values",
            opt(),
            int(true),
            vec![v1(
                cat(&[&[2, 0, 0, 0, 0x04, 0x01], &i32s(&[1, 2])]),
                5,
                Plain,
            )],
            ArrowVariant::Levels("definition levels", Expect::Truncated(Rle, "run header")),
            Some(0),
        ),
        ArrowCase {
            says: &["definition levels"],
            ..base(
                "v1 definition levels: the error says they are the definition levels",
                opt(),
                int(true),
                vec![v1(
                    cat(&[&[2, 0, 0, 0, 0x04, 0x01], &i32s(&[1, 2])]),
                    5,
                    Plain,
                )],
                ArrowVariant::Levels("definition levels", Expect::Truncated(Rle, "run header")),
                Some(0),
            )
        },
        base(
            "v1 definition levels: 2^31 levels in a 100-byte page",
            opt(),
            int(true),
            vec![v1(huge_levels.clone(), HUGE, Plain)],
            ArrowVariant::Levels("definition levels", Expect::Invalid(Rle, "run header")),
            Some(0),
        ),
        base(
            "v1 definition levels: BIT_PACKED levels truncated",
            opt(),
            int(true),
            vec![v1_levels(vec![0xFF], 100, BitPacked)],
            ArrowVariant::Levels("definition levels", Expect::Truncated(BitPacked, "values")),
            Some(0),
        ),
        base(
            "v1 definition levels: PLAIN is not a level encoding",
            opt(),
            int(true),
            vec![v1_levels(vec![1, 0, 0, 0, 1, 0, 0, 0], 1, Plain)],
            ArrowVariant::Corrupt(Plain, "definition levels"),
            Some(0),
        ),
        base(
            "nested: definition level 3 over the maximum of 2",
            nested_desc(),
            nested_field(),
            vec![v1(cat(&[&[2, 0, 0, 0, 0x02, 0x03], &i32s(&[1])]), 1, Plain)],
            ArrowVariant::Corrupt(Rle, "definition levels"),
            Some(0),
        ),
        base(
            "list: a record starts with repetition level 1",
            list_desc(),
            list_field(),
            vec![v1(
                cat(&[
                    &[2, 0, 0, 0, 0x02, 0x01],
                    &[2, 0, 0, 0, 0x02, 0x03],
                    &i32s(&[1]),
                ]),
                1,
                Plain,
            )],
            ArrowVariant::Corrupt(Rle, "repetition levels"),
            Some(0),
        ),
        base(
            "list: repetition levels' length prefix past the page",
            list_desc(),
            list_field(),
            vec![v1(
                cat(&[&[100, 0, 0, 0, 0x02, 0x00], &i32s(&[1])]),
                1,
                Plain,
            )],
            ArrowVariant::Levels("repetition levels", Expect::Truncated(Rle, "encoded data")),
            Some(0),
        ),
        base(
            "list: definition levels end before the repetition levels",
            list_desc(),
            list_field(),
            vec![v1(
                cat(&[
                    &[2, 0, 0, 0, 0x03, 0b10],
                    &[2, 0, 0, 0, 0x02, 0x03],
                    &i32s(&[1, 1]),
                ]),
                2,
                Plain,
            )],
            ArrowVariant::Levels("definition levels", Expect::Truncated(Rle, "run header")),
            Some(0),
        ),
        base(
            "v2: level lengths past the page",
            opt(),
            int(true),
            vec![v2(vec![0x02, 0x01, 1, 0, 0, 0], 1, 0, 0, 50)],
            ArrowVariant::Corrupt(Plain, "level lengths"),
            Some(0),
        ),
        base(
            "v2: level lengths overflow",
            opt(),
            int(true),
            vec![v2(vec![0x02, 0x01, 1, 0, 0, 0], 1, 0, usize::MAX, 2)],
            ArrowVariant::Corrupt(Plain, "level lengths"),
            Some(0),
        ),
        base(
            "v2: more nulls than values",
            opt(),
            int(true),
            vec![v2(vec![0x02, 0x01, 1, 0, 0, 0], 1, 5, 0, 2)],
            ArrowVariant::Corrupt(Plain, "num_nulls"),
            Some(0),
        ),
        base(
            "v2: definition levels hold fewer than num_values",
            opt(),
            int(true),
            vec![v2(cat(&[&[0x04, 0x01], &i32s(&[1, 2])]), 10, 8, 0, 2)],
            ArrowVariant::Levels("definition levels", Expect::Truncated(Rle, "run header")),
            Some(0),
        ),
        base(
            "v2: 2^31 values, 100 bytes, nulls said to be 0",
            opt(),
            int(true),
            vec![v2(cat(&[&[0x10, 0x01], &[0; 98]]), HUGE, 0, 0, 2)],
            ArrowVariant::Codec(Expect::CountTooLarge(Plain, "num_values")),
            Some(0),
        ),
        base(
            "v1 required: 2^31 values in a 100-byte page",
            req(),
            int(false),
            vec![v1(vec![0; 100], HUGE, Plain)],
            ArrowVariant::Codec(Expect::CountTooLarge(Plain, "num_values")),
            Some(0),
        ),
        base(
            "v1 optional: levels say 5 values, the page holds 2",
            opt(),
            int(true),
            vec![v1(
                cat(&[&[2, 0, 0, 0, 0x0A, 0x01], &i32s(&[1, 2])]),
                5,
                Plain,
            )],
            ArrowVariant::Codec(Expect::CountTooLarge(Plain, "num_values")),
            Some(0),
        ),
        base(
            "second page truncated: the error names page 1",
            req(),
            int(false),
            vec![v1(i32s(&[1, 2]), 2, Plain), v1(i32s(&[1]), 2, Plain)],
            ArrowVariant::Codec(Expect::CountTooLarge(Plain, "num_values")),
            Some(1),
        ),
        base(
            "dictionary page: 2^31 values in 100 bytes",
            req(),
            int(false),
            vec![
                dict_page(vec![0; 100], HUGE, Plain),
                v1(vec![1, 0x02, 0], 1, RleDictionary),
            ],
            ArrowVariant::Codec(Expect::CountTooLarge(Plain, "num_values")),
            Some(0),
        ),
        base(
            "dictionary page: DELTA_BINARY_PACKED",
            req(),
            int(false),
            vec![
                dict_page(dbp32(&[1, 2]), 2, Dbp),
                v1(vec![1, 0x02, 0], 1, RleDictionary),
            ],
            ArrowVariant::Corrupt(Dbp, "dictionary page"),
            Some(0),
        ),
        base(
            "dictionary-encoded page without a dictionary page",
            req(),
            int(false),
            vec![v1(vec![1, 0x02, 0], 1, RleDictionary)],
            ArrowVariant::Corrupt(RleDictionary, "dictionary page"),
            Some(0),
        ),
        base(
            "dictionary page after the data page, index out of the new dictionary",
            req(),
            int(false),
            vec![
                dict_page(i32s(&[1, 2, 3]), 3, Plain),
                v1(vec![2, 0x02, 2], 1, RleDictionary),
                dict_page(i32s(&[1]), 1, Plain),
                v1(vec![2, 0x02, 2], 1, RleDictionary),
            ],
            ArrowVariant::Codec(Expect::DictionaryIndex(RleDictionary, 2, 1)),
            Some(3),
        ),
        base(
            "UTF-8 column: a value is not UTF-8",
            ColumnDesc::flat("c", ColumnType::ByteArray, false),
            Field::new("c", DataType::Utf8, false),
            vec![v1(vec![2, 0, 0, 0, 0xFF, 0xFE], 1, Plain)],
            ArrowVariant::Utf8,
            Some(0),
        ),
        base(
            "UTF-8 column: the dictionary is not UTF-8",
            ColumnDesc::flat("c", ColumnType::ByteArray, false),
            Field::new("c", DataType::Utf8, false),
            vec![
                dict_page(vec![2, 0, 0, 0, 0xC3, 0x28], 1, Plain),
                v1(vec![1, 0x02, 0], 1, RleDictionary),
            ],
            ArrowVariant::Corrupt(Plain, "dictionary"),
            Some(0),
        ),
        base(
            "Utf8View column: a value is not UTF-8",
            ColumnDesc::flat("c", ColumnType::ByteArray, false),
            Field::new("c", DataType::Utf8View, false),
            vec![v1(vec![2, 0, 0, 0, 0xFF, 0xFE], 1, Plain)],
            ArrowVariant::Utf8,
            Some(0),
        ),
        base(
            "FIXED_LEN_BYTE_ARRAY of type length 16 read as FixedSizeBinary(4)",
            ColumnDesc::flat(
                "c",
                ColumnType::new(PhysicalType::FixedLenByteArray, 16).unwrap(),
                false,
            ),
            Field::new("c", DataType::FixedSizeBinary(4), false),
            vec![v1(vec![7; 32], 2, Plain)],
            ArrowVariant::Unsupported,
            None,
        ),
        base(
            "Decimal128 from BYTE_ARRAY: a value of 20 bytes",
            ColumnDesc::flat("c", ColumnType::ByteArray, false),
            Field::new("c", DataType::Decimal128(38, 0), false),
            vec![v1(cat(&[&[20, 0, 0, 0], &[1; 20]]), 1, Plain)],
            ArrowVariant::Corrupt(Plain, "values"),
            Some(0),
        ),
        base(
            "Dictionary(Int8, Utf8): a dictionary page of 300 values",
            ColumnDesc::flat("c", ColumnType::ByteArray, false),
            Field::new(
                "c",
                DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Utf8)),
                false,
            ),
            vec![
                dict_page(plain_strings(300), 300, Plain),
                v1(vec![9, 0x02, 0xC8, 0x00], 1, RleDictionary),
            ],
            ArrowVariant::Corrupt(RleDictionary, "indices"),
            Some(1),
        ),
        base(
            "Dictionary(UInt8, Int32): 300 distinct PLAIN values",
            req(),
            Field::new(
                "c",
                DataType::Dictionary(Box::new(DataType::UInt8), Box::new(DataType::Int32)),
                false,
            ),
            vec![v1(i32s(&(0..300).collect::<Vec<_>>()), 300, Plain)],
            ArrowVariant::Corrupt(RleDictionary, "indices"),
            Some(0),
        ),
        base(
            "the page source fails",
            req(),
            int(false),
            vec![v1(i32s(&[1]), 1, Plain), Err("disk on fire".into())],
            ArrowVariant::Source,
            Some(0),
        ),
    ]
}

pub(super) fn check_arrow(
    case: &ArrowCase,
    result: Result<usize, ArrowError>,
) -> Result<(), String> {
    let e = match result {
        Ok(rows) => return Err(format!("no error ({rows} rows)")),
        Err(e) => e,
    };
    let text = e.to_string();
    let at = match (&case.expect, &e) {
        (ArrowVariant::Codec(expect), ArrowError::Codec { at, source }) => {
            expect.check(source)?;
            at
        }
        (ArrowVariant::Levels(which, expect), ArrowError::Levels { at, levels, source })
            if which == levels =>
        {
            expect.check(source)?;
            if !text.contains(which) {
                return Err(format!("{text:?} does not say {which:?}"));
            }
            at
        }
        (
            ArrowVariant::Corrupt(enc, f),
            ArrowError::Corrupt {
                at,
                encoding,
                field,
                reason,
            },
        ) if enc == encoding && f == field && !reason.is_empty() => {
            if !text.contains(enc.name()) || !text.contains(f) {
                return Err(format!("{text:?} does not name {enc} and {f:?}"));
            }
            at
        }
        (ArrowVariant::Utf8, ArrowError::Utf8 { at, .. })
        | (ArrowVariant::Unsupported, ArrowError::Unsupported { at, .. })
        | (ArrowVariant::Source, ArrowError::Source { at, .. }) => at,
        _ => return Err(format!("expected {:?}, got {e:?} ({text})", case.expect)),
    };
    if at.column != case.desc.path || at.page != case.page {
        return Err(format!(
            "located at {at}, not column {:?} page {:?} ({text})",
            case.desc.path, case.page
        ));
    }
    let mut must = vec![format!("column {:?}", case.desc.path)];
    if let Some(page) = case.page {
        must.push(format!("page {page}"));
    }
    must.extend(case.says.iter().map(|s| s.to_string()));
    for word in must {
        if !text.contains(&word) {
            return Err(format!("message {text:?} does not say {word:?}"));
        }
    }
    Ok(())
}

pub(super) fn run_arrow_case(case: &ArrowCase) -> Result<(), String> {
    let desc = case.desc.clone();
    let field = Arc::new(case.field.clone());
    let pages: Vec<Result<Page, String>> = case.pages.clone();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let result = catch_unwind(AssertUnwindSafe(|| -> Result<usize, ArrowError> {
            let pages = pages.into_iter().map(|p| p.map_err(std::io::Error::other));
            let mut decoder = ArrayDecoder::try_new(field, vec![Column::new(desc, pages)])?;
            let mut rows = 0;
            loop {
                let array = decoder.read(ARROW_BATCH)?;
                if array.is_empty() {
                    return Ok(rows);
                }
                rows += array.len();
            }
        }));
        let _ = tx.send(result);
    });
    match rx.recv_timeout(TIME_LIMIT) {
        Ok(Ok(result)) => check_arrow(case, result)?,
        Ok(Err(_)) => return Err("PANIC".into()),
        Err(_) => return Err("HANG".into()),
    }
    let desc = case.desc.clone();
    let field = case.field.clone();
    let pages: Vec<Result<Page, std::io::Error>> = case
        .pages
        .iter()
        .cloned()
        .map(|p| p.map_err(std::io::Error::other))
        .collect();
    let column = desc.path.clone();
    let outcome = guarded(case.name, move || {
        let result = arrow_skip_read(desc, field, pages);
        check_arrow_skip("arrow", &column, result)
    });
    match outcome {
        // A field that cannot be read at all is refused before any skip.
        Err(m) if matches!(case.expect, ArrowVariant::Unsupported) && m.contains("column") => {
            Ok(())
        }
        other => other,
    }
}

#[test]
pub(super) fn every_malformed_column_gives_its_arrow_error() {
    // A FIXED_LEN_BYTE_ARRAY column of type length 0 (whose pages could claim any number of
    // values) has no column type, so no `ColumnDesc` and no reader: the error comes first.
    assert!(matches!(
        ColumnType::new(PhysicalType::FixedLenByteArray, 0),
        Err(Error::TypeLength { type_length: 0 })
    ));
    let mut failures = Vec::new();
    let mut ran = 0;
    for case in arrow_cases() {
        ran += 1;
        if let Err(m) = run_arrow_case(&case) {
            failures.push(format!("{}: {m}", case.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {ran} Arrow cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
