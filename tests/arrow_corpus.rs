//! Every Parquet file of the corpus (tests/data, copied from ../shared/corpus, plus
//! `incorrect_map_schema.parquet` from apache/parquet-testing) and a few shapes written here,
//! decoded by pqcodec and compared batch by batch with arrow-rs's ParquetRecordBatchReader at
//! the same batch size.

use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::RecordBatch;
use bytes::Bytes;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use pqcodec_file::ReaderBuilder;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn arrow_rs_batches(data: &Bytes, batch_size: usize) -> Vec<RecordBatch> {
    ParquetRecordBatchReaderBuilder::try_new(data.clone())
        .unwrap()
        .with_batch_size(batch_size)
        .build()
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
}

fn pqcodec_batches(data: &Bytes, batch_size: usize) -> Result<Vec<RecordBatch>, String> {
    let reader = ReaderBuilder::try_new(data.clone())
        .map_err(|e| e.to_string())?
        .with_batch_size(batch_size)
        .build()
        .map_err(|e| e.to_string())?;
    reader
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())
}

/// Compares pqcodec with arrow-rs on `data`, row for row (pqcodec's batches end at row
/// groups, arrow-rs's may cross them); returns a description of the first difference.
fn compare(data: &Bytes, batch_size: usize) -> Result<usize, String> {
    let expected = arrow_rs_batches(data, batch_size);
    let actual = pqcodec_batches(data, batch_size)?;
    if let Some(big) = actual.iter().find(|b| b.num_rows() > batch_size) {
        return Err(format!("a batch of {} rows", big.num_rows()));
    }
    let whole = |batches: &[RecordBatch], schema| {
        arrow_select::concat::concat_batches(&schema, batches).map_err(|e| e.to_string())
    };
    let (Some(first_e), Some(first_a)) = (expected.first(), actual.first()) else {
        return match (expected.len(), actual.len()) {
            (0, 0) => Ok(0),
            (e, a) => Err(format!("{e} batches from arrow-rs, {a} from pqcodec")),
        };
    };
    let (e, a) = (
        whole(&expected, first_e.schema())?,
        whole(&actual, first_a.schema())?,
    );
    if e.schema() != a.schema() {
        return Err(format!("schema {:?} != {:?}", a.schema(), e.schema()));
    }
    for (c, field) in e.schema().fields().iter().enumerate() {
        let (ec, ac) = (e.column(c), a.column(c));
        if ec.as_ref() != ac.as_ref() {
            let show =
                |a: &Arc<dyn arrow_array::Array>| format!("{:?}", a.slice(0, a.len().min(8)));
            return Err(format!(
                "column {:?}: arrow-rs {} rows {} nulls, pqcodec {} rows {} nulls\narrow-rs: {}\npqcodec: {}",
                field.name(),
                ec.len(),
                ec.logical_null_count(),
                ac.len(),
                ac.logical_null_count(),
                show(ec),
                show(ac),
            ));
        }
    }
    Ok(e.num_rows())
}

