use std::ops::Range;

use bytes::Bytes;
use pqcodec_core::{Decoder, Encoding, Error, Integer, IntegerNative, IntsMut, Result, Sink};

use super::{CHUNK, Layout};
use crate::kernels::ByteReader;
use crate::kernels::bitpack::{packed_len, unpack32, unpack64};
use crate::kernels::simd::{DeltaRun, Isa, delta32, delta64};

/// Streaming DELTA_BINARY_PACKED decoder of INT32 or INT64 values.
///
/// It unpacks up to 256 values at a time (a miniblock or several, or part of a large one) into
/// a chunk on its stack, prefix-sums them and hands them to the sink as one slice; it never
/// allocates, whatever the header says (but for the buffer of the byte-array encodings'
/// lengths, 256 values). [`Decoder::skip`] sums the deltas it skips without writing values
/// anywhere.
#[derive(Clone)]
pub struct DeltaBinaryPackedDecoder<T: Integer> {
    data: Bytes,
    /// The encoding errors are reported as: DELTA_BINARY_PACKED, or the byte-array encoding
    /// this decoder reads the lengths of.
    encoding: Encoding,
    layout: Layout,
    /// Byte offset of the next packed byte of the current miniblock, or of the next block.
    pos: usize,
    /// Where in `data` the bit widths of the current block's miniblocks are.
    widths: Range<usize>,
    /// Index in `widths` of the next miniblock to start.
    next_miniblock: usize,
    /// Values (padding included) of the current miniblock not unpacked yet.
    miniblock_left: usize,
    /// Bit width of the current miniblock.
    width: u32,
    /// Byte offset of the current miniblock (its end is worked out only by `end_offset`).
    miniblock_start: usize,
    /// The current block's min delta, as the low bits of a `u64`.
    min_delta: u64,
    /// The last value unpacked, as the low bits of a `u64`: all arithmetic is wrapping in 64
    /// bits, whose low `T::Int::BITS` bits are the type's wrapping arithmetic.
    last: u64,
    /// Whether the first value (from the header) is still to be delivered.
    first_pending: bool,
    /// Deltas to deliver that are not unpacked yet.
    undecoded: usize,
    /// Deltas of the header's total not unpacked yet (for [`Self::end_offset`]).
    header_deltas_left: usize,
    /// Values [`Self::next_slice`] unpacked and has not handed out yet: `buf[buf_pos..buf_len]`.
    /// On the heap, and only for the byte-array encodings' lengths, which read that way:
    /// [`Decoder::read`] unpacks into a chunk on its stack.
    buf: Option<Box<[T::Int; CHUNK]>>,
    buf_pos: usize,
    buf_len: usize,
    /// The rest of a group of 8 values unpacked to deliver or skip fewer than 8:
    /// `tail[tail_pos..tail_len]`.
    tail: [T::Int; 8],
    tail_pos: usize,
    tail_len: usize,
}

impl<T: Integer> std::fmt::Debug for DeltaBinaryPackedDecoder<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeltaBinaryPackedDecoder")
            .field("encoding", &self.encoding)
            .field("block_size", &self.layout.block_size)
            .field("miniblocks", &self.layout.miniblocks)
            .field("len", &self.data.len())
            .field("pos", &self.pos)
            .field("remaining", &Decoder::<T>::remaining(self))
            .finish_non_exhaustive()
    }
}

/// Miniblock runs [`DeltaBinaryPackedDecoder::fill`] gathers for one call of the delta
/// kernels: a chunk of whole miniblocks of 32 values.
const RUNS: usize = CHUNK / 32;

/// Deltas of a miniblock that [`DeltaBinaryPackedDecoder::next_run`] took: `count` of `width`
/// bits from byte `at` of the page, each plus `min_delta`. Where they are rather than a borrow
/// of the page, so that the decoder moves on while its runs are gathered.
#[derive(Debug, Default, Clone, Copy)]
struct Run {
    at: usize,
    width: u32,
    count: usize,
    min_delta: u64,
}

impl Run {
    /// Takes in `next` if its deltas follow this run's in the same bytes, with the same width
    /// and min delta (the next miniblock of a block, most often), so that the kernels make one
    /// pass over both. Returns whether it did.
    #[inline]
    fn absorb(&mut self, next: &Run) -> bool {
        let joins = self.at + packed_len(self.count, self.width) == next.at
            && self.count.is_multiple_of(8)
            && self.width == next.width
            && self.min_delta == next.min_delta;
        if joins {
            self.count += next.count;
        }
        joins
    }
}

