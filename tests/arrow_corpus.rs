//! Every Parquet file of the corpus (tests/data, copied from ../shared/corpus) and a few shapes
//! written here, decoded by pqcodec and compared batch by batch with arrow-rs's
//! ParquetRecordBatchReader at the same batch size.

use std::path::PathBuf;
use std::sync::Arc;

use arrow_array::RecordBatch;
use bytes::Bytes;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use pqcodec_arrow::framing::ParquetFile;

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
    let file = ParquetFile::from_bytes(data.clone()).map_err(|e| e.to_string())?;
    let decoder = file.record_batches(batch_size).map_err(|e| e.to_string())?;
    decoder
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())
}

/// Compares pqcodec with arrow-rs on `data`; returns a description of the first difference.
fn compare(data: &Bytes, batch_size: usize) -> Result<usize, String> {
    let expected = arrow_rs_batches(data, batch_size);
    let actual = pqcodec_batches(data, batch_size)?;
    if expected.len() != actual.len() {
        return Err(format!(
            "{} batches from arrow-rs, {} from pqcodec",
            expected.len(),
            actual.len()
        ));
    }
    for (i, (e, a)) in expected.iter().zip(&actual).enumerate() {
        if e.schema() != a.schema() {
            return Err(format!(
                "batch {i}: schema {:?} != {:?}",
                a.schema(),
                e.schema()
            ));
        }
        for (c, field) in e.schema().fields().iter().enumerate() {
            let (ec, ac) = (e.column(c), a.column(c));
            if ec.as_ref() != ac.as_ref() {
                let show =
                    |a: &Arc<dyn arrow_array::Array>| format!("{:?}", a.slice(0, a.len().min(8)));
                return Err(format!(
                    "batch {i}, column {:?}: arrow-rs {} rows {} nulls, pqcodec {} rows {} nulls\narrow-rs: {}\npqcodec: {}",
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
    }
    Ok(expected.iter().map(|b| b.num_rows()).sum())
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
