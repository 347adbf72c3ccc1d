use std::ops::Range;

use bytes::Bytes;
use pqcodec_core::{
    ByteArrayType, Data, Decoder, Encoding, Error, Int32Type, Lengths, Result, Sink,
};

use crate::delta_binary_packed::{CHUNK, DeltaBinaryPackedDecoder, Piece, reserve_bound};

/// Streaming DELTA_LENGTH_BYTE_ARRAY decoder of BYTE_ARRAY values.
///
/// Lengths are decoded a chunk at a time; each chunk's total is checked against the data once,
/// then the chunk reaches the sink in one [`Sink::extend_back_to_back`] call (the lengths and
/// the contiguous bytes of their values). Nothing is allocated.
#[derive(Debug, Clone)]
pub struct DeltaLengthByteArrayDecoder {
    lengths: DeltaBinaryPackedDecoder<Int32Type>,
    /// The concatenated values.
    data: Bytes,
    /// Offset in `data` of the next value.
    pos: usize,
    /// The encoding errors are reported as (this one, or DELTA_BYTE_ARRAY for its suffixes).
    encoding: Encoding,
}

impl DeltaLengthByteArrayDecoder {
    /// A decoder of the first `num_values` values of the page `data`.
    ///
    /// Fails if the lengths' header is malformed or holds fewer than `num_values` lengths
    /// ([`Error::CountTooLarge`]), or if the lengths' blocks run past the data.
    pub fn new(data: Bytes, num_values: usize) -> Result<Self> {
        Self::nested(
            data,
            num_values,
            Encoding::DeltaLengthByteArray,
            "length count",
        )
    }

    /// Like [`Self::new`], reporting errors as `encoding`'s and a short header as `count_field`.
    pub(crate) fn nested(
        data: Bytes,
        num_values: usize,
        encoding: Encoding,
        count_field: &'static str,
    ) -> Result<Self> {
        let lengths =
            DeltaBinaryPackedDecoder::nested(data.clone(), num_values, encoding, count_field)?;
        let start = lengths.end_offset()?;
        if start > data.len() {
            return Err(Error::truncated(encoding, "lengths", start, data.len()));
        }
        let data = data.slice(start..);
        Ok(DeltaLengthByteArrayDecoder {
            lengths,
            data,
            pos: 0,
            encoding,
        })
    }

    /// Bytes of value data not read yet.
    pub(crate) fn bytes_left(&self) -> usize {
        self.data.len() - self.pos
    }

    /// Writes the next up to `max` (at most [`CHUNK`]) lengths into `lengths` and returns how
    /// many (at least one if any value remains and `max > 0`) and where the bytes of their
    /// values are in [`Self::values`], checked: no length is negative and the data holds them
    /// all.
    #[inline]
    pub(crate) fn next_chunk(
        &mut self,
        max: usize,
        lengths: &mut [u32; CHUNK],
    ) -> Result<(usize, Range<usize>)> {
        let decoded = self.lengths.next_slice(max.min(CHUNK))?;
        let mut total = 0u64;
        let mut negative = false;
        for (slot, &len) in lengths.iter_mut().zip(decoded) {
            negative |= len < 0;
            *slot = len as u32;
            total += u64::from(len as u32);
        }
        if negative {
            let len = decoded.iter().copied().find(|&l| l < 0).unwrap_or(-1);
            return Err(negative_length(self.encoding, len));
        }
        let count = decoded.len();
        let start = self.pos;
        take_bytes(self.encoding, &self.data, &mut self.pos, total)?;
        Ok((count, start..self.pos))
    }

    /// Takes the next up to `max` lengths as [`DeltaBinaryPackedDecoder::next_piece`] hands
    /// them out (a run of equal lengths in constant time) and the bytes of their values,
    /// checked as by [`Self::next_chunk`]. Empty only when no value remains or `max` is 0.
    pub(crate) fn next_piece(&mut self, max: usize) -> Result<(Piece<'_, i32>, &[u8])> {
        let (piece, negative, total) = match self.lengths.next_piece(max)? {
            Piece::Values(lengths) => {
                let total = lengths.iter().map(|&l| u64::from(l as u32)).sum::<u64>();
                let negative = lengths.iter().copied().find(|&l| l < 0);
                (Piece::Values(lengths), negative, total)
            }
            Piece::Repeat { count, value } => {
                let total = u64::from(value as u32).saturating_mul(count as u64);
                let piece = Piece::Repeat { count, value };
                (piece, (value < 0).then_some(value), total)
            }
        };
        if let Some(len) = negative {
            return Err(negative_length(self.encoding, len));
        }
        let bytes = take_bytes(self.encoding, &self.data, &mut self.pos, total)?;
        Ok((piece, bytes))
    }

    /// The values' bytes, all of them.
    pub(crate) fn values(&self) -> &[u8] {
        &self.data
    }
}

impl Decoder<ByteArrayType> for DeltaLengthByteArrayDecoder {
    fn remaining(&self) -> usize {
        self.lengths.remaining()
    }

    fn read<S: Sink<[u8]> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize> {
        let want = max.min(self.remaining());
        out.reserve(want.min(reserve_bound(self.data.len())));
        if want == self.remaining() {
            // The rest of the page: its values are the rest of the data.
            out.reserve_bytes(self.bytes_left());
        }
        let mut lengths = [0u32; CHUNK];
        let mut done = 0;
        while done < want {
            let (count, bytes) = self.next_chunk(want - done, &mut lengths)?;
            if count == 0 {
                break;
            }
            done += count;
            out.extend_back_to_back(
                Data::in_buffer(&self.data, bytes),
                Lengths::Each(lengths.get(..count).unwrap_or_default()),
            );
        }
        Ok(done)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        let want = n.min(self.remaining());
        let mut done = 0;
        while done < want {
            let count = self.next_piece(want - done)?.0.len();
            if count == 0 {
                break;
            }
            done += count;
        }
        Ok(done)
    }
}

fn negative_length(encoding: Encoding, len: i32) -> Error {
    Error::invalid(encoding, "length", format!("negative length {len}"))
}

/// The next `total` bytes of `data` from `pos`, moving `pos` past them, or the error of a page
/// too short for them.
fn take_bytes<'a>(
    encoding: Encoding,
    data: &'a [u8],
    pos: &mut usize,
    total: u64,
) -> Result<&'a [u8]> {
    let rest = data.get(*pos..).unwrap_or_default();
    let bytes = usize::try_from(total)
        .ok()
        .and_then(|total| rest.get(..total))
        .ok_or_else(|| {
            Error::truncated(
                encoding,
                "byte array data",
                usize::try_from(total).unwrap_or(usize::MAX),
                rest.len(),
            )
        })?;
    *pos += bytes.len();
    Ok(bytes)
}