impl<T: Integer> DeltaBinaryPackedDecoder<T> {
    /// A decoder of the first `num_values` values of the page `data`.
    ///
    /// Fails if the header is malformed or holds fewer than `num_values` values
    /// ([`Error::CountTooLarge`]); decodes only `num_values` if it holds more.
    pub fn new(data: Bytes, num_values: usize) -> Result<Self> {
        Self::nested(
            data,
            num_values,
            Encoding::DeltaBinaryPacked,
            "total value count",
        )
    }

    /// A decoder of every value the header says `data` holds (for callers that do not know the
    /// count, such as the byte-array encodings reading their lengths).
    pub fn from_header(data: Bytes) -> Result<Self> {
        Self::parse(data, None, Encoding::DeltaBinaryPacked, 128, 32)
    }

    /// Byte offset in `data` just past the encoded values: past the last miniblock holding one
    /// of the header's values (padding included).
    ///
    /// It walks the block headers from the current position without unpacking, so it can be
    /// called at any time (the byte-array decoders call it before reading anything) and does
    /// not change what is read next. Errors if the data ends before that offset or a needed
    /// miniblock's bit width is over the type's.
    pub fn end_offset(&self) -> Result<usize> {
        let mut deltas = self.header_deltas_left;
        let mut offset = if self.miniblock_left > 0 {
            deltas -= deltas.min(self.miniblock_left);
            self.miniblock_start
                .saturating_add(self.miniblock_bytes(self.width))
        } else {
            self.pos
        };
        let mut widths = self.data.get(self.widths.clone()).unwrap_or_default();
        let mut index = self.next_miniblock;
        while deltas > 0 {
            if index >= widths.len() {
                let rest = self
                    .data
                    .get(offset..)
                    .ok_or_else(|| self.truncated("block header", offset, 1))?;
                let mut r = ByteReader::new(rest, self.encoding);
                r.zigzag("min delta")?;
                widths = r.take(self.layout.miniblocks, "miniblock bit widths")?;
                offset += r.position();
                index = 0;
            }
            for &w in widths.get(index..).unwrap_or_default() {
                if deltas == 0 {
                    break;
                }
                let width = self.check_width(w)?;
                offset = offset.saturating_add(self.miniblock_bytes(width));
                deltas -= deltas.min(self.layout.miniblock_size);
                index += 1;
            }
        }
        if offset > self.data.len() {
            let needed = offset.saturating_sub(self.pos);
            return Err(self.truncated("miniblock", self.pos, needed));
        }
        Ok(offset)
    }

    /// Like [`Self::new`], reporting errors as `encoding`'s and a short header as `count_field`.
    pub(crate) fn nested(
        data: Bytes,
        num_values: usize,
        encoding: Encoding,
        count_field: &'static str,
    ) -> Result<Self> {
        Self::parse(data, Some((num_values, count_field)), encoding, 128, 32)
    }

    /// The spec's examples use blocks of 8 values, which real files may not; tests decode them
    /// with blocks and miniblocks of any multiple of 8 values.
    #[cfg(test)]
    pub(crate) fn lenient(data: Bytes) -> Result<Self> {
        Self::parse(data, None, Encoding::DeltaBinaryPacked, 8, 8)
    }

    /// Whether the heap buffer of [`Self::next_slice`] was allocated.
    #[cfg(test)]
    pub(crate) fn holds_a_buffer(&self) -> bool {
        self.buf.is_some()
    }

