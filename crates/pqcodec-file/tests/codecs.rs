//! Page codecs are cargo features: a codec this build was compiled without is refused by name,
//! by the writer before it writes anything and by the reader at the chunk that uses it. CI
//! runs this file with the default features too, which leave BROTLI out.

use std::sync::Arc;

use arrow_array::{Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use bytes::Bytes;
use parquet::arrow::ArrowWriter;
use parquet::basic::{BrotliLevel, Compression as ParquetCompression};
use parquet::file::properties::WriterProperties;
use pqcodec_file::{Compression, FileWriter, ReaderBuilder, WriterOptions};

fn batch() -> RecordBatch {
    let schema = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("name", DataType::Utf8, true),
    ]));
    let ids = Int64Array::from_iter_values(0..1000);
    let names = StringArray::from_iter((0..1000).map(|i| (i % 7 != 0).then(|| format!("n{i}"))));
    RecordBatch::try_new(schema, vec![Arc::new(ids), Arc::new(names)]).unwrap()
}

/// The batch written by arrow-rs with BROTLI pages.
fn brotli_file(batch: &RecordBatch) -> Bytes {
    let props = WriterProperties::builder()
        .set_compression(ParquetCompression::BROTLI(BrotliLevel::default()))
        .build();
    let mut out = Vec::new();
    let mut writer = ArrowWriter::try_new(&mut out, batch.schema(), Some(props)).unwrap();
    writer.write(batch).unwrap();
    writer.close().unwrap();
    Bytes::from(out)
}

/// Every batch of `file`, read by pqcodec.
fn read(file: Bytes) -> Result<Vec<RecordBatch>, String> {
    let reader = ReaderBuilder::try_new(file).map_err(|e| e.to_string())?;
    let reader = reader.build().map_err(|e| e.to_string())?;
    reader
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())
}

#[cfg(not(feature = "brotli"))]
#[test]
fn a_codec_left_out_is_refused_by_name() {
    let batch = batch();
    let options = WriterOptions::new().with_compression(Compression::Brotli(1));
    let err = FileWriter::try_new(Vec::new(), batch.schema(), options).unwrap_err();
    assert!(
        matches!(
            err,
            pqcodec_file::Error::CodecNotCompiled {
                codec: "BROTLI",
                feature: "brotli"
            }
        ),
        "{err:?}"
    );
    let err = read(brotli_file(&batch)).unwrap_err();
    assert!(
        err.contains("BROTLI pages need pqcodec-file's `brotli` feature"),
        "{err}"
    );
    // The codecs compiled in are written and read.
    for codec in [
        Compression::Snappy,
        Compression::Zstd(3),
        Compression::Lz4Raw,
    ] {
        let options = WriterOptions::new().with_compression(codec);
        let mut writer = FileWriter::try_new(Vec::new(), batch.schema(), options).unwrap();
        writer.write(&batch).unwrap();
        let file = Bytes::from(writer.into_inner().unwrap());
        assert_eq!(read(file).unwrap(), std::slice::from_ref(&batch), "{codec}");
    }
}

#[cfg(feature = "brotli")]
#[test]
fn brotli_compiled_in_is_read_and_written() {
    let batch = batch();
    assert_eq!(
        read(brotli_file(&batch)).unwrap(),
        std::slice::from_ref(&batch)
    );
    let options = WriterOptions::new().with_compression(Compression::Brotli(1));
    let mut writer = FileWriter::try_new(Vec::new(), batch.schema(), options).unwrap();
    writer.write(&batch).unwrap();
    let file = Bytes::from(writer.into_inner().unwrap());
    assert_eq!(read(file).unwrap(), [batch]);
}
