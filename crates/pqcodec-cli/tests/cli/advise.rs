//! `pqcodec advise` over the corpus: a pick for every column, as a table and as JSON.

use crate::common::{corpus, corpus_file, ok, pqcodec};

#[test]
fn every_corpus_file_gets_a_pick_for_each_column() {
    for file in corpus() {
        let name = file.display().to_string();
        let json = ok(&["advise", &name, "--costs", "reference", "--json"]);
        let advice: serde_json::Value = serde_json::from_str(&json).expect(&name);
        let columns = advice["columns"].as_array().expect("columns");
        let inspect = ok(&["inspect", &name]);
        assert!(!columns.is_empty(), "{name}");
        let mut picked = 0;
        for column in columns {
            let path = column["path"].as_str().unwrap();
            assert!(inspect.contains(path), "{name}: {path}");
            let candidates = column["candidates"].as_array().unwrap();
            assert!(candidates.contains(&column["pick"]), "{name}: {path}");
            assert!(
                column["current"]["bytes"].as_u64().is_some(),
                "{name}: {path}"
            );
            picked += column["pick"]["bytes"].as_u64().unwrap();
        }
        let predicted = advice["predicted_bytes"].as_u64().unwrap();
        assert!(predicted >= picked, "{name}: the footer is predicted too");
        assert!(advice["current_bytes"].as_u64().unwrap() > 0);
    }
}

#[test]
fn the_table_names_the_pick_and_why() {
    let file = corpus_file("duckdb_v2_zstd.parquet").display().to_string();
    for objective in ["size", "balanced", "speed"] {
        let table = ok(&[
            "advise",
            &file,
            "--objective",
            objective,
            "--costs",
            "reference",
        ]);
        assert!(
            table.starts_with(&format!("objective: {objective}\n")),
            "{table}"
        );
        assert!(table.contains("  now:  "), "{table}");
        assert!(table.contains("  pick: "), "{table}");
        assert!(table.contains("file: now "), "{table}");
        // One pick marked a column.
        let columns = table.matches("  pick: ").count();
        assert_eq!(table.matches("   * ").count(), columns, "{table}");
    }
}

#[test]
fn bad_requests_are_errors() {
    let file = corpus_file("duckdb_v2_zstd.parquet").display().to_string();
    for args in [
        vec!["advise", &file, "--objective", "fastest"],
        vec!["advise", &file, "--codecs", "lzo"],
        vec!["advise", "/no/such/file.parquet"],
    ] {
        let out = pqcodec(&args);
        assert!(!out.status.success(), "{args:?}");
        assert!(
            !String::from_utf8_lossy(&out.stderr).contains("panick"),
            "{args:?}"
        );
    }
}
