//! arrow_pages: a column's shape and pages from the input into the Arrow decoders.

use super::*;

/// The Arrow types a leaf of type `column_type` may be read as, picked by a byte.
pub fn leaf_type(column_type: ColumnType, b: u8) -> DataType {
    let tl = i32::try_from(column_type.value_width().unwrap_or(0)).unwrap_or(i32::MAX);
    let choices: Vec<DataType> = match column_type.physical() {
        PhysicalType::Boolean => vec![DataType::Boolean, DataType::Null],
        PhysicalType::Int32 => vec![
            DataType::Int32,
            DataType::Int8,
            DataType::UInt16,
            DataType::UInt32,
            DataType::Date32,
            DataType::Date64,
            DataType::Decimal128(9, 2),
            DataType::Time32(TimeUnit::Millisecond),
            DataType::Dictionary(Box::new(DataType::Int8), Box::new(DataType::Int32)),
        ],
        PhysicalType::Int64 => vec![
            DataType::Int64,
            DataType::UInt64,
            DataType::Timestamp(TimeUnit::Microsecond, None),
            DataType::Timestamp(TimeUnit::Nanosecond, Some("+01:00".into())),
            DataType::Decimal128(18, 3),
            DataType::Time64(TimeUnit::Microsecond),
        ],
        PhysicalType::Int96 => vec![
            DataType::Timestamp(TimeUnit::Nanosecond, None),
            DataType::Timestamp(TimeUnit::Millisecond, None),
        ],
        PhysicalType::Float => vec![DataType::Float32],
        PhysicalType::Double => vec![DataType::Float64],
        PhysicalType::ByteArray => vec![
            DataType::Binary,
            DataType::Utf8,
            DataType::LargeUtf8,
            DataType::Utf8View,
            DataType::BinaryView,
            DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8)),
            DataType::Dictionary(Box::new(DataType::UInt8), Box::new(DataType::Binary)),
            DataType::Decimal128(20, 2),
        ],
        PhysicalType::FixedLenByteArray => vec![
            DataType::FixedSizeBinary(tl),
            DataType::Float16,
            DataType::Decimal128(38, 4),
            DataType::Interval(IntervalUnit::DayTime),
            DataType::Dictionary(
                Box::new(DataType::Int16),
                Box::new(DataType::FixedSizeBinary(tl)),
            ),
        ],
    };
    choices[usize::from(b) % choices.len()].clone()
}

/// A field of one of a few shapes over leaves of type `leaf`, and its columns' descriptions.
pub fn shape(which: u8, leaf: DataType, column_type: ColumnType) -> (FieldRef, Vec<ColumnDesc>) {
    let col = |path: &str, def: u16, rep: u16| ColumnDesc {
        path: path.into(),
        column_type,
        max_def_level: def,
        max_rep_level: rep,
    };
    let item = |nullable: bool| Arc::new(Field::new("item", leaf.clone(), nullable));
    match which % 9 {
        0 => (
            Arc::new(Field::new("a", leaf.clone(), false)),
            vec![col("a", 0, 0)],
        ),
        1 => (
            Arc::new(Field::new("a", leaf.clone(), true)),
            vec![col("a", 1, 0)],
        ),
        2 => {
            let fields = Fields::from(vec![Field::new("x", leaf.clone(), true)]);
            (
                Arc::new(Field::new("s", DataType::Struct(fields), true)),
                vec![col("s.x", 2, 0)],
            )
        }
        3 => (
            Arc::new(Field::new("l", DataType::List(item(true)), true)),
            vec![col("l.list.item", 3, 1)],
        ),
        4 => (
            Arc::new(Field::new("l", DataType::List(item(false)), false)),
            vec![col("l.list.item", 1, 1)],
        ),
        5 => {
            let inner = Arc::new(Field::new("item", DataType::List(item(true)), true));
            (
                Arc::new(Field::new("l", DataType::List(inner), true)),
                vec![col("l.list.item.list.item", 5, 2)],
            )
        }
        6 => (
            Arc::new(Field::new("l", DataType::LargeList(item(true)), true)),
            vec![col("l.list.item", 3, 1)],
        ),
        7 => {
            let fields = Fields::from(vec![
                Field::new("x", leaf.clone(), false),
                Field::new("y", leaf.clone(), true),
            ]);
            (
                Arc::new(Field::new("s", DataType::Struct(fields), true)),
                vec![col("s.x", 1, 0), col("s.y", 2, 0)],
            )
        }
        _ => {
            let entries = Fields::from(vec![
                Field::new("key", leaf.clone(), false),
                Field::new("value", leaf.clone(), true),
            ]);
            let entries = Arc::new(Field::new("key_value", DataType::Struct(entries), false));
            (
                Arc::new(Field::new("m", DataType::Map(entries, false), true)),
                vec![col("m.key_value.key", 2, 1), col("m.key_value.value", 3, 1)],
            )
        }
    }
}

