//! The tables the writer's tests write: every flat type, then nested lists, structs and maps,
//! with nulls every few rows.

use std::sync::Arc;

use arrow_array::builder::{Int32Builder, ListBuilder, MapBuilder, StringBuilder};
use arrow_array::types::Int32Type;
use arrow_array::*;
use arrow_buffer::{OffsetBuffer, i256};
use arrow_schema::{DataType, Field, Fields};

pub(super) const ROWS: usize = 3000;

/// Every `k`-th row null.
pub(super) fn valid(i: usize, k: usize) -> bool {
    i % k != k / 2
}

pub(super) fn flat_columns() -> Vec<(&'static str, ArrayRef)> {
    let n = ROWS;
    let i32s = |k| {
        Int32Array::from_iter((0..n).map(|i| valid(i, k).then_some((i as i32 * 7919) % 1000 - 500)))
    };
    vec![
        (
            "bool",
            Arc::new(BooleanArray::from_iter(
                (0..n).map(|i| valid(i, 5).then_some(i % 3 == 0)),
            )) as ArrayRef,
        ),
        (
            "i8",
            Arc::new(Int8Array::from_iter(
                (0..n).map(|i| valid(i, 7).then_some((i % 200) as i8)),
            )),
        ),
        (
            "i16",
            Arc::new(Int16Array::from_iter((0..n).map(|i| Some((i * 31) as i16)))),
        ),
        ("i32", Arc::new(i32s(11))),
        (
            "i64",
            Arc::new(Int64Array::from_iter(
                (0..n).map(|i| valid(i, 13).then_some(i as i64 * 1_000_003 - 7)),
            )),
        ),
        (
            "u8",
            Arc::new(UInt8Array::from_iter((0..n).map(|i| Some((i % 256) as u8)))),
        ),
        (
            "u16",
            Arc::new(UInt16Array::from_iter(
                (0..n).map(|i| Some((i * 13) as u16)),
            )),
        ),
        (
            "u32",
            Arc::new(UInt32Array::from_iter(
                (0..n).map(|i| valid(i, 3).then_some(u32::MAX - i as u32)),
            )),
        ),
        (
            "u64",
            Arc::new(UInt64Array::from_iter(
                (0..n).map(|i| Some(u64::MAX - i as u64 * 3)),
            )),
        ),
        (
            "f32",
            Arc::new(Float32Array::from_iter(
                (0..n).map(|i| valid(i, 17).then_some(i as f32 / 4.0 - 100.0)),
            )),
        ),
        (
            "f64",
            Arc::new(Float64Array::from_iter((0..n).map(|i| {
                Some(match i % 50 {
                    0 => f64::NAN,
                    1 => -0.0,
                    _ => i as f64 * 0.01,
                })
            }))),
        ),
        (
            "f16",
            Arc::new(Float16Array::from_iter((0..n).map(|i| {
                valid(i, 9).then(|| half::f16::from_f32(i as f32 / 8.0))
            }))),
        ),
        (
            "date32",
            Arc::new(Date32Array::from_iter(
                (0..n).map(|i| Some(i as i32 - 1000)),
            )),
        ),
        (
            "date64",
            Arc::new(Date64Array::from_iter(
                (0..n).map(|i| Some(i as i64 * 86_400_000)),
            )),
        ),
        (
            "time32",
            Arc::new(Time32MillisecondArray::from_iter(
                (0..n).map(|i| Some(i as i32 * 1000)),
            )),
        ),
        (
            "time64",
            Arc::new(Time64MicrosecondArray::from_iter(
                (0..n).map(|i| Some(i as i64 * 1000)),
            )),
        ),
        (
            "ts_s",
            Arc::new(TimestampSecondArray::from_iter(
                (0..n).map(|i| valid(i, 4).then_some(i as i64 * 3600)),
            )),
        ),
        (
            "ts_us_tz",
            Arc::new(
                TimestampMicrosecondArray::from_iter((0..n).map(|i| Some(i as i64 * 1_000_001)))
                    .with_timezone("+02:00"),
            ),
        ),
        (
            "dec_9",
            Arc::new(
                Decimal128Array::from_iter(
                    (0..n).map(|i| valid(i, 6).then_some(i as i128 * 101 - 9999)),
                )
                .with_precision_and_scale(9, 2)
                .unwrap(),
            ),
        ),
        (
            "dec_18",
            Arc::new(
                Decimal128Array::from_iter((0..n).map(|i| Some(i as i128 * 1_000_000_007 - 5)))
                    .with_precision_and_scale(18, 3)
                    .unwrap(),
            ),
        ),
        (
            "dec_30",
            Arc::new(
                Decimal128Array::from_iter(
                    (0..n).map(|i| valid(i, 8).then_some((i as i128 - 1500) * 10i128.pow(25))),
                )
                .with_precision_and_scale(30, 4)
                .unwrap(),
            ),
        ),
        (
            "dec_50",
            Arc::new(
                Decimal256Array::from_iter((0..n).map(|i| {
                    Some(i256::from_i128(i as i128 - 7) * i256::from_i128(10i128.pow(30)))
                }))
                .with_precision_and_scale(50, 1)
                .unwrap(),
            ),
        ),
        (
            "utf8",
            Arc::new(StringArray::from_iter(
                (0..n).map(|i| valid(i, 10).then(|| format!("v{}", (i * 7) % 97))),
            )),
        ),
        (
            "large_utf8",
            Arc::new(LargeStringArray::from_iter(
                (0..n).map(|i| Some(format!("long value number {i}"))),
            )),
        ),
        (
            "utf8_view",
            Arc::new(StringViewArray::from_iter(
                (0..n).map(|i| valid(i, 12).then(|| "é".repeat(i % 20))),
            )),
        ),
        (
            "binary",
            Arc::new(BinaryArray::from_iter(
                (0..n).map(|i| valid(i, 6).then(|| vec![(i % 256) as u8; i % 5])),
            )),
        ),
        (
            "binary_view",
            Arc::new(BinaryViewArray::from_iter(
                (0..n).map(|i| Some(vec![(i % 7) as u8; i % 30])),
            )),
        ),
        (
            "fixed",
            Arc::new(
                FixedSizeBinaryArray::try_from_sparse_iter_with_size(
                    (0..n).map(|i| valid(i, 5).then(|| (i as u32).to_be_bytes())),
                    4,
                )
                .unwrap(),
            ),
        ),
        (
            "ym",
            Arc::new(IntervalYearMonthArray::from_iter(
                (0..n).map(|i| Some(i as i32 - 10)),
            )),
        ),
        (
            "dict",
            Arc::new(
                (0..n)
                    .map(|i| valid(i, 7).then(|| ["red", "green", "blue"][i % 3]))
                    .collect::<DictionaryArray<Int32Type>>(),
            ),
        ),
    ]
}

