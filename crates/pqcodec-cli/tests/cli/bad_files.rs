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

use pqcodec_testkit::zigzag;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one command may run on one small file (a debug build, on a shared machine).
const TIME_LIMIT: Duration = Duration::from_secs(30);
/// The address space a command may use, in KiB (`ulimit -v`): a claimed size of gigabytes that
/// is really allocated fails instead of going unnoticed.
const ADDRESS_SPACE_KIB: u64 = 2 << 20;

// ---------------------------------------------------------------------------------------------
// A Thrift compact-protocol writer.

const T_TRUE: u8 = 1;
const T_FALSE: u8 = 2;
const T_I32: u8 = 5;
const T_I64: u8 = 6;
const T_BINARY: u8 = 8;
const T_LIST: u8 = 9;
const T_STRUCT: u8 = 12;

fn varint(out: &mut Vec<u8>, v: u64) {
    out.extend(pqcodec_testkit::uleb(v));
}

/// Writes one struct's fields; nested structs are written by closures.
struct Thrift {
    out: Vec<u8>,
    last: Vec<i16>,
}

impl Thrift {
    fn new() -> Self {
        Thrift {
            out: Vec::new(),
            last: vec![0],
        }
    }

    fn header(&mut self, id: i16, ty: u8) {
        let last = self.last.last_mut().unwrap();
        let delta = id - *last;
        if (1..=15).contains(&delta) {
            self.out.push(((delta as u8) << 4) | ty);
        } else {
            self.out.push(ty);
            varint(&mut self.out, zigzag(i64::from(id)));
        }
        *last = id;
    }

    fn i32(&mut self, id: i16, v: i32) -> &mut Self {
        self.header(id, T_I32);
        varint(&mut self.out, zigzag(i64::from(v)));
        self
    }

    fn opt_i32(&mut self, id: i16, v: Option<i32>) -> &mut Self {
        if let Some(v) = v {
            self.i32(id, v);
        }
        self
    }

    fn i64(&mut self, id: i16, v: i64) -> &mut Self {
        self.header(id, T_I64);
        varint(&mut self.out, zigzag(v));
        self
    }

    fn bool(&mut self, id: i16, v: bool) -> &mut Self {
        self.header(id, if v { T_TRUE } else { T_FALSE });
        self
    }

    fn binary(&mut self, id: i16, b: &[u8]) -> &mut Self {
        self.header(id, T_BINARY);
        varint(&mut self.out, b.len() as u64);
        self.out.extend_from_slice(b);
        self
    }

    fn list_header(&mut self, len: usize, ty: u8) {
        if len < 15 {
            self.out.push(((len as u8) << 4) | ty);
        } else {
            self.out.push(0xF0 | ty);
            varint(&mut self.out, len as u64);
        }
    }

    fn strukt(&mut self, id: i16, f: impl FnOnce(&mut Thrift)) -> &mut Self {
        self.header(id, T_STRUCT);
        self.last.push(0);
        f(self);
        self.out.push(0);
        self.last.pop();
        self
    }

    /// A list of `len` structs, the `i`-th written by `f(self, i)`.
    fn list_structs(
        &mut self,
        id: i16,
        len: usize,
        mut f: impl FnMut(&mut Thrift, usize),
    ) -> &mut Self {
        self.header(id, T_LIST);
        self.list_header(len, T_STRUCT);
        for i in 0..len {
            self.last.push(0);
            f(self, i);
            self.out.push(0);
            self.last.pop();
        }
        self
    }

    fn list_i32(&mut self, id: i16, values: &[i32]) -> &mut Self {
        self.header(id, T_LIST);
        self.list_header(values.len(), T_I32);
        for &v in values {
            varint(&mut self.out, zigzag(i64::from(v)));
        }
        self
    }

    fn list_binary(&mut self, id: i16, values: &[&str]) -> &mut Self {
        self.header(id, T_LIST);
        self.list_header(values.len(), T_BINARY);
        for v in values {
            varint(&mut self.out, v.len() as u64);
            self.out.extend_from_slice(v.as_bytes());
        }
        self
    }

    /// The top-level struct's bytes, with its stop byte.
    fn finish(&mut self) -> Vec<u8> {
        let mut out = std::mem::take(&mut self.out);
        out.push(0);
        out
    }
}

