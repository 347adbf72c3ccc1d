//! Tables in object stores (feature `object-stores`): a Parquet file served over HTTP by a
//! server of this test (HEAD and byte ranges, as object stores are read), queried by URL and by
//! `--table`, on this process and through workers, equal to the local file's results; a URL
//! that names nothing is an error naming it.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::{Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;

use crate::common::{ok, pqcodec};

/// Serves the files of `dir` on an ephemeral port of 127.0.0.1 until the test ends: HEAD, GET,
/// and GET of one byte range (`Range: bytes=A-B`). Returns `http://127.0.0.1:PORT`.
fn serve(dir: &Path) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let dir = dir.to_path_buf();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let dir = dir.clone();
            std::thread::spawn(move || answer(stream, &dir));
        }
    });
    origin
}

/// Answers the requests of one connection.
fn answer(stream: TcpStream, dir: &Path) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut out = stream;
    loop {
        let mut request = String::new();
        if reader.read_line(&mut request).unwrap_or(0) == 0 {
            return;
        }
        let mut range = None;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                break;
            }
            let lower = line.to_ascii_lowercase();
            if let Some(spec) = lower.strip_prefix("range: bytes=") {
                let (a, b) = spec.trim().split_once('-').unwrap();
                range = Some((a.parse::<u64>().unwrap(), b.parse::<u64>().ok()));
            }
        }
        let mut words = request.split_whitespace();
        let (method, path) = (words.next().unwrap_or(""), words.next().unwrap_or("/"));
        let file: PathBuf = dir.join(path.trim_start_matches('/'));
        let Ok(bytes) = std::fs::read(&file) else {
            let _ = out.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
            continue;
        };
        let size = bytes.len() as u64;
        let (status, start, end) = match range {
            Some((a, b)) => (
                "206 Partial Content",
                a,
                b.unwrap_or(size - 1).min(size - 1),
            ),
            None => ("200 OK", 0, size.saturating_sub(1)),
        };
        let body = &bytes[start as usize..=end as usize];
        let mut head = format!(
            "HTTP/1.1 {status}\r\nContent-Length: {}\r\nAccept-Ranges: bytes\r\n\
             Last-Modified: Wed, 25 Nov 2026 10:00:00 GMT\r\nETag: \"{size}\"\r\n",
            body.len()
        );
        if range.is_some() {
            head.push_str(&format!("Content-Range: bytes {start}-{end}/{size}\r\n"));
        }
        head.push_str("\r\n");
        let _ = out.write_all(head.as_bytes());
        if method != "HEAD" {
            let _ = out.write_all(body);
        }
    }
}

/// A table of 300,000 rows in `dir/t.parquet`, row groups of 50,000.
fn table(dir: &Path) -> PathBuf {
    let schema = Arc::new(Schema::new(vec![
        Field::new("k", DataType::Int64, false),
        Field::new("s", DataType::Utf8, false),
    ]));
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(50_000))
        .build();
    let path = dir.join("t.parquet");
    let file = std::fs::File::create(&path).unwrap();
    let mut writer = ArrowWriter::try_new(file, Arc::clone(&schema), Some(props)).unwrap();
    for start in (0..300_000i64).step_by(50_000) {
        let k = Int64Array::from_iter_values(start..start + 50_000);
        let s =
            StringArray::from_iter_values((start..start + 50_000).map(|i| format!("s{}", i % 97)));
        let batch = RecordBatch::try_new(Arc::clone(&schema), vec![Arc::new(k), Arc::new(s)]);
        writer.write(&batch.unwrap()).unwrap();
    }
    writer.close().unwrap();
    path
}

const SQL: &str = "SELECT s, count(*) AS n, sum(k) AS total FROM t WHERE k % 3 = 0 GROUP BY s \
                   ORDER BY s";

#[test]
fn a_table_served_over_http_reads_as_the_local_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = table(dir.path());
    let origin = serve(dir.path());
    let local = ok(&[
        "sql",
        "--table",
        &format!("t={}", path.display()),
        "--format",
        "csv",
        SQL,
    ]);
    assert_eq!(local.lines().count(), 98);
    let by_table = ok(&[
        "sql",
        "--table",
        &format!("t={origin}/t.parquet"),
        "--format",
        "csv",
        SQL,
    ]);
    assert_eq!(by_table, local);
    let by_url = SQL.replace("FROM t", &format!("FROM '{origin}/t.parquet'"));
    assert_eq!(ok(&["sql", "--format", "csv", &by_url]), local);
    // A URL that names nothing.
    let out = pqcodec(&["sql", &format!("SELECT * FROM '{origin}/none.parquet'")]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("none.parquet"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[cfg(feature = "distributed")]
#[test]
fn workers_read_a_table_served_over_http() {
    use crate::workers::{SPLIT, Worker};

    let dir = tempfile::tempdir().unwrap();
    let path = table(dir.path());
    let origin = serve(dir.path());
    let workers = [Worker::start(), Worker::start()];
    let urls = format!("{},{}", workers[0].url, workers[1].url);
    let local = ok(&[
        "sql",
        "--table",
        &format!("t={}", path.display()),
        "--format",
        "csv",
        SQL,
    ]);
    let t = format!("t={origin}/t.parquet");
    let split = format!("{SPLIT} {SQL}");
    let args = [
        "sql",
        "--table",
        &t,
        "--partitions",
        "2",
        "--workers",
        &urls,
    ];
    let plan = ok(&[&args[..], &["--explain", &split]].concat());
    assert!(plan.contains("t1: DataSourceExec"), "{plan}");
    let distributed = ok(&[&args[..], &["--format", "csv", &split]].concat());
    assert_eq!(distributed, local);
}
