//! Decoding the RLE / bit-packing hybrid: [`RleDecoder`] over `<encoded-data>`, and
//! [`RleBooleanDecoder`] for RLE-encoded BOOLEAN data pages.

use bytes::Bytes;
use pqcodec_core::{BooleanType, Decoder, Encoding, Error, Result, Sink};

use super::{MAX_BIT_WIDTH, MAX_RUN_LEN, STAGE, Staging, split_length_prefix};
use crate::kernels::ByteReader;
use crate::kernels::bitpack::{packed_len, unpack32};

/// Values unpacked at a time from a bit-packed run into a stack buffer.
pub const CHUNK: usize = 256;

/// Stretches of a bit-packed run up to this long are unpacked into a smaller buffer.
const SHORT: usize = 32;

/// Receives what [`RleDecoder::visit`] decodes, runs as runs: an RLE run as one call, a
/// stretch of a bit-packed run either still packed ([`RunVisitor::packed`], for visitors that
/// can take bits as they are, such as validity bitmaps) or unpacked a chunk at a time
/// ([`RunVisitor::values`], what `packed` does unless overridden).
pub trait RunVisitor {
    /// `count` (at least 1) copies of `value`.
    fn run(&mut self, value: u32, count: usize) -> Result<()>;

    /// Values unpacked from a bit-packed run, at most [`CHUNK`] at a time.
    fn values(&mut self, values: &[u32]) -> Result<()>;

    /// Values `start..end` (`start < end`) of a bit-packed run of `bit_width`-bit values
    /// packed LSB-first in `packed`, which starts at the run's first value and holds at least
    /// value `end - 1`'s bits: value `i` is bits `i * bit_width..(i + 1) * bit_width`.
    ///
    /// By default they are unpacked a chunk at a time into [`RunVisitor::values`].
    fn packed(&mut self, packed: &[u8], bit_width: u32, start: usize, end: usize) -> Result<()> {
        unpack_range(packed, bit_width, start, end, self)
    }
}

/// What [`RunVisitor::packed`] does by default: unpacks values `start..end` of a bit-packed
/// run into `visitor`'s [`RunVisitor::values`] a chunk at a time, for visitors that override
/// `packed` for some bit widths only. Missing bytes unpack as zeros.
pub fn unpack_packed<V: RunVisitor + ?Sized>(
    visitor: &mut V,
    packed: &[u8],
    bit_width: u32,
    start: usize,
    end: usize,
) -> Result<()> {
    unpack_range(packed, bit_width, start, end, visitor)
}

/// The run being decoded.
#[derive(Debug, Clone, Copy)]
enum Run {
    /// `left` more copies of `value`.
    Rle { value: u32, left: usize },
    /// A bit-packed run whose bytes start at offset `start` of the data and run to its end
    /// (the unpacking kernels may load whole words past the run's last value), of which `len`
    /// are the run's (fewer than declared if the data ends first); `pos` is the next value and
    /// `end` the last value the page needs.
    Packed {
        start: usize,
        len: usize,
        pos: usize,
        end: usize,
    },
}

impl Run {
    fn left(&self) -> usize {
        match *self {
            Run::Rle { left, .. } => left,
            Run::Packed { pos, end, .. } => end - pos,
        }
    }
}

/// A streaming decoder of the RLE / bit-packing hybrid's `<encoded-data>` (no length prefix)
/// at a bit width of 0 to 32: repetition and definition levels, dictionary indices, booleans.
///
/// RLE runs reach the sink as one [`Sink::push_repeated`] each; bit-packed values are unpacked
/// a chunk at a time into a stack buffer and handed over with [`Sink::extend_from_slice`].
///
/// Runs are read lazily as values are asked for, so bytes after the last value the page needs
/// are never looked at. A run longer than what remains of the page is cut short. A final
/// bit-packed run whose bytes stop early (some writers drop the padding of its last group) is
/// accepted as long as the values the caller actually reads are all there; asking for one
/// that is not fails with [`Error::Truncated`].
#[derive(Debug, Clone)]
pub struct RleDecoder {
    data: Bytes,
    /// Offset in `data` of the next run's header.
    pos: usize,
    encoding: Encoding,
    bit_width: u32,
    remaining: usize,
    run: Run,
}

impl RleDecoder {
    /// A decoder of `num_values` values of `bit_width` bits (0 to 32, else
    /// [`Error::BitWidth`]) from `data`; reads the first run's header.
    pub fn new(data: Bytes, num_values: usize, bit_width: u32) -> Result<Self> {
        Self::with_encoding(data, num_values, bit_width, Encoding::Rle)
    }

