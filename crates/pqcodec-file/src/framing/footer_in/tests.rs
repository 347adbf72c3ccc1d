use parquet::file::metadata::ParquetMetaDataReader;

use super::*;
use crate::framing::thrift_out::{self, ThriftOut};

/// A footer whose schema is a root and `groups` nested groups of one child, the last a leaf.
pub(crate) fn nested_footer(groups: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = ThriftOut::new(&mut out);
    w.i32(1, 1).list(2, thrift_out::STRUCT, groups + 2);
    for i in 0..=groups {
        w.element()
            .binary(4, format!("g{i}").as_bytes())
            .i32(5, 1)
            .end();
    }
    w.element().i32(1, 1).i32(3, 0).binary(4, b"a").end();
    w.end();
    out
}

/// The footer's Thrift bytes of a file.
fn footer_of(file: &[u8]) -> &[u8] {
    let n = file.len();
    let len = u32::from_le_bytes(file[n - 8..n - 4].try_into().unwrap()) as usize;
    &file[n - 8 - len..n - 8]
}

/// The metadata's debug form, column chunks' `file_offset` (which pqcodec does not keep)
/// left out.
fn shown(metadata: &ParquetMetaData) -> String {
    let text = format!("{metadata:#?}");
    text.lines()
        .filter(|line| {
            let line = line.trim();
            !(line.starts_with("file_offset: ")
                && !line.contains("Some")
                && line != "file_offset: None,")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn error(buf: &[u8]) -> String {
    decode_footer(buf).unwrap_err().to_string()
}

#[test]
fn footers_of_real_files_decode_as_the_parquet_crate_decodes_them() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data");
    let mut compared = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "parquet") {
            continue;
        }
        let file = std::fs::read(&path).unwrap();
        let footer = footer_of(&file);
        let ours = decode_footer(footer).unwrap();
        assert!(ours.chunk_type_mismatches.is_empty(), "{path:?}");
        let theirs = ParquetMetaDataReader::decode_metadata(footer).unwrap();
        assert_eq!(shown(&ours.metadata), shown(&theirs), "{path:?}");
        compared += 1;
    }
    assert!(compared >= 50, "{compared}");
}

/// Why pqcodec refuses some footers the parquet crate reads: deliberately.
const REFUSED_ON_PURPOSE: [&str; 3] = [
    // Built recursively by the parquet crate: a stack overflow a little deeper.
    "the schema nests too deep",
    // Skipped by the parquet crate one loop iteration each, for lack of bytes.
    "skipped containers claim more bools than the bytes hold",
    // The parquet crate appends the second list to the first, more chunks than columns.
    "column chunks are given twice",
];

#[test]
fn mutated_footers_decode_as_the_parquet_crate_decodes_them_or_are_refused_on_purpose() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data");
    let mut rng = pqcodec_testkit::Rng::new(0x600d_f007);
    let (mut equal, mut refused) = (0, 0);
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .collect();
    paths.sort();
    for path in paths {
        let file = std::fs::read(&path).unwrap();
        let footer = footer_of(&file);
        for _ in 0..120 {
            let mut bytes = footer.to_vec();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(bytes.len());
                match rng.below(4) {
                    0 => bytes[at] ^= 1 << rng.below(8),
                    1 => bytes[at] = rng.below(256) as u8,
                    2 => {
                        let end = (at + 1 + rng.below(16)).min(bytes.len());
                        bytes.drain(at..end);
                    }
                    _ => {
                        let end = (at + 1 + rng.below(16)).min(bytes.len());
                        let copy = bytes[at..end].to_vec();
                        bytes.splice(at..at, copy);
                    }
                }
                if bytes.is_empty() {
                    bytes.push(0);
                }
            }
            // Ours never panics (no catch here); the parquet crate's may.
            let ours = decode_footer(&bytes);
            if let Err(e) = &ours
                && REFUSED_ON_PURPOSE
                    .iter()
                    .any(|why| e.to_string().contains(why))
            {
                refused += 1;
                continue;
            }
            let theirs =
                std::panic::catch_unwind(|| ParquetMetaDataReader::decode_metadata(&bytes));
            let Ok(Ok(theirs)) = theirs else {
                continue;
            };
            match ours {
                Ok(ours) => {
                    assert_eq!(shown(&ours.metadata), shown(&theirs), "{path:?} {bytes:?}");
                    equal += 1;
                }
                Err(e) => panic!("{path:?}: {e}, but the parquet crate reads {bytes:?}"),
            }
        }
    }
    assert!(
        equal > 600 && refused > 0,
        "{equal} equal, {refused} refused"
    );
}

