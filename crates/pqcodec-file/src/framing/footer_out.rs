//! The footer (`FileMetaData`), written by pqcodec (the page index before it:
//! [`page_index_out`](super::page_index_out)). The writer holds a file's metadata in the parquet crate's types, which it gives
//! back from `close`, but the encodings a column chunk lists and counts are pqcodec's
//! [`ChunkEncodings`]: parquet 59 has no name for ALP.

use parquet::basic::{LogicalType, TimeUnit};
use parquet::file::metadata::{ColumnChunkMetaData, KeyValue, RowGroupMetaData};
use parquet::schema::types::{SchemaDescriptor, Type};
use pqcodec_core::Encoding;

use super::parquet_types::{codec_id, edge_interpolation_id};
use super::thrift_out::{BINARY, I32, STRUCT, ThriftOut};

/// What a column chunk's metadata says of its encodings.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ChunkEncodings {
    /// Every encoding of its pages and levels, each once.
    pub listed: Vec<Encoding>,
    /// How many pages of each type (its Thrift id) and encoding.
    pub pages: Vec<(i32, Encoding, i32)>,
}

impl ChunkEncodings {
    /// Counts a page of type `page_type` in `encoding`.
    pub(crate) fn count(&mut self, page_type: i32, encoding: Encoding) {
        match (self.pages.iter_mut()).find(|(t, e, _)| *t == page_type && *e == encoding) {
            Some((_, _, n)) => *n += 1,
            None => self.pages.push((page_type, encoding, 1)),
        }
        if !self.listed.contains(&encoding) {
            self.listed.push(encoding);
        }
    }
}

/// A file's footer: what `FileMetaData` holds.
pub(crate) struct Footer<'a> {
    pub schema: &'a SchemaDescriptor,
    pub row_groups: &'a [RowGroupMetaData],
    /// Each row group's column chunks' encodings.
    pub encodings: &'a [Vec<ChunkEncodings>],
    pub key_value_metadata: &'a [KeyValue],
    pub created_by: &'a str,
}

impl Footer<'_> {
    /// Appends the footer's Thrift to `out` (not its length, nor the magic).
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        let mut w = ThriftOut::new(out);
        let num_rows = self.row_groups.iter().map(|g| g.num_rows()).sum();
        w.i32(1, 1);
        let root = self.schema.root_schema();
        w.list(2, STRUCT, schema_len(root));
        schema_elements(&mut w, root);
        w.i64(3, num_rows);
        w.list(4, STRUCT, self.row_groups.len());
        for (group, encodings) in self.row_groups.iter().zip(self.encodings) {
            row_group(&mut w, group, encodings);
        }
        if !self.key_value_metadata.is_empty() {
            w.list(5, STRUCT, self.key_value_metadata.len());
            for kv in self.key_value_metadata {
                w.element().binary(1, kv.key.as_bytes());
                if let Some(value) = &kv.value {
                    w.binary(2, value.as_bytes());
                }
                w.end();
            }
        }
        w.binary(6, self.created_by.as_bytes());
        // Every leaf in its type's order (the one order Parquet defines), as arrow-rs writes.
        w.list(7, STRUCT, self.schema.num_columns());
        for _ in self.schema.columns() {
            w.element().begin(1).end().end();
        }
        w.end();
    }
}

/// How many schema elements `t` and the types under it make.
fn schema_len(t: &Type) -> usize {
    match t {
        Type::GroupType { fields, .. } => 1 + fields.iter().map(|f| schema_len(f)).sum::<usize>(),
        Type::PrimitiveType { .. } => 1,
    }
}

/// `t`'s `SchemaElement`, then those of the types under it, depth first.
fn schema_elements(w: &mut ThriftOut, t: &Type) {
    let info = t.get_basic_info();
    w.element();
    let group = match t {
        Type::PrimitiveType {
            physical_type,
            type_length,
            ..
        } => {
            w.i32(1, *physical_type as i32);
            if *type_length >= 0 {
                w.i32(2, *type_length);
            }
            None
        }
        Type::GroupType { fields, .. } => Some(fields),
    };
    // The root of a schema read from a file may have no repetition.
    if group.is_none() || info.has_repetition() {
        w.i32(3, info.repetition() as i32);
    }
    w.binary(4, info.name().as_bytes());
    if let Some(fields) = group {
        w.i32(5, fields.len() as i32);
    }
    let converted = info.converted_type() as i32;
    if converted >= 0 {
        w.i32(6, converted);
    }
    if let Type::PrimitiveType {
        scale, precision, ..
    } = t
    {
        if *scale >= 0 {
            w.i32(7, *scale);
        }
        if *precision >= 0 {
            w.i32(8, *precision);
        }
    }
    if info.has_id() {
        w.i32(9, info.id());
    }
    // A variant this build does not know is written back by its id, if that is one.
    let written =
        |l: &&LogicalType| !matches!(l, LogicalType::_Unknown { field_id } if *field_id <= 0);
    if let Some(logical) = info.logical_type_ref().filter(written) {
        w.begin(10);
        logical_type(w, logical);
        w.end();
    }
    w.end();
    for field in group.into_iter().flatten() {
        schema_elements(w, field);
    }
}