    fn parse(
        data: Bytes,
        expected: Option<(usize, &'static str)>,
        encoding: Encoding,
        block_multiple: u64,
        miniblock_multiple: u64,
    ) -> Result<Self> {
        let mut r = ByteReader::new(&data, encoding);
        let block_size = r.uleb128("block size")?;
        let miniblocks = r.uleb128("miniblock count")?;
        let total = r.uleb128("total value count")?;
        let first = r.zigzag("first value")?;
        let layout = Layout::new(
            encoding,
            block_size,
            miniblocks,
            block_multiple,
            miniblock_multiple,
        )?;
        let header_total = usize::try_from(total).map_err(|_| {
            Error::invalid(
                encoding,
                "total value count",
                format!("{total} does not fit in memory addresses"),
            )
        })?;
        let count = match expected {
            Some((num_values, field)) if num_values > header_total => {
                return Err(Error::CountTooLarge {
                    encoding,
                    field,
                    count: num_values as u64,
                    capacity: total,
                });
            }
            Some((num_values, _)) => num_values,
            None => header_total,
        };
        let start = r.position();
        Ok(DeltaBinaryPackedDecoder {
            data,
            encoding,
            layout,
            pos: start,
            widths: 0..0,
            next_miniblock: 0,
            miniblock_left: 0,
            width: 0,
            miniblock_start: start,
            min_delta: 0,
            last: first as u64,
            first_pending: count > 0,
            undecoded: count.saturating_sub(1),
            header_deltas_left: header_total.saturating_sub(1),
            buf: None,
            buf_pos: 0,
            buf_len: 0,
            tail: [T::Int::default(); 8],
            tail_pos: 0,
            tail_len: 0,
        })
    }

    fn truncated(&self, field: &'static str, from: usize, needed: usize) -> Error {
        Error::truncated(
            self.encoding,
            field,
            needed,
            self.data.len().saturating_sub(from),
        )
    }

    fn check_width(&self, w: u8) -> Result<u32> {
        let width = u32::from(w);
        let max = <T::Int as IntegerNative>::BITS;
        if width > max {
            return Err(Error::BitWidth {
                encoding: self.encoding,
                field: "miniblock bit width",
                width,
                max,
            });
        }
        Ok(width)
    }

    /// Bytes of a whole miniblock at `width` bits (saturating).
    fn miniblock_bytes(&self, width: u32) -> usize {
        packed_len(self.layout.miniblock_size, width)
    }

    /// Starts the next miniblock, reading the next block's header first if the current block
    /// is done.
    #[inline(always)]
    fn start_miniblock(&mut self) -> Result<()> {
        // The miniblock's start is taken as the 8 bytes `pos` was last stored as: read
        // together with a neighbouring field (the compiler pairs such copies), it would wait
        // for that store to reach the cache, once a miniblock.
        let widths = self.data.get(self.widths.clone()).unwrap_or_default();
        let (w, start) = match widths.get(self.next_miniblock) {
            Some(&w) => (w, self.pos),
            None => {
                let rest = self
                    .data
                    .get(self.pos..)
                    .ok_or_else(|| self.truncated("block header", self.pos, 1))?;
                let mut r = ByteReader::new(rest, self.encoding);
                let min_delta = r.zigzag("min delta")?;
                let from = self.pos + r.position();
                let widths = r.take(self.layout.miniblocks, "miniblock bit widths")?;
                let first = widths.first().copied();
                self.pos += r.position();
                self.min_delta = min_delta as u64;
                self.widths = from..self.pos;
                self.next_miniblock = 0;
                match first {
                    Some(w) => (w, self.pos),
                    // Layout guarantees at least one miniblock.
                    None => return Err(self.truncated("miniblock bit widths", self.pos, 1)),
                }
            }
        };
        self.width = self.check_width(w)?;
        self.next_miniblock += 1;
        self.miniblock_left = self.layout.miniblock_size;
        self.miniblock_start = start;
        Ok(())
    }

    /// Takes up to `want` deltas from the current miniblock (starting one if needed): a count
    /// that keeps the position byte aligned (a multiple of 8) unless it is the last delta to
    /// decode. Zero if `want` is under 8 and more remain. Requires `undecoded > 0`.
    #[inline(always)]
    fn next_run(&mut self, want: usize) -> Result<Run> {
        if self.miniblock_left == 0 {
            self.start_miniblock()?;
        }
        let mut count = want.min(self.miniblock_left).min(self.undecoded);
        if count < self.undecoded {
            count &= !7;
        }
        if count == 0 {
            return Ok(Run::default());
        }
        // Only the bytes the values need: a last miniblock missing its padding is accepted.
        // The run is handed the rest of the page, not just those bytes, so that the unpacking
        // kernel can load whole words up to the run's end.
        let needed = packed_len(count, self.width);
        let at = self.pos;
        if self.data.len().saturating_sub(at) < needed {
            return Err(self.truncated("miniblock", at, needed));
        }
        self.pos += needed;
        self.miniblock_left -= count;
        self.undecoded -= count;
        self.header_deltas_left = self.header_deltas_left.saturating_sub(count);
        Ok(Run {
            at,
            width: self.width,
            count,
            min_delta: self.min_delta,
        })
    }

    /// Unpacks the next up to `max` (at most [`CHUNK`]) values into `chunk`, whole groups of 8
    /// but for the last values: none when fewer than 8 are asked for and more remain. Fails
    /// only if no value could be unpacked. The miniblocks' runs are gathered first (one that
    /// follows the run before in the same bytes, width and min delta joining it) and handed to
    /// the delta kernels [`RUNS`] at a time.
    fn fill(&mut self, chunk: &mut [T::Int; CHUNK], max: usize) -> Result<usize> {
        let max = max.min(CHUNK);
        let mut filled = 0;
        if self.first_pending && max > 0 {
            chunk[0] = <T::Int as IntegerNative>::from_u64_bits(self.last);
            self.first_pending = false;
            filled = 1;
        }
        let mut runs = [Run::default(); RUNS];
        let mut gathered = 0usize;
        // Values up to `decoded` are in `chunk`, those up to `end` gathered as runs.
        let mut decoded = filled;
        let mut end = filled;
        let mut failure = None;
        while end < max && self.undecoded > 0 {
            // An error after some values is left for the next call (the state is unchanged,
            // so it repeats), letting the caller have the values before it.
            match self.next_run(max - end) {
                Ok(run) if run.count > 0 => {
                    end += run.count;
                    let joined = match gathered.checked_sub(1) {
                        Some(last) => runs[last].absorb(&run),
                        None => false,
                    };
                    if !joined {
                        runs[gathered] = run;
                        gathered += 1;
                    }
                }
                Ok(_) => break,
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
            if gathered == RUNS {
                decode_runs(&self.data, &runs, &mut self.last, chunk, decoded);
                decoded = end;
                gathered = 0;
            }
        }
        if let (Some(e), 0) = (failure, end) {
            return Err(e);
        }
        decode_runs(
            &self.data,
            &runs[..gathered],
            &mut self.last,
            chunk,
            decoded,
        );
        Ok(end)
    }

    /// Unpacks the next group of 8 values (or what is left, if fewer) into the (empty) tail,
    /// through `chunk`.
    fn fill_tail(&mut self, chunk: &mut [T::Int; CHUNK]) -> Result<()> {
        let n = self.fill(chunk, 8)?;
        self.tail[..n].copy_from_slice(&chunk[..n]);
        self.tail_pos = 0;
        self.tail_len = n;
        Ok(())
    }

    /// Unpacks the next up to [`CHUNK`] values into the (empty) buffer.
    fn refill(&mut self) -> Result<()> {
        let mut buf = self
            .buf
            .take()
            .unwrap_or_else(|| Box::new([T::Int::default(); CHUNK]));
        let filled = self.fill(&mut buf, CHUNK);
        self.buf = Some(buf);
        self.buf_pos = 0;
        // Empty after an error (which the next call repeats).
        self.buf_len = *filled.as_ref().unwrap_or(&0);
        filled.map(drop)
    }

    /// Hands up to `max` values unpacked by earlier calls to `out`; how many.
    fn take_unpacked<S: Sink<T::Value> + ?Sized>(&mut self, out: &mut S, max: usize) -> usize {
        let from_buf = self
            .buf
            .as_deref()
            .and_then(|b| b.get(self.buf_pos..self.buf_len))
            .unwrap_or_default();
        let from_buf = &from_buf[..max.min(from_buf.len())];
        out.extend_from_slice(from_buf);
        self.buf_pos += from_buf.len();
        let from_tail = &self.tail[self.tail_pos..self.tail_len];
        let from_tail = &from_tail[..(max - from_buf.len()).min(from_tail.len())];
        out.extend_from_slice(from_tail);
        self.tail_pos += from_tail.len();
        from_buf.len() + from_tail.len()
    }

    /// The next up to `max` values, unpacked as by [`Self::next_slice`] or, where the next
    /// miniblock repeats the last value (bit width 0, min delta 0 in the type's width), as one
    /// [`Piece::Repeat`] of up to the rest of it, in constant time: how skips of values that
    /// take no bytes stay bounded by the page's size, not by the count its header claims.
    /// Empty only when no value remains or `max` is 0.
    pub(crate) fn next_piece(&mut self, max: usize) -> Result<Piece<'_, T::Int>> {
        let unpacked = self.buf_pos < self.buf_len || self.tail_pos < self.tail_len;
        if max > 0 && !unpacked && !self.first_pending && self.undecoded > 0 {
            if self.miniblock_left == 0 {
                self.start_miniblock()?;
            }
            let zero = <T::Int as Default>::default();
            let mut count = max.min(self.miniblock_left).min(self.undecoded);
            if count < self.miniblock_left && count < self.undecoded {
                // What is left of the miniblock stays whole groups of 8, as `next_run` needs.
                count &= !7;
            }
            let repeats =
                self.width == 0 && <T::Int as IntegerNative>::from_u64_bits(self.min_delta) == zero;
            if repeats && count > 0 {
                self.miniblock_left -= count;
                self.undecoded -= count;
                self.header_deltas_left = self.header_deltas_left.saturating_sub(count);
                // The high bits of a 64-bit min delta still count for INT32 (see `last`).
                self.last = self
                    .last
                    .wrapping_add(self.min_delta.wrapping_mul(count as u64));
                let value = <T::Int as IntegerNative>::from_u64_bits(self.last);
                return Ok(Piece::Repeat { count, value });
            }
        }
        self.next_slice(max).map(Piece::Values)
    }

    /// The next up to `max` values, as a slice of the decoder's memory; empty only when no
    /// value remains or `max` is 0.
    #[inline]
    pub(crate) fn next_slice(&mut self, max: usize) -> Result<&[T::Int]> {
        // The buffer and the tail are never both holding values: each is filled only once
        // both are empty.
        if self.buf_pos == self.buf_len {
            if self.tail_pos < self.tail_len {
                let n = max.min(self.tail_len - self.tail_pos);
                let start = self.tail_pos;
                self.tail_pos += n;
                return Ok(&self.tail[start..start + n]);
            }
            if self.undecoded == 0 && !self.first_pending {
                return Ok(&[]);
            }
            self.refill()?;
        }
        let n = max.min(self.buf_len - self.buf_pos);
        let start = self.buf_pos;
        self.buf_pos += n;
        Ok(self
            .buf
            .as_deref()
            .and_then(|b| b.get(start..start + n))
            .unwrap_or_default())
    }
}

/// The next values of a decoder as [`DeltaBinaryPackedDecoder::next_piece`] hands them out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Piece<'s, I> {
    /// Values unpacked, in the decoder's memory.
    Values(&'s [I]),
    /// `count` values, each `value`: zero-width miniblocks whose min delta is 0 in the type's
    /// width, passed over without unpacking.
    Repeat { count: usize, value: I },
}

impl<I: Copy> Piece<'_, I> {
    /// How many values the piece holds.
    pub(crate) fn len(&self) -> usize {
        match self {
            Piece::Values(values) => values.len(),
            Piece::Repeat { count, .. } => *count,
        }
    }

