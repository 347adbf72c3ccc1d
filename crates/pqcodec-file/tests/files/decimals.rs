//! Decimals from FIXED_LEN_BYTE_ARRAY and INT32 / INT64 pages, dictionary-encoded (the
//! dictionary converted once, its pages gathering converted values) or PLAIN, with nulls and
//! a dictionary that falls back part way, compared with arrow-rs reading the same files.

use std::sync::Arc;

use arrow_array::{ArrayRef, Decimal128Array, Decimal256Array, RecordBatch};
use arrow_buffer::i256;
use bytes::Bytes;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::properties::{WriterProperties, WriterVersion};
use pqcodec_file::ReaderBuilder;

const ROWS: usize = 4000;

/// Values drawn from `distinct` decimals, negative ones too, every 7th null.
fn values(distinct: i128) -> Vec<Option<i128>> {
    (0..ROWS as i128)
        .map(|i| (i % 7 != 3).then(|| (i * 7919 % distinct - distinct / 2) * 1_000_003))
        .collect()
}

fn write(distinct: i128, props: WriterProperties) -> Bytes {
    let v = values(distinct);
    let column = |precision: u8, divisor: i128| {
        Arc::new(
            Decimal128Array::from_iter(v.iter().map(|x| x.map(|x| x / divisor)))
                .with_precision_and_scale(precision, 2)
                .unwrap(),
        ) as ArrayRef
    };
    let wide = Decimal256Array::from(
        v.iter()
            .map(|x| x.map(|x| i256::from_i128(x) * i256::from_i128(1 << 70)))
            .collect::<Vec<_>>(),
    )
    .with_precision_and_scale(50, 2)
    .unwrap();
    let batch = RecordBatch::try_from_iter([
        // INT32, INT64, FIXED_LEN_BYTE_ARRAY(9), FIXED_LEN_BYTE_ARRAY(16) and (21) in the file.
        ("int32", column(9, 2)),
        ("int64", column(15, 1)),
        ("flba", column(20, 1)),
        ("flba16", column(38, 1)),
        ("wide", Arc::new(wide) as ArrayRef),
    ])
    .unwrap();
    let mut out = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    Bytes::from(out)
}

fn check(data: &Bytes, what: &str) {
    for batch_size in [999, 8192] {
        let expected: Vec<RecordBatch> = ParquetRecordBatchReaderBuilder::try_new(data.clone())
            .unwrap()
            .with_batch_size(batch_size)
            .build()
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let actual: Vec<RecordBatch> = ReaderBuilder::try_new(data.clone())
            .unwrap()
            .with_batch_size(batch_size)
            .build()
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let schema = expected[0].schema();
        let e = arrow_select::concat::concat_batches(&schema, &expected).unwrap();
        let a = arrow_select::concat::concat_batches(&schema, &actual).unwrap();
        assert_eq!(e.num_rows(), ROWS);
        assert_eq!(e, a, "{what}, batch size {batch_size}");
    }
}

#[test]
fn dictionary_and_plain_decimals_read_as_arrow_rs_reads_them() {
    for version in [WriterVersion::PARQUET_1_0, WriterVersion::PARQUET_2_0] {
        let props = || {
            WriterProperties::builder()
                .set_writer_version(version)
                .set_data_page_row_count_limit(500)
                .set_write_batch_size(500)
        };
        check(&write(40, props().build()), "dictionary");
        check(
            &write(3000, props().set_dictionary_page_size_limit(1024).build()),
            "fallback",
        );
        check(
            &write(3000, props().set_dictionary_enabled(false).build()),
            "plain",
        );
    }
}
