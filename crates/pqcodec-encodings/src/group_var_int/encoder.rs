//! The GROUP_VAR_INT encoder.

use std::marker::PhantomData;

use pqcodec_core::{Encoder, Integer, IntegerNative, Result};

use super::{Layout, MAX_GROUP, WINDOW, byte_len};

/// A GROUP_VAR_INT encoder of INT32 or INT64 values.
///
/// Each value takes as few bytes as its bits need (at least one); an incomplete last group is
/// padded with zeros when the page is flushed.
#[derive(Debug, Clone)]
pub struct GroupVarIntEncoder<T: Integer> {
    buf: Vec<u8>,
    /// Bits of the values of the group being filled.
    pending: [u64; MAX_GROUP],
    filled: usize,
    num_values: usize,
    _type: PhantomData<T>,
}

impl<T: Integer> GroupVarIntEncoder<T> {
    const LAYOUT: Layout = Layout::of::<T::Int>();

    /// An empty encoder.
    pub fn new() -> Self {
        GroupVarIntEncoder {
            buf: Vec::new(),
            pending: [0; MAX_GROUP],
            filled: 0,
            num_values: 0,
            _type: PhantomData,
        }
    }
}

impl<T: Integer> Default for GroupVarIntEncoder<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Appends the group of `values` (`layout.values` of them) to `buf`: each value is written as
/// a whole 8-byte word, overlapped by the next, into room set aside at the end of `buf`, which
/// is then cut back to the group's length.
#[inline]
fn write_group(layout: Layout, values: &[u64], buf: &mut Vec<u8>) {
    let mut lens = [0usize; MAX_GROUP];
    for (len, &v) in lens.iter_mut().zip(values) {
        *len = byte_len(v);
    }
    let lens = lens.get(..values.len()).unwrap_or_default();
    let header = layout.header_bytes(lens);
    let start = buf.len();
    buf.resize(start + WINDOW, 0);
    let mut at = layout.header;
    if let Some(group) = buf
        .get_mut(start..)
        .and_then(|g| g.first_chunk_mut::<WINDOW>())
    {
        for (g, &h) in group.iter_mut().zip(&header[..layout.header]) {
            *g = h;
        }
        for (&v, &len) in values.iter().zip(lens) {
            if let Some(word) = group.get_mut(at..).and_then(|g| g.first_chunk_mut::<8>()) {
                *word = v.to_le_bytes();
            }
            at += len;
        }
    }
    // A word's bytes past its value's length are zero, and the next word or the cut covers
    // them.
    buf.truncate(start + at);
}

impl<T: Integer> Encoder<T> for GroupVarIntEncoder<T> {
    fn put<'v, I>(&mut self, values: I) -> Result<()>
    where
        I: IntoIterator<Item = &'v T::Value>,
        T::Value: 'v,
    {
        let g = Self::LAYOUT.values;
        let values = values.into_iter();
        let groups = values.size_hint().0 / g;
        self.buf
            .reserve(groups.saturating_mul(Self::LAYOUT.min_group_bytes()));
        // Counters in locals: kept in registers, not stored back every value.
        let mut pending = self.pending;
        let mut filled = self.filled;
        let mut count = 0;
        for v in values {
            if let Some(slot) = pending.get_mut(filled) {
                *slot = v.to_u64_bits();
            }
            filled += 1;
            count += 1;
            if filled == g {
                write_group(Self::LAYOUT, &pending[..g], &mut self.buf);
                filled = 0;
            }
        }
        self.pending = pending;
        self.filled = filled;
        self.num_values += count;
        Ok(())
    }

    fn num_values(&self) -> usize {
        self.num_values
    }

    fn estimated_size(&self) -> usize {
        if self.filled == 0 {
            return self.buf.len();
        }
        let pending: usize = self.pending[..self.filled]
            .iter()
            .map(|&v| byte_len(v))
            .sum();
        self.buf.len() + Self::LAYOUT.header + pending + (Self::LAYOUT.values - self.filled)
    }

    fn flush_into(&mut self, out: &mut Vec<u8>) -> Result<()> {
        if self.filled > 0 {
            let g = Self::LAYOUT.values;
            self.pending[self.filled..g].fill(0);
            write_group(Self::LAYOUT, &self.pending[..g], &mut self.buf);
            self.filled = 0;
        }
        out.extend_from_slice(&self.buf);
        self.buf.clear();
        self.num_values = 0;
        Ok(())
    }
}