// ---------------------------------------------------------------------------------------------
// A model of a file: schema, row groups of column chunks of pages.

/// Parquet's physical type ids.
const BOOLEAN: i32 = 0;
const INT32: i32 = 1;
const BYTE_ARRAY: i32 = 6;
const FIXED_LEN_BYTE_ARRAY: i32 = 7;
/// Repetition ids.
const REQUIRED: i32 = 0;
const OPTIONAL: i32 = 1;
/// Encoding ids.
const PLAIN: i32 = 0;
const RLE: i32 = 3;
const RLE_DICTIONARY: i32 = 8;
/// Page type ids.
const DATA_PAGE: i32 = 0;
const DICTIONARY_PAGE: i32 = 2;
const DATA_PAGE_V2: i32 = 3;
/// Codec ids.
const UNCOMPRESSED: i32 = 0;
const SNAPPY: i32 = 1;

#[derive(Debug, Clone)]
struct Element {
    ty: Option<i32>,
    type_length: Option<i32>,
    repetition: Option<i32>,
    name: String,
    num_children: Option<i32>,
}

fn root(children: i32) -> Element {
    Element {
        ty: None,
        type_length: None,
        repetition: None,
        name: "schema".into(),
        num_children: Some(children),
    }
}

fn leaf(name: &str, ty: i32, repetition: i32) -> Element {
    Element {
        ty: Some(ty),
        type_length: None,
        repetition: Some(repetition),
        name: name.into(),
        num_children: None,
    }
}

#[derive(Debug, Clone, Default)]
struct DataHeader {
    num_values: i32,
    encoding: i32,
    def_encoding: i32,
    rep_encoding: i32,
}

#[derive(Debug, Clone, Default)]
struct V2Header {
    num_values: i32,
    num_nulls: i32,
    num_rows: i32,
    encoding: i32,
    def_len: i32,
    rep_len: i32,
}

#[derive(Debug, Clone)]
struct PageSpec {
    page_type: i32,
    /// Sizes written in the header; `None`: the body's length.
    uncompressed: Option<i32>,
    compressed: Option<i32>,
    data: Option<DataHeader>,
    dictionary: Option<(i32, i32)>,
    v2: Option<V2Header>,
    body: Vec<u8>,
    /// Bytes written instead of the header, when set.
    raw_header: Option<Vec<u8>>,
}

fn data_page(num_values: i32, encoding: i32, body: Vec<u8>) -> PageSpec {
    PageSpec {
        page_type: DATA_PAGE,
        uncompressed: None,
        compressed: None,
        data: Some(DataHeader {
            num_values,
            encoding,
            def_encoding: RLE,
            rep_encoding: RLE,
        }),
        dictionary: None,
        v2: None,
        body,
        raw_header: None,
    }
}

fn dictionary_page(num_values: i32, body: Vec<u8>) -> PageSpec {
    PageSpec {
        page_type: DICTIONARY_PAGE,
        dictionary: Some((num_values, PLAIN)),
        data: None,
        ..data_page(0, PLAIN, body)
    }
}

impl PageSpec {
    fn header_bytes(&self) -> Vec<u8> {
        if let Some(raw) = &self.raw_header {
            return raw.clone();
        }
        let len = self.body.len() as i32;
        let mut t = Thrift::new();
        t.i32(1, self.page_type)
            .i32(2, self.uncompressed.unwrap_or(len))
            .i32(3, self.compressed.unwrap_or(len));
        if let Some(d) = &self.data {
            t.strukt(5, |t| {
                t.i32(1, d.num_values)
                    .i32(2, d.encoding)
                    .i32(3, d.def_encoding)
                    .i32(4, d.rep_encoding);
            });
        }
        if let Some((n, e)) = self.dictionary {
            t.strukt(7, |t| {
                t.i32(1, n).i32(2, e);
            });
        }
        if let Some(v) = &self.v2 {
            t.strukt(8, |t| {
                t.i32(1, v.num_values)
                    .i32(2, v.num_nulls)
                    .i32(3, v.num_rows)
                    .i32(4, v.encoding)
                    .i32(5, v.def_len)
                    .i32(6, v.rep_len)
                    .bool(7, false);
            });
        }
        t.finish()
    }
}