/// The pages of each column, from the input: records of a kind byte (0 dictionary page, 1
/// data page v1, 2 data page v2, 3 the next column's pages begin, anything else ends),
/// an encoding byte, a value count, the kind's header fields, a byte length and the bytes.
pub fn pages(input: &mut Input<'_>, columns: usize) -> Vec<Vec<Page>> {
    let mut out: Vec<Vec<Page>> = vec![Vec::new(); columns];
    let mut column = 0;
    while !input.is_empty() {
        let kind = input.u8();
        if kind == 3 {
            column += 1;
            if column == columns {
                break;
            }
            continue;
        }
        let encoding = Encoding::ALL[usize::from(input.u8()) % Encoding::ALL.len()];
        let num_values = input.count();
        let page = match kind {
            0 => {
                let len = input.u32() as usize;
                Page::Dictionary(DictionaryPage {
                    data: arrow_buffer::Buffer::from(input.take(len)),
                    num_values,
                    encoding,
                })
            }
            1 => {
                let levels = input.u8();
                let level_encoding = |b: u8| {
                    if b & 1 == 0 {
                        Encoding::Rle
                    } else {
                        Encoding::BitPacked
                    }
                };
                let len = input.u32() as usize;
                Page::DataV1(DataPageV1 {
                    data: arrow_buffer::Buffer::from(input.take(len)),
                    num_values,
                    encoding,
                    def_level_encoding: level_encoding(levels),
                    rep_level_encoding: level_encoding(levels >> 1),
                })
            }
            2 => {
                let num_nulls = input.count();
                let num_rows = input.count();
                let def_levels_byte_len = input.u32() as usize;
                let rep_levels_byte_len = input.u32() as usize;
                let len = input.u32() as usize;
                Page::DataV2(DataPageV2 {
                    data: arrow_buffer::Buffer::from(input.take(len)),
                    num_values,
                    num_nulls,
                    num_rows,
                    encoding,
                    def_levels_byte_len,
                    rep_levels_byte_len,
                })
            }
            _ => break,
        };
        if let Some(pages) = out.get_mut(column) {
            pages.push(page);
        }
    }
    out
}

/// The input bytes [`pages`] reads back as `columns`' pages (the seed corpus is written
/// with it).
pub fn write_pages(out: &mut Vec<u8>, columns: &[Vec<Page>]) {
    let u32_of = |n: usize| u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes();
    let count = |n: usize| {
        // What `Input::count` reads back as n (n below 2^16, or 2^31 and more).
        u32_of(if n < 0x1_0000 { n } else { n | 0x8000_0000 })
    };
    let encoding = |e: Encoding| Encoding::ALL.iter().position(|&x| x == e).unwrap_or(0) as u8;
    for (i, pages) in columns.iter().enumerate() {
        if i > 0 {
            out.push(3);
        }
        for page in pages {
            match page {
                Page::Dictionary(p) => {
                    out.extend([0, encoding(p.encoding)]);
                    out.extend(count(p.num_values));
                    out.extend(u32_of(p.data.len()));
                    out.extend_from_slice(&p.data);
                }
                Page::DataV1(p) => {
                    out.extend([1, encoding(p.encoding)]);
                    out.extend(count(p.num_values));
                    let bit = |e: Encoding| u8::from(e == Encoding::BitPacked);
                    out.push(bit(p.def_level_encoding) | (bit(p.rep_level_encoding) << 1));
                    out.extend(u32_of(p.data.len()));
                    out.extend_from_slice(&p.data);
                }
                Page::DataV2(p) => {
                    out.extend([2, encoding(p.encoding)]);
                    out.extend(count(p.num_values));
                    out.extend(count(p.num_nulls));
                    out.extend(count(p.num_rows));
                    out.extend(u32_of(p.def_levels_byte_len));
                    out.extend(u32_of(p.rep_levels_byte_len));
                    out.extend(u32_of(p.data.len()));
                    out.extend_from_slice(&p.data);
                }
            }
        }
    }
    out.push(4);
}

