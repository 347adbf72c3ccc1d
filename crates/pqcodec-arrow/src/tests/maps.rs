//! Maps whose key Parquet declares OPTIONAL, as Presto, Trino and Athena wrote them.

use arrow_array::Array;
use arrow_array::builder::{Int32Builder, MapBuilder, MapFieldNames};

use crate::Error;

use super::*;

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
