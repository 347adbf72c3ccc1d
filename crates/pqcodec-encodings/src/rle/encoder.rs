//! Encoding the RLE / bit-packing hybrid: [`RleEncoder`] writes `<encoded-data>`,
//! [`RleBooleanEncoder`] an RLE-encoded BOOLEAN data page.

use pqcodec_core::{BooleanType, Encoder, Encoding, Error, Result};

use super::{MAX_BIT_WIDTH, MAX_RUN_LEN};
use crate::kernels::bitpack::pack32;
use crate::kernels::varint::write_uleb128;

/// Groups of 8 in one bit-packed run, so that its header `(63 << 1) | 1` fits in the one byte
/// reserved for it before the groups are written.
const MAX_GROUPS_PER_RUN: usize = 63;

/// Longest RLE run written.
const MAX_RLE_RUN: usize = MAX_RUN_LEN as usize;

/// An encoder of values of up to 32 bits into the RLE / bit-packing hybrid's `<encoded-data>`
/// (no length prefix).
///
/// The strategy is the usual one: 8 or more equal values in a row become an RLE run, anything
/// else goes into bit-packed runs of whole groups of 8 (the last group of the page padded with
/// zeros). Runs never pass 2^31-1 values.
///
/// The bit width is clamped to 32 and bits of a value above the bit width are dropped: callers
/// pass values that fit (levels up to the column's maximum, indices below the dictionary size).
#[derive(Debug, Clone)]
pub struct RleEncoder {
    bit_width: u32,
    mask: u32,
    /// Finished runs, then the open bit-packed run's groups.
    buf: Vec<u8>,
    /// Where the open bit-packed run's header byte sits in `buf`.
    packed_header: Option<usize>,
    /// Groups written to the open bit-packed run.
    packed_groups: usize,
    /// Values after the open bit-packed run's groups, fewer than 8, then `repeat_len` copies of
    /// `repeat_value`.
    pending: [u32; 8],
    num_pending: usize,
    repeat_value: u32,
    repeat_len: usize,
    /// Whether the repeat is being written as an RLE run (then `num_pending` is 0 and no
    /// bit-packed run is open).
    in_rle: bool,
    num_values: usize,
}

impl RleEncoder {
    /// An encoder of values of `bit_width` bits (at most 32).
    pub fn new(bit_width: u32) -> Self {
        let bit_width = bit_width.min(MAX_BIT_WIDTH);
        RleEncoder {
            bit_width,
            mask: if bit_width == 32 {
                u32::MAX
            } else {
                (1u32 << bit_width) - 1
            },
            buf: Vec::new(),
            packed_header: None,
            packed_groups: 0,
            pending: [0; 8],
            num_pending: 0,
            repeat_value: 0,
            repeat_len: 0,
            in_rle: false,
            num_values: 0,
        }
    }

    /// The bit width values are written at.
    pub fn bit_width(&self) -> u32 {
        self.bit_width
    }

    /// Appends one value.
    #[inline]
    pub fn put(&mut self, value: u32) {
        self.put_repeated(value, 1);
    }

    /// Appends `count` copies of `value`.
    pub fn put_repeated(&mut self, value: u32, count: usize) {
        if count == 0 {
            return;
        }
        let value = value & self.mask;
        self.num_values = self.num_values.saturating_add(count);
        if self.repeat_len == 0 || value != self.repeat_value {
            self.end_repeat();
            self.repeat_value = value;
        }
        self.repeat_len = self.repeat_len.saturating_add(count);
        if !self.in_rle {
            // The pending values need this many copies to complete their group of 8; with 8
            // more after those, the rest of the repeat becomes an RLE run.
            let fill = (8 - self.num_pending) % 8;
            if self.repeat_len >= fill + 8 {
                for _ in 0..fill {
                    self.push_pending(value);
                }
                self.close_packed_run();
                self.repeat_len -= fill;
                self.in_rle = true;
            }
        }
        if self.in_rle {
            while self.repeat_len > MAX_RLE_RUN {
                self.write_rle_run(value, MAX_RLE_RUN);
                self.repeat_len -= MAX_RLE_RUN;
            }
        }
    }

    /// Values put since the last flush.
    pub fn num_values(&self) -> usize {
        self.num_values
    }

    /// About how many bytes [`RleEncoder::flush_into`] would write now.
    pub fn estimated_size(&self) -> usize {
        let width_bytes = self.bit_width.div_ceil(8) as usize;
        let tail = if self.in_rle {
            5 + width_bytes
        } else {
            // pending values and repeats bit-packed, one header byte per run of 63 groups
            let values = self.num_pending + self.repeat_len;
            let groups = values.div_ceil(8);
            groups * self.bit_width as usize + groups.div_ceil(MAX_GROUPS_PER_RUN) + 1
        };
        self.buf.len() + tail
    }

