//! The writer against arrow-rs: files pqcodec writes, with every encoding, codec and page
//! version, read back by arrow-rs's reader equal to what was written; their footer statistics
//! equal to what arrow-rs's `ArrowWriter` writes for the same data; bad batches refused before
//! anything is written; no footer without `close()`.

mod columns;
mod dictionaries;
mod object_stores;
mod refusals;
mod round_trip;
mod statistics;

use std::sync::Arc;

use arrow_array::*;
use arrow_schema::{Field, Schema, SchemaRef};
use bytes::Bytes;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use pqcodec_file::{FileWriter, WriterOptions};

use columns::{ROWS, flat_columns, nested_columns};

fn batch(columns: Vec<(&'static str, ArrayRef)>) -> RecordBatch {
    RecordBatch::try_from_iter_with_nullable(columns.into_iter().map(|(name, a)| (name, a, true)))
        .unwrap()
}

/// Writes `batches` with `options`; the file.
pub(crate) fn write(batches: &[RecordBatch], options: WriterOptions) -> Bytes {
    let mut writer = FileWriter::try_new(Vec::new(), batches[0].schema(), options).unwrap();
    for b in batches {
        writer.write(b).unwrap();
    }
    Bytes::from(writer.into_inner().unwrap())
}

/// The file read back by arrow-rs, as one batch.
pub(crate) fn read_arrow_rs(file: Bytes) -> RecordBatch {
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .with_batch_size(1 << 20)
        .build()
        .unwrap();
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    arrow_select::concat::concat_batches(&batches[0].schema(), &batches).unwrap()
}

fn expected(batches: &[RecordBatch]) -> RecordBatch {
    arrow_select::concat::concat_batches(&batches[0].schema(), batches).unwrap()
}

/// Compares column by column, naming the first column that differs.
fn assert_same(read: &RecordBatch, want: &RecordBatch, what: &str) {
    assert_eq!(read.num_rows(), want.num_rows(), "{what}: rows");
    for (i, field) in want.schema().fields().iter().enumerate() {
        let (got, exp) = (read.column(i), want.column(i));
        assert_eq!(
            got.data_type(),
            exp.data_type(),
            "{what}: column {}",
            field.name()
        );
        assert!(
            got.as_ref() == exp.as_ref(),
            "{what}: column {} differs:\n{:?}\n{:?}",
            field.name(),
            got.slice(0, 12.min(got.len())),
            exp.slice(0, 12.min(exp.len()))
        );
    }
}

/// Two batches, the second a slice of a bigger one, so that sliced arrays are written too.
fn batches(columns: fn() -> Vec<(&'static str, ArrayRef)>) -> Vec<RecordBatch> {
    let whole = batch(columns());
    vec![whole.slice(0, 1700), whole.slice(1703, ROWS - 1703)]
}

fn one_column(name: &str, array: ArrayRef, nullable: bool) -> (SchemaRef, RecordBatch) {
    let field = Field::new(name, array.data_type().clone(), nullable);
    let schema = Arc::new(Schema::new(vec![field]));
    (
        schema.clone(),
        RecordBatch::try_new(schema, vec![array]).unwrap(),
    )
}
