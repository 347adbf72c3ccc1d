//! Random schemas (nested, nullable, every leaf type the writer takes) written with random
//! encodings, codecs, page versions and layouts, read back equal by arrow-rs and by pqcodec.

use pqcodec_testkit::Rng;
use std::sync::Arc;

use arrow_array::*;
use arrow_buffer::{NullBuffer, OffsetBuffer, i256};
use arrow_schema::{DataType, Field, Fields, Schema, TimeUnit};
use bytes::Bytes;
use parquet::arrow::ArrowSchemaConverter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Type as PhysicalType;
use pqcodec_core::Encoding;
use pqcodec_file::{
    ColumnSettings, Compression, FileWriter, PageVersion, ReaderBuilder, ReaderOptions,
    WriterOptions,
};
use proptest::prelude::*;

fn leaf_type(rng: &mut Rng) -> DataType {
    let types = [
        DataType::Boolean,
        DataType::Int8,
        DataType::Int32,
        DataType::Int64,
        DataType::UInt16,
        DataType::UInt64,
        DataType::Float16,
        DataType::Float32,
        DataType::Float64,
        DataType::Date32,
        DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into())),
        DataType::Decimal128(7, 2),
        DataType::Decimal128(25, 3),
        DataType::Decimal256(45, 5),
        DataType::Utf8,
        DataType::LargeUtf8,
        DataType::Utf8View,
        DataType::Binary,
        DataType::BinaryView,
        DataType::FixedSizeBinary(5),
        DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
    ];
    types[rng.below(types.len())].clone()
}

fn field(rng: &mut Rng, name: String, depth: usize) -> Field {
    let nullable = rng.chance(60);
    let kind = if depth < 2 { rng.below(8) } else { 9 };
    let data_type = match kind {
        0 => DataType::List(Arc::new(field(rng, "item".into(), depth + 1))),
        1 => DataType::LargeList(Arc::new(field(rng, "item".into(), depth + 1))),
        2 | 3 => {
            let n = 1 + rng.below(3);
            DataType::Struct(Fields::from_iter(
                (0..n).map(|i| field(rng, format!("f{i}"), depth + 1)),
            ))
        }
        4 => {
            let key = Field::new("key", DataType::Utf8, false);
            let value = field(rng, "value".into(), depth + 1);
            let entries = Field::new(
                "entries",
                DataType::Struct(Fields::from(vec![key, value])),
                false,
            );
            DataType::Map(Arc::new(entries), false)
        }
        _ => leaf_type(rng),
    };
    Field::new(name, data_type, nullable)
}

fn nulls(rng: &mut Rng, field: &Field, len: usize) -> Option<NullBuffer> {
    (field.is_nullable() && rng.chance(70)).then(|| {
        let density = rng.below(60);
        NullBuffer::from_iter((0..len).map(|_| !rng.chance(density)))
    })
}

fn offsets(rng: &mut Rng, len: usize) -> OffsetBuffer<i32> {
    let max = 1 + rng.below(4);
    OffsetBuffer::from_lengths((0..len).map(|_| rng.below(max + 1)))
}

