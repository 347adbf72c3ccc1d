//! Encoding the RLE / bit-packing hybrid: [`RleEncoder`] writes `<encoded-data>`,
//! [`RleBooleanEncoder`] an RLE-encoded BOOLEAN data page.

use pqcodec_core::{BooleanType, Encoder, Encoding, Error, Result};

use super::{MAX_BIT_WIDTH, MAX_RUN_LEN};
use crate::kernels::bitpack::pack_bools;
use crate::kernels::varint::write_uleb128;
use crate::kernels::{PackGroups, pack_groups_for};

/// Groups of 8 in one bit-packed run, so that its header `(63 << 1) | 1` fits in the one byte
/// reserved for it before the groups are written.
const MAX_GROUPS_PER_RUN: usize = 63;

/// Longest RLE run written.
const MAX_RLE_RUN: usize = MAX_RUN_LEN as usize;

/// An encoder of values of up to 32 bits into the RLE / bit-packing hybrid's `<encoded-data>`
/// (no length prefix).
///
/// The strategy is the usual one: values are grouped 8 at a time from the start; a group of 8
/// equal values starts an RLE run that lasts as long as the value repeats, other groups go into
/// bit-packed runs (of at most 63 groups). The last group of the page is padded with zeros, or
/// written as an RLE run if its values are equal and that is smaller. Runs never pass 2^31-1
/// values.
///
/// The bit width is clamped to 32 and bits of a value above the bit width are dropped: callers
/// pass values that fit (levels up to the column's maximum, indices below the dictionary size).
#[derive(Debug, Clone)]
pub struct RleEncoder {
    bit_width: u32,
    mask: u32,
    /// Packs groups at `bit_width`.
    pack: PackGroups,
    /// Finished runs, then the open bit-packed run's groups.
    buf: Vec<u8>,
    /// Where the open bit-packed run's header byte sits in `buf`.
    packed_header: Option<usize>,
    /// Groups written to the open bit-packed run.
    packed_groups: usize,
    /// Values of the group being filled (the first `num_pending`).
    pending: [u32; 8],
    num_pending: usize,
    /// The open RLE run: `rle_len` (0 if none) copies of `rle_value`; while it is open
    /// `num_pending` is 0 and no bit-packed run is open.
    rle_value: u32,
    rle_len: usize,
    /// Values written to `buf` (a padded last group counts 8).
    written: usize,
}

impl RleEncoder {
    /// An encoder of values of `bit_width` bits (at most 32).
    pub fn new(bit_width: u32) -> Self {
        let bit_width = bit_width.min(MAX_BIT_WIDTH);
        RleEncoder {
            bit_width,
            pack: pack_groups_for(bit_width),
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
            rle_value: 0,
            rle_len: 0,
            written: 0,
        }
    }

    /// The bit width values are written at.
    pub fn bit_width(&self) -> u32 {
        self.bit_width
    }

    /// Appends one value.
    #[inline]
    pub fn put(&mut self, value: u32) {
        let value = value & self.mask;
        if self.rle_len > 0 {
            if value == self.rle_value && self.rle_len < MAX_RLE_RUN {
                self.rle_len += 1;
                return;
            }
            self.end_rle_run();
        }
        self.pending[self.num_pending & 7] = value;
        self.num_pending += 1;
        if self.num_pending == 8 {
            self.end_group();
        }
    }

    /// Appends `count` copies of `value`.
    pub fn put_repeated(&mut self, value: u32, count: usize) {
        let value = value & self.mask;
        let mut count = count;
        // Complete the pending group one value at a time (this may start an RLE run).
        while count > 0 && self.num_pending != 0 {
            self.put(value);
            count -= 1;
        }
        if count == 0 {
            return;
        }
        if self.rle_len > 0 && self.rle_value != value {
            self.end_rle_run();
        }
        if self.rle_len == 0 && count < 8 {
            for _ in 0..count {
                self.put(value);
            }
            return;
        }
        // At a group boundary with 8 or more values: an RLE run, or more of the open one.
        self.close_packed_run();
        self.rle_value = value;
        while count > 0 {
            let room = MAX_RLE_RUN - self.rle_len;
            if count < room {
                self.rle_len += count;
                break;
            }
            self.write_rle_run(value, MAX_RLE_RUN);
            self.rle_len = 0;
            count -= room;
        }
    }

    /// Appends `values`; the same bytes as [`RleEncoder::put`] of each, faster over runs.
    pub fn put_slice(&mut self, values: &[u32]) {
        let mask = self.mask;
        let mut rest = values;
        while !rest.is_empty() {
            if self.rle_len > 0 {
                let v = self.rle_value;
                let same = rest.iter().take_while(|&&x| x & mask == v).count();
                if same > 0 {
                    self.put_repeated(v, same);
                    rest = rest.get(same..).unwrap_or(&[]);
                    continue;
                }
                self.end_rle_run();
            }
            if self.num_pending == 0 {
                // Whole groups of differing values, up to the open bit-packed run's room: packed
                // straight from the slice in one call.
                let room = MAX_GROUPS_PER_RUN - self.packed_groups;
                let groups = rest
                    .chunks_exact(8)
                    .take(room)
                    .take_while(|g| g.iter().any(|&x| (x ^ g[0]) & mask != 0))
                    .count();
                if groups > 0 {
                    let (head, tail) = rest.split_at(8 * groups);
                    self.open_packed_run();
                    (self.pack)(head, &mut self.buf);
                    self.end_packed_groups(groups);
                    rest = tail;
                    continue;
                }
            }
            let n = self.num_pending;
            let take = (8 - n).min(rest.len());
            let (head, tail) = rest.split_at(take);
            for (slot, &x) in self.pending.iter_mut().skip(n).zip(head) {
                *slot = x & mask;
            }
            self.num_pending += take;
            rest = tail;
            if self.num_pending == 8 {
                self.end_group();
            }
        }
    }

