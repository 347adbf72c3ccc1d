//! A model of a file (schema, row groups of column chunks of pages), written by [`super::thrift`].

use super::thrift::*;

/// Parquet's physical type ids.
pub(super) const BOOLEAN: i32 = 0;
pub(super) const INT32: i32 = 1;
pub(super) const BYTE_ARRAY: i32 = 6;
pub(super) const FIXED_LEN_BYTE_ARRAY: i32 = 7;
/// Repetition ids.
pub(super) const REQUIRED: i32 = 0;
pub(super) const OPTIONAL: i32 = 1;
/// Encoding ids.
pub(super) const PLAIN: i32 = 0;
pub(super) const RLE: i32 = 3;
pub(super) const RLE_DICTIONARY: i32 = 8;
/// Page type ids.
pub(super) const DATA_PAGE: i32 = 0;
pub(super) const DICTIONARY_PAGE: i32 = 2;
pub(super) const DATA_PAGE_V2: i32 = 3;
/// Codec ids.
pub(super) const UNCOMPRESSED: i32 = 0;
pub(super) const SNAPPY: i32 = 1;

#[derive(Debug, Clone)]
pub(super) struct Element {
    pub(super) ty: Option<i32>,
    pub(super) type_length: Option<i32>,
    pub(super) repetition: Option<i32>,
    pub(super) name: String,
    pub(super) num_children: Option<i32>,
}

pub(super) fn root(children: i32) -> Element {
    Element {
        ty: None,
        type_length: None,
        repetition: None,
        name: "schema".into(),
        num_children: Some(children),
    }
}

pub(super) fn leaf(name: &str, ty: i32, repetition: i32) -> Element {
    Element {
        ty: Some(ty),
        type_length: None,
        repetition: Some(repetition),
        name: name.into(),
        num_children: None,
    }
}

#[derive(Debug, Clone, Default)]
pub(super) struct DataHeader {
    pub(super) num_values: i32,
    pub(super) encoding: i32,
    pub(super) def_encoding: i32,
    pub(super) rep_encoding: i32,
}

#[derive(Debug, Clone, Default)]
pub(super) struct V2Header {
    pub(super) num_values: i32,
    pub(super) num_nulls: i32,
    pub(super) num_rows: i32,
    pub(super) encoding: i32,
    pub(super) def_len: i32,
    pub(super) rep_len: i32,
}

#[derive(Debug, Clone)]
pub(super) struct PageSpec {
    pub(super) page_type: i32,
    /// Sizes written in the header; `None`: the body's length.
    pub(super) uncompressed: Option<i32>,
    pub(super) compressed: Option<i32>,
    pub(super) data: Option<DataHeader>,
    pub(super) dictionary: Option<(i32, i32)>,
    pub(super) v2: Option<V2Header>,
    pub(super) body: Vec<u8>,
    /// Bytes written instead of the header, when set.
    pub(super) raw_header: Option<Vec<u8>>,
}

pub(super) fn data_page(num_values: i32, encoding: i32, body: Vec<u8>) -> PageSpec {
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

pub(super) fn dictionary_page(num_values: i32, body: Vec<u8>) -> PageSpec {
    PageSpec {
        page_type: DICTIONARY_PAGE,
        dictionary: Some((num_values, PLAIN)),
        data: None,
        ..data_page(0, PLAIN, body)
    }
}

impl PageSpec {
    pub(super) fn header_bytes(&self) -> Vec<u8> {
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
pub(super) struct ChunkSpec {
    pub(super) ty: i32,
    pub(super) path: Vec<String>,
    pub(super) codec: i32,
    pub(super) num_values: i64,
    pub(super) pages: Vec<PageSpec>,
    /// Overrides of what the writer computes.
    pub(super) data_page_offset: Option<i64>,
    pub(super) dictionary_page_offset: Option<i64>,
    pub(super) total_compressed: Option<i64>,
}

pub(super) fn chunk(ty: i32, name: &str, num_values: i64, pages: Vec<PageSpec>) -> ChunkSpec {
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
pub(super) struct FileSpec {
    pub(super) schema: Vec<Element>,
    pub(super) num_rows: i64,
    pub(super) row_groups: Vec<Vec<ChunkSpec>>,
}

impl FileSpec {
    pub(super) fn bytes(&self) -> Vec<u8> {
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
pub(super) fn finish_file(mut body: Vec<u8>, footer: &[u8]) -> Vec<u8> {
    body.extend_from_slice(footer);
    body.extend_from_slice(&(footer.len() as u32).to_le_bytes());
    body.extend_from_slice(b"PAR1");
    body
}

pub(super) fn i32s(values: &[i32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A valid file: one required INT32 column `a` holding 1, 2, 3 in one PLAIN v1 page.
pub(super) fn int32_file() -> FileSpec {
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
pub(super) fn optional_file() -> FileSpec {
    let mut body = vec![2, 0, 0, 0, 0x03, 0b101];
    body.extend(i32s(&[1, 3]));
    FileSpec {
        schema: vec![root(1), leaf("a", INT32, OPTIONAL)],
        num_rows: 3,
        row_groups: vec![vec![chunk(INT32, "a", 3, vec![data_page(3, PLAIN, body)])]],
    }
}

/// A valid file: one required FIXED_LEN_BYTE_ARRAY(4) column `f` holding "abcd", "efgh".
pub(super) fn flba_file(type_length: i32) -> FileSpec {
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
pub(super) fn dictionary_file() -> FileSpec {
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
pub(super) fn with_chunk(mut spec: FileSpec, f: impl FnOnce(&mut ChunkSpec)) -> FileSpec {
    f(&mut spec.row_groups[0][0]);
    spec
}

/// `spec` with its first page changed by `f`.
pub(super) fn with_page(spec: FileSpec, f: impl FnOnce(&mut PageSpec)) -> FileSpec {
    with_chunk(spec, |c| f(&mut c.pages[0]))
}

/// `spec` with its data page (the last page) changed by `f`.
pub(super) fn with_data_page(spec: FileSpec, f: impl FnOnce(&mut PageSpec)) -> FileSpec {
    with_chunk(spec, |c| f(c.pages.last_mut().unwrap()))
}

/// The offset of the footer of `file` (as written by [`finish_file`]).
pub(super) fn footer_start(file: &[u8]) -> usize {
    let n = file.len();
    let len = u32::from_le_bytes(file[n - 8..n - 4].try_into().unwrap()) as usize;
    n - 8 - len
}

/// A footer whose schema nests `depth` optional groups, the innermost holding one INT32.
pub(super) fn deep_schema(depth: usize) -> FileSpec {
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
