//! A walk of Thrift compact-protocol bytes without recursion: the facts [`crate::framing`]
//! checks in a footer before the parquet crate reads it, and the page headers pqcodec reads.
//!
//! Known fields of the footer are read the way the parquet crate (60.1, without its
//! `encryption` feature) reads them: by the type the field is meant to have, whatever type its
//! header declares. Up to and including the schema, the walk thus consumes exactly the bytes
//! the parquet crate does, and sees the schema it will build. Other fields are skipped by their
//! declared type with an explicit stack, at most [`SKIP_DEPTH`] containers deep, as the parquet
//! crate skips them (bools in a skipped container take no bytes there, so here too, but it
//! loops over each: skipped containers may hold no more bools in all than the bytes walked, one
//! byte each as Thrift writes them). Checks of the parquet crate's that do not change which
//! bytes are read (enum values, UTF-8, list element types) are left to it.

/// Compact-protocol type ids (field headers and list headers).
mod id {
    pub const BOOL_TRUE: u8 = 1;
    pub const BOOL_FALSE: u8 = 2;
    pub const BYTE: u8 = 3;
    pub const I16: u8 = 4;
    pub const I32: u8 = 5;
    pub const I64: u8 = 6;
    pub const DOUBLE: u8 = 7;
    pub const BINARY: u8 = 8;
    pub const LIST: u8 = 9;
    pub const SET: u8 = 10;
    pub const MAP: u8 = 11;
    pub const STRUCT: u8 = 12;
    pub const UUID: u8 = 13;
}

/// How deep containers nest below a skipped field before the walk gives up (the parquet
/// crate's limit).
pub(crate) const SKIP_DEPTH: usize = 64;

/// Why a walk stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ThriftError {
    /// The bytes end inside a value.
    #[error("truncated: the bytes end at {0}, inside a value")]
    Truncated(usize),
    /// A field or element type id that is not one.
    #[error("byte {at}: {id} is not a Thrift type id")]
    BadType {
        /// Offset of the header.
        at: usize,
        /// The id.
        id: u8,
    },
    /// Containers nested more than [`SKIP_DEPTH`] deep in a skipped field.
    #[error("byte {0}: containers nested more than {limit} deep", limit = SKIP_DEPTH)]
    TooDeep(usize),
    /// Something else the protocol or the struct does not allow.
    #[error("byte {at}: {what}")]
    Invalid {
        /// Offset of the value.
        at: usize,
        /// What is wrong.
        what: &'static str,
    },
}

type Result<T, E = ThriftError> = std::result::Result<T, E>;

/// A position in compact-protocol bytes.
struct Cursor<'a> {
    buf: &'a [u8],
    pos: usize,
    /// How many bools the skipped containers hold so far.
    skipped_bools: u64,
}

/// A container being skipped: what remains of it.
enum Open {
    Struct,
    /// Elements of one type.
    List {
        ty: u8,
        left: u32,
    },
    /// Keys and values alternating, `left` of them.
    Map {
        key: u8,
        value: u8,
        left: u64,
    },
}

impl<'a> Cursor<'a> {
    fn new(buf: &'a [u8]) -> Self {
        Cursor {
            buf,
            pos: 0,
            skipped_bools: 0,
        }
    }

    /// Bytes read so far.
    fn position(&self) -> usize {
        self.pos
    }

    fn invalid<T>(&self, what: &'static str) -> Result<T> {
        Err(ThriftError::Invalid { at: self.pos, what })
    }

    fn byte(&mut self) -> Result<u8> {
        let b = *self
            .buf
            .get(self.pos)
            .ok_or(ThriftError::Truncated(self.buf.len()))?;
        self.pos += 1;
        Ok(b)
    }

