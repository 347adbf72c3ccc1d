//! The BYTE_STREAM_SPLIT decoder and its gathering kernels.

use std::marker::PhantomData;

use bytes::Bytes;
use pqcodec_core::{Decoder, Encoding, Error, NativeType, Result, Sink};

use super::ByteStreamSplitType;
use super::transpose;
use crate::kernels::simd::Isa;

/// Bytes of values joined per chunk (at least one value).
const CHUNK_BYTES: usize = 8192;

/// A streaming BYTE_STREAM_SPLIT decoder of one page's values of physical type `T`.
///
/// Reads join the K streams into whole values a chunk at a time (with the best SIMD kernel
/// the machine runs) and append each chunk to the sink at once; skipping only moves the
/// position.
#[derive(Debug, Clone)]
pub struct ByteStreamSplitDecoder<T: ByteStreamSplitType> {
    data: Bytes,
    /// N, the length of each stream: the number of values the page holds.
    stream_len: usize,
    /// K, the width of a value in bytes.
    width: usize,
    /// Index of the next value.
    pos: usize,
    remaining: usize,
    /// Where a chunk of values is put together.
    scratch: Vec<u8>,
    _type: PhantomData<T>,
}

impl<T: ByteStreamSplitType> ByteStreamSplitDecoder<T> {
    /// A decoder of the first `num_values` values of type `ty` in the page `data`.
    ///
    /// K is the width of `ty`'s values (the type length for FIXED_LEN_BYTE_ARRAY).
    /// `data.len()` must be a multiple of K ([`Error::Invalid`] if not); the page then holds
    /// N = `data.len() / K` values, and `num_values > N` is [`Error::CountTooLarge`].
    pub fn new(data: Bytes, num_values: usize, ty: T) -> Result<Self> {
        let width = ty.split_width();
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

impl<T: ByteStreamSplitType> Decoder<T> for ByteStreamSplitDecoder<T> {
    fn remaining(&self) -> usize {
        self.remaining
    }

    fn read<S: Sink<T::Value> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize> {
        let n = max.min(self.remaining);
        if n == 0 {
            return Ok(0);
        }
        T::gather(
            &self.data,
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

/// Joins values `start .. start + count` of the page's streams into `scratch`, a chunk of
/// at most [`CHUNK_BYTES`] at a time, and hands each chunk's bytes (whole values) to `emit`.
#[inline]
fn join_chunks(
    data: &[u8],
    stream_len: usize,
    width: usize,
    start: usize,
    count: usize,
    scratch: &mut Vec<u8>,
    mut emit: impl FnMut(&[u8]),
) -> Result<()> {
    let per_chunk = (CHUNK_BYTES / width).max(1);
    let chunk_bytes = count.min(per_chunk) * width;
    if scratch.len() < chunk_bytes {
        scratch.resize(chunk_bytes, 0);
    }
    let isa = Isa::best();
    let mut done = 0;
    while done < count {
        let c = (count - done).min(per_chunk);
        let Some(buf) = scratch.get_mut(..c * width) else {
            return Err(truncated(data, stream_len, width, start + done, c));
        };
        if !transpose::join(isa, data, stream_len, start + done, width, buf) {
            return Err(truncated(data, stream_len, width, start + done, c));
        }
        emit(buf);
        done += c;
    }
    Ok(())
}

/// The error for values `start .. start + count` that the last stream does not hold.
#[cold]
fn truncated(data: &[u8], stream_len: usize, width: usize, start: usize, count: usize) -> Error {
    let from = (width.saturating_sub(1))
        .checked_mul(stream_len)
        .and_then(|s| s.checked_add(start));
    Error::truncated(
        Encoding::ByteStreamSplit,
        "stream",
        count,
        data.len().saturating_sub(from.unwrap_or(usize::MAX)),
    )
}

/// Appends values `start .. start + count` of `N::SIZE` bytes: joined in place where the sink
/// holds values as little-endian bytes ([`Sink::grow_le_bytes`]), else a chunk at a time.
pub(super) fn gather_natives<N: NativeType, S: Sink<N> + ?Sized>(
    data: &[u8],
    stream_len: usize,
    start: usize,
    count: usize,
    out: &mut S,
    scratch: &mut Vec<u8>,
) -> Result<()> {
    out.reserve(count);
    // Straight into the sink's memory where it can take them so, a chunk at a time so that
    // the sink's zeroing of the chunk and the join's writes meet in the first-level cache;
    // checked first so that the sink grows only by values that are then written.
    let mut done = 0;
    if transpose::joinable(data.len(), stream_len, start, N::SIZE, count) {
        let isa = Isa::best();
        let per_chunk = CHUNK_BYTES / N::SIZE;
        while done < count {
            let c = (count - done).min(per_chunk);
            let Some(dst) = out.grow_le_bytes(c) else {
                break;
            };
            let joined = transpose::join(isa, data, stream_len, start + done, N::SIZE, dst);
            debug_assert!(joined, "checked by joinable");
            done += c;
        }
    }
    // The rest (all, for a sink without in-place values) joined in scratch and copied.
    if done == count {
        return Ok(());
    }
    join_chunks(
        data,
        stream_len,
        N::SIZE,
        start + done,
        count - done,
        scratch,
        |bytes| {
            out.extend_from_le_bytes(bytes.into());
        },
    )
}

/// Appends FIXED_LEN_BYTE_ARRAY values of `width` bytes, a chunk at a time.
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
    join_chunks(data, stream_len, width, start, count, scratch, |bytes| {
        for value in bytes.chunks_exact(width) {
            out.push(value);
        }
    })
}