    /// Its values `from..from + count` (fewer if it holds fewer).
    pub(crate) fn slice(&self, from: usize, count: usize) -> Self {
        match *self {
            Piece::Values(values) => {
                let rest = values.get(from..).unwrap_or_default();
                Piece::Values(&rest[..count.min(rest.len())])
            }
            Piece::Repeat { count: n, value } => Piece::Repeat {
                count: count.min(n.saturating_sub(from)),
                value,
            },
        }
    }

    /// Its value at `i`, if it holds one.
    pub(crate) fn get(&self, i: usize) -> Option<I> {
        match *self {
            Piece::Values(values) => values.get(i).copied(),
            Piece::Repeat { count, value } => (i < count).then_some(value),
        }
    }
}

/// Prefix-sums the deltas of `runs` onto `last`, writing the values to `buf[from..]` with the
/// SIMD delta kernels (32-bit arithmetic for INT32, 64-bit for INT64).
#[inline]
fn decode_runs<I: IntegerNative>(
    data: &[u8],
    runs: &[Run],
    last: &mut u64,
    buf: &mut [I; CHUNK],
    from: usize,
) {
    // The kernels' runs, borrowing the page.
    let n = runs.len().min(RUNS);
    let mut views = [DeltaRun::default(); RUNS];
    for i in 0..n {
        let run = runs[i];
        views[i] = DeltaRun {
            packed: data.get(run.at..).unwrap_or_default(),
            width: run.width,
            count: run.count,
            min_delta: run.min_delta,
        };
    }
    let runs = &views[..n];
    let isa = Isa::best();
    let Some(out) = buf.get_mut(from..) else {
        return;
    };
    match I::as_ints(out) {
        IntsMut::I32(out) => {
            let v = delta32(isa, runs, *last as i32, out);
            *last = u64::from(v as u32);
        }
        IntsMut::I64(out) => *last = delta64(isa, runs, *last as i64, out) as u64,
    }
}