    /// As [`RleDecoder::new`], reporting errors as `encoding`'s (dictionary indices report
    /// `RLE_DICTIONARY`).
    pub(crate) fn with_encoding(
        data: Bytes,
        num_values: usize,
        bit_width: u32,
        encoding: Encoding,
    ) -> Result<Self> {
        if bit_width > MAX_BIT_WIDTH {
            return Err(Error::BitWidth {
                encoding,
                field: "bit width",
                width: bit_width,
                max: MAX_BIT_WIDTH,
            });
        }
        let mut decoder = RleDecoder {
            data,
            pos: 0,
            encoding,
            bit_width,
            remaining: num_values,
            run: Run::Rle { value: 0, left: 0 },
        };
        if num_values > 0 {
            decoder.next_run()?;
        }
        Ok(decoder)
    }

    /// The encoding errors name: RLE, or the dictionary encoding whose indices these are.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The bit width values are decoded at.
    pub fn bit_width(&self) -> u32 {
        self.bit_width
    }

    /// Values not yet read or skipped.
    pub fn remaining(&self) -> usize {
        self.remaining
    }

    /// How many values a read of up to `max` may reserve room for up front: never more than
    /// the bytes left could hold at one bit a value (plus a chunk), so a page claiming 2^31
    /// values, or a bit width of 0, cannot make a huge allocation; the sink still grows as
    /// values really arrive.
    pub(crate) fn reserve_hint(&self, max: usize) -> usize {
        max.min(self.remaining)
            .min(crate::delta_binary_packed::reserve_bound(
                self.data.len() - self.pos,
            ))
    }

    /// Appends up to `max` values to `out` and returns how many: fewer only at the end of the
    /// page. Short runs reach `out` in blocks, a long RLE run as one [`Sink::push_repeated`].
    pub fn read<S: Sink<u32> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize> {
        out.reserve(self.reserve_hint(max));
        let mut visitor = PlainVisitor {
            out,
            stage: Staging::new(),
        };
        // What was decoded before an error reaches `out` too.
        let result = self.visit(&mut visitor, max);
        visitor.stage.flush(visitor.out);
        result
    }

    /// Skips up to `n` values and returns how many. Skipping within a bit-packed run only
    /// moves a position (after checking the data holds the values skipped); nothing is unpacked.
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        let want = n.min(self.remaining);
        let mut done = 0;
        while done < want {
            if self.run.left() == 0 {
                self.next_run()?;
            }
            let width = self.bit_width;
            let encoding = self.encoding;
            let step = match &mut self.run {
                Run::Rle { left, .. } => {
                    let step = (*left).min(want - done);
                    *left -= step;
                    step
                }
                Run::Packed { len, pos, end, .. } => {
                    let step = (*end - *pos).min(want - done);
                    let needed = packed_len(*pos + step, width);
                    if needed > *len {
                        return Err(Error::truncated(encoding, "bit-packed run", needed, *len));
                    }
                    *pos += step;
                    step
                }
            };
            done += step;
            self.remaining -= step;
        }
        Ok(done)
    }

    /// Decodes up to `max` values into `visitor`, runs as runs; returns how many (fewer only
    /// at the end of the page).
    pub fn visit<V: RunVisitor + ?Sized>(&mut self, visitor: &mut V, max: usize) -> Result<usize> {
        let want = max.min(self.remaining);
        let mut done = 0;
        while done < want {
            if self.run.left() == 0 {
                self.next_run()?;
            }
            let step = match &mut self.run {
                Run::Rle { value, left } => {
                    let step = (*left).min(want - done);
                    visitor.run(*value, step)?;
                    *left -= step;
                    step
                }
                Run::Packed {
                    start,
                    len,
                    pos,
                    end,
                } => {
                    let step = (*end - *pos).min(want - done);
                    let needed = packed_len(*pos + step, self.bit_width);
                    if needed > *len {
                        return Err(Error::truncated(
                            self.encoding,
                            "bit-packed run",
                            needed,
                            *len,
                        ));
                    }
                    let bytes = self.data.get(*start..).unwrap_or_default();
                    visitor.packed(bytes, self.bit_width, *pos, *pos + step)?;
                    *pos += step;
                    step
                }
            };
            done += step;
            self.remaining -= step;
        }
        Ok(done)
    }

    /// Reads the next run's header (and an RLE run's value) into `self.run`.
    #[inline(always)]
    fn next_run(&mut self) -> Result<()> {
        let rest = self.data.get(self.pos..).unwrap_or_default();
        let mut reader = ByteReader::new(rest, self.encoding);
        let header = reader.uleb128("run header")?;
        let bit_packed = header & 1 == 1;
        let scaled = header >> 1;
        let count = if bit_packed {
            scaled.saturating_mul(8)
        } else {
            scaled
        };
        if count == 0 || count > MAX_RUN_LEN {
            return Err(self.bad_run_length(count));
        }
        // count <= 2^31 - 1 fits in usize on every target Rust supports beyond 16 bits.
        let count = usize::try_from(count).unwrap_or(usize::MAX);
        let width = self.bit_width;
        self.run = if bit_packed {
            let declared = packed_len(count, width);
            let available = declared.min(reader.remaining());
            let start = self.pos + reader.position();
            reader.take(available, "bit-packed run")?;
            Run::Packed {
                start,
                len: available,
                pos: 0,
                end: count.min(self.remaining),
            }
        } else {
            let width_bytes = width.div_ceil(8) as usize;
            let raw = reader.take(width_bytes, "repeated value")?;
            let value = raw
                .iter()
                .rev()
                .fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
            if value >> width != 0 {
                return Err(self.bad_repeated_value(value));
            }
            Run::Rle {
                // value < 2^width <= 2^32
                value: value as u32,
                left: count.min(self.remaining),
            }
        };
        self.pos += reader.position();
        Ok(())
    }

    /// The error of a run header declaring `count` values, 0 or over 2^31-1.
    #[cold]
    fn bad_run_length(&self, count: u64) -> Error {
        let reason = if count == 0 {
            "a run of 0 values (run lengths are 1 to 2^31-1)".to_string()
        } else {
            format!("a run of {count} values is over the maximum of 2^31-1")
        };
        Error::invalid(self.encoding, "run header", reason)
    }

    /// The error of an RLE run's `value` wider than the bit width.
    #[cold]
    fn bad_repeated_value(&self, value: u64) -> Error {
        Error::invalid(
            self.encoding,
            "repeated value",
            format!(
                "{value} does not fit in the bit width of {}",
                self.bit_width
            ),
        )
    }
}