#[test]
fn corpus_matches_arrow_rs() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .collect();
    files.sort();
    assert!(files.len() >= 50, "corpus missing: {}", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let data = Bytes::from(std::fs::read(path).unwrap());
        for batch_size in [97, 1024] {
            if let Err(e) = compare(&data, batch_size) {
                failures.push(format!(
                    "{} (batch size {batch_size}): {e}",
                    path.file_name().unwrap().to_string_lossy()
                ));
                break;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} files differ:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

/// Files written here by arrow-rs's ArrowWriter, for shapes the corpus lacks: deep nesting,
/// every Arrow type Parquet maps, many row groups, tiny pages, dictionaries of every kind.
mod written {
    use std::sync::Arc;

    use arrow_array::{ArrayRef, RecordBatch, make_array};
    use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer};
    use arrow_schema::{DataType, Field, Fields, IntervalUnit, Schema, TimeUnit};
    use bytes::Bytes;
    use parquet::arrow::ArrowWriter;
    use parquet::basic::Compression;
    use parquet::file::properties::{WriterProperties, WriterVersion};

    use pqcodec_testkit::Rng;

    use super::compare;

    fn nulls(rng: &mut Rng, len: usize, nullable: bool) -> Option<NullBuffer> {
        if !nullable {
            return None;
        }
        let bits: Vec<bool> = (0..len).map(|_| !rng.chance(20)).collect();
        Some(NullBuffer::new(BooleanBuffer::from(bits)))
    }

    fn lengths(rng: &mut Rng, len: usize) -> Vec<usize> {
        (0..len)
            .map(|_| if rng.chance(15) { 0 } else { rng.below(4) })
            .collect()
    }

    /// A random array of `data_type` with `len` slots.
    fn random_array(rng: &mut Rng, data_type: &DataType, nullable: bool, len: usize) -> ArrayRef {
        let nulls = nulls(rng, len, nullable);
        match data_type {
            DataType::List(f) | DataType::LargeList(f) | DataType::Map(f, _) => {
                let lens = lengths(rng, len);
                let child = random_array(rng, f.data_type(), f.is_nullable(), lens.iter().sum());
                let offsets = OffsetBuffer::<i32>::from_lengths(lens.iter().copied());
                let data = match data_type {
                    DataType::LargeList(_) => {
                        let offsets = OffsetBuffer::<i64>::from_lengths(lens);
                        arrow_data::ArrayDataBuilder::new(data_type.clone())
                            .len(len)
                            .add_buffer(offsets.into_inner().into_inner())
                            .add_child_data(child.to_data())
                            .nulls(nulls)
                    }
                    _ => arrow_data::ArrayDataBuilder::new(data_type.clone())
                        .len(len)
                        .add_buffer(offsets.into_inner().into_inner())
                        .add_child_data(child.to_data())
                        .nulls(nulls),
                };
                make_array(data.build().unwrap())
            }
            DataType::Struct(fields) => {
                let children: Vec<ArrayRef> = fields
                    .iter()
                    .map(|f| random_array(rng, f.data_type(), f.is_nullable(), len))
                    .collect();
                Arc::new(arrow_array::StructArray::new(
                    fields.clone(),
                    children,
                    nulls,
                ))
            }
            DataType::Dictionary(key, value) => {
                let values = random_array(rng, value, false, 5);
                let keys: Vec<u8> = (0..len).map(|_| rng.below(5) as u8).collect();
                let width = key.primitive_width().unwrap();
                let mut buf = Vec::new();
                for k in keys {
                    let mut b = vec![0u8; width];
                    b[0] = k;
                    buf.extend_from_slice(&b);
                }
                let data = arrow_data::ArrayDataBuilder::new(data_type.clone())
                    .len(len)
                    .add_buffer(Buffer::from_vec(buf))
                    .add_child_data(values.to_data())
                    .nulls(nulls)
                    .build()
                    .unwrap();
                make_array(data)
            }
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => {
                let words = [
                    "",
                    "a",
                    "héllo",
                    "a string longer than twelve",
                    "日本語",
                    "🦀",
                ];
                let values: Vec<Option<String>> = (0..len)
                    .map(|i| {
                        nulls.as_ref().is_none_or(|n| n.is_valid(i)).then(|| {
                            let w = words[rng.below(words.len())];
                            format!("{w}{}", rng.below(50))
                        })
                    })
                    .collect();
                let utf8: ArrayRef = Arc::new(arrow_array::StringArray::from(values));
                arrow_cast(utf8, data_type)
            }
            DataType::Binary | DataType::LargeBinary | DataType::BinaryView => {
                let values: Vec<Option<Vec<u8>>> = (0..len)
                    .map(|i| {
                        nulls.as_ref().is_none_or(|n| n.is_valid(i)).then(|| {
                            let n = rng.below(20);
                            rng.bytes(n)
                        })
                    })
                    .collect();
                let binary: ArrayRef = Arc::new(arrow_array::BinaryArray::from_iter(values));
                arrow_cast(binary, data_type)
            }
            DataType::Boolean => {
                let bits: Vec<bool> = (0..len).map(|_| rng.chance(50)).collect();
                Arc::new(arrow_array::BooleanArray::new(
                    BooleanBuffer::from(bits),
                    nulls,
                ))
            }
            DataType::Null => Arc::new(arrow_array::NullArray::new(len)),
            other => {
                let width = other.primitive_width().unwrap_or_else(|| match other {
                    DataType::FixedSizeBinary(n) => *n as usize,
                    _ => panic!("no generator for {other}"),
                });
                let mut bytes = rng.bytes(len * width);
                // Keep dates and times in range for the writer's conversions.
                if matches!(other, DataType::Date64) {
                    for chunk in bytes.chunks_exact_mut(8) {
                        let days =
                            i64::from(i32::from_le_bytes(chunk[..4].try_into().unwrap()) % 100_000);
                        chunk.copy_from_slice(&(days * 86_400_000).to_le_bytes());
                    }
                }
                if matches!(other, DataType::Time32(_) | DataType::Time64(_)) {
                    for chunk in bytes.chunks_mut(width) {
                        chunk[width - 1] &= 0x0F;
                    }
                }
                let data = arrow_data::ArrayDataBuilder::new(other.clone())
                    .len(len)
                    .add_buffer(Buffer::from_vec(bytes))
                    .nulls(nulls)
                    .build()
                    .unwrap();
                make_array(data)
            }
        }
    }

    /// `array` (Utf8 or Binary) as the string or binary type `to`.
    fn arrow_cast(array: ArrayRef, to: &DataType) -> ArrayRef {
        use arrow_array::cast::AsArray;
        match to {
            DataType::Utf8 | DataType::Binary => array,
            DataType::LargeUtf8 => Arc::new(arrow_array::LargeStringArray::from_iter(
                array.as_string::<i32>().iter(),
            )),
            DataType::Utf8View => Arc::new(arrow_array::StringViewArray::from_iter(
                array.as_string::<i32>().iter(),
            )),
            DataType::LargeBinary => Arc::new(arrow_array::LargeBinaryArray::from_iter(
                array.as_binary::<i32>().iter(),
            )),
            DataType::BinaryView => Arc::new(arrow_array::BinaryViewArray::from_iter(
                array.as_binary::<i32>().iter(),
            )),
            other => panic!("cannot cast to {other}"),
        }
    }

    fn field(name: &str, data_type: DataType, nullable: bool) -> Field {
        Field::new(name, data_type, nullable)
    }

    fn list(item: DataType, nullable: bool) -> DataType {
        DataType::List(Arc::new(field("item", item, nullable)))
    }

    fn map(value: DataType) -> DataType {
        let entries = Fields::from(vec![
            field("key", DataType::Utf8, false),
            field("value", value, true),
        ]);
        DataType::Map(
            Arc::new(field("entries", DataType::Struct(entries), false)),
            false,
        )
    }

    fn flat_types() -> Vec<DataType> {
        vec![
            DataType::Boolean,
            DataType::Int8,
            DataType::Int16,
            DataType::Int32,
            DataType::Int64,
            DataType::UInt8,
            DataType::UInt16,
            DataType::UInt32,
            DataType::UInt64,
            DataType::Float16,
            DataType::Float32,
            DataType::Float64,
            DataType::Date32,
            DataType::Date64,
            DataType::Time32(TimeUnit::Millisecond),
            DataType::Time64(TimeUnit::Microsecond),
            DataType::Time64(TimeUnit::Nanosecond),
            DataType::Timestamp(TimeUnit::Second, None),
            DataType::Timestamp(TimeUnit::Millisecond, Some("+02:00".into())),
            DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())),
            DataType::Timestamp(TimeUnit::Nanosecond, None),
            DataType::Duration(TimeUnit::Millisecond),
            DataType::Decimal128(9, 2),
            DataType::Decimal128(18, 4),
            DataType::Decimal128(38, 6),
            DataType::Decimal256(50, 3),
            DataType::Interval(IntervalUnit::YearMonth),
            DataType::Interval(IntervalUnit::DayTime),
            DataType::Utf8,
            DataType::LargeUtf8,
            DataType::Utf8View,
            DataType::Binary,
            DataType::LargeBinary,
            DataType::BinaryView,
            DataType::FixedSizeBinary(7),
            DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
            DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::LargeUtf8)),
            DataType::Dictionary(Box::new(DataType::UInt16), Box::new(DataType::Binary)),
            DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Int64)),
        ]
    }

    fn nested_types() -> Vec<DataType> {
        let inner = Fields::from(vec![
            field("c", DataType::Int32, true),
            field("d", list(DataType::Utf8, true), true),
        ]);
        let deep = Fields::from(vec![
            field("a", list(list(DataType::Int64, true), false), true),
            field("b", map(DataType::Struct(inner.clone())), true),
            field("r", DataType::Struct(inner.clone()), false),
        ]);
        vec![
            list(DataType::Int32, true),
            list(DataType::Int32, false),
            DataType::LargeList(Arc::new(field("item", DataType::Utf8, true))),
            list(list(list(DataType::Boolean, true), true), true),
            DataType::Struct(inner),
            map(DataType::Float64),
            list(DataType::Struct(deep), true),
            list(
                DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
                true,
            ),
        ]
    }

    fn batch(rng: &mut Rng, types: &[DataType], rows: usize) -> RecordBatch {
        let mut fields = Vec::new();
        let mut columns = Vec::new();
        for (i, t) in types.iter().enumerate() {
            for nullable in [false, true] {
                fields.push(field(&format!("c{i}_{nullable}"), t.clone(), nullable));
                columns.push(random_array(rng, t, nullable, rows));
            }
        }
        RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).unwrap()
    }

    fn write(batches: &[RecordBatch], props: WriterProperties) -> Bytes {
        let mut out = Vec::new();
        let mut writer = ArrowWriter::try_new(&mut out, batches[0].schema(), Some(props)).unwrap();
        for b in batches {
            writer.write(b).unwrap();
        }
        writer.close().unwrap();
        Bytes::from(out)
    }

    fn configurations() -> Vec<(&'static str, WriterProperties)> {
        vec![
            (
                "v1, dictionary, many row groups, tiny pages",
                WriterProperties::builder()
                    .set_max_row_group_row_count(Some(37))
                    .set_data_page_row_count_limit(10)
                    .set_write_batch_size(7)
                    .set_dictionary_page_size_limit(64)
                    .build(),
            ),
            (
                "v1, no dictionary, snappy",
                WriterProperties::builder()
                    .set_dictionary_enabled(false)
                    .set_compression(Compression::SNAPPY)
                    .build(),
            ),
            (
                "v2, dictionary",
                WriterProperties::builder()
                    .set_writer_version(WriterVersion::PARQUET_2_0)
                    .set_data_page_row_count_limit(50)
                    .set_write_batch_size(16)
                    .build(),
            ),
            (
                "v2, no dictionary (delta encodings)",
                WriterProperties::builder()
                    .set_writer_version(WriterVersion::PARQUET_2_0)
                    .set_dictionary_enabled(false)
                    .build(),
            ),
        ]
    }

    fn check(name: &str, types: &[DataType], seed: u64) {
        let mut failures = Vec::new();
        for (config, props) in configurations() {
            let mut rng = Rng::new(seed);
            let batches: Vec<RecordBatch> = (0..3).map(|_| batch(&mut rng, types, 120)).collect();
            let data = write(&batches, props);
            for batch_size in [7, 1000] {
                if let Err(e) = compare(&data, batch_size) {
                    failures.push(format!("{config}, batch size {batch_size}: {e}"));
                    break;
                }
            }
        }
        assert!(failures.is_empty(), "{name}:\n{}", failures.join("\n\n"));
    }

    #[test]
    fn every_flat_type() {
        check("flat types", &flat_types(), 0x9E37_79B9_7F4A_7C15);
    }

    #[test]
    fn deep_nesting() {
        check("nested types", &nested_types(), 0xD1B5_4A32_D192_ED03);
    }

    #[test]
    fn empty_file() {
        let schema = Arc::new(Schema::new(vec![field(
            "a",
            list(DataType::Int32, true),
            true,
        )]));
        let empty = RecordBatch::new_empty(schema);
        let data = write(&[empty], WriterProperties::builder().build());
        assert_eq!(compare(&data, 10).unwrap(), 0);
    }
}

