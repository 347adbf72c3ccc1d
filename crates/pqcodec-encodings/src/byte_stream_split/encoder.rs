//! The BYTE_STREAM_SPLIT encoder.

use std::marker::PhantomData;

use pqcodec_core::{Encoder, Encoding, Result};

use super::ByteStreamSplitType;

/// A BYTE_STREAM_SPLIT encoder of values of physical type `T`.
///
/// Values are kept back to back as put and scattered into the K streams when the page is
/// flushed. A FIXED_LEN_BYTE_ARRAY value whose length is not the type length fails the
/// [`Encoder::put`] with [`Error::Value`](pqcodec_core::Error::Value), leaving the page as it
/// was before the call.
#[derive(Debug, Clone)]
pub struct ByteStreamSplitEncoder<T: ByteStreamSplitType> {
    /// The values put so far, each one's K bytes together.
    values: Vec<u8>,
    num_values: usize,
    type_length: usize,
    _type: PhantomData<T>,
}

impl<T: ByteStreamSplitType> ByteStreamSplitEncoder<T> {
    /// An encoder; `type_length` is K for FIXED_LEN_BYTE_ARRAY and is ignored otherwise.
    pub fn new(type_length: usize) -> Self {
        ByteStreamSplitEncoder {
            values: Vec::new(),
            num_values: 0,
            type_length,
            _type: PhantomData,
        }
    }
}

impl<T: ByteStreamSplitType> Default for ByteStreamSplitEncoder<T> {
    fn default() -> Self {
        Self::new(0)
    }
}

impl<T: ByteStreamSplitType> Encoder<T> for ByteStreamSplitEncoder<T> {
    fn put<'v, I>(&mut self, values: I) -> Result<()>
    where
        I: IntoIterator<Item = &'v T::Value>,
        T::Value: 'v,
    {
        let len = self.values.len();
        match T::put_plain(
            &mut self.values,
            self.num_values,
            self.type_length,
            Encoding::ByteStreamSplit,
            values,
        ) {
            Ok(count) => {
                self.num_values += count;
                Ok(())
            }
            Err(e) => {
                self.values.truncate(len);
                Err(e)
            }
        }
    }

    fn num_values(&self) -> usize {
        self.num_values
    }

    fn estimated_size(&self) -> usize {
        self.values.len()
    }

    fn flush_into(&mut self, out: &mut Vec<u8>) -> Result<()> {
        if !self.values.is_empty() {
            let width = T::split_width(self.type_length)?;
            let start = out.len();
            out.resize(start + self.values.len(), 0);
            scatter(
                &self.values,
                width,
                out.get_mut(start..).unwrap_or_default(),
            );
        }
        self.values.clear();
        self.num_values = 0;
        Ok(())
    }
}

/// Values transposed per block by the fixed-width kernel.
const BLOCK: usize = 64;

/// Writes the values in `src` (each `width` bytes, back to back) to `dst` (as long as `src`)
/// as `width` streams: byte `k` of value `i` to `dst[k * n + i]`.
pub(super) fn scatter(src: &[u8], width: usize, dst: &mut [u8]) {
    match width {
        2 => scatter_const::<2>(src, dst),
        4 => scatter_const::<4>(src, dst),
        8 => scatter_const::<8>(src, dst),
        16 => scatter_const::<16>(src, dst),
        _ => scatter_any(src, width, dst),
    }
}

/// [`scatter`] for a width known at compile time: blocks of 64 values are transposed on the
/// stack, then each stream's 64 bytes are copied at once.
fn scatter_const<const K: usize>(src: &[u8], dst: &mut [u8]) {
    let (values, _) = src.as_chunks::<K>();
    let n = values.len();
    let mut streams = [[0u8; BLOCK]; K];
    let mut i = 0;
    while let Some(block) = values
        .get(i..i + BLOCK)
        .and_then(|b| <&[[u8; K]; BLOCK]>::try_from(b).ok())
    {
        for (t, value) in block.iter().enumerate() {
            for (stream, &byte) in streams.iter_mut().zip(value) {
                stream[t] = byte;
            }
        }
        for (k, stream) in streams.iter().enumerate() {
            if let Some(d) = dst.get_mut(k * n + i..k * n + i + BLOCK) {
                d.copy_from_slice(stream);
            }
        }
        i += BLOCK;
    }
    for (t, value) in values.iter().enumerate().skip(i) {
        for (k, &byte) in value.iter().enumerate() {
            if let Some(d) = dst.get_mut(k * n + t) {
                *d = byte;
            }
        }
    }
}

/// [`scatter`] for any width: one stream at a time.
fn scatter_any(src: &[u8], width: usize, dst: &mut [u8]) {
    let n = src.len() / width;
    if n == 0 {
        return;
    }
    for (k, stream) in dst.chunks_exact_mut(n).enumerate() {
        for (d, value) in stream.iter_mut().zip(src.chunks_exact(width)) {
            *d = value.get(k).copied().unwrap_or_default();
        }
    }
}
