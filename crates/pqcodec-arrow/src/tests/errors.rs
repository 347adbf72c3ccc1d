//! Malformed pages, invalid UTF-8, types and levels that do not fit, and a page source's own
//! errors: each is a typed error naming its column.

use pqcodec_core::{ByteArrayType, PhysicalType};

use crate::Error;

use super::*;

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
