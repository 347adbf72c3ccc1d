//! The GROUP_VAR_INT encoder.

use std::marker::PhantomData;

use pqcodec_core::{Encoder, Integer, IntegerNative, Result};

use super::{Layout, MAX_GROUP, byte_len};

/// A GROUP_VAR_INT encoder of INT32 or INT64 values.
///
/// Each value takes as few bytes as its bits need (at least one); an incomplete last group is
/// padded with zeros when the page is flushed.
#[derive(Debug, Clone)]
pub struct GroupVarIntEncoder<T: Integer> {
    buf: Vec<u8>,
    layout: Layout,
    /// Bits of the values of the group being filled.
    pending: [u64; MAX_GROUP],
    filled: usize,
    num_values: usize,
    _type: PhantomData<T>,
}

impl<T: Integer> GroupVarIntEncoder<T> {
    /// An empty encoder.
    pub fn new() -> Self {
        GroupVarIntEncoder {
            buf: Vec::new(),
            layout: Layout::of::<T::Int>(),
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

/// Appends the group of `values` (`layout.values` of them) to `buf`.
fn write_group(layout: Layout, values: &[u64], buf: &mut Vec<u8>) {
    let mut lens = [0usize; MAX_GROUP];
    for (len, &v) in lens.iter_mut().zip(values) {
        *len = byte_len(v);
    }
    let lens = &lens[..values.len()];
    let header = layout.header_bytes(lens);
    buf.extend_from_slice(&header[..layout.header]);
    for (&v, &len) in values.iter().zip(lens) {
        buf.extend_from_slice(&v.to_le_bytes()[..len]);
    }
}

impl<T: Integer> Encoder<T> for GroupVarIntEncoder<T> {
    fn put<'v, I>(&mut self, values: I) -> Result<()>
    where
        I: IntoIterator<Item = &'v T::Value>,
        T::Value: 'v,
    {
        let g = self.layout.values;
        let values = values.into_iter();
        let groups = values.size_hint().0 / g;
        self.buf
            .reserve(groups.saturating_mul(self.layout.min_group_bytes()));
        for v in values {
            self.pending[self.filled] = v.to_u64_bits();
            self.filled += 1;
            self.num_values += 1;
            if self.filled == g {
                write_group(self.layout, &self.pending[..g], &mut self.buf);
                self.filled = 0;
            }
        }
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
        self.buf.len() + self.layout.header + pending + (self.layout.values - self.filled)
    }

    fn flush_into(&mut self, out: &mut Vec<u8>) -> Result<()> {
        if self.filled > 0 {
            let g = self.layout.values;
            self.pending[self.filled..g].fill(0);
            write_group(self.layout, &self.pending[..g], &mut self.buf);
            self.filled = 0;
        }
        out.extend_from_slice(&self.buf);
        self.buf.clear();
        self.num_values = 0;
        Ok(())
    }
}