/// Adds `count` deltas of `width` bits from `packed` plus `min_delta` each onto `last`,
/// unpacking [`CHUNK`] at a time into a stack array.
fn sum_run(packed: &[u8], width: u32, count: usize, min_delta: u64, last: &mut u64) {
    let mut acc = last.wrapping_add(min_delta.wrapping_mul(count as u64));
    let mut start = 0;
    while width > 0 && start < count {
        let n = CHUNK.min(count - start);
        // `start` is a multiple of CHUNK, so the piece starts on a byte boundary.
        let piece = packed.get(start * width as usize / 8..).unwrap_or_default();
        if width <= 32 {
            let mut narrow = [0u32; CHUNK];
            let deltas = &mut narrow[..n];
            unpack32(piece, width, deltas);
            acc = deltas
                .iter()
                .fold(acc, |a, &d| a.wrapping_add(u64::from(d)));
        } else {
            let mut wide = [0u64; CHUNK];
            let deltas = &mut wide[..n];
            unpack64(piece, width, deltas);
            acc = deltas.iter().fold(acc, |a, &d| a.wrapping_add(d));
        }
        start += n;
    }
    *last = acc;
}

impl<T: Integer> Decoder<T> for DeltaBinaryPackedDecoder<T> {
    fn remaining(&self) -> usize {
        self.buf_len - self.buf_pos + self.tail_len - self.tail_pos
            + usize::from(self.first_pending)
            + self.undecoded
    }

