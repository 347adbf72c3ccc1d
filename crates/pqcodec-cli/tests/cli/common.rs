//! The `pqcodec` binary as the tests run it.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The `pqcodec` binary cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_pqcodec");

/// The binary as a command, for tests that spawn it with pipes or signals of their own.
pub fn command() -> Command {
    Command::new(BIN)
}

/// Runs `pqcodec args`, its standard input empty.
pub fn pqcodec<S: AsRef<OsStr>>(args: &[S]) -> Output {
    command()
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("pqcodec runs")
}

/// Runs `pqcodec args` with `stdin` on its standard input.
pub fn pqcodec_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pqcodec runs");
    let mut input = child.stdin.take().expect("stdin");
    let stdin = stdin.to_vec();
    // Fed from a thread: a command that prints before it has read everything cannot block.
    let feed = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().expect("pqcodec finishes");
    feed.join().expect("stdin fed");
    out
}

/// `pqcodec args`, which must succeed: its standard output.
pub fn ok<S: AsRef<OsStr>>(args: &[S]) -> String {
    let out = pqcodec(args);
    let args: Vec<_> = args.iter().map(AsRef::as_ref).collect();
    assert!(
        out.status.success(),
        "pqcodec {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// A file of the vendored corpus, `tests/data/NAME`.
pub fn corpus_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data")
        .join(name)
}

/// Every Parquet file of the vendored corpus, sorted.
pub fn corpus() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_file(""))
        .expect("tests/data exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .collect();
    files.sort();
    assert!(files.len() >= 50, "the corpus is vendored");
    files
}
