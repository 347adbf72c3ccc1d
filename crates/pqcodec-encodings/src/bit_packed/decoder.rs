//! Decoding BIT_PACKED levels.

use bytes::Bytes;
use pqcodec_core::{Encoding, Error, Result, Sink};

use super::MAX_BIT_WIDTH;
use crate::kernels::bitpack::packed_len;

/// Values unpacked at a time into a stack buffer.
const CHUNK: usize = 256;

/// A streaming decoder of BIT_PACKED (MSB-first) values of 0 to 32 bits.
#[derive(Debug, Clone)]
pub struct BitPackedDecoder {
    data: Bytes,
    bit_width: u32,
    /// Index of the next value.
    pos: usize,
    /// Index one past the last value.
    end: usize,
}

impl BitPackedDecoder {
    /// A decoder of `num_values` values of `bit_width` bits (at most 32, else
    /// [`Error::BitWidth`]); fails with [`Error::Truncated`] if `data` is shorter than the
    /// `ceil(num_values * bit_width / 8)` bytes they take. Bytes after those are ignored.
    pub fn new(data: Bytes, num_values: usize, bit_width: u32) -> Result<Self> {
        if bit_width > MAX_BIT_WIDTH {
            return Err(Error::BitWidth {
                encoding: Encoding::BitPacked,
                field: "bit width",
                width: bit_width,
                max: MAX_BIT_WIDTH,
            });
        }
        let needed = packed_len(num_values, bit_width);
        if needed > data.len() {
            return Err(Error::truncated(
                Encoding::BitPacked,
                "values",
                needed,
                data.len(),
            ));
        }
        Ok(BitPackedDecoder {
            data: data.slice(..needed),
            bit_width,
            pos: 0,
            end: num_values,
        })
    }

    /// The bit width values are decoded at.
    pub fn bit_width(&self) -> u32 {
        self.bit_width
    }

    /// Values not yet read or skipped.
    pub fn remaining(&self) -> usize {
        self.end - self.pos
    }

    /// Appends up to `max` values to `out`, a chunk at a time, and returns how many: fewer
    /// only at the end of the page.
    pub fn read<S: Sink<u32> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize> {
        let n = max.min(self.remaining());
        out.reserve(n);
        let mut buf = [0u32; CHUNK];
        let stop = self.pos + n;
        while self.pos < stop {
            let k = (stop - self.pos).min(CHUNK);
            let chunk = &mut buf[..k];
            unpack_msb(&self.data, self.bit_width, self.pos, chunk);
            out.extend_from_slice(chunk);
            self.pos += k;
        }
        Ok(n)
    }

    /// Skips up to `n` values and returns how many; nothing is unpacked.
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        let n = n.min(self.remaining());
        self.pos += n;
        Ok(n)
    }
}

/// Unpacks `out.len()` MSB-first values of `width` bits starting at value `start`; `data` holds
/// at least `packed_len(start + out.len(), width)` bytes (reads past the end count as zeros).
fn unpack_msb(data: &[u8], width: u32, start: usize, out: &mut [u32]) {
    if width == 0 {
        out.fill(0);
        return;
    }
    let w = width as usize;
    for (i, o) in out.iter_mut().enumerate() {
        let bit = (start + i) * w;
        let byte = bit / 8;
        let word = match data.get(byte..byte + 8) {
            Some(b) => u64::from_be_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
            None => {
                let mut b = [0u8; 8];
                let tail = data.get(byte..).unwrap_or(&[]);
                let k = tail.len().min(8);
                b[..k].copy_from_slice(&tail[..k]);
                u64::from_be_bytes(b)
            }
        };
        // bit % 8 + width <= 7 + 32 bits of the 64 read: the value sits whole in `word`.
        *o = ((word << (bit % 8)) >> (64 - width)) as u32;
    }
}