    fn take(&mut self, n: u64) -> Result<&'a [u8]> {
        let rest = &self.buf[self.pos..];
        let n = usize::try_from(n)
            .ok()
            .filter(|&n| n <= rest.len())
            .ok_or(ThriftError::Truncated(self.buf.len()))?;
        self.pos += n;
        Ok(&rest[..n])
    }

    /// An unsigned LEB128 varint; bits past 64 are dropped, as the parquet crate does.
    fn varint(&mut self) -> Result<u64> {
        let mut value = 0u64;
        let mut shift = 0u32;
        loop {
            let b = self.byte()?;
            value |= u64::from(b & 0x7F).wrapping_shl(shift);
            if b & 0x80 == 0 {
                return Ok(value);
            }
            shift = shift.wrapping_add(7);
        }
    }

    /// A zigzag varint: i16, i32, i64 and enums.
    fn int(&mut self) -> Result<i64> {
        let v = self.varint()?;
        Ok((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    /// An i32, truncated from the varint as the parquet crate does.
    fn i32(&mut self) -> Result<i32> {
        Ok(self.int()? as i32)
    }

    fn binary(&mut self) -> Result<&'a [u8]> {
        let len = self.varint()?;
        self.take(len)
    }

    /// A field header after field `last`: its id and declared type, or `None` at the stop.
    fn field(&mut self, last: i16) -> Result<Option<(i16, u8)>> {
        let at = self.pos;
        let b = self.byte()?;
        let ty = b & 0x0F;
        if ty == 0 {
            return Ok(None);
        }
        if ty > id::UUID {
            return Err(ThriftError::BadType { at, id: ty });
        }
        let id = match b >> 4 {
            0 => self.int()? as i16,
            delta => match last.checked_add(i16::from(delta)) {
                Some(id) => id,
                None => return self.invalid("the field id overflows i16"),
            },
        };
        Ok(Some((id, ty)))
    }

    /// A list or set header: its element type (a bool as [`id::BOOL_TRUE`]) and size.
    fn list(&mut self) -> Result<(u8, u32)> {
        let at = self.pos;
        let b = self.byte()?;
        if b == 0 {
            // Some writers give an empty list element type 0.
            return Ok((id::BYTE, 0));
        }
        let ty = element_type(b & 0x0F, at)?;
        let size = match b >> 4 {
            15 => self.varint()?,
            n => u64::from(n),
        };
        match u32::try_from(size).ok().filter(|&s| s <= i32::MAX as u32) {
            Some(size) => Ok((ty, size)),
            None => self.invalid("a list claims more than 2^31-1 elements"),
        }
    }

    fn map(&mut self) -> Result<Open> {
        let size = self.varint()?;
        if size > i32::MAX as u64 {
            return self.invalid("a map claims more than 2^31-1 entries");
        }
        if size == 0 {
            return Ok(Open::Map {
                key: id::BYTE,
                value: id::BYTE,
                left: 0,
            });
        }
        let at = self.pos;
        let kv = self.byte()?;
        Ok(Open::Map {
            key: element_type(kv >> 4, at)?,
            value: element_type(kv & 0x0F, at)?,
            left: size * 2,
        })
    }

    /// Counts `n` bools of a skipped container, no more in all than the bytes hold (a struct
    /// read from the bytes checks its own length after): the parquet crate skips them without
    /// reading, one loop iteration each.
    fn skip_bools(&mut self, n: u64) -> Result<()> {
        self.skipped_bools = self.skipped_bools.saturating_add(n);
        self.bools_fit(self.buf.len())
    }

    /// Whether the bools skipped so far fit in `len` bytes.
    fn bools_fit(&self, len: usize) -> Result<()> {
        if self.skipped_bools > len as u64 {
            return self.invalid("skipped containers claim more bools than the bytes hold");
        }
        Ok(())
    }

    /// An empty struct, as a union's variant without fields: its stop byte alone.
    fn empty_struct(&mut self) -> Result<()> {
        match self.byte()? {
            0 => Ok(()),
            _ => self.invalid("an empty struct has fields"),
        }
    }

    /// Skips a value of declared type `ty`, containers with an explicit stack.
    fn skip(&mut self, ty: u8) -> Result<()> {
        let mut open: Vec<Open> = Vec::new();
        let mut next = Some(ty);
        loop {
            if let Some(ty) = next.take() {
                if open.len() >= SKIP_DEPTH {
                    return Err(ThriftError::TooDeep(self.pos));
                }
                if let Some(container) = self.skip_scalar_or_open(ty)? {
                    open.push(container);
                }
            }
            let Some(top) = open.last_mut() else {
                return Ok(());
            };
            match top {
                Open::Struct => next = self.field(0)?.map(|(_, ty)| ty),
                Open::List { ty, left } => {
                    next = left.checked_sub(1).map(|l| {
                        *left = l;
                        *ty
                    });
                }
                Open::Map { key, value, left } => {
                    next = left.checked_sub(1).map(|l| {
                        *left = l;
                        if l % 2 == 1 { *key } else { *value }
                    });
                }
            }
            if next.is_none() {
                open.pop();
            }
        }
    }

    /// Skips a scalar of type `ty`, or reads a container's header and returns what is left of
    /// it (nothing for containers of bools, which take no bytes when skipped).
    fn skip_scalar_or_open(&mut self, ty: u8) -> Result<Option<Open>> {
        match ty {
            id::BOOL_TRUE | id::BOOL_FALSE => {}
            id::BYTE => {
                self.take(1)?;
            }
            id::I16 | id::I32 | id::I64 => {
                self.varint()?;
            }
            id::DOUBLE => {
                self.take(8)?;
            }
            id::BINARY => {
                self.binary()?;
            }
            id::UUID => {
                self.take(16)?;
            }
            id::LIST | id::SET => {
                let (ty, left) = self.list()?;
                if ty == id::BOOL_TRUE {
                    self.skip_bools(left.into())?;
                    return Ok(None);
                }
                return Ok(Some(Open::List { ty, left }));
            }
            id::MAP => {
                let map = self.map()?;
                if let Open::Map {
                    key: id::BOOL_TRUE,
                    value: id::BOOL_TRUE,
                    left,
                } = map
                {
                    self.skip_bools(left)?;
                    return Ok(None);
                }
                return Ok(Some(map));
            }
            id::STRUCT => return Ok(Some(Open::Struct)),
            _ => {
                return Err(ThriftError::BadType {
                    at: self.pos,
                    id: ty,
                });
            }
        }
        Ok(None)
    }
}

/// A list or map element type id, bools (1 or 2) as [`id::BOOL_TRUE`].
fn element_type(ty: u8, at: usize) -> Result<u8> {
    match ty {
        id::BOOL_TRUE | id::BOOL_FALSE => Ok(id::BOOL_TRUE),
        id::BYTE..=id::UUID => Ok(ty),
        _ => Err(ThriftError::BadType { at, id: ty }),
    }
}

/// Reads a struct to its stop, handing each field's id and declared type to `field`.
fn read_struct<'a>(
    c: &mut Cursor<'a>,
    mut field: impl FnMut(&mut Cursor<'a>, i16, u8) -> Result<()>,
) -> Result<()> {
    let mut last = 0;
    while let Some((id, ty)) = c.field(last)? {
        field(c, id, ty)?;
        last = id;
    }
    Ok(())
}

/// Reads a union: one field, handed to `variant`, then the stop.
fn read_union<'a>(
    c: &mut Cursor<'a>,
    variant: impl FnOnce(&mut Cursor<'a>, i16, u8) -> Result<()>,
) -> Result<()> {
    let Some((id, ty)) = c.field(0)? else {
        return c.invalid("an empty union");
    };
    variant(c, id, ty)?;
    match c.field(id)? {
        None => Ok(()),
        Some(_) => c.invalid("a union of several fields"),
    }
}

/// Reads a list whose every element `element` reads, whatever type its header declares.
fn read_list<'a>(
    c: &mut Cursor<'a>,
    mut element: impl FnMut(&mut Cursor<'a>) -> Result<()>,
) -> Result<()> {
    let (_, size) = c.list()?;
    (0..size).try_for_each(|_| element(c))
}

/// A bool field: its value is its declared type.
fn bool_field(c: &Cursor<'_>, ty: u8) -> Result<bool> {
    match ty {
        id::BOOL_TRUE => Ok(true),
        id::BOOL_FALSE => Ok(false),
        _ => c.invalid("a bool field of another type"),
    }
}

// ---------------------------------------------------------------------------------------------
// The footer: FileMetaData.

/// One element of the schema, as far as its shape goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SchemaElement<'a> {
    /// Its name's bytes.
    pub name: &'a [u8],
    /// Its `num_children` (field 5), if set.
    pub num_children: Option<i32>,
}