fn array(rng: &mut Rng, field: &Field, len: usize) -> ArrayRef {
    let nulls = nulls(rng, field, len);
    let mut v = || rng.next_u64();
    let a: ArrayRef = match field.data_type() {
        DataType::Boolean => Arc::new(BooleanArray::new(
            (0..len).map(|_| v() % 2 == 0).collect(),
            nulls,
        )),
        DataType::Int8 => Arc::new(Int8Array::new((0..len).map(|_| v() as i8).collect(), nulls)),
        DataType::Int32 => Arc::new(Int32Array::new(
            (0..len).map(|_| (v() % 100) as i32 - 50).collect(),
            nulls,
        )),
        DataType::Int64 => Arc::new(Int64Array::new(
            (0..len).map(|_| v() as i64).collect(),
            nulls,
        )),
        DataType::UInt16 => Arc::new(UInt16Array::new(
            (0..len).map(|_| v() as u16).collect(),
            nulls,
        )),
        DataType::UInt64 => Arc::new(UInt64Array::new((0..len).map(|_| v()).collect(), nulls)),
        DataType::Float16 => Arc::new(Float16Array::new(
            (0..len)
                .map(|_| half::f16::from_f32((v() % 1000) as f32 / 8.0))
                .collect(),
            nulls,
        )),
        DataType::Float32 => Arc::new(Float32Array::new(
            (0..len).map(|_| f32::from_bits(v() as u32)).collect(),
            nulls,
        )),
        DataType::Float64 => Arc::new(Float64Array::new(
            (0..len).map(|_| (v() % 10_000) as f64 / 100.0).collect(),
            nulls,
        )),
        DataType::Date32 => Arc::new(Date32Array::new(
            (0..len).map(|_| (v() % 30_000) as i32).collect(),
            nulls,
        )),
        DataType::Timestamp(TimeUnit::Millisecond, tz) => Arc::new(
            TimestampMillisecondArray::new((0..len).map(|_| (v() >> 20) as i64).collect(), nulls)
                .with_timezone_opt(tz.clone()),
        ),
        DataType::Decimal128(p, s) => {
            let m = 10i128.pow(*p as u32);
            Arc::new(
                Decimal128Array::new((0..len).map(|_| (v() as i128 * 7919) % m).collect(), nulls)
                    .with_precision_and_scale(*p, *s)
                    .unwrap(),
            )
        }
        DataType::Decimal256(p, s) => Arc::new(
            Decimal256Array::new(
                (0..len)
                    .map(|_| i256::from_i128(v() as i64 as i128) * i256::from_i128(1 << 60))
                    .collect(),
                nulls,
            )
            .with_precision_and_scale(*p, *s)
            .unwrap(),
        ),
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => {
            let strings: Vec<String> = (0..len)
                .map(|_| "ab€".repeat(v() as usize % 6) + &(v() % 50).to_string())
                .collect();
            let s = StringArray::new(
                OffsetBuffer::from_lengths(strings.iter().map(String::len)),
                strings.concat().into_bytes().into(),
                nulls,
            );
            arrow_cast::cast(&s, field.data_type()).unwrap()
        }
        DataType::Binary | DataType::BinaryView => {
            let bytes: Vec<Vec<u8>> = (0..len)
                .map(|_| vec![v() as u8; v() as usize % 40])
                .collect();
            let b = BinaryArray::new(
                OffsetBuffer::from_lengths(bytes.iter().map(Vec::len)),
                bytes.concat().into(),
                nulls,
            );
            arrow_cast::cast(&b, field.data_type()).unwrap()
        }
        DataType::FixedSizeBinary(n) => {
            let bytes: Vec<u8> = (0..len * *n as usize).map(|_| v() as u8 % 4).collect();
            Arc::new(FixedSizeBinaryArray::new(*n, bytes.into(), nulls))
        }
        DataType::Dictionary(_, _) => {
            let keys = Int32Array::new((0..len).map(|_| (v() % 4) as i32).collect(), nulls);
            let values: ArrayRef = Arc::new(StringArray::from(vec![
                "alpha", "beta", "gamma", "delta", "unused",
            ]));
            Arc::new(DictionaryArray::try_new(keys, values).unwrap())
        }
        DataType::List(child) => {
            let offsets = offsets(rng, len);
            let values = array(rng, child, *offsets.last().unwrap() as usize);
            Arc::new(ListArray::new(child.clone(), offsets, values, nulls))
        }
        DataType::LargeList(child) => {
            let offsets = offsets(rng, len);
            let values = array(rng, child, *offsets.last().unwrap() as usize);
            let large = OffsetBuffer::new(offsets.iter().map(|&o| o as i64).collect());
            Arc::new(LargeListArray::new(child.clone(), large, values, nulls))
        }
        DataType::Struct(fields) => {
            let columns = fields.iter().map(|f| array(rng, f, len)).collect();
            Arc::new(StructArray::new(fields.clone(), columns, nulls))
        }
        DataType::Map(entries, sorted) => {
            let offsets = offsets(rng, len);
            let n = *offsets.last().unwrap() as usize;
            let DataType::Struct(kv) = entries.data_type() else {
                unreachable!()
            };
            let keys: ArrayRef = Arc::new(StringArray::from_iter_values(
                (0..n).map(|i| format!("k{i}")),
            ));
            let values = array(rng, &kv[1], n);
            let entries_array = StructArray::new(kv.clone(), vec![keys, values], None);
            Arc::new(MapArray::new(
                entries.clone(),
                offsets,
                entries_array,
                nulls,
                *sorted,
            ))
        }
        other => unreachable!("{other}"),
    };
    a
}

fn encodings(physical: PhysicalType) -> &'static [Encoding] {
    match physical {
        PhysicalType::BOOLEAN => &[Encoding::Plain, Encoding::Rle],
        PhysicalType::INT32 | PhysicalType::INT64 => &[
            Encoding::Plain,
            Encoding::DeltaBinaryPacked,
            Encoding::ByteStreamSplit,
            Encoding::RleDictionary,
        ],
        PhysicalType::FLOAT | PhysicalType::DOUBLE => &[
            Encoding::Plain,
            Encoding::ByteStreamSplit,
            Encoding::RleDictionary,
        ],
        PhysicalType::BYTE_ARRAY => &[
            Encoding::Plain,
            Encoding::DeltaLengthByteArray,
            Encoding::DeltaByteArray,
            Encoding::RleDictionary,
        ],
        PhysicalType::FIXED_LEN_BYTE_ARRAY => &[
            Encoding::Plain,
            Encoding::DeltaByteArray,
            Encoding::ByteStreamSplit,
            Encoding::RleDictionary,
        ],
        PhysicalType::INT96 => &[Encoding::Plain],
    }
}