/// Maps whose key Parquet declares OPTIONAL, as Presto, Trino and Athena wrote them (the spec
/// wants it required): arrow-rs reads the key as its non-nullable Arrow key, and so does
/// pqcodec.
mod optional_map_keys {
    use std::sync::Arc;

    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    use arrow_schema::DataType;
    use bytes::Bytes;
    use parquet::data_type::{ByteArray, ByteArrayType, Int32Type};
    use parquet::file::properties::{WriterProperties, WriterVersion};
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use pqcodec_arrow::Error;
    use pqcodec_file::ReaderBuilder;

    use super::{arrow_rs_batches, compare, data_dir};

    /// parquet-testing's `data/incorrect_map_schema.parquet`, written by Presto.
    #[test]
    fn presto_file_matches_arrow_rs() {
        let data =
            Bytes::from(std::fs::read(data_dir().join("incorrect_map_schema.parquet")).unwrap());
        let builder = ReaderBuilder::try_new(data.clone()).unwrap();
        let key = &builder.metadata().columns()[0];
        assert_eq!(key.path, "my_map.key_value.key");
        assert_eq!(
            (key.max_def_level, key.max_rep_level),
            (3, 1),
            "the key is optional"
        );
        for batch_size in [1, 32] {
            assert_eq!(compare(&data, batch_size), Ok(1), "batch size {batch_size}");
        }
        let mut reader = builder.with_batch_size(32).build().unwrap();
        let batch = reader.next_batch().unwrap().unwrap();
        let DataType::Map(entries, _) = batch.schema().field(0).data_type().clone() else {
            panic!("{:?}", batch.schema())
        };
        let DataType::Struct(kv) = entries.data_type() else {
            panic!("{entries:?}")
        };
        assert!(!kv[0].is_nullable(), "arrow-rs's key is non-nullable");
        let map = batch.column(0).as_map();
        let keys: Vec<_> = map.keys().as_string::<i32>().iter().collect();
        let values: Vec<_> = map.values().as_string::<i32>().iter().collect();
        assert_eq!(keys, [Some("parent"), Some("name")]);
        assert_eq!(values, [Some("another"), Some("report")]);
    }