#[test]
fn encodings_the_parquet_crate_cannot_name_are_left_out() {
    // A chunk listing PLAIN, ALP (10), GROUP_VAR_INT (1), RLE and id 40, its data pages
    // ALP and RLE_DICTIONARY.
    let mut out = Vec::new();
    let mut w = ThriftOut::new(&mut out);
    w.i32(1, 2).list(2, thrift_out::STRUCT, 2);
    w.element().binary(4, b"schema").i32(5, 1).end();
    w.element().i32(1, 5).i32(3, 0).binary(4, b"x").end();
    w.i64(3, 3).list(4, thrift_out::STRUCT, 1).element();
    w.list(1, thrift_out::STRUCT, 1)
        .element()
        .i64(2, 4)
        .begin(3);
    w.i32(1, 5).list(2, thrift_out::I32, 5);
    for id in [0, 10, 1, 3, 40] {
        w.elem_i32(id);
    }
    w.list(3, thrift_out::BINARY, 1).elem_binary(b"x");
    w.i32(4, 0).i64(5, 3).i64(6, 30).i64(7, 30).i64(9, 4);
    w.list(13, thrift_out::STRUCT, 2);
    w.element().i32(1, 0).i32(2, 10).i32(3, 1).end();
    w.element().i32(1, 0).i32(2, 8).i32(3, 1).end();
    w.end().end();
    w.i64(2, 30).i64(3, 3).end();
    w.end();
    let footer = decode_footer(&out).unwrap();
    let chunk = footer.metadata.row_group(0).column(0);
    let names = |e: &mut dyn Iterator<Item = parquet::basic::Encoding>| {
        e.map(|e| e.to_string()).collect::<Vec<_>>().join(",")
    };
    assert_eq!(names(&mut chunk.encodings()), "PLAIN,RLE");
    let mask = chunk.page_encoding_stats_mask().unwrap();
    assert_eq!(names(&mut mask.encodings()), "RLE_DICTIONARY");
    assert_eq!(footer.metadata.row_group(0).ordinal(), Some(0));
}

#[test]
fn truncated_footers_are_errors() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/pyarrow_plain_allnull_v2.parquet"
    );
    let file = std::fs::read(path).unwrap();
    let footer = footer_of(&file);
    for cut in 0..footer.len() {
        let e = error(&footer[..cut]);
        assert!(e.starts_with("footer (file metadata): "), "{cut}: {e}");
    }
}

#[test]
fn bad_type_ids_and_deep_unknown_fields_are_errors() {
    // Field 1 of type 14.
    assert!(error(&[0x1E]).contains("byte 0: 14 is not a Thrift type id"));
    // An unknown field 20 holding structs nested 100 deep.
    let mut buf = vec![0x0C, 40];
    buf.extend([0x1C; 100]);
    buf.extend([0; 102]);
    assert!(error(&buf).contains("nested more than 64 deep"));
    // 63 deep is skipped, and the footer found wanting.
    let mut buf = vec![0x0C, 40];
    buf.extend([0x1C; 62]);
    buf.extend([0; 64]);
    assert!(error(&buf).contains("required field version is missing"));
}

#[test]
fn skipped_containers_of_bools_take_no_bytes_but_no_more_bools_than_the_bytes_hold() {
    // Field 20: a list of 2 bools, then field 21: a map of 2 bool pairs; then the stop.
    let mut buf = vec![0x09, 40, 0x21, 0x1B, 0x02, 0x11, 0];
    assert!(error(&buf).contains("required field version is missing"));
    // Another map, of 3 pairs: 12 bools in all in 10 bytes.
    buf.splice(6..6, [0x1B, 0x03, 0x11]);
    let what = "byte 9: skipped containers claim more bools than the bytes hold";
    assert!(error(&buf).contains(what));
    // A list of 2^31-1 bools.
    let buf = [0x09, 40, 0xF1, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0];
    assert!(error(&buf).contains("byte 8: skipped containers"));
}

#[test]
fn schemas_are_checked_before_they_are_built() {
    let e = error(&nested_footer(100_000));
    assert!(e.contains("the schema nests too deep"), "{e}");
    // Shallow enough, then built as the parquet crate builds it: groups need a repetition.
    let e = error(&nested_footer(3));
    assert!(e.contains("schema group \"g3\" has no repetition"), "{e}");
}