/// Unpacks values `start..end` of a bit-packed run whose bytes are `bytes` into `visitor`, a
/// chunk at a time. `bytes` holds at least `packed_len(end, width)` bytes (checked by the
/// caller; a shorter slice unpacks zeros for the missing values, never panics).
fn unpack_range<V: RunVisitor + ?Sized>(
    bytes: &[u8],
    width: u32,
    start: usize,
    end: usize,
    visitor: &mut V,
) -> Result<()> {
    // Short stretches (runs interleaved with RLE runs) need not clear a whole chunk's buffer.
    if end - start <= SHORT {
        let mut buf = [0u32; SHORT];
        let out = &mut buf[..end - start];
        unpack_into(bytes, width, start, out);
        return visitor.values(out);
    }
    let mut buf = [0u32; CHUNK];
    let mut pos = start;
    while pos < end {
        // Up to the next multiple of CHUNK, so that chunks after an unaligned start align.
        let n = (end - pos).min(CHUNK - pos % CHUNK);
        let out = &mut buf[..n];
        unpack_into(bytes, width, pos, out);
        visitor.values(out)?;
        pos += n;
    }
    Ok(())
}

/// Unpacks values `start..start + out.len()` of a bit-packed run whose bytes are `bytes` into
/// `out`; a start within a group of 8 unpacks that group on the side. Missing bytes unpack as
/// zeros.
#[inline]
fn unpack_into(bytes: &[u8], width: u32, start: usize, out: &mut [u32]) {
    let w = width as usize;
    let head = start % 8;
    let mut done = 0;
    if head != 0 {
        let mut group = [0u32; 8];
        let take = (8 - head).min(out.len());
        let group_bytes = bytes.get((start - head) / 8 * w..).unwrap_or(&[]);
        unpack_checked(group_bytes, width, &mut group[..head + take]);
        out[..take].copy_from_slice(&group[head..head + take]);
        done = take;
    }
    if done < out.len() {
        // start + done is a multiple of 8: its values start on a byte boundary.
        let aligned = bytes.get((start + done) / 8 * w..).unwrap_or(&[]);
        unpack_checked(aligned, width, &mut out[done..]);
    }
}

/// [`unpack32`], or zeros if `src` is too short for `out` (never the case for the ranges
/// [`RleDecoder::visit`] hands over, whose length it checks first).
#[inline]
fn unpack_checked(src: &[u8], width: u32, out: &mut [u32]) {
    if packed_len(out.len(), width) <= src.len() {
        unpack32(src, width, out);
    } else {
        out.fill(0);
    }
}

/// Hands decoded values to a `Sink<u32>` unchanged, through a [`Staging`] block.
struct PlainVisitor<'s, S: ?Sized> {
    out: &'s mut S,
    stage: Staging<u32>,
}

