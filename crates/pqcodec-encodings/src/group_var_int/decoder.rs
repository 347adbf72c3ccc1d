//! The GROUP_VAR_INT decoder.

use std::marker::PhantomData;

use pqcodec_core::{Decoder, Encoding, Error, Integer, IntegerNative, Result, Sink};

use super::{Layout, MAX_GROUP};

/// Groups decoded per stack chunk before their values reach the sink as one slice.
const CHUNK_GROUPS: usize = 64;

/// A streaming GROUP_VAR_INT decoder of one page's INT32 or INT64 values.
///
/// Whole groups are decoded a stack chunk at a time and handed over as slices; a group that a
/// batch ends inside is kept and finished by the next read. Skipping walks the groups' lengths
/// without decoding values (except those of a group the skip ends inside).
#[derive(Debug, Clone)]
pub struct GroupVarIntDecoder<'a, T: Integer> {
    data: &'a [u8],
    /// Offset of the next group not yet decoded.
    pos: usize,
    remaining: usize,
    layout: Layout,
    /// The last group decoded, of which `group[group_pos..group_end]` are still to be read.
    group: [T::Int; MAX_GROUP],
    group_pos: usize,
    group_end: usize,
    _type: PhantomData<T>,
}

impl<'a, T: Integer> GroupVarIntDecoder<'a, T> {
    /// A decoder of the first `num_values` values of `data`.
    ///
    /// Fails with [`Error::CountTooLarge`] if `data` cannot hold the groups of `num_values`
    /// values even at one byte a value; a group whose lengths run past the data is
    /// [`Error::Truncated`] when it is read.
    pub fn new(data: &'a [u8], num_values: usize) -> Result<Self> {
        let layout = Layout::of::<T::Int>();
        let groups = num_values.div_ceil(layout.values);
        let fits = groups
            .checked_mul(layout.min_group_bytes())
            .is_some_and(|bytes| bytes <= data.len());
        if !fits {
            return Err(Error::CountTooLarge {
                encoding: Encoding::GroupVarInt,
                field: "num_values",
                count: num_values as u64,
                capacity: (data.len() / layout.min_group_bytes() * layout.values) as u64,
            });
        }
        Ok(GroupVarIntDecoder {
            data,
            pos: 0,
            remaining: num_values,
            layout,
            group: [T::Int::default(); MAX_GROUP],
            group_pos: 0,
            group_end: 0,
            _type: PhantomData,
        })
    }

    /// Checks the group at `self.pos` and returns its value lengths and the offset of its
    /// first value byte and past its end.
    #[inline]
    fn group_at(&self) -> Result<([usize; MAX_GROUP], usize, usize)> {
        let rest = self.data.get(self.pos..).unwrap_or_default();
        let Some(header) = rest.get(..self.layout.header) else {
            return Err(Error::truncated(
                Encoding::GroupVarInt,
                "group lengths",
                self.layout.header,
                rest.len(),
            ));
        };
        let lens = self.layout.lengths(header);
        let total = self.layout.header + lens.iter().sum::<usize>();
        if total > rest.len() {
            return Err(Error::truncated(
                Encoding::GroupVarInt,
                "group values",
                total,
                rest.len(),
            ));
        }
        Ok((lens, self.pos + self.layout.header, self.pos + total))
    }

    /// Decodes the group at `self.pos` into `out` (`layout.values` long) and moves past it.
    #[inline]
    fn decode_group(&mut self, out: &mut [T::Int]) -> Result<()> {
        let (lens, mut at, end) = self.group_at()?;
        for (value, &len) in out.iter_mut().zip(&lens) {
            *value = T::Int::from_u64_bits(load(self.data, at, len));
            at += len;
        }
        self.pos = end;
        Ok(())
    }

    /// Decodes the group at `self.pos` into `self.group`, to be read from its start.
    fn buffer_group(&mut self) -> Result<()> {
        let mut group = self.group;
        self.decode_group(&mut group[..self.layout.values])?;
        self.group = group;
        self.group_pos = 0;
        self.group_end = self.layout.values;
        Ok(())
    }

    /// Appends up to `n` buffered values to `out`; returns how many.
    fn drain_buffered<S: Sink<T::Int> + ?Sized>(&mut self, out: &mut S, n: usize) -> usize {
        let take = (self.group_end - self.group_pos).min(n);
        if take > 0 {
            out.extend_from_slice(&self.group[self.group_pos..self.group_pos + take]);
            self.group_pos += take;
        }
        take
    }

    /// Reads `n` (at most `remaining`) values, counting those appended in `done`.
    fn read_n<S: Sink<T::Int> + ?Sized>(
        &mut self,
        out: &mut S,
        n: usize,
        done: &mut usize,
    ) -> Result<()> {
        let g = self.layout.values;
        *done += self.drain_buffered(out, n);
        let mut buf = [T::Int::default(); CHUNK_GROUPS * MAX_GROUP];
        while n - *done >= g {
            let groups = ((n - *done) / g).min(CHUNK_GROUPS);
            let mut filled = 0;
            let mut result = Ok(());
            for chunk in buf.chunks_exact_mut(g).take(groups) {
                result = self.decode_group(chunk);
                if result.is_err() {
                    break;
                }
                filled += g;
            }
            out.extend_from_slice(&buf[..filled]);
            *done += filled;
            result?;
        }
        if n > *done {
            self.buffer_group()?;
            *done += self.drain_buffered(out, n - *done);
        }
        Ok(())
    }
}

/// The `len` (1 to 8) bytes at `at` as a little-endian integer; `at + len` is within `data`.
#[inline(always)]
fn load(data: &[u8], at: usize, len: usize) -> u64 {
    let mask = u64::MAX >> (64 - 8 * len.clamp(1, 8));
    match data.get(at..).and_then(|rest| rest.first_chunk::<8>()) {
        Some(word) => u64::from_le_bytes(*word) & mask,
        None => {
            let mut word = [0u8; 8];
            let bytes = data.get(at..).unwrap_or_default();
            for (w, &b) in word.iter_mut().zip(bytes) {
                *w = b;
            }
            u64::from_le_bytes(word) & mask
        }
    }
}

impl<T: Integer> Decoder<T> for GroupVarIntDecoder<'_, T> {
    fn remaining(&self) -> usize {
        self.remaining
    }

    fn read<S: Sink<T::Int> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize> {
        let n = max.min(self.remaining);
        if n == 0 {
            return Ok(0);
        }
        out.reserve(n);
        let mut done = 0;
        let result = self.read_n(out, n, &mut done);
        self.remaining -= done;
        result.map(|()| n)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        let n = n.min(self.remaining);
        let g = self.layout.values;
        let buffered = (self.group_end - self.group_pos).min(n);
        self.group_pos += buffered;
        self.remaining -= buffered;
        let mut left = n - buffered;
        while left >= g {
            let (_, _, end) = self.group_at()?;
            self.pos = end;
            self.remaining -= g;
            left -= g;
        }
        if left > 0 {
            self.buffer_group()?;
            self.group_pos = left;
            self.remaining -= left;
        }
        Ok(n)
    }
}
