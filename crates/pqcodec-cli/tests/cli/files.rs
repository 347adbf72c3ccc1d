//! `pqcodec cat`, `scan` and `inspect` on the vendored corpus: `cat` must print, byte for byte,
//! what arrow-rs's reader and arrow-json print for the same file.

use std::fs::File;
use std::path::Path;

use arrow_json::writer::{LineDelimited, WriterBuilder};
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use crate::common::{corpus, pqcodec};

/// What arrow-rs prints for `path`: its reader, batches of 8192 rows, arrow-json with
/// explicit nulls.
fn arrow_rs_json(path: &Path, columns: Option<&[&str]>) -> Vec<u8> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(path).unwrap())
        .unwrap()
        .with_batch_size(8192);
    let builder = match columns {
        Some(names) => {
            let mask = ProjectionMask::columns(builder.parquet_schema(), names.iter().copied());
            builder.with_projection(mask)
        }
        None => builder,
    };
    let mut writer = WriterBuilder::new()
        .with_explicit_nulls(true)
        .build::<_, LineDelimited>(Vec::new());
    for batch in builder.build().unwrap() {
        writer.write(&batch.unwrap()).unwrap();
    }
    writer.finish().unwrap();
    writer.into_inner()
}

#[test]
fn cat_matches_arrow_rs_on_every_corpus_file() {
    for path in corpus() {
        let out = pqcodec(&["cat", path.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{}: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let expected = arrow_rs_json(&path, None);
        assert!(!expected.is_empty());
        assert!(
            out.stdout == expected,
            "{}: pqcodec cat differs from arrow-rs",
            path.display()
        );
    }
}

#[test]
fn cat_projects_columns_like_arrow_rs() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/pyarrow_dict_opt_v1.parquet");
    for columns in [
        &["i32_small"][..],
        &["s_urls", "struct.x"],
        &["map", "list_list_str", "f64_wild"],
    ] {
        let list = columns.join(",");
        let out = pqcodec(&["cat", path.to_str().unwrap(), "--columns", &list]);
        assert!(
            out.status.success(),
            "{list}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stdout == arrow_rs_json(&path, Some(columns)),
            "--columns {list} differs from arrow-rs"
        );
    }
    let out = pqcodec(&["cat", path.to_str().unwrap(), "--columns", "nope"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no column \"nope\""));
}

#[test]
fn scan_reports_rows_seconds_and_peak_heap_with_either_reader() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/pyarrow_plain_opt_v2.parquet");
    let file_len = std::fs::metadata(&path).unwrap().len();
    for reader in ["pqcodec", "arrow-rs"] {
        let out = pqcodec(&[
            "scan",
            path.to_str().unwrap(),
            "--repeat",
            "3",
            "--batch-size",
            "100",
            "--reader",
            reader,
        ]);
        assert!(
            out.status.success(),
            "{reader}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let last: Vec<&str> = text.lines().last().unwrap().split(' ').collect();
        assert_eq!(last[..3], ["rows", "3000", "seconds"], "{reader}");
        assert!(last[3].parse::<f64>().unwrap() > 0.0, "{reader}");
        // Both readers hold the whole file in memory while they decode it.
        assert_eq!(last[4], "peak_heap_bytes", "{reader}");
        assert!(last[5].parse::<u64>().unwrap() >= file_len, "{reader}");
    }
    let out = pqcodec(&["scan", path.to_str().unwrap(), "--reader", "duckdb"]);
    assert!(!out.status.success());
}

#[test]
fn inspect_lists_pages() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/pyarrow_dict_opt_v2.parquet");
    let out = pqcodec(&["inspect", path.to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("1000 rows, 4 row groups"), "{text}");
    assert!(text.contains("page 0: dictionary, PLAIN"), "{text}");
    assert!(text.contains("data v2, RLE_DICTIONARY"), "{text}");
}

#[test]
fn missing_and_garbage_files_are_errors() {
    let garbage =
        std::env::temp_dir().join(format!("pqcodec-garbage-{}.parquet", std::process::id()));
    std::fs::write(&garbage, b"PAR1 this is not a parquet file PAR1").unwrap();
    for command in ["cat", "scan", "inspect"] {
        for path in [Path::new("/nonexistent.parquet"), garbage.as_path()] {
            let out = pqcodec(&[command, path.to_str().unwrap()]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success(), "{command} {}", path.display());
            assert!(
                stderr.starts_with("pqcodec: error:") && !stderr.contains("panicked"),
                "{stderr}"
            );
        }
    }
    let _ = std::fs::remove_file(garbage);
}

/// Two flipped bits in a footer (found by fuzzing) make a column chunk's page offset or size
/// negative, on which the parquet crate asserts: every file command reports an error instead.
#[test]
fn corrupt_footer_is_an_error_not_a_panic() {
    let original = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/pyarrow_plain_allnull_v2.parquet");
    let mut bytes = std::fs::read(original).unwrap();
    assert_eq!((bytes[1265], bytes[4135]), (0x3c, 0x41));
    bytes[1265] = 0x3d;
    bytes[4135] = 0x43;
    let path = std::env::temp_dir().join(format!("pqcodec-corrupt-{}.parquet", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    let file = path.to_str().unwrap();
    for args in [["cat", file], ["scan", file], ["inspect", file]] {
        let out = pqcodec(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            stderr.contains("negative page offset"),
            "{args:?}: {stderr}"
        );
    }
    std::fs::remove_file(&path).unwrap();
}
