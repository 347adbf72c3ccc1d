//! `pqcodec rewrite` over the corpus: each file rewritten with other encodings, codecs, page
//! versions and layouts reads back through arrow-rs equal to the input, with the same Parquet
//! schema (logical types such as DuckDB's UUID, repetition, field ids) and key-value metadata.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use bytes::Bytes;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::reader::{FileReader, SerializedFileReader};

use crate::common::{corpus, pqcodec};

fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rewrite");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn rewrite(input: &Path, output: &Path, flags: &[&str]) -> String {
    let mut args = vec![OsStr::new("rewrite"), input.as_os_str(), output.as_os_str()];
    args.extend(flags.iter().map(OsStr::new));
    let out = pqcodec(&args);
    assert!(
        out.status.success(),
        "rewrite {} {flags:?}: {}",
        input.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn read(path: &Path) -> Vec<RecordBatch> {
    let bytes = Bytes::from(std::fs::read(path).unwrap());
    ParquetRecordBatchReaderBuilder::try_new(bytes)
        .unwrap()
        .with_batch_size(100_000)
        .build()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn one(batches: Vec<RecordBatch>, schema: arrow_schema::SchemaRef) -> RecordBatch {
    arrow_select::concat::concat_batches(&schema, &batches).unwrap()
}

fn check(input: &Path, output: &Path, what: &str) {
    let (a, b) = (read(input), read(output));
    let schema =
        ParquetRecordBatchReaderBuilder::try_new(Bytes::from(std::fs::read(input).unwrap()))
            .unwrap()
            .schema()
            .clone();
    let (a, b) = (one(a, schema.clone()), one(b, schema));
    assert_eq!(a.num_rows(), b.num_rows(), "{what}");
    for i in 0..a.num_columns() {
        assert!(
            a.column(i).as_ref() == b.column(i).as_ref(),
            "{what}: column {} differs",
            a.schema().field(i).name()
        );
    }
    let meta = |p: &Path| {
        SerializedFileReader::new(Bytes::from(std::fs::read(p).unwrap()))
            .unwrap()
            .metadata()
            .file_metadata()
            .clone()
    };
    let (x, y) = (meta(input), meta(output));
    assert_eq!(x.schema(), y.schema(), "{what}: Parquet schema");
    assert_eq!(
        x.key_value_metadata(),
        y.key_value_metadata(),
        "{what}: key-value metadata"
    );
}

#[test]
fn the_corpus_rewritten_reads_back_the_same() {
    let dir = out_dir();
    let flag_sets: [&[&str]; 8] = [
        &[],
        &[
            "--compression",
            "zstd:3",
            "--data-page-version",
            "2",
            "--page-size",
            "2000",
        ],
        &[
            "--dictionary",
            "off",
            "--compression",
            "lz4_raw",
            "--row-group-size",
            "300",
        ],
        &[
            "--compression",
            "gzip",
            "--encoding",
            "*=PLAIN",
            "--row-group-size",
            "999",
        ],
        &[
            "--compression",
            "brotli",
            "--encoding",
            "*=DELTA_BINARY_PACKED",
            "--encoding",
            "*=DELTA_BYTE_ARRAY",
        ],
        &[
            "--encoding",
            "*=BYTE_STREAM_SPLIT",
            "--encoding",
            "*=DELTA_LENGTH_BYTE_ARRAY",
            "--encoding",
            "*=RLE",
        ],
        // The advisor's choices: measured here, and from the reference table.
        &["--auto"],
        &[
            "--auto",
            "--objective",
            "speed",
            "--costs",
            "reference",
            "--row-group-size",
            "300",
        ],
    ];
    for input in corpus() {
        for (k, flags) in flag_sets.iter().enumerate() {
            let name = input.file_name().unwrap().to_string_lossy();
            let output = dir.join(format!("{k}_{name}"));
            let summary = rewrite(&input, &output, flags);
            assert!(summary.starts_with("rows "), "{summary}");
            check(&input, &output, &format!("{name} {flags:?}"));
        }
    }
}

#[test]
fn duckdbs_uuid_column_keeps_its_logical_type() {
    let input =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/duckdb_v1_snappy.parquet");
    let output = out_dir().join("uuid.parquet");
    rewrite(&input, &output, &["--encoding", "u=DELTA_BYTE_ARRAY"]);
    let file = SerializedFileReader::new(Bytes::from(std::fs::read(&output).unwrap())).unwrap();
    let descr = file.metadata().file_metadata().schema_descr_ptr();
    let u = descr.columns().iter().find(|c| c.name() == "u").unwrap();
    assert_eq!(
        u.logical_type_ref(),
        Some(&parquet::basic::LogicalType::Uuid)
    );
    let chunk = file
        .metadata()
        .row_group(0)
        .columns()
        .iter()
        .find(|c| c.column_path().string() == "u")
        .unwrap();
    assert!(
        chunk
            .encodings()
            .any(|e| e == parquet::basic::Encoding::DELTA_BYTE_ARRAY)
    );
    check(&input, &output, "uuid");
}

#[test]
fn columns_keeps_only_those() {
    let input =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/duckdb_v2_zstd.parquet");
    let output = out_dir().join("columns.parquet");
    rewrite(&input, &output, &["--columns", "f64,u"]);
    let batches = read(&output);
    let schema = batches[0].schema();
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(names, ["f64", "u"]);
    let bad = pqcodec(&[
        "rewrite",
        input.to_str().unwrap(),
        output.to_str().unwrap(),
        "--columns",
        "nope",
    ]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("nope"));
    let bad = pqcodec(&[
        "rewrite",
        input.to_str().unwrap(),
        output.to_str().unwrap(),
        "--encoding",
        "s_urls=BYTE_STREAM_SPLIT",
    ]);
    assert_eq!(
        bad.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}

/// `path` read by pqcodec (arrow-rs 59 has no ALP), one batch.
fn read_pqcodec(path: &Path) -> RecordBatch {
    let bytes = Bytes::from(std::fs::read(path).unwrap());
    let reader = pqcodec_file::ReaderBuilder::try_new(bytes)
        .unwrap()
        .build()
        .unwrap();
    let schema = arrow_array::RecordBatchReader::schema(&reader);
    let batches: Vec<RecordBatch> = reader.collect::<Result<_, _>>().unwrap();
    one(batches, schema)
}

#[test]
fn floats_rewritten_as_alp_read_back_the_same() {
    let dir = out_dir();
    let mut with_floats = 0;
    for input in corpus() {
        let name = input.file_name().unwrap().to_string_lossy();
        let output = dir.join(format!("alp_{name}"));
        rewrite(
            &input,
            &output,
            &["--encoding", "*=ALP", "--dictionary", "off"],
        );
        let inspected = pqcodec(&[OsStr::new("inspect"), output.as_os_str()]);
        let inspected = String::from_utf8(inspected.stdout).unwrap();
        let floats = inspected.contains(": FLOAT,") || inspected.contains(": DOUBLE,");
        with_floats += usize::from(floats);
        assert_eq!(inspected.contains(", ALP,"), floats, "{name}: {inspected}");
        let (a, b) = (
            one(read(&input), read_pqcodec(&output).schema()),
            read_pqcodec(&output),
        );
        // Bit for bit: NaN payloads compare equal as data.
        assert_eq!(a.num_rows(), b.num_rows(), "{name}");
        for i in 0..a.num_columns() {
            assert!(
                a.column(i).to_data() == b.column(i).to_data(),
                "{name}: column {i}"
            );
        }
    }
    assert!(with_floats >= 10, "{with_floats}");
}

#[test]
fn a_failed_rewrite_leaves_the_output_as_it_was() {
    let dir = out_dir();
    let input =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/pyarrow_plain_opt_v1.parquet");
    let output = dir.join("kept.parquet");
    std::fs::write(&output, b"what was there").unwrap();
    // Refused by the writer, once the output is open.
    let out = pqcodec(&[
        OsStr::new("rewrite"),
        input.as_os_str(),
        output.as_os_str(),
        OsStr::new("--encoding"),
        OsStr::new("i32_small=ALP"),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("ALP does not apply to INT32"), "{stderr}");
    assert_eq!(std::fs::read(&output).unwrap(), b"what was there");
    let mut partial = output.into_os_string();
    partial.push(".partial");
    assert!(!Path::new(&partial).exists());
}