/// The fields of the `LogicalType` union for `t`.
fn logical_type(w: &mut ThriftOut, t: &LogicalType) {
    // TimeType and TimestampType: whether adjusted to UTC, and the TimeUnit union.
    let time = |w: &mut ThriftOut, id, utc, unit: &TimeUnit| {
        let which = match unit {
            TimeUnit::MILLIS => 1,
            TimeUnit::MICROS => 2,
            TimeUnit::NANOS => 3,
        };
        w.begin(id)
            .bool(1, utc)
            .begin(2)
            .begin(which)
            .end()
            .end()
            .end();
    };
    let empty = |w: &mut ThriftOut, id| {
        w.begin(id).end();
    };
    match t {
        LogicalType::String => empty(w, 1),
        LogicalType::Map => empty(w, 2),
        LogicalType::List => empty(w, 3),
        LogicalType::Enum => empty(w, 4),
        LogicalType::Decimal(d) => {
            w.begin(5).i32(1, d.scale).i32(2, d.precision).end();
        }
        LogicalType::Date => empty(w, 6),
        LogicalType::Time(t) => time(w, 7, t.is_adjusted_to_u_t_c, &t.unit),
        LogicalType::Timestamp(t) => time(w, 8, t.is_adjusted_to_u_t_c, &t.unit),
        LogicalType::Integer(i) => {
            w.begin(10).i8(1, i.bit_width).bool(2, i.is_signed).end();
        }
        LogicalType::Unknown => empty(w, 11),
        LogicalType::Json => empty(w, 12),
        LogicalType::Bson => empty(w, 13),
        LogicalType::Uuid => empty(w, 14),
        LogicalType::Float16 => empty(w, 15),
        LogicalType::Variant(v) => {
            w.begin(16);
            if let Some(version) = v.specification_version {
                w.i8(1, version);
            }
            w.end();
        }
        LogicalType::Geometry(g) => {
            w.begin(17);
            if let Some(crs) = &g.crs {
                w.binary(1, crs.as_bytes());
            }
            w.end();
        }
        LogicalType::Geography(g) => {
            w.begin(18);
            if let Some(crs) = &g.crs {
                w.binary(1, crs.as_bytes());
            }
            if let Some(algorithm) = &g.algorithm {
                w.i32(2, edge_interpolation_id(algorithm));
            }
            w.end();
        }
        LogicalType::_Unknown { field_id } => empty(w, *field_id),
    }
}

/// A `RowGroup`.
fn row_group(w: &mut ThriftOut, group: &RowGroupMetaData, encodings: &[ChunkEncodings]) {
    w.element();
    w.list(1, STRUCT, group.num_columns());
    for (chunk, encodings) in group.columns().iter().zip(encodings) {
        column_chunk(w, chunk, encodings);
    }
    w.i64(2, group.total_byte_size()).i64(3, group.num_rows());
    if let Some(offset) = group.file_offset() {
        w.i64(5, offset);
    }
    w.i64(6, group.compressed_size());
    if let Some(ordinal) = group.ordinal() {
        w.i16(7, ordinal);
    }
    w.end();
}

/// A `ColumnChunk` and its `ColumnMetaData`.
fn column_chunk(w: &mut ThriftOut, chunk: &ColumnChunkMetaData, encodings: &ChunkEncodings) {
    w.element().i64(2, chunk.file_offset()).begin(3);
    w.i32(1, chunk.column_type() as i32);
    let mut listed = encodings.listed.clone();
    listed.sort_by_key(|e| e.id());
    w.list(2, I32, listed.len());
    for e in listed {
        w.elem_i32(e.id());
    }
    let path = chunk.column_path().parts();
    w.list(3, BINARY, path.len());
    for part in path {
        w.elem_binary(part.as_bytes());
    }
    w.i32(4, codec_id(chunk.compression()))
        .i64(5, chunk.num_values())
        .i64(6, chunk.uncompressed_size())
        .i64(7, chunk.compressed_size())
        .i64(9, chunk.data_page_offset());
    if let Some(offset) = chunk.index_page_offset() {
        w.i64(10, offset);
    }
    if let Some(offset) = chunk.dictionary_page_offset() {
        w.i64(11, offset);
    }
    if let Some(stats) = chunk.statistics() {
        w.begin(12);
        let (min, max) = (stats.min_bytes_opt(), stats.max_bytes_opt());
        if stats.is_min_max_backwards_compatible() {
            if let Some(max) = max {
                w.binary(1, max);
            }
            if let Some(min) = min {
                w.binary(2, min);
            }
        }
        if let Some(n) = stats.null_count_opt().and_then(|n| i64::try_from(n).ok()) {
            w.i64(3, n);
        }
        if let Some(n) = stats
            .distinct_count_opt()
            .and_then(|n| i64::try_from(n).ok())
        {
            w.i64(4, n);
        }
        if !stats.is_min_max_deprecated() {
            if let Some(max) = max {
                w.binary(5, max);
            }
            if let Some(min) = min {
                w.binary(6, min);
            }
        }
        w.bool(7, stats.max_is_exact())
            .bool(8, stats.min_is_exact())
            .end();
    }
    if !encodings.pages.is_empty() {
        w.list(13, STRUCT, encodings.pages.len());
        for &(page_type, encoding, count) in &encodings.pages {
            w.element()
                .i32(1, page_type)
                .i32(2, encoding.id())
                .i32(3, count)
                .end();
        }
    }
    if let Some(bytes) = chunk.unencoded_byte_array_data_bytes() {
        w.begin(16).i64(1, bytes).end();
    }
    w.end();
    if let Some(offset) = chunk.offset_index_offset() {
        w.i64(4, offset);
    }
    if let Some(len) = chunk.offset_index_length() {
        w.i32(5, len);
    }
    if let Some(offset) = chunk.column_index_offset() {
        w.i64(6, offset);
    }
    if let Some(len) = chunk.column_index_length() {
        w.i32(7, len);
    }
    w.end();
}
