//! `pqcodec worker` and `pqcodec sql --workers` as a user runs them: workers started as child
//! processes on ports the system picks, queries through them equal to one process's, the
//! distributed plan shown, a worker killed mid-query named in the error in bounded time, and a
//! worker stopped by SIGTERM or SIGINT exiting cleanly.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, ChildStderr, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arrow_array::{Int64Array, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;

use crate::common::{command, ok, pqcodec};

/// Before a query: its scans split into a task per megabyte, so that these small tables are
/// read by both workers (the default is 16 MiB a partition).
pub const SPLIT: &str = "SET distributed.file_scan_config_bytes_per_partition = 1048576;";

/// A child process, killed when dropped (a failed test leaves none running).
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A `pqcodec worker` child, killed when dropped.
pub struct Worker {
    child: Guard,
    pub url: String,
    stderr: BufReader<ChildStderr>,
}

impl Worker {
    pub fn start() -> Self {
        let mut child = command()
            .args(["worker", "--listen", "127.0.0.1:0", "--threads", "1"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("pqcodec worker runs");
        let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
        let mut line = String::new();
        stderr.read_line(&mut line).expect("a line on stderr");
        let url = line
            .trim()
            .strip_prefix("pqcodec worker: listening on ")
            .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
            .to_string();
        Worker {
            child: Guard(child),
            url,
            stderr,
        }
    }

    /// Sends `signal` and waits for the exit: its status and what it printed after the first
    /// line.
    fn stop(mut self, signal: &str) -> (std::process::ExitStatus, String) {
        let pid = self.child.0.id().to_string();
        let sent = Command::new("kill").args([signal, &pid]).status().unwrap();
        assert!(sent.success());
        let status = wait(&mut self.child.0, Duration::from_secs(30));
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.stderr, &mut rest).unwrap();
        (status, rest)
    }
}

/// Waits for `child`, failing the test past `limit`.
fn wait(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(start.elapsed() < limit, "no exit within {limit:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A table of `rows` rows (`k`, a key repeating every 1000 rows, and `v`) in `path`.
fn table(path: &Path, rows: i64) {
    let schema = Arc::new(Schema::new(vec![
        Field::new("k", DataType::Int64, false),
        Field::new("v", DataType::Int64, false),
    ]));
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(rows as usize / 8))
        .build();
    let file = std::fs::File::create(path).unwrap();
    let mut writer = ArrowWriter::try_new(file, Arc::clone(&schema), Some(props)).unwrap();
    for start in (0..rows).step_by(65536) {
        let end = (start + 65536).min(rows);
        let k = Int64Array::from_iter_values((start..end).map(|i| i % 1000));
        let v = Int64Array::from_iter_values(start..end);
        let batch =
            RecordBatch::try_new(Arc::clone(&schema), vec![Arc::new(k), Arc::new(v)]).unwrap();
        writer.write(&batch).unwrap();
    }
    writer.close().unwrap();
}

#[test]
fn queries_through_two_workers_equal_one_process_s() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.parquet");
    table(&path, 400_000);
    let workers = [Worker::start(), Worker::start()];
    let urls = format!("{},{}", workers[0].url, workers[1].url);
    let t = format!("t={}", path.display());
    for sql in [
        "SELECT count(*), sum(v), min(k), max(k) FROM t",
        "SELECT k, count(*) AS n, sum(v) AS s FROM t WHERE v % 7 = 1 GROUP BY k ORDER BY k",
        "SELECT a.k, count(*) FROM t a JOIN (SELECT k FROM t WHERE v < 3000) b ON a.k = b.k \
         GROUP BY a.k ORDER BY a.k LIMIT 20",
    ] {
        let distributed = ok(&[
            "sql",
            "--table",
            &t,
            "--partitions",
            "2",
            "--workers",
            &urls,
            "--format",
            "csv",
            sql,
        ]);
        let single = ok(&[
            "sql",
            "--table",
            &t,
            "--partitions",
            "2",
            "--format",
            "csv",
            sql,
        ]);
        assert!(distributed.lines().count() > 1, "{sql}");
        assert_eq!(distributed, single, "{sql}");
    }
    // The plan: stages on the workers, the file split between their tasks, read by pqcodec.
    let plan = ok(&[
        "sql",
        "--table",
        &t,
        "--partitions",
        "2",
        "--workers",
        &urls,
        "--explain",
        &format!("{SPLIT} SELECT k, sum(v) FROM t GROUP BY k"),
    ]);
    assert!(plan.contains("DistributedExec"), "{plan}");
    assert!(plan.contains("Stage 1"), "{plan}");
    assert!(plan.contains("reader=pqcodec"), "{plan}");
    assert!(plan.contains("t0:") && plan.contains("t1:"), "{plan}");
    // Without workers, the plan of one process.
    let plan = ok(&["sql", "--table", &t, "--explain", "SELECT sum(v) FROM t"]);
    assert!(!plan.contains("DistributedExec"), "{plan}");
    assert!(plan.contains("reader=pqcodec"), "{plan}");
}

#[test]
fn a_worker_killed_mid_query_is_named_and_the_query_fails_in_bounded_time() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.parquet");
    table(&path, 2_000_000);
    let workers = [Worker::start(), Worker::start()];
    let urls = format!("{},{}", workers[0].url, workers[1].url);
    let t = format!("t={}", path.display());
    // Long enough to be killed in: 200,000 rows each joined to 2,000 others, counted.
    let sql = format!(
        "{SPLIT} SELECT count(*), sum(a.v + b.v) FROM t a JOIN t b ON a.k = b.k \
         WHERE a.v < 200000"
    );
    let args = [
        "sql",
        "--table",
        &t,
        "--partitions",
        "2",
        "--workers",
        &urls,
        &sql,
    ];
    let mut query = Guard(
        command()
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    std::thread::sleep(Duration::from_millis(1500));
    let [first, mut second] = workers;
    assert!(
        query.0.try_wait().unwrap().is_none(),
        "the query ended before a worker was killed"
    );
    second.child.0.kill().unwrap();
    let killed = Instant::now();
    let status = wait(&mut query.0, Duration::from_secs(60));
    assert!(!status.success());
    let took = killed.elapsed();
    assert!(took < Duration::from_secs(40), "{took:?}");
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut query.0.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(stderr.contains(&second.url), "{stderr}");
    drop(first);
}

#[test]
fn a_worker_stops_cleanly_on_sigterm_and_sigint_and_refuses_bad_requests() {
    for signal in ["-TERM", "-INT"] {
        let worker = Worker::start();
        let (status, said) = worker.stop(signal);
        assert!(status.success(), "{signal}: {status:?} {said}");
        assert!(
            said.contains("stopping") && said.contains("stopped"),
            "{said}"
        );
    }
    // Bad requests of the command line: errors, no panic.
    for (args, expected) in [
        (vec!["worker", "--listen", "nowhere"], "invalid"),
        (
            vec!["worker", "--listen", "127.0.0.1:0", "--threads", "0"],
            "--threads",
        ),
        (
            vec!["sql", "--workers", "not a url", "SELECT 1"],
            "not a url",
        ),
    ] {
        let out = pqcodec(&args);
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    // A port already taken.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = taken.local_addr().unwrap().to_string();
    let out = pqcodec(&["worker", "--listen", &address]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains(&address));
}
