use pqcodec_core::{ByteArrayType, Decoder, Encoding, Error, Int32Type, Result, Sink};

use crate::delta_binary_packed::{DeltaBinaryPackedDecoder, reserve_bound};

/// Streaming DELTA_LENGTH_BYTE_ARRAY decoder of BYTE_ARRAY values.
///
/// Lengths are decoded a chunk at a time; each chunk's total is checked against the data once,
/// then its values are handed to the sink as slices of the page. Nothing is allocated.
#[derive(Debug, Clone)]
pub struct DeltaLengthByteArrayDecoder<'a> {
    lengths: DeltaBinaryPackedDecoder<'a, Int32Type>,
    /// The concatenated values.
    data: &'a [u8],
    /// Offset in `data` of the next value.
    pos: usize,
    /// The encoding errors are reported as (this one, or DELTA_BYTE_ARRAY for its suffixes).
    encoding: Encoding,
}

impl<'a> DeltaLengthByteArrayDecoder<'a> {
    /// A decoder of the first `num_values` values of the page `data`.
    ///
    /// Fails if the lengths' header is malformed or holds fewer than `num_values` lengths
    /// ([`Error::CountTooLarge`]), or if the lengths' blocks run past the data.
    pub fn new(data: &'a [u8], num_values: usize) -> Result<Self> {
        Self::nested(
            data,
            num_values,
            Encoding::DeltaLengthByteArray,
            "length count",
        )
    }

    /// Like [`Self::new`], reporting errors as `encoding`'s and a short header as `count_field`.
    pub(crate) fn nested(
        data: &'a [u8],
        num_values: usize,
        encoding: Encoding,
        count_field: &'static str,
    ) -> Result<Self> {
        let lengths = DeltaBinaryPackedDecoder::nested(data, num_values, encoding, count_field)?;
        let start = lengths.end_offset()?;
        let data = data
            .get(start..)
            .ok_or_else(|| Error::truncated(encoding, "lengths", start, data.len()))?;
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

    /// The next up to `max` lengths (at least one if any value remains and `max > 0`), and the
    /// bytes of their values, checked: no length is negative and the data holds them all.
    #[inline]
    pub(crate) fn next_chunk(&mut self, max: usize) -> Result<(&[i32], &'a [u8])> {
        let lengths = self.lengths.next_slice(max)?;
        let mut total = 0usize;
        for &len in lengths {
            let len = usize::try_from(len).map_err(|_| {
                Error::invalid(self.encoding, "length", format!("negative length {len}"))
            })?;
            total = total.saturating_add(len);
        }
        let bytes = self
            .data
            .get(self.pos..)
            .and_then(|rest| rest.get(..total))
            .ok_or_else(|| {
                Error::truncated(
                    self.encoding,
                    "byte array data",
                    total,
                    self.data.len() - self.pos,
                )
            })?;
        self.pos += total;
        Ok((lengths, bytes))
    }
}

/// Splits `bytes` into the values of `lengths` (which [`DeltaLengthByteArrayDecoder::next_chunk`]
/// checked), calling `f` on each.
#[inline]
pub(crate) fn for_each_value<'b>(
    lengths: &[i32],
    mut bytes: &'b [u8],
    mut f: impl FnMut(&'b [u8]) -> Result<()>,
) -> Result<()> {
    for &len in lengths {
        let (value, rest) = bytes.split_at_checked(len as usize).unwrap_or((bytes, &[]));
        f(value)?;
        bytes = rest;
    }
    Ok(())
}

impl Decoder<ByteArrayType> for DeltaLengthByteArrayDecoder<'_> {
    fn remaining(&self) -> usize {
        self.lengths.remaining()
    }

    fn read<S: Sink<[u8]> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize> {
        let want = max.min(self.remaining());
        out.reserve(want.min(reserve_bound(self.data.len())));
        let mut done = 0;
        while done < want {
            let (lengths, bytes) = self.next_chunk(want - done)?;
            if lengths.is_empty() {
                break;
            }
            done += lengths.len();
            out.reserve_bytes(bytes.len());
            for_each_value(lengths, bytes, |value| {
                out.push(value);
                Ok(())
            })?;
        }
        Ok(done)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        let want = n.min(self.remaining());
        let mut done = 0;
        while done < want {
            let (lengths, _) = self.next_chunk(want - done)?;
            if lengths.is_empty() {
                break;
            }
            done += lengths.len();
        }
        Ok(done)
    }
}
