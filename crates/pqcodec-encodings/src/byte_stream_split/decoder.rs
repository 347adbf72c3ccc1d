//! The BYTE_STREAM_SPLIT decoder and its gathering kernels.

use std::marker::PhantomData;

use pqcodec_core::{Decoder, Encoding, Error, NativeType, Result, Sink};

use super::ByteStreamSplitType;

/// Values gathered per stack chunk before they reach the sink as one slice.
const CHUNK: usize = 256;

/// Bytes of FIXED_LEN_BYTE_ARRAY values gathered per chunk (at least one value).
const SCRATCH_BYTES: usize = 4096;

/// A streaming BYTE_STREAM_SPLIT decoder of one page's values of physical type `T`.
///
/// Reads gather each value's bytes from the K streams, a chunk of values at a time; skipping
/// only moves the position.
#[derive(Debug, Clone)]
pub struct ByteStreamSplitDecoder<'a, T: ByteStreamSplitType> {
    data: &'a [u8],
    /// N, the length of each stream: the number of values the page holds.
    stream_len: usize,
    /// K, the width of a value in bytes.
    width: usize,
    /// Index of the next value.
    pos: usize,
    remaining: usize,
    /// Where FIXED_LEN_BYTE_ARRAY values are put together; unused by the other types.
    scratch: Vec<u8>,
    _type: PhantomData<T>,
}

impl<'a, T: ByteStreamSplitType> ByteStreamSplitDecoder<'a, T> {
    /// A decoder of the first `num_values` values of the page `data`.
    ///
    /// `type_length` is K for FIXED_LEN_BYTE_ARRAY (an error if 0) and ignored otherwise.
    /// `data.len()` must be a multiple of K ([`Error::Invalid`] if not); the page then holds
    /// N = `data.len() / K` values, and `num_values > N` is [`Error::CountTooLarge`].
    pub fn new(data: &'a [u8], num_values: usize, type_length: usize) -> Result<Self> {
        let width = T::split_width(type_length)?;
        if !data.len().is_multiple_of(width) {
            return Err(Error::invalid(
                Encoding::ByteStreamSplit,
                "page length",
                format!(
                    "{} bytes is not a multiple of the value width {width}",
                    data.len()
                ),
            ));
        }
        let stream_len = data.len() / width;
        if num_values > stream_len {
            return Err(Error::CountTooLarge {
                encoding: Encoding::ByteStreamSplit,
                field: "num_values",
                count: num_values as u64,
                capacity: stream_len as u64,
            });
        }
        Ok(ByteStreamSplitDecoder {
            data,
            stream_len,
            width,
            pos: 0,
            remaining: num_values,
            scratch: Vec::new(),
            _type: PhantomData,
        })
    }
}

impl<T: ByteStreamSplitType> Decoder<T> for ByteStreamSplitDecoder<'_, T> {
    fn remaining(&self) -> usize {
        self.remaining
    }

    fn read<S: Sink<T::Value> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize> {
        let n = max.min(self.remaining);
        if n == 0 {
            return Ok(0);
        }
        T::gather(
            self.data,
            self.stream_len,
            self.width,
            self.pos,
            n,
            out,
            &mut self.scratch,
        )?;
        self.pos += n;
        self.remaining -= n;
        Ok(n)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        let n = n.min(self.remaining);
        self.pos += n;
        self.remaining -= n;
        Ok(n)
    }
}

/// The `count` bytes of stream `k` from value `start` on.
#[inline]
fn stream(data: &[u8], stream_len: usize, k: usize, start: usize, count: usize) -> Result<&[u8]> {
    let from = k.checked_mul(stream_len).and_then(|s| s.checked_add(start));
    let bytes = from.and_then(|from| data.get(from..from.checked_add(count)?));
    bytes.ok_or_else(|| {
        Error::truncated(
            Encoding::ByteStreamSplit,
            "stream",
            count,
            data.len().saturating_sub(from.unwrap_or(usize::MAX)),
        )
    })
}

/// Values gathered per block by the fixed-width kernel.
const BLOCK: usize = 64;

/// Gathers fixed-width values of `K` (= `N::SIZE`) bytes, a stack chunk at a time: blocks of
/// 64 values are put together from 64-byte runs of the K streams.
pub(super) fn gather_natives<N: NativeType, const K: usize, S: Sink<N> + ?Sized>(
    data: &[u8],
    stream_len: usize,
    start: usize,
    count: usize,
    out: &mut S,
) -> Result<()> {
    debug_assert_eq!(K, N::SIZE);
    out.reserve(count);
    let mut values = [N::default(); CHUNK];
    let mut done = 0;
    while done < count {
        let c = (count - done).min(CHUNK);
        let mut streams: [&[u8]; K] = [&[]; K];
        for (k, s) in streams.iter_mut().enumerate() {
            *s = stream(data, stream_len, k, start + done, c)?;
        }
        let mut j = 0;
        while j + BLOCK <= c {
            let mut blocks: [&[u8; BLOCK]; K] = [&[0; BLOCK]; K];
            for (block, s) in blocks.iter_mut().zip(&streams) {
                if let Some(run) = s.get(j..j + BLOCK).and_then(|r| r.try_into().ok()) {
                    *block = run;
                }
            }
            let Some(dst) = values
                .get_mut(j..j + BLOCK)
                .and_then(|d| <&mut [N; BLOCK]>::try_from(d).ok())
            else {
                break;
            };
            for t in 0..BLOCK {
                let mut bytes = [0u8; K];
                for k in 0..K {
                    bytes[k] = blocks[k][t];
                }
                dst[t] = N::from_le_slice(&bytes);
            }
            j += BLOCK;
        }
        for (t, value) in values.iter_mut().enumerate().take(c).skip(j) {
            let mut bytes = [0u8; K];
            for (b, s) in bytes.iter_mut().zip(&streams) {
                *b = s.get(t).copied().unwrap_or_default();
            }
            *value = N::from_le_slice(&bytes);
        }
        out.extend_from_slice(&values[..c]);
        done += c;
    }
    Ok(())
}

/// Gathers FIXED_LEN_BYTE_ARRAY values of `width` bytes through `scratch`.
pub(super) fn gather_fixed_len<S: Sink<[u8]> + ?Sized>(
    data: &[u8],
    stream_len: usize,
    width: usize,
    start: usize,
    count: usize,
    out: &mut S,
    scratch: &mut Vec<u8>,
) -> Result<()> {
    out.reserve(count);
    out.reserve_bytes(count.saturating_mul(width));
    let per_chunk = (SCRATCH_BYTES / width).max(1);
    let mut done = 0;
    while done < count {
        let c = (count - done).min(per_chunk);
        scratch.clear();
        scratch.resize(c * width, 0);
        for k in 0..width {
            let s = stream(data, stream_len, k, start + done, c)?;
            for (slot, &byte) in scratch.iter_mut().skip(k).step_by(width).zip(s) {
                *slot = byte;
            }
        }
        for value in scratch.chunks_exact(width) {
            out.push(value);
        }
        done += c;
    }
    Ok(())
}