/// What a walk of the footer found.
#[derive(Debug)]
pub(crate) struct Footer<'a> {
    /// The schema the parquet crate builds (the first field 2, flattened depth-first), `None`
    /// if there is none; or why the walk stopped before the schema was whole.
    pub schema: Result<Option<Vec<SchemaElement<'a>>>>,
    /// The type id each column chunk's metadata gives (ColumnMetaData field 1), by row group;
    /// `None` if the walk stopped.
    pub chunk_types: Option<ChunkTypes>,
    /// The encoding ids column chunks' metadata names (in `encodings` and `encoding_stats`),
    /// those of one byte (every id of the spec's); empty if the walk stopped.
    pub encodings: Vec<EncodingAt>,
}

/// An encoding id of a footer and its offset there, one byte long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EncodingAt {
    pub at: usize,
    pub id: i32,
}

impl EncodingAt {
    /// Zigzag of `id` (below 64): the byte a footer holds for it.
    pub(crate) fn byte(id: i32) -> u8 {
        (id << 1) as u8
    }
}

/// Walks the footer's FileMetaData in `buf`.
pub(crate) fn walk_footer(buf: &[u8]) -> Footer<'_> {
    let mut schema = None;
    let mut chunk_types = None;
    let mut encodings = Vec::new();
    let walked = read_struct(&mut Cursor::new(buf), |c, field, ty| match field {
        1 | 3 => c.skip(id::I64),
        2 if schema.is_none() => {
            schema = Some(read_schema(c)?);
            Ok(())
        }
        // The parquet crate refuses row groups before the schema.
        4 if schema.is_none() => c.invalid("the row groups come before the schema"),
        4 => {
            let (types, found) = read_chunks(c)?;
            chunk_types = Some(types);
            encodings = found;
            Ok(())
        }
        5 => read_list(c, |c| {
            read_struct(c, |c, field, ty| match field {
                1 | 2 => c.skip(id::BINARY),
                _ => c.skip(ty),
            })
        }),
        6 => c.skip(id::BINARY),
        7 => read_list(c, |c| {
            read_union(c, |c, field, ty| match field {
                1..=3 => c.empty_struct(),
                _ => c.skip(ty),
            })
        }),
        _ => c.skip(ty),
    });
    match walked {
        Ok(()) => Footer {
            schema: Ok(schema),
            chunk_types,
            encodings,
        },
        Err(e) => Footer {
            schema: schema.map(Some).ok_or(e),
            chunk_types: None,
            encodings: Vec::new(),
        },
    }
}