    /// Appends the encoded data of every value put since the last flush to `out`, and starts
    /// again empty.
    pub fn flush_into(&mut self, out: &mut Vec<u8>) {
        self.finish();
        out.extend_from_slice(&self.buf);
        self.buf.clear();
        self.num_values = 0;
    }

    /// Writes out the pending values and repeat, closing every run.
    fn finish(&mut self) {
        if self.in_rle {
            self.write_rle_run(self.repeat_value, self.repeat_len);
        } else if self.repeat_len > 0 && self.num_pending == 0 {
            // A short repeat at the end: an RLE run unless bit-packing it is smaller.
            let rle = 1 + self.bit_width.div_ceil(8) as usize;
            let packed = self.repeat_len.div_ceil(8) * self.bit_width as usize
                + usize::from(self.packed_header.is_none());
            if rle <= packed {
                self.close_packed_run();
                self.write_rle_run(self.repeat_value, self.repeat_len);
            } else {
                self.repeat_into_pending();
            }
        } else {
            self.repeat_into_pending();
        }
        self.repeat_len = 0;
        self.in_rle = false;
        if self.num_pending > 0 {
            // The page's last group: pad with zeros.
            while self.num_pending > 0 {
                self.push_pending(0);
            }
        }
        self.close_packed_run();
    }

    /// The current repeat ends: write it as an RLE run, or move it to the pending values.
    fn end_repeat(&mut self) {
        if self.in_rle {
            self.write_rle_run(self.repeat_value, self.repeat_len);
            self.in_rle = false;
        } else {
            self.repeat_into_pending();
        }
        self.repeat_len = 0;
    }

    /// Moves the (short, fewer than 16) repeat into the pending values.
    fn repeat_into_pending(&mut self) {
        for _ in 0..self.repeat_len {
            self.push_pending(self.repeat_value);
        }
        self.repeat_len = 0;
    }

    /// Appends a value to the pending group, writing the group when it has 8.
    #[inline]
    fn push_pending(&mut self, value: u32) {
        self.pending[self.num_pending] = value;
        self.num_pending += 1;
        if self.num_pending == 8 {
            self.num_pending = 0;
            if self.packed_header.is_none() {
                self.packed_header = Some(self.buf.len());
                self.buf.push(0);
            }
            pack32(&self.pending, self.bit_width, &mut self.buf);
            self.packed_groups += 1;
            if self.packed_groups == MAX_GROUPS_PER_RUN {
                self.close_packed_run();
            }
        }
    }

    /// Writes the open bit-packed run's header, if one is open.
    fn close_packed_run(&mut self) {
        if let Some(at) = self.packed_header.take() {
            // packed_groups <= 63: the header is one byte.
            if let Some(b) = self.buf.get_mut(at) {
                *b = ((self.packed_groups << 1) | 1) as u8;
            }
            self.packed_groups = 0;
        }
    }

    /// Writes an RLE run of `count` (1 to 2^31-1) copies of `value`.
    fn write_rle_run(&mut self, value: u32, count: usize) {
        if count == 0 {
            return;
        }
        write_uleb128(&mut self.buf, (count as u64) << 1);
        let width_bytes = self.bit_width.div_ceil(8) as usize;
        self.buf
            .extend_from_slice(&value.to_le_bytes()[..width_bytes]);
    }
}

/// An encoder of RLE-encoded BOOLEAN data page values: a 4-byte little-endian length of the
/// encoded data, then the hybrid at bit width 1.
#[derive(Debug, Clone)]
pub struct RleBooleanEncoder {
    inner: RleEncoder,
}

impl RleBooleanEncoder {
    /// An empty encoder.
    pub fn new() -> Self {
        RleBooleanEncoder {
            inner: RleEncoder::new(1),
        }
    }
}

impl Default for RleBooleanEncoder {
    fn default() -> Self {
        Self::new()
    }
}

impl Encoder<BooleanType> for RleBooleanEncoder {
    fn put<'v, I>(&mut self, values: I) -> Result<()>
    where
        I: IntoIterator<Item = &'v bool>,
    {
        for &v in values {
            self.inner.put(u32::from(v));
        }
        Ok(())
    }

    fn num_values(&self) -> usize {
        self.inner.num_values()
    }

    fn estimated_size(&self) -> usize {
        4 + self.inner.estimated_size()
    }

    fn flush_into(&mut self, out: &mut Vec<u8>) -> Result<()> {
        let at = out.len();
        out.extend_from_slice(&[0; 4]);
        self.inner.flush_into(out);
        let len = out.len() - at - 4;
        let Ok(len32) = u32::try_from(len) else {
            out.truncate(at);
            return Err(Error::invalid(
                Encoding::Rle,
                "length",
                format!("{len} bytes of encoded data do not fit in the 4-byte length"),
            ));
        };
        if let Some(prefix) = out.get_mut(at..at + 4) {
            prefix.copy_from_slice(&len32.to_le_bytes());
        }
        Ok(())
    }
}