    /// Appends booleans as values 0 and 1; the same bytes as [`RleEncoder::put`] of each. At
    /// bit width 1, a group of 8 at a time: packed into its byte by one multiply, an RLE run if
    /// that byte is all zeros or all ones.
    pub fn put_bools(&mut self, values: &[bool]) {
        if self.bit_width != 1 {
            for &v in values {
                self.put(u32::from(v));
            }
            return;
        }
        let mut rest = values;
        while let Some(&first) = rest.first() {
            if self.rle_len > 0 {
                let v = u32::from(first);
                if v == self.rle_value {
                    let same = rest.iter().take_while(|&&x| x == first).count();
                    self.put_repeated(v, same);
                    rest = rest.get(same..).unwrap_or(&[]);
                    continue;
                }
                self.end_rle_run();
            }
            // A whole group at a group boundary, else one value.
            let group = rest.get(..8).filter(|_| self.num_pending == 0);
            let Some(group) = group else {
                self.put(u32::from(first));
                rest = rest.get(1..).unwrap_or(&[]);
                continue;
            };
            let mut byte = 0u8;
            pack_bools(group, std::slice::from_mut(&mut byte));
            rest = rest.get(8..).unwrap_or(&[]);
            if byte == 0 || byte == u8::MAX {
                self.close_packed_run();
                self.rle_value = u32::from(byte & 1);
                self.rle_len = 8;
            } else {
                self.pack_byte(byte);
            }
        }
    }

    /// Values put since the last flush.
    pub fn num_values(&self) -> usize {
        self.written + self.num_pending + self.rle_len
    }

    /// About how many bytes [`RleEncoder::flush_into`] would write now.
    pub fn estimated_size(&self) -> usize {
        let width_bytes = self.bit_width.div_ceil(8) as usize;
        let tail = if self.rle_len > 0 {
            5 + width_bytes
        } else if self.num_pending > 0 {
            self.bit_width as usize + 1
        } else {
            0
        };
        self.buf.len() + tail
    }

    /// Appends the encoded data of every value put since the last flush to `out`, and starts
    /// again empty.
    pub fn flush_into(&mut self, out: &mut Vec<u8>) {
        self.finish();
        out.extend_from_slice(&self.buf);
        self.buf.clear();
        self.written = 0;
    }

    /// Writes out the open runs and the pending values.
    fn finish(&mut self) {
        if self.rle_len > 0 {
            self.end_rle_run();
        }
        let n = self.num_pending;
        if n > 0 {
            let first = self.pending[0];
            let equal = self.pending[..n].iter().all(|&v| v == first);
            let rle = 1 + self.bit_width.div_ceil(8) as usize;
            let packed = self.bit_width as usize + usize::from(self.packed_header.is_none());
            if equal && rle <= packed {
                self.close_packed_run();
                self.write_rle_run(first, n);
            } else {
                // The page's last group: padded with zeros.
                self.pending[n..].fill(0);
                self.pack_group();
            }
            self.num_pending = 0;
        }
        self.close_packed_run();
    }

    /// The pending group has 8 values: it starts an RLE run if they are equal, else it joins
    /// the open bit-packed run.
    #[inline]
    fn end_group(&mut self) {
        self.num_pending = 0;
        let first = self.pending[0];
        if self.pending.iter().all(|&v| v == first) {
            self.close_packed_run();
            self.rle_value = first;
            self.rle_len = 8;
        } else {
            self.pack_group();
        }
    }

    /// Writes the 8 pending values to the open bit-packed run, opening one if needed.
    fn pack_group(&mut self) {
        self.open_packed_run();
        (self.pack)(&self.pending, &mut self.buf);
        self.end_packed_groups(1);
    }

    /// Writes a group of 8 values of bit width 1, packed into `byte`, as [`Self::pack_group`].
    fn pack_byte(&mut self, byte: u8) {
        self.open_packed_run();
        self.buf.push(byte);
        self.end_packed_groups(1);
    }

    /// Opens a bit-packed run, if none is open, before a group is written.
    #[inline]
    fn open_packed_run(&mut self) {
        if self.packed_header.is_none() {
            self.packed_header = Some(self.buf.len());
            self.buf.push(0);
        }
    }

    /// Counts `groups` just written to the open bit-packed run, closing it when full.
    #[inline]
    fn end_packed_groups(&mut self, groups: usize) {
        self.written += 8 * groups;
        self.packed_groups += groups;
        if self.packed_groups == MAX_GROUPS_PER_RUN {
            self.close_packed_run();
        }
    }

    /// Writes the open RLE run.
    fn end_rle_run(&mut self) {
        self.write_rle_run(self.rle_value, self.rle_len);
        self.rle_len = 0;
    }

    /// Writes the open bit-packed run's header, if one is open.
    #[inline]
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
        self.written += count;
        write_uleb128(&mut self.buf, (count as u64) << 1);
        let width_bytes = self.bit_width.div_ceil(8) as usize;
        // A fixed-size append then a cut: no variable-length copy.
        let len = self.buf.len();
        self.buf.extend_from_slice(&value.to_le_bytes());
        self.buf.truncate(len + width_bytes);
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
        let mut chunk = [false; 256];
        let mut n = 0;
        for &v in values {
            if let Some(slot) = chunk.get_mut(n) {
                *slot = v;
                n += 1;
            }
            if n == chunk.len() {
                self.inner.put_bools(&chunk);
                n = 0;
            }
        }
        self.inner.put_bools(chunk.get(..n).unwrap_or(&[]));
        Ok(())
    }

    fn put_slice(&mut self, values: &[bool]) -> Result<()> {
        self.inner.put_bools(values);
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