fn read_schema<'a>(c: &mut Cursor<'a>) -> Result<Vec<SchemaElement<'a>>> {
    let mut elements = Vec::new();
    read_list(c, |c| {
        elements.push(schema_element(c)?);
        Ok(())
    })?;
    Ok(elements)
}

fn schema_element<'a>(c: &mut Cursor<'a>) -> Result<SchemaElement<'a>> {
    let mut element = SchemaElement {
        name: &[],
        num_children: None,
    };
    read_struct(c, |c, field, ty| match field {
        1 | 2 | 3 | 6..=9 => c.skip(id::I64),
        4 => {
            element.name = c.binary()?;
            Ok(())
        }
        5 => {
            element.num_children = Some(c.i32()?);
            Ok(())
        }
        10 => logical_type(c),
        _ => c.skip(ty),
    })?;
    Ok(element)
}

/// A LogicalType union and the structs of its variants.
fn logical_type(c: &mut Cursor<'_>) -> Result<()> {
    read_union(c, |c, variant, ty| match variant {
        1..=4 | 6 | 11..=15 | 19 => c.empty_struct(),
        // Decimal: scale, precision.
        5 => read_struct(c, |c, field, ty| match field {
            1 | 2 => c.skip(id::I64),
            _ => c.skip(ty),
        }),
        // Time, Timestamp: isAdjustedToUTC, unit.
        7 | 8 => read_struct(c, |c, field, ty| match field {
            1 => bool_field(c, ty).map(|_| ()),
            2 => read_union(c, |c, unit, ty| match unit {
                1..=3 => c.empty_struct(),
                _ => c.skip(ty),
            }),
            _ => c.skip(ty),
        }),
        // Integer: bitWidth (i8), isSigned.
        10 => read_struct(c, |c, field, ty| match field {
            1 => c.skip(id::BYTE),
            2 => bool_field(c, ty).map(|_| ()),
            _ => c.skip(ty),
        }),
        // Variant: specification_version (i8).
        16 => read_struct(c, |c, field, ty| match field {
            1 => c.skip(id::BYTE),
            _ => c.skip(ty),
        }),
        // Geometry: crs; Geography: crs, algorithm.
        17 | 18 => read_struct(c, |c, field, ty| match (variant, field) {
            (_, 1) => c.skip(id::BINARY),
            (18, 2) => c.skip(id::I64),
            _ => c.skip(ty),
        }),
        _ => c.skip(ty),
    })
}

