//! Malformed whole files through the `pqcodec` binary (issue 5): truncated footers, corrupt page
//! headers, wrong type lengths in the schema, pages whose counts disagree with their levels,
//! column chunk offsets past the end or negative, huge claimed sizes, absurd nesting.
//!
//! The files are built here from a model of the footer and page headers, written with a small
//! Thrift compact-protocol writer, so that every field can be set to what a case needs. Each
//! case runs `pqcodec cat`, `inspect` and `scan` on its file, under a time limit and a cap on
//! the process's address space, and each command must exit with status 1 and a one-line
//! `pqcodec: error: ...` naming what was wrong: never a panic (ours or a dependency's, which
//! the binary would report as "a dependency panic"), an abort, a crash or a hang.

mod cases;
mod model;
mod runner;
mod thrift;

use cases::*;
use model::*;
use runner::*;

/// The model writes files that the binary and arrow-rs read: the malformed ones differ from
/// them only where a case says.
#[test]
fn the_valid_files_are_read() {
    let dir = scratch_dir("valid");
    let files = [
        ("int32", int32_file(), "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n"),
        (
            "optional",
            optional_file(),
            "{\"a\":1}\n{\"a\":null}\n{\"a\":3}\n",
        ),
        (
            "dictionary",
            dictionary_file(),
            "{\"a\":10}\n{\"a\":20}\n{\"a\":20}\n",
        ),
        (
            "flba",
            flba_file(4),
            "{\"f\":\"61626364\"}\n{\"f\":\"65666768\"}\n",
        ),
        (
            "snappy",
            with_chunk(int32_file(), |c| {
                c.codec = SNAPPY;
                let mut body = vec![12, 11 << 2];
                body.extend(i32s(&[1, 2, 3]));
                c.pages[0].body = body;
                c.pages[0].uncompressed = Some(12);
            }),
            "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n",
        ),
        ("deep", deep_schema(3), ""),
        // Groups nested as deep as pqcodec reads them, the leaf at the limit.
        (
            "deep_at_the_limit",
            deep_schema(pqcodec_file::framing::MAX_SCHEMA_DEPTH - 1),
            "",
        ),
    ];
    for (name, spec, expected) in files {
        let path = dir.join(format!("valid_{name}.parquet"));
        std::fs::write(&path, spec.bytes()).unwrap();
        for command in ["cat", "inspect", "scan"] {
            let r = run(&[command, path.to_str().unwrap()]);
            assert_eq!(r.code, Some(0), "{name}: {command}: {}", r.stderr);
            if command == "cat" {
                assert_eq!(String::from_utf8_lossy(&r.stdout), expected, "{name}");
            }
        }
        // arrow-rs reads it too.
        let file = std::fs::File::open(&path).unwrap();
        let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .build()
            .unwrap();
        let rows: usize = reader.map(|b| b.unwrap().num_rows()).sum();
        assert_eq!(rows, expected.lines().count(), "{name}");
    }
}

