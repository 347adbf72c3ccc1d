//! Thrift's compact protocol, written: the structs of page headers, the footer and the page
//! index. Fields are written in increasing id order; lists give their length first.

/// Compact-protocol type ids, as field types and as list element types (a boolean field's
/// type is its value, a list's booleans are [`BOOL`]).
pub(crate) const TRUE: u8 = 1;
pub(crate) const FALSE: u8 = 2;
pub(crate) const BOOL: u8 = 2;
pub(crate) const BYTE: u8 = 3;
pub(crate) const I16: u8 = 4;
pub(crate) const I32: u8 = 5;
pub(crate) const I64: u8 = 6;
pub(crate) const BINARY: u8 = 8;
pub(crate) const LIST: u8 = 9;
pub(crate) const STRUCT: u8 = 12;

/// A Thrift struct being appended to a buffer, and the structs it is nested in: each
/// `begin` (a struct field) or `element` (a struct in a list) opens one, each `end` closes it.
pub(crate) struct ThriftOut<'a> {
    out: &'a mut Vec<u8>,
    /// The last field id written in each open struct.
    last: Vec<i16>,
}

impl<'a> ThriftOut<'a> {
    /// A struct written to the end of `out`; [`end`](Self::end) closes it.
    pub(crate) fn new(out: &'a mut Vec<u8>) -> Self {
        ThriftOut { out, last: vec![0] }
    }

    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.out.push(v as u8 | 0x80);
            v >>= 7;
        }
        self.out.push(v as u8);
    }

    fn zigzag(&mut self, v: i64) {
        self.varint(((v << 1) ^ (v >> 63)) as u64);
    }

    fn header(&mut self, id: i16, ty: u8) {
        let last = self.last.last_mut().expect("a struct is open");
        debug_assert!(id > *last, "fields in increasing order");
        let delta = id - std::mem::replace(last, id);
        match delta {
            1..=15 => self.out.push((delta as u8) << 4 | ty),
            _ => {
                self.out.push(ty);
                self.zigzag(id.into());
            }
        }
    }

    pub(crate) fn i8(&mut self, id: i16, v: i8) -> &mut Self {
        self.header(id, BYTE);
        self.out.push(v as u8);
        self
    }

    pub(crate) fn i16(&mut self, id: i16, v: i16) -> &mut Self {
        self.header(id, I16);
        self.zigzag(v.into());
        self
    }

    pub(crate) fn i32(&mut self, id: i16, v: i32) -> &mut Self {
        self.header(id, I32);
        self.zigzag(v.into());
        self
    }

    pub(crate) fn i64(&mut self, id: i16, v: i64) -> &mut Self {
        self.header(id, I64);
        self.zigzag(v);
        self
    }

    pub(crate) fn bool(&mut self, id: i16, v: bool) -> &mut Self {
        self.header(id, if v { TRUE } else { FALSE });
        self
    }

    pub(crate) fn binary(&mut self, id: i16, v: &[u8]) -> &mut Self {
        self.header(id, BINARY);
        self.bytes(v);
        self
    }

    /// Opens a struct field; [`end`](Self::end) closes it.
    pub(crate) fn begin(&mut self, id: i16) -> &mut Self {
        self.header(id, STRUCT);
        self.last.push(0);
        self
    }

    /// Closes the struct opened last.
    pub(crate) fn end(&mut self) -> &mut Self {
        self.out.push(0);
        self.last.pop();
        self
    }

    /// Starts a list field of `len` elements of type `ty`, each written next by the element
    /// methods (`elem_*`, or [`element`](Self::element) for a struct).
    pub(crate) fn list(&mut self, id: i16, ty: u8, len: usize) -> &mut Self {
        self.header(id, LIST);
        match len {
            0..15 => self.out.push((len as u8) << 4 | ty),
            _ => {
                self.out.push(0xF0 | ty);
                self.varint(len as u64);
            }
        }
        self
    }

    pub(crate) fn elem_i32(&mut self, v: i32) -> &mut Self {
        self.zigzag(v.into());
        self
    }

    pub(crate) fn elem_i64(&mut self, v: i64) -> &mut Self {
        self.zigzag(v);
        self
    }

    pub(crate) fn elem_bool(&mut self, v: bool) -> &mut Self {
        self.out.push(if v { TRUE } else { FALSE });
        self
    }

    pub(crate) fn elem_binary(&mut self, v: &[u8]) -> &mut Self {
        self.bytes(v);
        self
    }

    /// Opens a struct that is a list's element; [`end`](Self::end) closes it.
    pub(crate) fn element(&mut self) -> &mut Self {
        self.last.push(0);
        self
    }

    fn bytes(&mut self, v: &[u8]) {
        self.varint(v.len() as u64);
        self.out.extend_from_slice(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_far_apart_take_the_long_form() {
        let mut out = Vec::new();
        let mut w = ThriftOut::new(&mut out);
        w.i32(1, -1).i64(17, 300).bool(18, true).end();
        // delta 1, I32, zigzag(-1) = 1; long form: type, zigzag(17) = 34; delta 1, TRUE; stop.
        assert_eq!(out, [0x15, 0x01, I64, 34, 0xD8, 0x04, 0x11, 0]);
    }

    #[test]
    fn lists_of_fifteen_or_more_give_their_length_apart() {
        let mut out = Vec::new();
        let mut w = ThriftOut::new(&mut out);
        w.list(1, I32, 2).elem_i32(1).elem_i32(-2);
        w.list(2, BOOL, 15);
        for _ in 0..15 {
            w.elem_bool(false);
        }
        w.end();
        let mut want = vec![0x19, 0x25, 2, 3, 0x19, 0xF2, 15];
        want.extend([FALSE; 15]);
        want.push(0);
        assert_eq!(out, want);
    }
}