/// Each row group's column chunks' type ids.
type ChunkTypes = Vec<Vec<Option<i32>>>;

/// The row groups' column chunks' own type ids; and the encoding ids their metadata names,
/// with their offsets.
fn read_chunks(c: &mut Cursor<'_>) -> Result<(ChunkTypes, Vec<EncodingAt>)> {
    let mut groups = Vec::new();
    let mut found = Vec::new();
    read_list(c, |c| {
        let mut types = Vec::new();
        read_struct(c, |c, field, ty| match field {
            1 => read_list(c, |c| {
                types.push(chunk(c, &mut found)?);
                Ok(())
            }),
            _ => c.skip(ty),
        })?;
        groups.push(types);
        Ok(())
    })?;
    Ok((groups, found))
}

/// A ColumnChunk's ColumnMetaData: its type; the encodings it names pushed to `found`.
fn chunk(c: &mut Cursor<'_>, found: &mut Vec<EncodingAt>) -> Result<Option<i32>> {
    let mut physical = None;
    read_struct(c, |c, field, ty| match field {
        3 => read_struct(c, |c, field, ty| match field {
            1 => {
                physical = Some(c.i32()?);
                Ok(())
            }
            // encodings: list<Encoding>.
            2 => encoding_list(c, found),
            // encoding_stats: list<PageEncodingStats>, each's encoding its field 2.
            13 => read_list(c, |c| {
                read_struct(c, |c, field, ty| match field {
                    2 => encoding(c, found),
                    _ => c.skip(ty),
                })
            }),
            _ => c.skip(ty),
        }),
        _ => c.skip(ty),
    })?;
    Ok(physical)
}

/// A list of encodings, skipped as declared unless of i32s (the parquet crate refuses others).
fn encoding_list(c: &mut Cursor<'_>, found: &mut Vec<EncodingAt>) -> Result<()> {
    let at = c.position();
    let (ty, size) = c.list()?;
    if ty != id::I32 {
        c.pos = at;
        return c.skip(id::LIST);
    }
    (0..size).try_for_each(|_| encoding(c, found))
}