    /// The levels of a map column of `rows` (`None` a null map; a `None` key a null key).
    type Rows = Vec<Option<Vec<(Option<&'static str>, Option<i32>)>>>;

    /// A file of one optional map of optional string keys to optional ints, inside an
    /// optional struct, written by the parquet crate's column writers (its ArrowWriter writes
    /// keys required).
    fn write(rows: &Rows, props: WriterProperties) -> Bytes {
        let schema = parse_message_type(
            "message presto {
               optional group s {
                 optional group my_map (MAP) {
                   repeated group key_value {
                     optional binary key (STRING);
                     optional int32 value;
                   }
                 }
               }
             }",
        )
        .unwrap();
        // Definition levels: 0 null struct, 1 null map, 2 empty map, 3 null key / value, 4 set.
        let (mut key_def, mut value_def, mut rep) = (Vec::new(), Vec::new(), Vec::new());
        let (mut keys, mut values) = (Vec::new(), Vec::new());
        for (i, row) in rows.iter().enumerate() {
            match row {
                None => {
                    let def = if i % 2 == 0 { 0 } else { 1 };
                    key_def.push(def);
                    value_def.push(def);
                    rep.push(0);
                }
                Some(entries) if entries.is_empty() => {
                    key_def.push(2);
                    value_def.push(2);
                    rep.push(0);
                }
                Some(entries) => {
                    for (j, (k, v)) in entries.iter().enumerate() {
                        rep.push(i16::from(j > 0));
                        key_def.push(if k.is_some() { 4 } else { 3 });
                        value_def.push(if v.is_some() { 4 } else { 3 });
                        keys.extend(k.map(ByteArray::from));
                        values.extend(*v);
                    }
                }
            }
        }
        let mut out = Vec::new();
        let mut writer =
            SerializedFileWriter::new(&mut out, Arc::new(schema), Arc::new(props)).unwrap();
        let mut group = writer.next_row_group().unwrap();
        let mut column = group.next_column().unwrap().unwrap();
        column
            .typed::<ByteArrayType>()
            .write_batch(&keys, Some(&key_def), Some(&rep))
            .unwrap();
        column.close().unwrap();
        let mut column = group.next_column().unwrap().unwrap();
        column
            .typed::<Int32Type>()
            .write_batch(&values, Some(&value_def), Some(&rep))
            .unwrap();
        column.close().unwrap();
        group.close().unwrap();
        writer.close().unwrap();
        Bytes::from(out)
    }

