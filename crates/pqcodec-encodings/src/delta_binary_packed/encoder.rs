use num_traits::WrappingSub;
use pqcodec_core::{Encoder, Encoding, Integer, IntegerNative, Result};

use super::Layout;
use crate::kernels::bitpack::bit_width;
use crate::kernels::pack8x64_for;
use crate::kernels::varint::{write_uleb128, zigzag_encode};

/// DELTA_BINARY_PACKED encoder of INT32 or INT64 values.
///
/// Deltas are taken in the type's width (wrapping), each block stores its minimum delta and
/// each miniblock the bit width of its largest delta over that minimum. The last miniblock is
/// padded with zero bits; the unneeded miniblocks of the last block get bit width 0 and no
/// bytes.
#[derive(Debug, Clone)]
pub struct DeltaBinaryPackedEncoder<T: Integer> {
    layout: Layout,
    /// Values put since the last flush.
    count: usize,
    first: T::Int,
    last: T::Int,
    /// Deltas of the block being filled (fewer than a block).
    deltas: Vec<T::Int>,
    /// The finished blocks.
    blocks: Vec<u8>,
}

impl<T: Integer> Default for DeltaBinaryPackedEncoder<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Integer> DeltaBinaryPackedEncoder<T> {
    /// An encoder writing blocks of 128 values in 4 miniblocks of 32.
    pub fn new() -> Self {
        Self::with_layout(Layout {
            block_size: 128,
            miniblocks: 4,
            miniblock_size: 32,
        })
    }

    /// An encoder writing blocks of `block_size` values in `miniblocks` miniblocks: the block
    /// size must be a positive multiple of 128 and the miniblocks hold a multiple of 32 values
    /// each, else [`Error::Invalid`](pqcodec_core::Error::Invalid).
    pub fn with_block_size(block_size: usize, miniblocks: usize) -> Result<Self> {
        Ok(Self::with_layout(Layout::checked(
            Encoding::DeltaBinaryPacked,
            block_size as u64,
            miniblocks as u64,
        )?))
    }

    /// An encoder of the spec's examples' layouts (blocks of 8 values), invalid in real files.
    #[cfg(test)]
    pub(crate) fn lenient(block_size: usize, miniblocks: usize) -> Result<Self> {
        Ok(Self::with_layout(Layout::new(
            Encoding::DeltaBinaryPacked,
            block_size as u64,
            miniblocks as u64,
            8,
            8,
        )?))
    }

    fn with_layout(layout: Layout) -> Self {
        DeltaBinaryPackedEncoder {
            layout,
            count: 0,
            first: T::Int::default(),
            last: T::Int::default(),
            deltas: Vec::with_capacity(layout.block_size.min(1 << 16)),
            blocks: Vec::new(),
        }
    }

    /// Appends one value.
    #[inline]
    pub(crate) fn push(&mut self, value: T::Int) {
        if self.count == 0 {
            self.first = value;
        } else {
            self.deltas.push(value.wrapping_sub(&self.last));
            if self.deltas.len() >= self.layout.block_size {
                self.flush_block();
            }
        }
        self.last = value;
        self.count += 1;
    }

    /// Writes the pending deltas as a block: the min delta, the miniblocks' bit widths, then
    /// each needed miniblock packed 8 values at a time by a width-specialised kernel.
    fn flush_block(&mut self) {
        let Some(&min) = self.deltas.iter().min() else {
            return;
        };
        write_uleb128(&mut self.blocks, zigzag_encode(min.to_i64()));
        let widths_at = self.blocks.len();
        self.blocks.resize(widths_at + self.layout.miniblocks, 0);
        let size = self.layout.miniblock_size;
        for (i, miniblock) in self.deltas.chunks(size).enumerate() {
            let relative = |d: &T::Int| d.wrapping_sub(&min).to_u64_bits();
            // The width of the largest relative delta is that of their bitwise or.
            let width = bit_width(miniblock.iter().fold(0, |acc, d| acc | relative(d)));
            if let Some(slot) = self.blocks.get_mut(widths_at + i) {
                *slot = width as u8;
            }
            let pack8 = pack8x64_for(width);
            let mut groups = miniblock.chunks_exact(8);
            for group in &mut groups {
                let mut g = [0u64; 8];
                for (r, d) in g.iter_mut().zip(group) {
                    *r = relative(d);
                }
                pack8(&g, &mut self.blocks);
            }
            let rest = groups.remainder();
            let mut packed_groups = miniblock.len() / 8;
            if !rest.is_empty() {
                // The last values, padded with zeros.
                let mut g = [0u64; 8];
                for (r, d) in g.iter_mut().zip(rest) {
                    *r = relative(d);
                }
                pack8(&g, &mut self.blocks);
                packed_groups += 1;
            }
            // Whole groups of zero padding up to the miniblock's size (a multiple of 8).
            let padding = (size / 8).saturating_sub(packed_groups) * width as usize;
            self.blocks.resize(self.blocks.len() + padding, 0);
        }
        self.deltas.clear();
    }
}

impl<T: Integer> Encoder<T> for DeltaBinaryPackedEncoder<T> {
    fn put<'v, I>(&mut self, values: I) -> Result<()>
    where
        I: IntoIterator<Item = &'v T::Value>,
        T::Value: 'v,
    {
        let mut values = values.into_iter();
        if self.count == 0 {
            match values.next() {
                Some(&v) => self.push(v),
                None => return Ok(()),
            }
        }
        // The first value is set: every other one is a delta.
        let mut last = self.last;
        let mut count = self.count;
        for &v in values {
            self.deltas.push(v.wrapping_sub(&last));
            last = v;
            count += 1;
            if self.deltas.len() >= self.layout.block_size {
                self.flush_block();
            }
        }
        self.last = last;
        self.count = count;
        Ok(())
    }

    fn num_values(&self) -> usize {
        self.count
    }

    fn estimated_size(&self) -> usize {
        // An upper bound: the header, the finished blocks, and the pending deltas at full
        // width, padded to whole miniblocks.
        let padded = self
            .deltas
            .len()
            .next_multiple_of(self.layout.miniblock_size);
        4 * 10
            + self.blocks.len()
            + 10
            + self.layout.miniblocks
            + padded * <T::Int as IntegerNative>::BITS as usize / 8
    }

    fn flush_into(&mut self, out: &mut Vec<u8>) -> Result<()> {
        self.flush_block();
        write_uleb128(out, self.layout.block_size as u64);
        write_uleb128(out, self.layout.miniblocks as u64);
        write_uleb128(out, self.count as u64);
        let first = if self.count > 0 {
            self.first.to_i64()
        } else {
            0
        };
        write_uleb128(out, zigzag_encode(first));
        out.extend_from_slice(&self.blocks);
        self.blocks.clear();
        self.count = 0;
        self.first = T::Int::default();
        self.last = T::Int::default();
        Ok(())
    }
}