/// An encoding id, pushed to `found` with its offset if it is one byte long.
fn encoding(c: &mut Cursor<'_>, found: &mut Vec<EncodingAt>) -> Result<()> {
    let at = c.position();
    let id = c.i32()?;
    if c.position() == at + 1 {
        found.push(EncodingAt { at, id });
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Page headers.

/// A page header: its sizes, counts and encodings (its statistics and CRC are skipped).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct PageHeader {
    /// The header's length in bytes.
    pub len: usize,
    /// Field 1: the page type id.
    pub page_type: Option<i32>,
    /// Field 2.
    pub uncompressed_size: Option<i32>,
    /// Field 3.
    pub compressed_size: Option<i32>,
    /// Field 5: the data page header, if there is one.
    pub data: Option<DataV1>,
    /// Field 7: the dictionary page header, if there is one.
    pub dictionary: Option<Dictionary>,
    /// Field 8: the data page header v2, if there is one.
    pub data_v2: Option<DataV2>,
}

/// A data page header (v1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct DataV1 {
    /// Field 1.
    pub num_values: Option<i32>,
    /// Fields 2, 3, 4: the values', the definition levels' and the repetition levels'
    /// encodings.
    pub encodings: [Option<i32>; 3],
}

/// A dictionary page header.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Dictionary {
    /// Field 1.
    pub num_values: Option<i32>,
    /// Field 2.
    pub encoding: Option<i32>,
}

/// A data page header v2's counts and encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DataV2 {
    /// Fields 1, 2, 3: `num_values`, `num_nulls`, `num_rows`.
    pub counts: [Option<i32>; 3],
    /// Field 4.
    pub encoding: Option<i32>,
    /// Fields 5, 6: the byte lengths of the definition and repetition levels.
    pub level_lens: [Option<i32>; 2],
    /// Field 7 (true when absent).
    pub is_compressed: bool,
}

/// Reads the page header at the start of `buf`.
pub(crate) fn page_header(buf: &[u8]) -> Result<PageHeader> {
    let mut c = Cursor::new(buf);
    let mut h = PageHeader::default();
    read_struct(&mut c, |c, field, ty| {
        match field {
            1 => h.page_type = Some(c.i32()?),
            2 => h.uncompressed_size = Some(c.i32()?),
            3 => h.compressed_size = Some(c.i32()?),
            4 => c.skip(id::I64)?,
            5 => h.data = Some(data_v1(c)?),
            6 => read_struct(c, |c, _, ty| c.skip(ty))?,
            7 => h.dictionary = Some(dictionary(c)?),
            8 => h.data_v2 = Some(data_v2(c)?),
            _ => c.skip(ty)?,
        }
        Ok(())
    })?;
    // The header's own bytes bound its bools, not the chunk's after it, so that the work
    // over all of a chunk's headers is bounded by the chunk's length.
    c.bools_fit(c.position())?;
    h.len = c.position();
    Ok(h)
}

/// A data page header (v1); its statistics skipped.
fn data_v1(c: &mut Cursor<'_>) -> Result<DataV1> {
    let mut h = DataV1::default();
    read_struct(c, |c, field, ty| {
        match field {
            1 => h.num_values = Some(c.i32()?),
            2..=4 => h.encodings[field as usize - 2] = Some(c.i32()?),
            _ => c.skip(ty)?,
        }
        Ok(())
    })?;
    Ok(h)
}

/// A dictionary page header; is_sorted checked for its type and dropped.
fn dictionary(c: &mut Cursor<'_>) -> Result<Dictionary> {
    let mut h = Dictionary::default();
    read_struct(c, |c, field, ty| match field {
        1 => {
            h.num_values = Some(c.i32()?);
            Ok(())
        }
        2 => {
            h.encoding = Some(c.i32()?);
            Ok(())
        }
        3 => bool_field(c, ty).map(|_| ()),
        _ => c.skip(ty),
    })?;
    Ok(h)
}