pub(super) fn nested_columns() -> Vec<(&'static str, ArrayRef)> {
    let n = ROWS;
    let mut list = ListBuilder::new(Int32Builder::new());
    for i in 0..n {
        match i % 6 {
            0 => list.append_null(),
            1 => list.append(true),
            _ => {
                for k in 0..(i % 4) {
                    list.values()
                        .append_option((k != 2).then_some((i + k) as i32));
                }
                list.append(true);
            }
        }
    }
    let list = list.finish();
    let large = LargeListArray::new(
        Arc::new(Field::new("item", DataType::Utf8, true)),
        OffsetBuffer::from_lengths((0..n).map(|i| i % 3)),
        Arc::new(StringArray::from_iter((0..n).flat_map(|i| {
            (0..i % 3).map(move |k| (k != 1).then(|| format!("{i}.{k}")))
        }))),
        None,
    );
    let inner = StructArray::new(
        Fields::from(vec![
            Field::new("x", DataType::Int64, false),
            Field::new("y", DataType::Utf8, true),
        ]),
        vec![
            Arc::new(Int64Array::from_iter_values((0..n).map(|i| i as i64))),
            Arc::new(StringArray::from_iter(
                (0..n).map(|i| valid(i, 4).then(|| i.to_string())),
            )),
        ],
        Some((0..n).map(|i| valid(i, 9)).collect()),
    );
    let mut map = MapBuilder::new(None, StringBuilder::new(), Int32Builder::new());
    for i in 0..n {
        if i % 10 == 3 {
            map.append(false).unwrap();
            continue;
        }
        for k in 0..(i % 3) {
            map.keys().append_value(format!("k{k}"));
            map.values().append_option((k != 1).then_some(i as i32));
        }
        map.append(true).unwrap();
    }
    let map = map.finish();
    // A list of structs with a list inside.
    let points = StructArray::new(
        Fields::from(vec![
            Field::new("id", DataType::Int32, true),
            Field::new_list("tags", Field::new("item", DataType::Int32, true), true),
        ]),
        vec![
            Arc::new(Int32Array::from_iter(
                (0..2 * n).map(|i| valid(i, 5).then_some(i as i32)),
            )),
            Arc::new(ListArray::from_iter_primitive::<Int32Type, _, _>(
                (0..2 * n).map(|i| {
                    valid(i, 7).then(|| (0..i % 3).map(|k| Some(k as i32)).collect::<Vec<_>>())
                }),
            )),
        ],
        None,
    );
    let nested_list = ListArray::new(
        Arc::new(Field::new("item", points.data_type().clone(), true)),
        OffsetBuffer::from_lengths((0..n).map(|i| if i % 2 == 0 { 1 } else { 3 }).scan(
            0,
            |total, l| {
                // Stay within the 2n points.
                let l = if *total + l > 2 * n { 0 } else { l };
                *total += l;
                Some(l)
            },
        )),
        Arc::new(points),
        Some((0..n).map(|i| valid(i, 11)).collect()),
    );
    vec![
        ("list", Arc::new(list) as ArrayRef),
        ("large_list", Arc::new(large)),
        ("struct", Arc::new(inner)),
        ("map", Arc::new(map)),
        ("list_of_structs", Arc::new(nested_list)),
    ]
}
