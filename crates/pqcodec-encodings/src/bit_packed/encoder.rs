//! Encoding BIT_PACKED levels.

use super::MAX_BIT_WIDTH;

/// An encoder of values of up to 32 bits into BIT_PACKED (MSB-first) bytes.
///
/// The bit width is clamped to 32, and bits of a value above the bit width are dropped:
/// callers pass levels that fit.
#[derive(Debug, Clone)]
pub struct BitPackedEncoder {
    bit_width: u32,
    buf: Vec<u8>,
    /// Bits not yet written, in the low `bits` bits.
    acc: u64,
    bits: u32,
    num_values: usize,
}

impl BitPackedEncoder {
    /// An encoder of values of `bit_width` bits (at most 32).
    pub fn new(bit_width: u32) -> Self {
        BitPackedEncoder {
            bit_width: bit_width.min(MAX_BIT_WIDTH),
            buf: Vec::new(),
            acc: 0,
            bits: 0,
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
        self.num_values += 1;
        let w = self.bit_width;
        if w == 0 {
            return;
        }
        let mask = (1u64 << w) - 1;
        // bits < 8 before, so at most 7 + 32 bits are held.
        self.acc = (self.acc << w) | (u64::from(value) & mask);
        self.bits += w;
        while self.bits >= 8 {
            self.bits -= 8;
            self.buf.push((self.acc >> self.bits) as u8);
        }
        self.acc &= (1u64 << self.bits) - 1;
    }

    /// Values put since the last flush.
    pub fn num_values(&self) -> usize {
        self.num_values
    }

    /// How many bytes [`BitPackedEncoder::flush_into`] would write now.
    pub fn estimated_size(&self) -> usize {
        self.buf.len() + usize::from(self.bits > 0)
    }

    /// Appends the bytes of every value put since the last flush, the last byte padded with
    /// zeros, to `out`, and starts again empty.
    pub fn flush_into(&mut self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.buf);
        if self.bits > 0 {
            out.push((self.acc << (8 - self.bits)) as u8);
        }
        self.buf.clear();
        self.acc = 0;
        self.bits = 0;
        self.num_values = 0;
    }
}
