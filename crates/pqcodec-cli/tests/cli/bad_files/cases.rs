//! The malformed files, each with the words its errors must hold.

use super::model::*;
use super::thrift::*;

/// One malformed file and what every command's error must say.
pub(super) struct Case {
    pub(super) name: String,
    pub(super) bytes: Vec<u8>,
    /// Words the error line must hold (case-insensitive), for each command.
    pub(super) says: &'static [&'static str],
    /// Commands to run (`cat`, `inspect`, `scan`).
    pub(super) commands: &'static [&'static str],
}

pub(super) const ALL: &[&str] = &["cat", "inspect", "scan"];

pub(super) fn case(name: &str, bytes: Vec<u8>, says: &'static [&'static str]) -> Case {
    Case {
        name: name.into(),
        bytes,
        says,
        commands: ALL,
    }
}

impl Case {
    /// Runs only `commands` on the case's file.
    pub(super) fn only(mut self, commands: &'static [&'static str]) -> Self {
        self.commands = commands;
        self
    }
}

pub(super) fn cases() -> Vec<Case> {
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