    fn rows(null_key_at: Option<usize>) -> Rows {
        const WORDS: [&str; 5] = ["name", "parent", "kind", "", "a longer key, with a comma"];
        (0..300)
            .map(|i| match i % 7 {
                0 => None,
                1 => Some(Vec::new()),
                n => Some(
                    (0..n)
                        .map(|j| {
                            let key = Some(WORDS[(i + j) % WORDS.len()]);
                            let value = ((i + j) % 3 != 0).then_some((i * j) as i32);
                            if null_key_at == Some(i) && j == 1 {
                                (None, value)
                            } else {
                                (key, value)
                            }
                        })
                        .collect(),
                ),
            })
            .collect()
    }

    fn configurations() -> Vec<WriterProperties> {
        vec![
            WriterProperties::builder()
                .set_data_page_row_count_limit(10)
                .set_write_batch_size(7)
                .build(),
            WriterProperties::builder()
                .set_writer_version(WriterVersion::PARQUET_2_0)
                .set_dictionary_enabled(false)
                .set_data_page_row_count_limit(50)
                .set_write_batch_size(16)
                .build(),
        ]
    }

    #[test]
    fn written_files_match_arrow_rs() {
        for props in configurations() {
            let data = write(&rows(None), props);
            for batch_size in [1, 7, 64, 1000] {
                assert_eq!(
                    compare(&data, batch_size),
                    Ok(300),
                    "batch size {batch_size}"
                );
            }
        }
    }

