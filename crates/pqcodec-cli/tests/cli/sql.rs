//! `pqcodec sql`: tables by path or `--table`, the three output formats, several statements,
//! both readers, and one-line errors with a non-zero exit.

use std::process::Output;

const SAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/duckdb_v2_zstd.parquet"
);
const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data");

/// `pqcodec sql args`.
fn pqcodec(args: &[&str]) -> Output {
    crate::common::pqcodec(&[&["sql"], args].concat())
}

/// `pqcodec sql args`, which must succeed: its standard output.
fn ok(args: &[&str]) -> String {
    crate::common::ok(&[&["sql"], args].concat())
}

fn error(args: &[&str]) -> String {
    let out = pqcodec(args);
    assert!(!out.status.success(), "pqcodec sql {args:?} succeeded");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("pqcodec: error: "), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

#[test]
fn quoted_paths_and_tables_in_three_formats() {
    let sql = format!("SELECT count(*) AS n, sum(i32_seq) AS s FROM '{SAMPLE}'");
    let table = ok(&[&sql]);
    assert_eq!(
        table,
        "+------+--------+\n\
         | n    | s      |\n\
         +------+--------+\n\
         | 1000 | 499500 |\n\
         +------+--------+\n"
    );
    let t = format!("t={SAMPLE}");
    let sql = "SELECT i32_seq, s_lowcard, st FROM t ORDER BY i32_seq LIMIT 2";
    let jsonl = ok(&[sql, "--table", &t, "--format", "jsonl"]);
    assert_eq!(jsonl.lines().count(), 2, "{jsonl}");
    assert!(jsonl.starts_with("{\"i32_seq\":0,"), "{jsonl}");
    let csv = ok(&[
        "SELECT i32_seq, s_lowcard FROM t ORDER BY i32_seq LIMIT 2",
        "--table",
        &t,
        "--format",
        "csv",
    ]);
    assert_eq!(csv.lines().next(), Some("i32_seq,s_lowcard"), "{csv}");
    assert_eq!(csv.lines().count(), 3, "{csv}");
    // An empty result still has its header.
    let empty = ok(&[
        "SELECT i32_seq FROM t WHERE i32_seq < 0",
        "--table",
        &t,
        "--format",
        "csv",
    ]);
    assert_eq!(empty, "i32_seq\n");
}

#[test]
fn statements_run_in_order_and_the_last_is_printed() {
    let t = format!("t={SAMPLE}");
    let sql = "CREATE VIEW small AS SELECT i32_seq FROM t WHERE i32_seq < 10; \
               SELECT count(*) AS n FROM small";
    let out = ok(&[sql, "--table", &t, "--format", "csv", "--timing"]);
    assert_eq!(out, "n\n10\n");
}

#[test]
fn both_readers_agree_on_a_folder() {
    let d = format!("d={DATA}");
    let sql = "SELECT count(*) AS n FROM d";
    let mut results = Vec::new();
    for reader in ["pqcodec", "datafusion"] {
        for partitions in ["1", "3"] {
            let args = [
                sql,
                "--table",
                &d,
                "--reader",
                reader,
                "--partitions",
                partitions,
            ];
            let out = pqcodec(&args);
            // The folder's files have different schemas: both readers merge or refuse alike.
            results.push((
                out.status.success(),
                String::from_utf8_lossy(&out.stdout).into_owned(),
            ));
        }
    }
    assert!(results.windows(2).all(|w| w[0] == w[1]), "{results:?}");
    let sql = "SELECT * FROM t ORDER BY i32_seq";
    let t = format!("t={SAMPLE}");
    let ours = ok(&[sql, "--table", &t, "--format", "jsonl"]);
    let theirs = ok(&[
        sql,
        "--table",
        &t,
        "--format",
        "jsonl",
        "--reader",
        "datafusion",
    ]);
    assert_eq!(ours, theirs);
}

#[test]
fn errors_are_one_line() {
    assert!(error(&["SELEC 1"]).contains("SQL error"));
    assert!(error(&["SELECT * FROM nope"]).contains("nope"));
    assert!(error(&["SELECT 1", "--table", "x=/no/such/file.parquet"]).contains("/no/such"));
    assert!(error(&["SELECT 1", "--table", "noequals"]).contains("NAME=PATH"));
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.parquet");
    std::fs::write(&bad, b"PAR1 not a parquet file at all PAR1").unwrap();
    let bad = format!("t={}", bad.display());
    assert!(error(&["SELECT * FROM t", "--table", &bad]).contains("bad.parquet"));
    assert!(error(&["SELECT 1", "--partitions", "0"]).contains("partitions"));
}

#[test]
fn sql_may_begin_with_a_comment_or_come_from_a_file() {
    let t = format!("t={SAMPLE}");
    let sql = "-- how many rows?\nSELECT count(*) AS n FROM t";
    assert_eq!(ok(&[sql, "--table", &t, "--format", "csv"]), "n\n1000\n");
    assert_eq!(ok(&["--table", &t, sql, "--format", "csv"]), "n\n1000\n");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("q.sql");
    std::fs::write(
        &file,
        format!("{sql};\n-- the last one is printed\nSELECT 2 AS two;\n"),
    )
    .unwrap();
    let file = file.to_str().unwrap();
    assert_eq!(
        ok(&["--file", file, "--table", &t, "--format", "csv"]),
        "two\n2\n"
    );
    assert_eq!(
        ok(&["-f", file, "--table", &t, "--format", "csv"]),
        "two\n2\n"
    );
    assert!(error(&["--file", "/no/such/q.sql"]).contains("/no/such/q.sql"));
    // One or the other.
    assert!(!pqcodec(&["SELECT 1", "--file", file]).status.success());
    assert!(!pqcodec(&[]).status.success());
}

#[test]
fn timing_prints_wall_and_cpu_time_and_the_scans_metrics() {
    let t = format!("t={SAMPLE}");
    let out = pqcodec(&["SELECT sum(i32_seq) FROM t", "--table", &t, "--timing"]);
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    let fields: Vec<&str> = stderr.split_whitespace().collect();
    let value = |name: &str| -> f64 {
        let at = fields
            .iter()
            .position(|f| *f == name)
            .unwrap_or_else(|| panic!("{stderr}"));
        fields[at + 1].parse().unwrap()
    };
    assert_eq!(value("rows"), 1.0);
    assert!(value("seconds") > 0.0, "{stderr}");
    assert!(value("cpu") > 0.0, "{stderr}");
    assert!(
        (value("cpu") - value("user") - value("system")).abs() < 1e-5,
        "{stderr}"
    );
    assert!(value("bytes_scanned") > 0.0, "{stderr}");
    assert!(value("metadata_load_seconds") >= 0.0, "{stderr}");
    assert!(value("faults") > 0.0, "{stderr}");
}