impl<S: Sink<u32> + ?Sized> RunVisitor for PlainVisitor<'_, S> {
    #[inline]
    fn run(&mut self, value: u32, count: usize) -> Result<()> {
        self.stage.repeat(self.out, value, count);
        Ok(())
    }

    #[inline]
    fn values(&mut self, values: &[u32]) -> Result<()> {
        for chunk in values.chunks(STAGE) {
            self.stage
                .slots(self.out, chunk.len())
                .copy_from_slice(chunk);
        }
        Ok(())
    }

    /// Unpacked straight into the stage.
    #[inline]
    fn packed(&mut self, packed: &[u8], bit_width: u32, start: usize, end: usize) -> Result<()> {
        let mut pos = start;
        while pos < end {
            let n = (end - pos).min(STAGE);
            unpack_into(packed, bit_width, pos, self.stage.slots(self.out, n));
            pos += n;
        }
        Ok(())
    }
}

/// A decoder of an RLE-encoded BOOLEAN data page: a 4-byte little-endian length, then the
/// hybrid at bit width 1.
#[derive(Debug, Clone)]
pub struct RleBooleanDecoder {
    inner: RleDecoder,
}

impl RleBooleanDecoder {
    /// A decoder of `num_values` booleans from the page's value bytes `data`.
    pub fn new(data: Bytes, num_values: usize) -> Result<Self> {
        let (encoded, _) = split_length_prefix(&data)?;
        let encoded = data.slice_ref(encoded);
        Ok(RleBooleanDecoder {
            inner: RleDecoder::new(encoded, num_values, 1)?,
        })
    }
}

/// Hands decoded 0/1 values to a `Sink<bool>`, through a [`Staging`] block.
struct BoolVisitor<'s, S: ?Sized> {
    out: &'s mut S,
    stage: Staging<bool>,
}

impl<S: Sink<bool> + ?Sized> RunVisitor for BoolVisitor<'_, S> {
    #[inline]
    fn run(&mut self, value: u32, count: usize) -> Result<()> {
        self.stage.repeat(self.out, value != 0, count);
        Ok(())
    }

    #[inline]
    fn values(&mut self, values: &[u32]) -> Result<()> {
        for chunk in values.chunks(STAGE) {
            let slots = self.stage.slots(self.out, chunk.len());
            for (b, &v) in slots.iter_mut().zip(chunk) {
                *b = v != 0;
            }
        }
        Ok(())
    }

    /// Bits straight to staged bools, 64 at a time, without unpacking to `u32` first.
    fn packed(&mut self, packed: &[u8], bit_width: u32, start: usize, end: usize) -> Result<()> {
        if bit_width != 1 {
            return unpack_range(packed, bit_width, start, end, self);
        }
        let mut pos = start;
        while pos < end {
            let n = (end - pos).min(64);
            let word = load_bits(packed, pos).to_le_bytes();
            // A byte's bits against constant masks, 8 bools at a time (it vectorises).
            let slots = self.stage.slots(self.out, n);
            for (bools, byte) in slots.chunks_mut(8).zip(word) {
                for (j, b) in bools.iter_mut().enumerate() {
                    *b = byte & (1 << j) != 0;
                }
            }
            pos += n;
        }
        Ok(())
    }
}

/// The 64 bits of `packed` (LSB-first) starting at bit `bit`; bits past its end are 0.
#[inline]
pub(crate) fn load_bits(packed: &[u8], bit: usize) -> u64 {
    let byte = bit / 8;
    let shift = bit % 8;
    let src = packed.get(byte..).unwrap_or(&[]);
    let buf = match src.first_chunk::<9>() {
        Some(whole) => *whole,
        None => {
            let mut buf = [0u8; 9];
            let n = src.len().min(9);
            buf[..n].copy_from_slice(&src[..n]);
            buf
        }
    };
    let [b0, b1, b2, b3, b4, b5, b6, b7, b8] = buf;
    let lo = u64::from_le_bytes([b0, b1, b2, b3, b4, b5, b6, b7]);
    if shift == 0 {
        lo
    } else {
        (lo >> shift) | (u64::from(b8) << (64 - shift))
    }
}

impl Decoder<BooleanType> for RleBooleanDecoder {
    fn remaining(&self) -> usize {
        self.inner.remaining()
    }

    fn read<S: Sink<bool> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize> {
        out.reserve(self.inner.reserve_hint(max));
        let mut visitor = BoolVisitor {
            out,
            stage: Staging::new(),
        };
        // What was decoded before an error reaches `out` too.
        let result = self.inner.visit(&mut visitor, max);
        visitor.stage.flush(visitor.out);
        result
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        self.inner.skip(n)
    }
}
