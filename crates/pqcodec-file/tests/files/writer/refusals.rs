//! Bad batches refused before anything is written, no footer without `close()`, and an I/O
//! error returned once, the writer refusing more after it.

use std::sync::Arc;

use arrow_array::types::Int32Type;
use arrow_array::*;
use arrow_buffer::OffsetBuffer;
use arrow_schema::{DataType, Field};
use bytes::Bytes;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use pqcodec_core::Encoding;
use pqcodec_file::{FileWriter, WriterOptions};

use super::*;

#[test]
fn bad_batches_are_refused_before_anything_is_written() {
    // A batch of another schema.
    let (schema, good) = one_column("a", Arc::new(Int32Array::from(vec![1, 2])), true);
    let mut writer = FileWriter::try_new(Vec::new(), schema, WriterOptions::new()).unwrap();
    writer.write(&good).unwrap();
    let other = batch(vec![("a", Arc::new(Int64Array::from(vec![1])) as ArrayRef)]);
    let err = writer.write(&other).unwrap_err().to_string();
    assert!(err.contains("schema"), "{err}");
    writer.write(&good).unwrap();
    let file = Bytes::from(writer.into_inner().unwrap());
    assert_eq!(read_arrow_rs(file).num_rows(), 4);

    // An encoding that does not apply.
    let (schema, _) = one_column("s", Arc::new(StringArray::from(vec!["x"])), true);
    let options = WriterOptions::new().with_encoding(Encoding::ByteStreamSplit);
    let err = FileWriter::try_new(Vec::new(), schema.clone(), options)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("BYTE_STREAM_SPLIT") && err.contains('s'),
        "{err}"
    );
    let options = WriterOptions::new().with_encoding(Encoding::DeltaBinaryPacked);
    assert!(FileWriter::try_new(Vec::new(), schema, options).is_err());

    // A dictionary key past the dictionary.
    let keys = Int32Array::from(vec![0, 5, 1]);
    let values: ArrayRef = Arc::new(StringArray::from(vec!["x", "y"]));
    // SAFETY: the key past the dictionary is the point; only the writer reads this array.
    let dict = unsafe { DictionaryArray::<Int32Type>::new_unchecked(keys, values) };
    let (schema, bad) = one_column("d", Arc::new(dict), true);
    let mut writer = FileWriter::try_new(Vec::new(), schema, WriterOptions::new()).unwrap();
    let err = writer.write(&bad).unwrap_err();
    // The encoder's own error, kept.
    assert!(matches!(err, pqcodec_file::Error::Encode(_)), "{err:?}");
    let err = err.to_string();
    assert!(err.contains("key 5"), "{err}");
    assert_eq!(writer.in_progress_rows(), 0);

    // A list offset past its child.
    let child = Arc::new(Int32Array::from(vec![1, 2, 3]));
    let field = Arc::new(Field::new("item", DataType::Int32, true));
    let data = ListArray::new(
        field.clone(),
        OffsetBuffer::new(vec![0, 2, 3].into()),
        child,
        None,
    )
    .into_data()
    .into_builder()
    .buffers(vec![arrow_buffer::Buffer::from_vec(vec![0i32, 2, 9])]);
    // SAFETY: built invalid on purpose; only the writer reads it, and checks its offsets.
    let list = ListArray::from(unsafe { data.build_unchecked() });
    let (schema, bad) = one_column("l", Arc::new(list), true);
    let mut writer = FileWriter::try_new(Vec::new(), schema, WriterOptions::new()).unwrap();
    let err = writer.write(&bad).unwrap_err().to_string();
    assert!(err.contains("offsets"), "{err}");
    assert_eq!(writer.in_progress_rows(), 0);
}

#[test]
fn no_footer_without_close() {
    let input = batch(flat_columns());
    let mut out = Vec::new();
    {
        let mut writer = FileWriter::try_new(
            &mut out,
            input.schema(),
            WriterOptions::new().with_max_row_group_row_count(1000),
        )
        .unwrap();
        writer.write(&input).unwrap();
        // Dropped: two row groups are out, the third and the footer are not.
    }
    assert!(out.len() > 4);
    assert!(ParquetRecordBatchReaderBuilder::try_new(Bytes::from(out)).is_err());
}

/// An output that fails after `budget` bytes.
struct Failing {
    budget: usize,
}

impl std::io::Write for Failing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if buf.len() > self.budget {
            return Err(std::io::Error::other("disk full"));
        }
        self.budget -= buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn an_io_error_is_returned_and_the_writer_refuses_more() {
    let input = batch(flat_columns());
    let options = WriterOptions::new().with_max_row_group_row_count(500);
    let mut writer =
        FileWriter::try_new(Failing { budget: 20_000 }, input.schema(), options).unwrap();
    let err = writer.write(&input).unwrap_err();
    let io = std::error::Error::source(&err).and_then(|e| e.downcast_ref::<std::io::Error>());
    assert!(
        io.is_some_and(|io| io.to_string() == "disk full"),
        "{err:?}"
    );
    let again = writer.write(&input).unwrap_err();
    assert!(matches!(again, pqcodec_file::Error::Failed(_)), "{again:?}");
    assert!(again.to_string().contains("disk full"), "{again}");
    assert!(writer.close().is_err());
}
