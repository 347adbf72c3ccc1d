//! The BYTE_STREAM_SPLIT encoder.

use pqcodec_core::{Encoder, Encoding, Result};

use super::ByteStreamSplitType;
use super::transpose;
use crate::kernels::simd::Isa;

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
    ty: T,
}

impl<T: ByteStreamSplitType> ByteStreamSplitEncoder<T> {
    /// An encoder of values of type `ty`.
    pub fn new(ty: T) -> Self {
        ByteStreamSplitEncoder {
            values: Vec::new(),
            num_values: 0,
            ty,
        }
    }
}

impl<T: ByteStreamSplitType + Default> Default for ByteStreamSplitEncoder<T> {
    fn default() -> Self {
        Self::new(T::default())
    }
}

impl<T: ByteStreamSplitType> Encoder<T> for ByteStreamSplitEncoder<T> {
    fn put<'v, I>(&mut self, values: I) -> Result<()>
    where
        I: IntoIterator<Item = &'v T::Value>,
        T::Value: 'v,
    {
        let len = self.values.len();
        match self.ty.put_plain(
            &mut self.values,
            self.num_values,
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
            let width = self.ty.split_width();
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

/// Writes the values in `src` (each `width` bytes, back to back) to `dst` (as long as `src`)
/// as `width` streams: byte `k` of value `i` to `dst[k * n + i]`.
pub(super) fn scatter(src: &[u8], width: usize, dst: &mut [u8]) {
    // `dst` is as long as `src` and `width` is not 0, so this cannot fail.
    let _ = transpose::split(Isa::best(), src, width, dst);
}
