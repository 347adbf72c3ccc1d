//! A Thrift compact-protocol writer.

use pqcodec_testkit::zigzag;

pub(super) const T_TRUE: u8 = 1;
pub(super) const T_FALSE: u8 = 2;
pub(super) const T_I32: u8 = 5;
pub(super) const T_I64: u8 = 6;
pub(super) const T_BINARY: u8 = 8;
pub(super) const T_LIST: u8 = 9;
pub(super) const T_STRUCT: u8 = 12;

pub(super) fn varint(out: &mut Vec<u8>, v: u64) {
    out.extend(pqcodec_testkit::uleb(v));
}

/// Writes one struct's fields; nested structs are written by closures.
pub(super) struct Thrift {
    pub(super) out: Vec<u8>,
    pub(super) last: Vec<i16>,
}

impl Thrift {
    pub(super) fn new() -> Self {
        Thrift {
            out: Vec::new(),
            last: vec![0],
        }
    }

    pub(super) fn header(&mut self, id: i16, ty: u8) {
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

    pub(super) fn i32(&mut self, id: i16, v: i32) -> &mut Self {
        self.header(id, T_I32);
        varint(&mut self.out, zigzag(i64::from(v)));
        self
    }

    pub(super) fn opt_i32(&mut self, id: i16, v: Option<i32>) -> &mut Self {
        if let Some(v) = v {
            self.i32(id, v);
        }
        self
    }

    pub(super) fn i64(&mut self, id: i16, v: i64) -> &mut Self {
        self.header(id, T_I64);
        varint(&mut self.out, zigzag(v));
        self
    }

    pub(super) fn bool(&mut self, id: i16, v: bool) -> &mut Self {
        self.header(id, if v { T_TRUE } else { T_FALSE });
        self
    }

    pub(super) fn binary(&mut self, id: i16, b: &[u8]) -> &mut Self {
        self.header(id, T_BINARY);
        varint(&mut self.out, b.len() as u64);
        self.out.extend_from_slice(b);
        self
    }

    pub(super) fn list_header(&mut self, len: usize, ty: u8) {
        if len < 15 {
            self.out.push(((len as u8) << 4) | ty);
        } else {
            self.out.push(0xF0 | ty);
            varint(&mut self.out, len as u64);
        }
    }

    pub(super) fn strukt(&mut self, id: i16, f: impl FnOnce(&mut Thrift)) -> &mut Self {
        self.header(id, T_STRUCT);
        self.last.push(0);
        f(self);
        self.out.push(0);
        self.last.pop();
        self
    }

    /// A list of `len` structs, the `i`-th written by `f(self, i)`.
    pub(super) fn list_structs(
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

    pub(super) fn list_i32(&mut self, id: i16, values: &[i32]) -> &mut Self {
        self.header(id, T_LIST);
        self.list_header(values.len(), T_I32);
        for &v in values {
            varint(&mut self.out, zigzag(i64::from(v)));
        }
        self
    }

    pub(super) fn list_binary(&mut self, id: i16, values: &[&str]) -> &mut Self {
        self.header(id, T_LIST);
        self.list_header(values.len(), T_BINARY);
        for v in values {
            varint(&mut self.out, v.len() as u64);
            self.out.extend_from_slice(v.as_bytes());
        }
        self
    }

    /// The top-level struct's bytes, with its stop byte.
    pub(super) fn finish(&mut self) -> Vec<u8> {
        let mut out = std::mem::take(&mut self.out);
        out.push(0);
        out
    }
}