    fn read<S: Sink<T::Value> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize> {
        let want = max.min(self.remaining());
        out.reserve(want.min(reserve_bound(self.data.len())));
        let mut done = self.take_unpacked(out, want);
        let mut chunk = [T::Int::default(); CHUNK];
        while done < want {
            let n = self.fill(&mut chunk, want - done)?;
            if n > 0 {
                out.extend_from_slice(&chunk[..n]);
                done += n;
                continue;
            }
            // Fewer than 8 wanted, mid-miniblock: the rest of their group waits in the tail.
            self.fill_tail(&mut chunk)?;
            if self.tail_len == 0 {
                break;
            }
            done += self.take_unpacked(out, want - done);
        }
        Ok(done)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        let n = n.min(self.remaining());
        let buffered = (self.buf_len - self.buf_pos).min(n);
        self.buf_pos += buffered;
        let tailed = (self.tail_len - self.tail_pos).min(n - buffered);
        self.tail_pos += tailed;
        let mut left = n - buffered - tailed;
        if left > 0 && self.first_pending {
            self.first_pending = false;
            left -= 1;
        }
        while left > 0 {
            let run = self.next_run(left)?;
            if run.count == 0 {
                // Fewer than 8 to skip, mid-miniblock: unpack their group into the tail.
                self.fill_tail(&mut [T::Int::default(); CHUNK])?;
                let k = left.min(self.tail_len);
                self.tail_pos = k;
                left -= k;
                if k == 0 {
                    break;
                }
                continue;
            }
            sum_run(
                self.data.get(run.at..).unwrap_or_default(),
                run.width,
                run.count,
                self.min_delta,
                &mut self.last,
            );
            left -= run.count;
        }
        Ok(n - left)
    }
}

/// How many values a read may reserve room for up front: at most what `bytes` could hold at
/// one bit a value, so a lying header cannot make a huge allocation (the sink still grows as
/// values really arrive).
pub(crate) fn reserve_bound(bytes: usize) -> usize {
    bytes.saturating_mul(8).saturating_add(CHUNK)
}

#[cfg(test)]
mod tests {
    use super::Run;

    /// A run takes in the next only if its deltas follow in the same bytes, at the same width
    /// and min delta, after a whole number of groups of 8.
    #[test]
    fn runs_join_only_where_their_deltas_follow() {
        let run = |at: usize, width: u32, count: usize, min_delta: u64| Run {
            at,
            width,
            count,
            min_delta,
        };
        let mut first = run(0, 5, 16, 3);
        assert!(first.absorb(&run(10, 5, 8, 3)));
        assert_eq!(first.count, 24);
        for next in [
            run(16, 5, 8, 3), // not where the run ends (15 bytes in)
            run(15, 6, 8, 3),
            run(15, 5, 8, 4),
        ] {
            assert!(!first.clone().absorb(&next));
        }
        assert!(first.absorb(&run(15, 5, 8, 3)));
        // A last run of fewer than 8 takes nothing after it.
        let mut short = run(0, 5, 3, 3);
        assert!(!short.absorb(&run(2, 5, 8, 3)));
        assert_eq!(short.count, 3);
    }
}
