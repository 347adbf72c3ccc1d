//! Runs the binary on a file under a time limit and a cap on its address space, and checks
//! that it fails with one error line.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::cases::Case;

/// How long one command may run on one small file (a debug build, on a shared machine).
pub(super) const TIME_LIMIT: Duration = Duration::from_secs(30);
/// The address space a command may use, in KiB (`ulimit -v`): a claimed size of gigabytes that
/// is really allocated fails instead of going unnoticed.
pub(super) const ADDRESS_SPACE_KIB: u64 = 2 << 20;

pub(super) struct Run {
    pub(super) code: Option<i32>,
    pub(super) stdout: Vec<u8>,
    pub(super) stderr: String,
    pub(super) elapsed: Duration,
    pub(super) timed_out: bool,
}

/// Runs `pqcodec args` under the address-space cap, killed after the time limit.
pub(super) fn run(args: &[&str]) -> Run {
    run_with_stdin(args, &[])
}

/// Runs `pqcodec args` with `input` on its standard input, as [`run`].
pub(super) fn run_with_stdin(args: &[&str], input: &[u8]) -> Run {
    let start = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {ADDRESS_SPACE_KIB}; exec \"$0\" \"$@\""))
        .arg(crate::common::BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feed = std::thread::spawn(move || {
        let _ = std::io::Write::write_all(&mut stdin, &input);
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = stdout.read_to_end(&mut b);
        b
    });
    let err = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = stderr.read_to_end(&mut b);
        b
    });
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            timed_out = true;
            break child.wait().ok();
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = feed.join();
    Run {
        code: status.and_then(|s| s.code()),
        stdout: out.join().unwrap_or_default(),
        stderr: String::from_utf8_lossy(&err.join().unwrap_or_default()).into_owned(),
        elapsed: start.elapsed(),
        timed_out,
    }
}

/// A directory of this process for the test `test` (the tests run in parallel and each removes
/// its own when done).
pub(super) fn scratch_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pqcodec-bad-files-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Checks one command's run on a malformed file; the first thing wrong.
pub(super) fn check(command: &str, path: &Path, says: &[&str]) -> Result<(), String> {
    let r = run(&[command, path.to_str().unwrap()]);
    let err = r.stderr.trim_end();
    if r.timed_out {
        return Err(format!("{command}: HANG, killed after {:?}", r.elapsed));
    }
    if r.code != Some(1) {
        return Err(format!(
            "{command}: exit {:?} (a crash or abort?), stderr {err:?}",
            r.code
        ));
    }
    if !err.starts_with("pqcodec: error: ") || err.lines().count() != 1 {
        return Err(format!("{command}: stderr is not one error line: {err:?}"));
    }
    if err.to_lowercase().contains("panic") {
        return Err(format!("{command}: a panic, caught: {err:?}"));
    }
    let lower = err.to_lowercase();
    for word in says {
        if !lower.contains(&word.to_lowercase()) {
            return Err(format!("{command}: {err:?} does not say {word:?}"));
        }
    }
    let _ = r.stdout;
    Ok(())
}

pub(super) fn run_case(dir: &Path, case: &Case, commands: &[&str]) -> Result<(), String> {
    let path = dir.join(format!(
        "{}.parquet",
        case.name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect::<String>()
    ));
    std::fs::write(&path, &case.bytes).unwrap();
    let mut failures = Vec::new();
    for command in commands {
        if let Err(m) = check(command, &path, case.says) {
            failures.push(m);
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; "))
    }
}