    /// A null key cannot be an Arrow map's: pqcodec refuses it, naming the key's column.
    /// arrow-rs hands out a map whose non-nullable keys hold a null (an array that fails Arrow's
    /// validation), which pqcodec does not build.
    #[test]
    fn a_null_key_is_refused() {
        for props in configurations() {
            let data = write(&rows(Some(100)), props);
            let batches = arrow_rs_batches(&data, 1000);
            let map = batches[0].column(0).as_struct().column(0).as_map();
            assert_eq!(map.keys().null_count(), 1, "arrow-rs keeps the null key");
            assert!(map.to_data().validate_full().is_err());

            let reader = |batch_size| {
                let builder = ReaderBuilder::try_new(data.clone()).unwrap();
                builder.with_batch_size(batch_size).build().unwrap()
            };
            let err = reader(1000).next_batch().unwrap_err();
            assert!(
                matches!(
                    &err,
                    pqcodec_file::Error::Decode { source: Error::NullMapKey { at, .. }, .. }
                        if at.column == "s.my_map.key_value.key"
                ),
                "{err}"
            );
            // Batches before the null key's read.
            let mut decoder = reader(50);
            assert_eq!(decoder.next_batch().unwrap().unwrap().num_rows(), 50);
            assert_eq!(decoder.next_batch().unwrap().unwrap().num_rows(), 50);
            assert!(matches!(
                decoder.next_batch(),
                Err(pqcodec_file::Error::Decode {
                    source: Error::NullMapKey { .. },
                    ..
                })
            ));
        }
    }
}