/// Most rows a target decodes from one input: a page may honestly claim 2^31 null rows in a
/// few bytes, and decoding them all is not a hang of pqcodec's.
pub(super) const MAX_ROWS: usize = 1 << 20;

/// Checks a batch the decoders returned: at most `asked` rows, every array valid.
pub(super) fn check_batch(batch: &RecordBatch, asked: usize) {
    assert!(
        batch.num_rows() <= asked,
        "{} rows where {asked} were asked",
        batch.num_rows()
    );
    for (i, column) in batch.columns().iter().enumerate() {
        assert_eq!(column.len(), batch.num_rows(), "column {i} length");
        if let Err(e) = column.to_data().validate_full() {
            panic!(
                "column {i} is not a valid {} array: {e}",
                column.data_type()
            );
        }
    }
}

/// Runs a [`RecordBatchDecoder`] through the schedule of `seed`: reads and skips of varying
/// row counts, checking every batch, until the columns end, fail or [`MAX_ROWS`] are done.
pub(super) fn drive(mut decoder: RecordBatchDecoder, seed: u16) {
    let mut schedule = Schedule::new(seed);
    let mut rows = 0usize;
    while rows < MAX_ROWS {
        match schedule.op(MAX_ROWS - rows) {
            Op::Read(n) => {
                let n = n.clamp(1, 4096);
                match decoder.read(n) {
                    Ok(Some(batch)) => {
                        check_batch(&batch, n);
                        assert!(batch.num_rows() > 0, "an empty batch before the end");
                        rows += batch.num_rows();
                    }
                    Ok(None) | Err(_) => return,
                }
            }
            Op::Skip(n) => {
                let n = n.min(MAX_ROWS - rows).max(1);
                match RecordBatchDecoder::skip(&mut decoder, n) {
                    Ok(0) | Err(_) => return,
                    Ok(k) => {
                        assert!(k <= n, "skipped {k} rows where {n} were asked");
                        rows += k;
                    }
                }
            }
        }
    }
}

/// A column's shape (physical type, type length, Arrow type, nesting) picked by the first
/// bytes, then its pages, into [`RecordBatchDecoder`] through a schedule of reads and skips.
pub fn arrow_pages(data: &[u8]) {
    let mut input = Input::new(data);
    let p = physical(input.u8());
    let type_length = usize::from(input.u8());
    // A FIXED_LEN_BYTE_ARRAY of width 0 cannot be described: no column to read.
    let Ok(column_type) = ColumnType::new(p, type_length) else {
        return;
    };
    let which = input.u8();
    let leaf = leaf_type(column_type, input.u8());
    let seed = input.u16();
    let (field, descs) = shape(which, leaf, column_type);
    let pages = pages(&mut input, descs.len());
    let columns = descs
        .into_iter()
        .zip(pages)
        .map(|(desc, pages)| {
            Column::new(
                desc,
                pages.into_iter().map(Ok::<_, std::convert::Infallible>),
            )
        })
        .collect();
    let schema = Arc::new(Schema::new(vec![field]));
    let Ok(decoder) = RecordBatchDecoder::try_new(schema, columns, 1024) else {
        return;
    };
    drive(decoder, seed);
}
