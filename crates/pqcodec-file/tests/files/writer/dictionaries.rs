//! Dictionaries: a fallback to the column's encoding, dictionary arrays with their own
//! dictionaries, and a dictionary that does not pay dropped.

use std::sync::Arc;

use arrow_array::*;
use arrow_schema::DataType;
use parquet::file::reader::{FileReader, SerializedFileReader};
use pqcodec_core::Encoding;
use pqcodec_file::{ColumnSettings, WriterOptions};

use super::*;

#[test]
fn a_dictionary_falls_back_to_the_column_encoding() {
    // 600 distinct values: past the 4 KiB dictionary within the first 1024 rows, yet a
    // dictionary that pays (the first page keeps it).
    let values: ArrayRef = Arc::new(Int64Array::from_iter_values(
        (0..20_000).map(|i| i % 600 * 7),
    ));
    let input = batch(vec![("v", values)]);
    let options = WriterOptions::new()
        .with_dictionary_page_size_limit(4096)
        .with_column(
            "v",
            ColumnSettings::new()
                .with_encoding(Encoding::DeltaBinaryPacked)
                .with_dictionary(true),
        );
    let file = write(std::slice::from_ref(&input), options);
    let metadata = SerializedFileReader::new(file.clone())
        .unwrap()
        .metadata()
        .clone();
    let chunk = metadata.row_group(0).column(0);
    let encodings: Vec<String> = chunk.encodings().map(|e| format!("{e}")).collect();
    assert!(
        encodings.contains(&"RLE_DICTIONARY".to_string()),
        "{encodings:?}"
    );
    assert!(
        encodings.contains(&"DELTA_BINARY_PACKED".to_string()),
        "{encodings:?}"
    );
    assert_same(&read_arrow_rs(file), &input, "fallback");
}

/// Dictionary arrays go in as keys: batches with their own dictionaries (a chunk's dictionary
/// merges them), entries no row uses left out of the statistics.
#[test]
fn dictionary_arrays_with_different_dictionaries() {
    let dict = |values: Vec<&str>, keys: Vec<Option<i8>>| -> ArrayRef {
        let values: ArrayRef = Arc::new(StringArray::from(values));
        Arc::new(
            DictionaryArray::<arrow_array::types::Int8Type>::try_new(Int8Array::from(keys), values)
                .unwrap(),
        )
    };
    let a = batch(vec![(
        "d",
        dict(vec!["z", "a", "m"], vec![Some(1), Some(1), None]),
    )]);
    let b = batch(vec![(
        "d",
        dict(vec!["q", "b"], vec![Some(0), Some(1), Some(0)]),
    )]);
    // Enough rows for the dictionary to pay.
    let a = arrow_select::concat::concat_batches(&a.schema(), &vec![a.clone(); 20]).unwrap();
    let b = arrow_select::concat::concat_batches(&b.schema(), &vec![b.clone(); 20]).unwrap();
    for dictionary in [true, false] {
        let options = WriterOptions::new().with_dictionary(dictionary);
        let file = write(&[a.clone(), b.clone()], options);
        let reader = SerializedFileReader::new(file.clone()).unwrap();
        let chunk = reader.metadata().row_group(0).column(0).clone();
        assert_eq!(chunk.dictionary_page_offset().is_some(), dictionary);
        let stats = chunk.statistics().unwrap();
        assert_eq!(stats.min_bytes_opt(), Some(&b"a"[..]));
        assert_eq!(stats.max_bytes_opt(), Some(&b"q"[..]));
        assert_eq!(stats.null_count_opt(), Some(20));
        let read = read_arrow_rs(file);
        let mut want: Vec<Option<&str>> = [Some("a"), Some("a"), None].repeat(20);
        want.extend([Some("q"), Some("b"), Some("q")].repeat(20));
        let got = arrow_cast::cast(read.column(0), &DataType::Utf8).unwrap();
        assert_eq!(
            got.as_any().downcast_ref::<StringArray>().unwrap(),
            &StringArray::from(want)
        );
    }
}

/// A column whose values hardly repeat drops its dictionary at the chunk's first page (the
/// dictionary would not pay); one whose values repeat keeps it. Both read back.
#[test]
fn a_dictionary_that_does_not_pay_is_dropped() {
    let unique: ArrayRef = Arc::new(Int64Array::from_iter_values((0..50_000).map(|i| i * 7919)));
    let repeating: ArrayRef = Arc::new(StringArray::from_iter_values(
        (0..50_000).map(|i| format!("v{}", i % 100)),
    ));
    let input = batch(vec![("unique", unique), ("repeating", repeating)]);
    let file = write(std::slice::from_ref(&input), WriterOptions::new());
    let reader = SerializedFileReader::new(file.clone()).unwrap();
    let group = reader.metadata().row_group(0);
    assert!(group.column(0).dictionary_page_offset().is_none());
    assert!(
        !group
            .column(0)
            .encodings()
            .any(|e| e == parquet::basic::Encoding::RLE_DICTIONARY)
    );
    assert!(group.column(1).dictionary_page_offset().is_some());
    assert_same(&read_arrow_rs(file), &input, "dropped dictionary");
}
