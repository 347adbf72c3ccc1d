//! Thrift's compact protocol, read without recursion: the cursor the footer's and the page
//! headers' readers (`footer_in`, `page_header_in`) stand on.
//!
//! Known fields are read by the type they are meant to have, whatever type their header
//! declares (as the parquet crate reads them). Other fields are skipped by their declared type
//! with an explicit stack, at most [`SKIP_DEPTH`] containers deep (the parquet crate's limit).
//! Bools in a skipped container take no bytes (Thrift writes each in a byte, but a reader that
//! skips them loops over each): skipped containers may hold no more bools in all than the
//! bytes walked, so that the work is bounded by the bytes.

/// Compact-protocol type ids (field headers and list headers).
pub(super) mod id {
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
    /// A value the struct does not allow (an enum value it does not name, a required field
    /// missing), or a whole struct the parquet crate's builders refused.
    #[error("{0}")]
    Value(String),
}

pub(super) type Result<T, E = ThriftError> = std::result::Result<T, E>;

/// A position in compact-protocol bytes.
pub(super) struct Cursor<'a> {
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
    pub(super) fn new(buf: &'a [u8]) -> Self {
        Cursor {
            buf,
            pos: 0,
            skipped_bools: 0,
        }
    }

    /// Bytes read so far.
    pub(super) fn position(&self) -> usize {
        self.pos
    }

    /// The buffer's length.
    pub(super) fn len(&self) -> usize {
        self.buf.len()
    }

    pub(super) fn invalid<T>(&self, what: &'static str) -> Result<T> {
        Err(ThriftError::Invalid { at: self.pos, what })
    }

    pub(super) fn byte(&mut self) -> Result<u8> {
        let b = *self
            .buf
            .get(self.pos)
            .ok_or(ThriftError::Truncated(self.buf.len()))?;
        self.pos += 1;
        Ok(b)
    }

    pub(super) fn take(&mut self, n: u64) -> Result<&'a [u8]> {
        let rest = &self.buf[self.pos..];
        let n = usize::try_from(n)
            .ok()
            .filter(|&n| n <= rest.len())
            .ok_or(ThriftError::Truncated(self.buf.len()))?;
        self.pos += n;
        Ok(&rest[..n])
    }

    /// An unsigned LEB128 varint; bits past 64 wrap around into the low bits, as the parquet
    /// crate reads them.
    pub(super) fn varint(&mut self) -> Result<u64> {
        let rest = &self.buf[self.pos..];
        let mut value = 0u64;
        let mut shift = 0u32;
        for (i, &b) in rest.iter().enumerate() {
            value |= u64::from(b & 0x7F).wrapping_shl(shift);
            if b & 0x80 == 0 {
                self.pos += i + 1;
                return Ok(value);
            }
            shift = shift.wrapping_add(7);
        }
        Err(ThriftError::Truncated(self.buf.len()))
    }

    /// A zigzag varint: i16, i32, i64 and enums.
    pub(super) fn int(&mut self) -> Result<i64> {
        let v = self.varint()?;
        Ok((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    /// An i32, truncated from the varint as the parquet crate does.
    pub(super) fn i32(&mut self) -> Result<i32> {
        Ok(self.int()? as i32)
    }

    pub(super) fn binary(&mut self) -> Result<&'a [u8]> {
        let len = self.varint()?;
        self.take(len)
    }

    /// A field header after field `last`: its id and declared type, or `None` at the stop.
    pub(super) fn field(&mut self, last: i16) -> Result<Option<(i16, u8)>> {
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
    pub(super) fn list(&mut self) -> Result<(u8, u32)> {
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
    pub(super) fn bools_fit(&self, len: usize) -> Result<()> {
        if self.skipped_bools > len as u64 {
            return self.invalid("skipped containers claim more bools than the bytes hold");
        }
        Ok(())
    }

    /// An empty struct, as a union's variant without fields: its stop byte alone.
    pub(super) fn empty_struct(&mut self) -> Result<()> {
        match self.byte()? {
            0 => Ok(()),
            _ => self.invalid("an empty struct has fields"),
        }
    }

    /// Skips a value of declared type `ty`, containers with an explicit stack.
    pub(super) fn skip(&mut self, ty: u8) -> Result<()> {
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
pub(super) fn read_struct<'a>(
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
pub(super) fn read_union<'a>(
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
pub(super) fn read_list<'a>(
    c: &mut Cursor<'a>,
    mut element: impl FnMut(&mut Cursor<'a>) -> Result<()>,
) -> Result<()> {
    let (_, size) = c.list()?;
    (0..size).try_for_each(|_| element(c))
}

/// A bool field: its value is its declared type.
pub(super) fn bool_field(c: &Cursor<'_>, ty: u8) -> Result<bool> {
    match ty {
        id::BOOL_TRUE => Ok(true),
        id::BOOL_FALSE => Ok(false),
        _ => c.invalid("a bool field of another type"),
    }
}