fn concat(batches: &[RecordBatch]) -> RecordBatch {
    arrow_select::concat::concat_batches(&batches[0].schema(), batches).unwrap()
}

fn run(seed: u64) {
    let mut rng = Rng::new(seed | 1);
    let fields: Vec<Field> = (0..1 + rng.below(4))
        .map(|i| field(&mut rng, format!("c{i}"), 0))
        .collect();
    let schema = Arc::new(Schema::new(fields));
    let rows = rng.below(700);
    let columns = schema
        .fields()
        .iter()
        .map(|f| array(&mut rng, f, rows))
        .collect();
    let whole = RecordBatch::try_new(schema.clone(), columns).unwrap();
    let cut = rng.below(rows + 1);
    let input = [whole.slice(0, cut), whole.slice(cut, rows - cut)];

    let codecs = [
        Compression::Uncompressed,
        Compression::Snappy,
        Compression::Zstd(1),
        Compression::Lz4Raw(1),
        #[cfg(feature = "lz4-hc")]
        Compression::Lz4Raw(4),
        Compression::Gzip(1),
        #[cfg(feature = "brotli")]
        Compression::Brotli(1),
    ];
    let mut options = WriterOptions::new()
        .with_compression(codecs[rng.below(codecs.len())])
        .with_data_page_version(if rng.chance(50) {
            PageVersion::V2
        } else {
            PageVersion::V1
        })
        .with_dictionary(rng.chance(50))
        .with_data_page_row_count_limit(1 + rng.below(300))
        .with_data_page_size_limit(64 + rng.below(4000))
        .with_max_row_group_row_count(1 + rng.below(800));
    let descr = ArrowSchemaConverter::new().convert(&schema).unwrap();
    let mut chosen = Vec::new();
    for column in descr.columns() {
        let choices = encodings(column.physical_type());
        let encoding = choices[rng.below(choices.len())];
        chosen.push((column.path().string(), encoding));
        options = options.with_column(
            column.path().string(),
            ColumnSettings::new().with_encoding(encoding),
        );
    }
    let what = format!("seed {seed}: {schema:?} {chosen:?} {options:?}");

    let mut writer = FileWriter::try_new(Vec::new(), schema.clone(), options).unwrap();
    for b in &input {
        writer.write(b).unwrap();
    }
    let file = Bytes::from(writer.into_inner().unwrap());
    let want = concat(&input);
    let theirs: Vec<RecordBatch> = ParquetRecordBatchReaderBuilder::try_new(file.clone())
        .unwrap_or_else(|e| panic!("{what}: {e}"))
        .build()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let ours: Vec<RecordBatch> = ReaderBuilder::try_new(file.clone())
        .unwrap()
        .build()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    // Through the offset index: pages before the offset are skipped by their locations.
    let (offset, limit) = (rng.below(rows + 1), rng.below(rows + 1));
    let selected: Vec<RecordBatch> = ReaderBuilder::try_new_with_options(
        file.clone(),
        ReaderOptions::new().with_page_index(true),
    )
    .unwrap()
    .with_offset(offset)
    .with_limit(limit)
    .build()
    .unwrap()
    .collect::<Result<_, _>>()
    .unwrap_or_else(|e| panic!("{what}: {e}"));
    let take = limit.min(rows - offset);
    let selected = if selected.is_empty() {
        RecordBatch::new_empty(schema.clone())
    } else {
        concat(&selected)
    };
    assert_eq!(
        selected.num_rows(),
        take,
        "selection {offset}+{limit}: {what}"
    );
    let expected_slice = want.slice(offset, take);
    for i in 0..want.num_columns() {
        assert!(
            selected.column(i).as_ref() == expected_slice.column(i).as_ref(),
            "selection {offset}+{limit}: column {i} differs, {what}"
        );
    }
    for (name, read) in [("arrow-rs", theirs), ("pqcodec", ours)] {
        let read = if read.is_empty() {
            RecordBatch::new_empty(schema.clone())
        } else {
            concat(&read)
        };
        assert_eq!(read.num_rows(), want.num_rows(), "{name} {what}");
        for i in 0..want.num_columns() {
            assert!(
                read.column(i).as_ref() == want.column(i).as_ref(),
                "{name}: column {i} differs, {what}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_schemas_and_options_read_back(seed in any::<u64>()) {
        run(seed);
    }
}