#[derive(Debug, Clone)]
struct ChunkSpec {
    ty: i32,
    path: Vec<String>,
    codec: i32,
    num_values: i64,
    pages: Vec<PageSpec>,
    /// Overrides of what the writer computes.
    data_page_offset: Option<i64>,
    dictionary_page_offset: Option<i64>,
    total_compressed: Option<i64>,
}

fn chunk(ty: i32, name: &str, num_values: i64, pages: Vec<PageSpec>) -> ChunkSpec {
    ChunkSpec {
        ty,
        path: vec![name.into()],
        codec: UNCOMPRESSED,
        num_values,
        pages,
        data_page_offset: None,
        dictionary_page_offset: None,
        total_compressed: None,
    }
}

#[derive(Debug, Clone)]
struct FileSpec {
    schema: Vec<Element>,
    num_rows: i64,
    row_groups: Vec<Vec<ChunkSpec>>,
}

impl FileSpec {
    fn bytes(&self) -> Vec<u8> {
        let mut file = b"PAR1".to_vec();
        // (offset of the first page, offset of the first data page, size) of each chunk.
        let mut placed = Vec::new();
        for group in &self.row_groups {
            let mut spans = Vec::new();
            for c in group {
                let start = file.len() as i64;
                let mut data_offset = None;
                for p in &c.pages {
                    if p.page_type != DICTIONARY_PAGE && data_offset.is_none() {
                        data_offset = Some(file.len() as i64);
                    }
                    file.extend(p.header_bytes());
                    file.extend_from_slice(&p.body);
                }
                let size = file.len() as i64 - start;
                let dict = (c.pages.first().map(|p| p.page_type) == Some(DICTIONARY_PAGE))
                    .then_some(start);
                spans.push((start, data_offset.unwrap_or(start), dict, size));
            }
            placed.push(spans);
        }
        let mut t = Thrift::new();
        t.i32(1, 1);
        t.list_structs(2, self.schema.len(), |t, i| {
            let e = &self.schema[i];
            t.opt_i32(1, e.ty)
                .opt_i32(2, e.type_length)
                .opt_i32(3, e.repetition)
                .binary(4, e.name.as_bytes())
                .opt_i32(5, e.num_children);
        });
        t.i64(3, self.num_rows);
        t.list_structs(4, self.row_groups.len(), |t, g| {
            let group = &self.row_groups[g];
            t.list_structs(1, group.len(), |t, i| {
                let c = &group[i];
                let (start, data, dict, size) = placed[g][i];
                t.i64(2, start);
                t.strukt(3, |t| {
                    t.i32(1, c.ty)
                        .list_i32(2, &[PLAIN, RLE])
                        .list_binary(3, &c.path.iter().map(String::as_str).collect::<Vec<_>>())
                        .i32(4, c.codec)
                        .i64(5, c.num_values)
                        .i64(6, size)
                        .i64(7, c.total_compressed.unwrap_or(size))
                        .i64(9, c.data_page_offset.unwrap_or(data));
                    if let Some(d) = c.dictionary_page_offset.or(dict) {
                        t.i64(11, d);
                    }
                });
            });
            let size: i64 = placed[g].iter().map(|s| s.3).sum();
            t.i64(2, size).i64(3, self.num_rows);
        });
        t.binary(6, b"pqcodec bad_files");
        let footer = t.finish();
        finish_file(file, &footer)
    }
}

/// `body` followed by `footer`, its length and the closing magic.
fn finish_file(mut body: Vec<u8>, footer: &[u8]) -> Vec<u8> {
    body.extend_from_slice(footer);
    body.extend_from_slice(&(footer.len() as u32).to_le_bytes());
    body.extend_from_slice(b"PAR1");
    body
}

