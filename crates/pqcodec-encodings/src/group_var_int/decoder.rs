//! The GROUP_VAR_INT decoder.

use std::marker::PhantomData;

use bytes::Bytes;
use pqcodec_core::{Decoder, Encoding, Error, Integer, Result, Sink};

use super::{Layout, MAX_GROUP, WINDOW, decode_window};

/// Groups decoded per stack chunk before their values reach the sink as one slice.
const CHUNK_GROUPS: usize = 64;

/// A streaming GROUP_VAR_INT decoder of one page's INT32 or INT64 values.
///
/// Whole groups are decoded a stack chunk at a time and handed over as slices; a group that a
/// batch ends inside is kept and finished by the next read. Skipping walks the groups' lengths
/// without decoding values (except those of a group the skip ends inside).
#[derive(Debug, Clone)]
pub struct GroupVarIntDecoder<T: Integer> {
    data: Bytes,
    /// Offset of the next group not yet decoded.
    pos: usize,
    remaining: usize,
    /// The last group decoded, of which `group[group_pos..group_end]` are still to be read.
    group: [T::Int; MAX_GROUP],
    group_pos: usize,
    group_end: usize,
    _type: PhantomData<T>,
}

impl<T: Integer> GroupVarIntDecoder<T> {
    const LAYOUT: Layout = Layout::of::<T::Int>();

    /// A decoder of the first `num_values` values of `data`.
    ///
    /// Fails with [`Error::CountTooLarge`] if `data` cannot hold the groups of `num_values`
    /// values even at one byte a value; a group whose lengths run past the data is
    /// [`Error::Truncated`] when it is read.
    pub fn new(data: Bytes, num_values: usize) -> Result<Self> {
        let layout = Self::LAYOUT;
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
            group: [T::Int::default(); MAX_GROUP],
            group_pos: 0,
            group_end: 0,
            _type: PhantomData,
        })
    }

    /// Checks that the group at `self.pos` lies within the data and returns the offset past it.
    #[inline]
    fn group_end(&self) -> Result<usize> {
        let rest = self.data.get(self.pos..).unwrap_or_default();
        let Some(header) = rest.get(..Self::LAYOUT.header) else {
            return Err(Error::truncated(
                Encoding::GroupVarInt,
                "group lengths",
                Self::LAYOUT.header,
                rest.len(),
            ));
        };
        let lens = Self::LAYOUT.lengths(header);
        let total = Self::LAYOUT.header + lens.iter().sum::<usize>();
        if total > rest.len() {
            return Err(Error::truncated(
                Encoding::GroupVarInt,
                "group values",
                total,
                rest.len(),
            ));
        }
        Ok(self.pos + total)
    }

    /// Decodes the group at `self.pos` into `out` (`LAYOUT.values` long) and moves past it.
    #[inline(always)]
    fn decode_group(&mut self, out: &mut [T::Int]) -> Result<()> {
        let rest = self.data.get(self.pos..).unwrap_or_default();
        if let Some(win) = rest.first_chunk::<WINDOW>() {
            self.pos += decode_window(Self::LAYOUT, win, out);
            return Ok(());
        }
        // Near the end of the page: check the group's length first, then pad its bytes.
        let end = self.group_end()?;
        let mut win = [0u8; WINDOW];
        for (w, &b) in win.iter_mut().zip(rest) {
            *w = b;
        }
        decode_window(Self::LAYOUT, &win, out);
        self.pos = end;
        Ok(())
    }

    /// Decodes the group at `self.pos` into `self.group`, to be read from its start.
    fn buffer_group(&mut self) -> Result<()> {
        let mut group = self.group;
        self.decode_group(&mut group[..Self::LAYOUT.values])?;
        self.group = group;
        self.group_pos = 0;
        self.group_end = Self::LAYOUT.values;
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
        let g = Self::LAYOUT.values;
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

impl<T: Integer> Decoder<T> for GroupVarIntDecoder<T> {
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
        let g = Self::LAYOUT.values;
        let buffered = (self.group_end - self.group_pos).min(n);
        self.group_pos += buffered;
        self.remaining -= buffered;
        let mut left = n - buffered;
        while left >= g {
            let end = self.group_end()?;
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