#[test]
fn every_malformed_file_gives_an_error_naming_what_was_wrong() {
    let dir = scratch_dir("malformed");
    let mut failures = Vec::new();
    let mut ran = 0;
    for case in cases() {
        ran += 1;
        if let Err(m) = run_case(&dir, &case, case.commands) {
            failures.push(format!("{}: {m}", case.name));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "{} of {ran} malformed files failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The exit status and error line of a command given `input`: one `pqcodec: error:` line,
/// status 1, no panic, no hang, no abort.
fn expect_error(args: &[&str], input: &[u8], says: &[&str]) -> Result<(), String> {
    let r = run_with_stdin(args, input);
    let err = r.stderr.trim_end();
    if r.timed_out {
        return Err(format!("{args:?}: HANG, killed after {:?}", r.elapsed));
    }
    if r.code != Some(1) || !err.starts_with("pqcodec: error: ") || err.lines().count() != 1 {
        return Err(format!("{args:?}: exit {:?}, stderr {err:?}", r.code));
    }
    if err.to_lowercase().contains("panic") {
        return Err(format!("{args:?}: a panic, caught: {err:?}"));
    }
    for word in says {
        if !err.contains(word) {
            return Err(format!("{args:?}: {err:?} does not say {word:?}"));
        }
    }
    Ok(())
}

/// `pqcodec decode` of 100 bytes claiming 2^31 or usize::MAX values, for every encoding x
/// type that applies: an error, never an allocation of the claim.
#[test]
fn decode_of_hostile_counts_is_an_error() {
    let dir = scratch_dir("decode");
    let dictionary = dir.join("dictionary.bin");
    std::fs::write(&dictionary, [0u8; 24]).unwrap();
    let dictionary = dictionary.to_str().unwrap().to_string();
    let types = [
        "BOOLEAN",
        "INT32",
        "INT64",
        "INT96",
        "FLOAT",
        "DOUBLE",
        "BYTE_ARRAY",
        "FIXED_LEN_BYTE_ARRAY",
    ];
    let encodings = [
        "PLAIN",
        "GROUP_VAR_INT",
        "PLAIN_DICTIONARY",
        "RLE",
        "DELTA_BINARY_PACKED",
        "DELTA_LENGTH_BYTE_ARRAY",
        "DELTA_BYTE_ARRAY",
        "RLE_DICTIONARY",
        "BYTE_STREAM_SPLIT",
    ];
    // A bit-packed run header declaring ~2^31 values, then bytes of 0x55.
    let mut input = vec![0x01, 0xFF, 0xFF, 0xFF, 0x7F];
    input.resize(100, 0x55);
    let huge = (1u64 << 31).to_string();
    let max = usize::MAX.to_string();
    let mut failures = Vec::new();
    let mut ran = 0;
    for encoding in encodings {
        for ty in types {
            for count in [&huge, &max] {
                let mut args = vec![
                    "decode",
                    "--encoding",
                    encoding,
                    "--type",
                    ty,
                    "--type-length",
                    "4",
                    "--count",
                    count,
                ];
                if encoding.ends_with("DICTIONARY") {
                    args.extend(["--dictionary", &dictionary]);
                }
                ran += 1;
                if let Err(m) = expect_error(&args, &input, &[]) {
                    failures.push(m);
                }
            }
        }
    }
    // Levels.
    for encoding in ["RLE", "BIT_PACKED"] {
        for width in ["1", "32"] {
            for count in [&huge, &max] {
                let args = [
                    "decode",
                    "--encoding",
                    encoding,
                    "--type",
                    "INT32",
                    "--bit-width",
                    width,
                    "--count",
                    count,
                ];
                ran += 1;
                if let Err(m) = expect_error(&args, &input, &[encoding]) {
                    failures.push(m);
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "{} of {ran} decodes failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Malformed arguments and input of `pqcodec encode` and `decode`.
#[test]
fn encode_and_decode_reject_malformed_input() {
    let cases: &[(&[&str], &[u8], &[&str])] = &[
        (
            &[
                "decode",
                "--encoding",
                "RLE",
                "--type",
                "INT32",
                "--bit-width",
                "33",
                "--count",
                "1",
            ],
            b"\x02\x01",
            &["33"],
        ),
        (
            &[
                "decode",
                "--encoding",
                "BIT_PACKED",
                "--type",
                "INT32",
                "--count",
                "1",
            ],
            b"\x00",
            &["bit-width"],
        ),
        (
            &[
                "decode",
                "--encoding",
                "PLAIN",
                "--type",
                "FIXED_LEN_BYTE_ARRAY",
                "--count",
                "1",
            ],
            b"abcd",
            &["type length"],
        ),
        (
            &[
                "decode",
                "--encoding",
                "RLE_DICTIONARY",
                "--type",
                "INT32",
                "--count",
                "1",
            ],
            b"\x01\x02\x00",
            &["--dictionary"],
        ),
        (
            &[
                "decode",
                "--encoding",
                "DELTA_BINARY_PACKED",
                "--type",
                "DOUBLE",
                "--count",
                "1",
            ],
            b"\x80\x01\x04\x01\x00",
            &["DELTA_BINARY_PACKED", "DOUBLE"],
        ),
        (
            &[
                "decode",
                "--encoding",
                "DELTA_BINARY_PACKED",
                "--type",
                "INT32",
                "--count",
                "3",
            ],
            b"\x64\x04\x03\x00",
            &["DELTA_BINARY_PACKED", "block size"],
        ),
        (
            &["encode", "--encoding", "PLAIN", "--type", "INT32"],
            b"0102\n",
            &[],
        ),
        (
            &["encode", "--encoding", "PLAIN", "--type", "INT32"],
            b"01020\n",
            &[],
        ),
        (
            &["encode", "--encoding", "PLAIN", "--type", "INT32"],
            b"zzzzzzzz\n",
            &[],
        ),
        (
            &["encode", "--encoding", "PLAIN", "--type", "INT32"],
            b"\xFF\xFE\n",
            &["not text"],
        ),
        (
            &["encode", "--encoding", "RLE_DICTIONARY", "--type", "INT32"],
            b"01000000\n",
            &["--dictionary-out"],
        ),
        (
            &[
                "encode",
                "--encoding",
                "RLE",
                "--type",
                "INT32",
                "--bit-width",
                "2",
            ],
            b"07000000\n",
            &[],
        ),
        (
            &[
                "encode",
                "--encoding",
                "DELTA_BINARY_PACKED",
                "--type",
                "FLOAT",
            ],
            b"0000803f\n",
            &["DELTA_BINARY_PACKED", "FLOAT"],
        ),
    ];
    let mut failures = Vec::new();
    for (args, input, says) in cases {
        if let Err(m) = expect_error(args, input, says) {
            failures.push(m);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