fn i32s(values: &[i32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A valid file: one required INT32 column `a` holding 1, 2, 3 in one PLAIN v1 page.
fn int32_file() -> FileSpec {
    FileSpec {
        schema: vec![root(1), leaf("a", INT32, REQUIRED)],
        num_rows: 3,
        row_groups: vec![vec![chunk(
            INT32,
            "a",
            3,
            vec![data_page(3, PLAIN, i32s(&[1, 2, 3]))],
        )]],
    }
}

/// A valid file: one optional INT32 column `a` holding 1, null, 3 (v1 page, RLE levels).
fn optional_file() -> FileSpec {
    let mut body = vec![2, 0, 0, 0, 0x03, 0b101];
    body.extend(i32s(&[1, 3]));
    FileSpec {
        schema: vec![root(1), leaf("a", INT32, OPTIONAL)],
        num_rows: 3,
        row_groups: vec![vec![chunk(INT32, "a", 3, vec![data_page(3, PLAIN, body)])]],
    }
}

/// A valid file: one required FIXED_LEN_BYTE_ARRAY(4) column `f` holding "abcd", "efgh".
fn flba_file(type_length: i32) -> FileSpec {
    let mut schema = vec![root(1), leaf("f", FIXED_LEN_BYTE_ARRAY, REQUIRED)];
    schema[1].type_length = Some(type_length);
    FileSpec {
        schema,
        num_rows: 2,
        row_groups: vec![vec![chunk(
            FIXED_LEN_BYTE_ARRAY,
            "f",
            2,
            vec![data_page(2, PLAIN, b"abcdefgh".to_vec())],
        )]],
    }
}

/// A valid file: a required dictionary-encoded INT32 column `a`: dictionary [10, 20], indices
/// 0, 1, 1.
fn dictionary_file() -> FileSpec {
    FileSpec {
        schema: vec![root(1), leaf("a", INT32, REQUIRED)],
        num_rows: 3,
        row_groups: vec![vec![chunk(
            INT32,
            "a",
            3,
            vec![
                dictionary_page(2, i32s(&[10, 20])),
                data_page(3, RLE_DICTIONARY, vec![1, 0x03, 0b110]),
            ],
        )]],
    }
}

/// `spec` with its one column chunk changed by `f`.
fn with_chunk(mut spec: FileSpec, f: impl FnOnce(&mut ChunkSpec)) -> FileSpec {
    f(&mut spec.row_groups[0][0]);
    spec
}

/// `spec` with its first page changed by `f`.
fn with_page(spec: FileSpec, f: impl FnOnce(&mut PageSpec)) -> FileSpec {
    with_chunk(spec, |c| f(&mut c.pages[0]))
}

/// `spec` with its data page (the last page) changed by `f`.
fn with_data_page(spec: FileSpec, f: impl FnOnce(&mut PageSpec)) -> FileSpec {
    with_chunk(spec, |c| f(c.pages.last_mut().unwrap()))
}

/// The offset of the footer of `file` (as written by [`finish_file`]).
fn footer_start(file: &[u8]) -> usize {
    let n = file.len();
    let len = u32::from_le_bytes(file[n - 8..n - 4].try_into().unwrap()) as usize;
    n - 8 - len
}

/// A footer whose schema nests `depth` optional groups, the innermost holding one INT32.
fn deep_schema(depth: usize) -> FileSpec {
    let mut schema = vec![root(1)];
    for i in 0..depth {
        schema.push(Element {
            ty: None,
            type_length: None,
            repetition: Some(OPTIONAL),
            name: format!("g{i}"),
            num_children: Some(1),
        });
    }
    schema.push(leaf("a", INT32, REQUIRED));
    let path: Vec<String> = (0..depth)
        .map(|i| format!("g{i}"))
        .chain(["a".to_string()])
        .collect();
    let mut c = chunk(INT32, "a", 0, vec![]);
    c.path = path;
    FileSpec {
        schema,
        num_rows: 0,
        row_groups: vec![vec![c]],
    }
}

// ---------------------------------------------------------------------------------------------
// The cases.

/// One malformed file and what every command's error must say.
struct Case {
    name: String,
    bytes: Vec<u8>,
    /// Words the error line must hold (case-insensitive), for each command.
    says: &'static [&'static str],
    /// Commands to run (`cat`, `inspect`, `scan`).
    commands: &'static [&'static str],
}

const ALL: &[&str] = &["cat", "inspect", "scan"];

fn case(name: &str, bytes: Vec<u8>, says: &'static [&'static str]) -> Case {
    Case {
        name: name.into(),
        bytes,
        says,
        commands: ALL,
    }
}

impl Case {
    /// Runs only `commands` on the case's file.
    fn only(mut self, commands: &'static [&'static str]) -> Self {
        self.commands = commands;
        self
    }
}

