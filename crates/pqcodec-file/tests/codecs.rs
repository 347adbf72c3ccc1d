//! Page codecs are cargo features: a codec this build was compiled without is refused by name,
//! by the writer before it writes anything and by the reader at the chunk that uses it. CI
//! runs this file with the default features too, which leave BROTLI out.

use std::sync::Arc;

use arrow_array::{Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use bytes::Bytes;
use parquet::arrow::ArrowWriter;
use parquet::basic::{BrotliLevel, Compression as ParquetCompression};
use parquet::file::properties::{WriterProperties, WriterVersion};
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
    arrow_rs_file(
        batch,
        ParquetCompression::BROTLI(BrotliLevel::default()),
        false,
    )
}

/// The batch written by arrow-rs with `codec`, in pages (v2 pages if `v2`) of about 1,000
/// bytes: several a chunk.
fn arrow_rs_file(batch: &RecordBatch, codec: ParquetCompression, v2: bool) -> Bytes {
    let version = match v2 {
        true => WriterVersion::PARQUET_2_0,
        false => WriterVersion::PARQUET_1_0,
    };
    let props = WriterProperties::builder()
        .set_compression(codec)
        .set_writer_version(version)
        .set_data_page_size_limit(1000)
        .set_write_batch_size(100)
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
        Compression::Lz4Raw(1),
        #[cfg(feature = "lz4-hc")]
        Compression::Lz4Raw(9),
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

/// Every codec of the default features, as arrow-rs writes it (LZ4 in Hadoop's framing, GZIP
/// and ZSTD as streams), is read back equal, on v1 and v2 pages.
#[test]
fn what_arrow_rs_compresses_is_read() {
    use parquet::basic::{GzipLevel, ZstdLevel};
    let batch = batch();
    let mut codecs = vec![ParquetCompression::UNCOMPRESSED, ParquetCompression::SNAPPY];
    if cfg!(feature = "flate2") {
        codecs.push(ParquetCompression::GZIP(GzipLevel::default()));
    }
    if cfg!(feature = "lz4") {
        codecs.extend([ParquetCompression::LZ4, ParquetCompression::LZ4_RAW]);
    }
    if cfg!(feature = "zstd") {
        codecs.push(ParquetCompression::ZSTD(ZstdLevel::default()));
    }
    for (codec, v2) in codecs.into_iter().flat_map(|c| [(c, false), (c, true)]) {
        assert_eq!(
            read(arrow_rs_file(&batch, codec, v2)).unwrap(),
            std::slice::from_ref(&batch),
            "{codec}, v2 pages: {v2}"
        );
    }
}