fn data_v2(c: &mut Cursor<'_>) -> Result<DataV2> {
    let mut v2 = DataV2 {
        counts: [None; 3],
        encoding: None,
        level_lens: [None; 2],
        is_compressed: true,
    };
    read_struct(c, |c, field, ty| {
        match field {
            1..=3 => v2.counts[field as usize - 1] = Some(c.i32()?),
            4 => v2.encoding = Some(c.i32()?),
            5 | 6 => v2.level_lens[field as usize - 5] = Some(c.i32()?),
            7 => v2.is_compressed = bool_field(c, ty)?,
            _ => c.skip(ty)?,
        }
        Ok(())
    })?;
    Ok(v2)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small compact-protocol writer for the tests.
    #[derive(Default)]
    struct W {
        out: Vec<u8>,
        last: Vec<i16>,
    }

    impl W {
        fn varint(&mut self, v: u64) {
            self.out.extend(pqcodec_testkit::uleb(v));
        }
        fn header(&mut self, field: i16, ty: u8) {
            let last = self.last.last_mut().unwrap();
            self.out.push((((field - *last) as u8) << 4) | ty);
            *last = field;
        }
        fn i32(&mut self, field: i16, v: i32) -> &mut Self {
            self.header(field, id::I32);
            self.varint(pqcodec_testkit::zigzag(v.into()));
            self
        }
        fn binary(&mut self, field: i16, b: &[u8]) -> &mut Self {
            self.header(field, id::BINARY);
            self.varint(b.len() as u64);
            self.out.extend_from_slice(b);
            self
        }
        fn begin(&mut self) -> &mut Self {
            self.last.push(0);
            self
        }
        fn end(&mut self) -> &mut Self {
            self.out.push(0);
            self.last.pop();
            self
        }
    }

    /// A footer whose schema is a root and `groups` nested groups of one child, the last a leaf.
    pub(crate) fn nested_footer(groups: usize) -> Vec<u8> {
        let mut w = W::default();
        w.begin().i32(1, 1);
        w.header(2, id::LIST);
        w.out.push(0xF0 | id::STRUCT);
        w.varint(groups as u64 + 2);
        for i in 0..=groups {
            w.begin()
                .binary(4, format!("g{i}").as_bytes())
                .i32(5, 1)
                .end();
        }
        w.begin().i32(1, 1).i32(3, 0).binary(4, b"a").end();
        w.end();
        w.out
    }

    #[test]
    fn a_deep_schema_is_walked_without_recursion() {
        let buf = nested_footer(100_000);
        let schema = walk_footer(&buf).schema.unwrap().unwrap();
        assert_eq!(schema.len(), 100_002);
        assert_eq!(schema[0].num_children, Some(1));
        assert_eq!(schema[100_001].name, b"a");
        assert_eq!(schema[100_001].num_children, None);
    }

    #[test]
    fn a_truncated_footer_stops_the_walk() {
        let buf = nested_footer(3);
        for cut in 0..buf.len() - 1 {
            let footer = walk_footer(&buf[..cut]);
            assert!(
                matches!(footer.schema, Err(ThriftError::Truncated(n)) if n == cut),
                "{cut}: {:?}",
                footer.schema
            );
        }
    }

    #[test]
    fn bad_type_ids_and_deep_unknown_fields_are_errors() {
        // Field 1 of type 14.
        let footer = walk_footer(&[0x1E]);
        assert_eq!(footer.schema, Err(ThriftError::BadType { at: 0, id: 14 }));
        // An unknown field 20 holding structs nested 100 deep.
        let mut buf = vec![0x0C, 40];
        buf.extend([0x1C; 100]);
        buf.extend([0; 102]);
        assert_eq!(walk_footer(&buf).schema, Err(ThriftError::TooDeep(2 + 64)));
        // 63 deep is skipped.
        let mut buf = vec![0x0C, 40];
        buf.extend([0x1C; 62]);
        buf.extend([0; 64]);
        assert_eq!(walk_footer(&buf).schema, Ok(None));
    }

    #[test]
    fn skipped_containers_of_bools_take_no_bytes_but_no_more_bools_than_the_bytes_hold() {
        // Field 20: a list of 2 bools, then field 21: a map of 2 bool pairs; then the stop.
        let mut buf = vec![0x09, 40, 0x21, 0x1B, 0x02, 0x11, 0];
        assert_eq!(walk_footer(&buf).schema, Ok(None));
        // Another map, of 3 pairs: 12 bools in all in 10 bytes.
        buf.splice(6..6, [0x1B, 0x03, 0x11]);
        let at = 9;
        let what = "skipped containers claim more bools than the bytes hold";
        assert_eq!(
            walk_footer(&buf).schema,
            Err(ThriftError::Invalid { at, what })
        );
        // A list of 2^31-1 bools, which the parquet crate would take seconds to skip.
        let buf = [0x09, 40, 0xF1, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0];
        assert_eq!(
            walk_footer(&buf).schema,
            Err(ThriftError::Invalid { at: 8, what })
        );
    }

    #[test]
    fn the_footers_and_page_headers_of_real_files_are_walked() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data");
        let mut walked = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "parquet") {
                continue;
            }
            let file = bytes::Bytes::from(std::fs::read(&path).unwrap());
            let n = file.len();
            let len = u32::from_le_bytes(file[n - 8..n - 4].try_into().unwrap()) as usize;
            let footer = walk_footer(&file[n - 8 - len..n - 8]);
            let schema = footer.schema.unwrap().unwrap();
            let meta = parquet::file::metadata::ParquetMetaDataReader::new()
                .parse_and_finish(&file)
                .unwrap();
            let descr = meta.file_metadata().schema_descr();
            let leaves = schema[1..]
                .iter()
                .filter(|e| e.num_children.is_none_or(|n| n == 0))
                .count();
            assert_eq!(leaves, descr.num_columns(), "{path:?}");
            let types = footer.chunk_types.unwrap();
            for (g, group) in meta.row_groups().iter().enumerate() {
                for (c, chunk) in group.columns().iter().enumerate() {
                    assert_eq!(types[g][c], Some(chunk.column_type() as i32), "{path:?}");
                    // The chunk's page headers and bodies fill it exactly.
                    let (start, size) = chunk.byte_range();
                    let bytes = &file[start as usize..(start + size) as usize];
                    let mut at = 0;
                    while at < bytes.len() {
                        let h = page_header(&bytes[at..]).unwrap();
                        at += h.len + h.compressed_size.unwrap() as usize;
                    }
                    assert_eq!(at, bytes.len(), "{path:?}");
                }
            }
            walked += 1;
        }
        assert!(walked >= 50);
    }

    #[test]
    fn page_headers_give_their_sizes_and_counts() {
        let mut w = W::default();
        w.begin().i32(1, 3).i32(2, 20).i32(3, 14);
        w.header(8, id::STRUCT);
        w.begin()
            .i32(1, 5)
            .i32(2, 1)
            .i32(3, 5)
            .i32(4, 0)
            .i32(5, 2)
            .i32(6, 0);
        w.header(7, id::BOOL_FALSE);
        w.end().end();
        w.out.extend([0xAA; 14]);
        let h = page_header(&w.out).unwrap();
        assert_eq!(h.len, w.out.len() - 14);
        assert_eq!(
            (h.page_type, h.uncompressed_size, h.compressed_size),
            (Some(3), Some(20), Some(14))
        );
        let v2 = h.data_v2.unwrap();
        assert_eq!(v2.counts, [Some(5), Some(1), Some(5)]);
        assert_eq!(v2.encoding, Some(0));
        assert_eq!(v2.level_lens, [Some(2), Some(0)]);
        assert!(!v2.is_compressed);
        assert_eq!(
            page_header(&[0xFF; 16]),
            Err(ThriftError::BadType { at: 0, id: 15 })
        );
    }

    #[test]
    fn a_page_headers_skipped_bools_fit_in_the_header_not_the_chunk_after_it() {
        // Field 20: a list of 5 bools; the stop. 4 bytes, then 100 of the chunk.
        let mut buf = vec![0x09, 40, 0x51, 0];
        buf.extend([0; 100]);
        let what = "skipped containers claim more bools than the bytes hold";
        assert_eq!(page_header(&buf), Err(ThriftError::Invalid { at: 4, what }));
        buf[2] = 0x41;
        assert_eq!(page_header(&buf).unwrap().len, 4);
    }
}