fn cases() -> Vec<Case> {
    let good = int32_file().bytes();
    let footer = footer_start(&good);
    let mut v = vec![
        case("empty file", vec![], &["file"]),
        case("magic only", b"PAR1".to_vec(), &["file"]),
        case(
            "no closing magic",
            good[..good.len() - 4].to_vec(),
            &["magic"],
        ),
        case(
            "truncated footer: the last 10 bytes cut",
            good[..good.len() - 10].to_vec(),
            &["footer"],
        ),
        case(
            "footer length past the start of the file",
            {
                let mut b = good.clone();
                let n = b.len();
                b[n - 8..n - 4].copy_from_slice(&(n as u32 * 2).to_le_bytes());
                b
            },
            &["footer"],
        ),
        case(
            "footer length 2^32-1",
            {
                let mut b = good.clone();
                let n = b.len();
                b[n - 8..n - 4].copy_from_slice(&u32::MAX.to_le_bytes());
                b
            },
            &["footer"],
        ),
        case(
            "footer of garbage",
            finish_file(b"PAR1".to_vec(), &[0xFF; 40]),
            &["metadata"],
        ),
        case(
            "footer cut in the middle of the schema",
            {
                let mut b = good[..footer + 12].to_vec();
                let f = b.split_off(footer);
                finish_file(b, &f)
            },
            &["metadata"],
        ),
        case(
            "footer: schema list claims 2^31 elements",
            {
                let mut t = Thrift::new();
                t.i32(1, 1);
                t.header(2, T_LIST);
                t.out.push(0xF0 | T_STRUCT);
                varint(&mut t.out, 1 << 31);
                t.out.extend_from_slice(&[0; 20]);
                finish_file(b"PAR1".to_vec(), &t.finish())
            },
            &["metadata"],
        ),
        case(
            "footer: a string claims 2^31 bytes",
            {
                let mut t = Thrift::new();
                t.i32(1, 1);
                t.header(6, T_BINARY);
                varint(&mut t.out, 1 << 31);
                t.out.extend_from_slice(b"abc");
                finish_file(b"PAR1".to_vec(), &t.finish())
            },
            &["metadata"],
        ),
        case(
            "footer: an unknown field nests 100000 structs",
            {
                let mut t = Thrift::new();
                t.i32(1, 1);
                t.header(20, T_STRUCT);
                for _ in 0..100_000 {
                    t.out.push((1 << 4) | T_STRUCT);
                }
                t.out.extend(std::iter::repeat_n(0, 100_001));
                finish_file(b"PAR1".to_vec(), &t.finish())
            },
            &["metadata"],
        ),
        case(
            "schema nests 100000 groups",
            deep_schema(100_000).bytes(),
            &["schema"],
        ),
        case(
            "schema: root claims 5 children, 1 follows",
            {
                let mut s = int32_file();
                s.schema[0].num_children = Some(5);
                s.bytes()
            },
            &["schema"],
        ),
        case(
            "schema: root claims -1 children",
            {
                let mut s = int32_file();
                s.schema[0].num_children = Some(-1);
                s.bytes()
            },
            &["schema"],
        ),
        case(
            "schema: physical type 42",
            {
                let mut s = int32_file();
                s.schema[1].ty = Some(42);
                s.bytes()
            },
            &["type"],
        ),
        // Refused when the footer is read, the column named: no command gets further.
        case(
            "schema: FIXED_LEN_BYTE_ARRAY of type length 0",
            flba_file(0).bytes(),
            &["column \"f\"", "type_length 0"],
        ),
        case(
            "schema: FIXED_LEN_BYTE_ARRAY of type length -5",
            flba_file(-5).bytes(),
            &["length"],
        ),
        case(
            "schema: FIXED_LEN_BYTE_ARRAY of type length 2^31-1 over an 8-byte page",
            flba_file(i32::MAX).bytes(),
            &["column \"f\"", "page 0", "PLAIN", "num_values"],
        )
        .only(&["cat", "scan"]),
        case(
            "schema: FIXED_LEN_BYTE_ARRAY of type length 5 over a page of 8 bytes, 2 values",
            flba_file(5).bytes(),
            &["column \"f\"", "page 0", "PLAIN", "num_values"],
        )
        .only(&["cat", "scan"]),
        case(
            "schema: the column chunk's type disagrees with the schema",
            with_chunk(int32_file(), |c| c.ty = BYTE_ARRAY).bytes(),
            &["type"],
        )
        .only(&["cat", "scan"]),
        case(
            "row group: fewer column chunks than the schema has columns",
            {
                let mut s = int32_file();
                s.schema = vec![
                    root(2),
                    leaf("a", INT32, REQUIRED),
                    leaf("b", INT32, REQUIRED),
                ];
                s.bytes()
            },
            &["column"],
        ),
        case(
            "column chunk: data page offset past the end of the file",
            with_chunk(int32_file(), |c| c.data_page_offset = Some(1 << 40)).bytes(),
            &["offset"],
        ),
        case(
            "column chunk: negative data page offset",
            with_chunk(int32_file(), |c| c.data_page_offset = Some(-100)).bytes(),
            &["negative"],
        ),
        case(
            "column chunk: negative dictionary page offset",
            with_chunk(dictionary_file(), |c| c.dictionary_page_offset = Some(-1)).bytes(),
            &["negative"],
        ),
        case(
            "column chunk: compressed size 2^40",
            with_chunk(int32_file(), |c| c.total_compressed = Some(1 << 40)).bytes(),
            &["size"],
        ),
        case(
            "column chunk: negative compressed size",
            with_chunk(int32_file(), |c| c.total_compressed = Some(-8)).bytes(),
            &["negative"],
        ),
        case(
            "column chunk: unknown codec 99",
            with_chunk(int32_file(), |c| c.codec = 99).bytes(),
            &["codec"],
        ),
        case(
            "page header of garbage",
            with_page(int32_file(), |p| p.raw_header = Some(vec![0xFF; 16])).bytes(),
            &["page header"],
        )
        .only(&["cat", "scan"]),
        case(
            "page header: negative compressed size",
            with_page(int32_file(), |p| p.compressed = Some(-12)).bytes(),
            &["page"],
        )
        .only(&["cat", "scan"]),
        case(
            "page header: compressed size 2^31-1, past the chunk",
            with_page(int32_file(), |p| p.compressed = Some(i32::MAX)).bytes(),
            &["page"],
        )
        .only(&["cat", "scan"]),
        case(
            "page header: SNAPPY page claiming 2^31-1 uncompressed bytes",
            with_chunk(int32_file(), |c| {
                c.codec = SNAPPY;
                // Snappy of 12 bytes: a literal of 12.
                let mut body = vec![12, 11 << 2];
                body.extend(i32s(&[1, 2, 3]));
                c.pages[0].body = body;
                c.pages[0].uncompressed = Some(i32::MAX);
            })
            .bytes(),
            &["page"],
        )
        .only(&["cat", "scan"]),
        case(
            "page header: unknown page type 7",
            with_page(int32_file(), |p| p.page_type = 7).bytes(),
            &["page"],
        )
        .only(&["cat", "scan"]),
        case(
            "page header: data page without its data page header",
            with_page(int32_file(), |p| p.data = None).bytes(),
            &["page"],
        )
        .only(&["cat", "scan"]),
        case(
            "page header: unknown encoding 42",
            with_page(int32_file(), |p| p.data.as_mut().unwrap().encoding = 42).bytes(),
            &["encoding"],
        )
        .only(&["cat", "scan"]),
        case(
            "page header: 2^31-1 values in a 12-byte page",
            with_page(int32_file(), |p| {
                p.data.as_mut().unwrap().num_values = i32::MAX
            })
            .bytes(),
            &["column \"a\"", "page 0", "PLAIN", "num_values"],
        )
        .only(&["cat", "scan"]),
        case(
            "page header: -1 values",
            with_page(int32_file(), |p| p.data.as_mut().unwrap().num_values = -1).bytes(),
            &["column \"a\"", "page 0"],
        )
        .only(&["cat", "scan"]),
        case(
            "page header: 10 values, the levels hold 3",
            with_page(optional_file(), |p| {
                p.data.as_mut().unwrap().num_values = 10
            })
            .bytes(),
            &["column \"a\"", "page 0", "RLE", "definition levels"],
        )
        .only(&["cat", "scan"]),
        case(
            "page: definition levels' length prefix past the page",
            with_page(optional_file(), |p| p.body[0] = 200).bytes(),
            &["column \"a\"", "page 0", "RLE", "encoded data"],
        )
        .only(&["cat", "scan"]),
        case(
            "page: definition level encoding PLAIN",
            with_page(optional_file(), |p| {
                p.data.as_mut().unwrap().def_encoding = PLAIN
            })
            .bytes(),
            &["column \"a\"", "page 0", "definition levels"],
        )
        .only(&["cat", "scan"]),
        case(
            "data page v2: level lengths past the page",
            with_page(optional_file(), |p| {
                p.page_type = DATA_PAGE_V2;
                p.data = None;
                p.body = [&[0x03, 0b101][..], &i32s(&[1, 3])].concat();
                p.v2 = Some(V2Header {
                    num_values: 3,
                    num_nulls: 1,
                    num_rows: 3,
                    encoding: PLAIN,
                    def_len: 1000,
                    rep_len: 0,
                });
            })
            .bytes(),
            &["page"],
        )
        .only(&["cat", "scan"]),
        case(
            "data page v2: more nulls than values",
            with_page(optional_file(), |p| {
                p.page_type = DATA_PAGE_V2;
                p.data = None;
                p.body = [&[0x03, 0b101][..], &i32s(&[1, 3])].concat();
                p.v2 = Some(V2Header {
                    num_values: 3,
                    num_nulls: 7,
                    num_rows: 3,
                    encoding: PLAIN,
                    def_len: 2,
                    rep_len: 0,
                });
            })
            .bytes(),
            &["column \"a\"", "page 0", "num_nulls"],
        )
        .only(&["cat", "scan"]),
        case(
            "dictionary page: 2^31-1 values in 8 bytes",
            with_page(dictionary_file(), |p| {
                p.dictionary = Some((i32::MAX, PLAIN))
            })
            .bytes(),
            &["column \"a\"", "page 0", "PLAIN", "num_values"],
        )
        .only(&["cat", "scan"]),
        case(
            "dictionary index out of range",
            with_data_page(dictionary_file(), |p| p.body = vec![2, 0x03, 0b11_10_01]).bytes(),
            &["column \"a\"", "page 1", "dictionary index 3"],
        )
        .only(&["cat", "scan"]),
        case(
            "dictionary indices of bit width 33",
            with_data_page(dictionary_file(), |p| {
                p.body = vec![33, 0x03, 0, 0, 0, 0, 0]
            })
            .bytes(),
            &["column \"a\"", "page 1", "bit width 33"],
        )
        .only(&["cat", "scan"]),
        case(
            "boolean column: RLE page with a run of 0 values",
            FileSpec {
                schema: vec![root(1), leaf("b", BOOLEAN, REQUIRED)],
                num_rows: 1,
                row_groups: vec![vec![chunk(
                    BOOLEAN,
                    "b",
                    1,
                    vec![data_page(1, RLE, vec![1, 0, 0, 0, 0])],
                )]],
            }
            .bytes(),
            &["column \"b\"", "page 0", "RLE", "run header"],
        )
        .only(&["cat", "scan"]),
    ];
    v.push(
        case(
            "row group: 2^40 rows claimed, 3 in the pages",
            {
                let mut s = int32_file();
                s.num_rows = 1 << 40;
                s.bytes()
            },
            &["rows"],
        )
        .only(&["cat", "scan"]),
    );
    v
}

// ---------------------------------------------------------------------------------------------
// The runner.

struct Run {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: String,
    elapsed: Duration,
    timed_out: bool,
}

/// Runs `pqcodec args` under the address-space cap, killed after the time limit.
fn run(args: &[&str]) -> Run {
    run_with_stdin(args, &[])
}

/// Runs `pqcodec args` with `input` on its standard input, as [`run`].
fn run_with_stdin(args: &[&str], input: &[u8]) -> Run {
    let start = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {ADDRESS_SPACE_KIB}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_pqcodec"))
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
fn scratch_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pqcodec-bad-files-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Checks one command's run on a malformed file; the first thing wrong.
fn check(command: &str, path: &Path, says: &[&str]) -> Result<(), String> {
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

fn run_case(dir: &Path, case: &Case, commands: &[&str]) -> Result<(), String> {
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
