//! BYTE_STREAM_SPLIT (`BYTE_STREAM_SPLIT = 9`): byte `k` of every value in stream `k`.
//!
//! Applies to FLOAT, DOUBLE, INT32, INT64 and FIXED_LEN_BYTE_ARRAY. From the spec:
//!
//! ```text
//! This encoding creates K byte-streams of length N where K is the size in bytes of the data
//! type and N is the number of elements in the data sequence.
//! The bytes of each value are scattered to the corresponding streams. The 0-th byte goes to
//! the 0-th stream, the 1-st byte goes to the 1-st stream and so on.
//! The streams are concatenated in the following order: 0-th stream, 1-st stream, etc.
//! The total length of encoded streams is K * N bytes. [...] the end of the streams is also
//! the end of data page. No padding is allowed inside the data page.
//! ```
//!
//! So byte `k` of value `i` sits at `k * N + i`, where N counts every value of the page (K is
//! 4 for FLOAT and INT32, 8 for DOUBLE and INT64, the type length for FIXED_LEN_BYTE_ARRAY).
//! The decoder takes N from the page length, which must be a multiple of K.
//!
//! The spec's example, three 32-bit floats by their raw bytes:
//!
//! ```
//! use bytes::Bytes;
//! use pqcodec_core::{Decoder, Encoder, FloatType};
//! use pqcodec_encodings::byte_stream_split::{ByteStreamSplitDecoder, ByteStreamSplitEncoder};
//!
//! let floats = [
//!     f32::from_le_bytes([0xAA, 0xBB, 0xCC, 0xDD]),
//!     f32::from_le_bytes([0x00, 0x11, 0x22, 0x33]),
//!     f32::from_le_bytes([0xA3, 0xB4, 0xC5, 0xD6]),
//! ];
//! let encoded = [
//!     0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6,
//! ];
//!
//! let mut enc = ByteStreamSplitEncoder::new(FloatType);
//! enc.put(&floats)?;
//! assert_eq!(enc.flush()?, encoded);
//!
//! let decoded = ByteStreamSplitDecoder::new(Bytes::copy_from_slice(&encoded), 3, FloatType)?.read_all()?;
//! let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
//! assert_eq!(bits(&decoded), bits(&floats));
//! # Ok::<(), pqcodec_core::Error>(())
//! ```

mod decoder;
mod encoder;
mod transpose;

pub use decoder::ByteStreamSplitDecoder;
pub use encoder::ByteStreamSplitEncoder;

use pqcodec_core::{
    ByteStreamSplit, DoubleType, FixedLenByteArrayType, FloatType, Int32Type, Int64Type,
    NativeType, Result, Sink,
};

use crate::plain::PlainType;

/// The physical types BYTE_STREAM_SPLIT applies to: FLOAT, DOUBLE, INT32, INT64 and
/// FIXED_LEN_BYTE_ARRAY.
///
/// Its methods are the per-type halves of [`ByteStreamSplitDecoder`] and
/// [`ByteStreamSplitEncoder`] and are not meant to be called directly; only the markers of
/// [`pqcodec_core`] implement it.
pub trait ByteStreamSplitType: ByteStreamSplit + PlainType {
    /// K, the width of one value in bytes (the type length for FIXED_LEN_BYTE_ARRAY).
    #[doc(hidden)]
    fn split_width(self) -> usize;

    /// Appends values `start .. start + count` of the page `data`, whose streams are
    /// `stream_len` bytes long and whose values are `width` bytes wide.
    #[doc(hidden)]
    fn gather<S: Sink<Self::Value> + ?Sized>(
        data: &[u8],
        stream_len: usize,
        width: usize,
        start: usize,
        count: usize,
        out: &mut S,
        scratch: &mut Vec<u8>,
    ) -> Result<()>;
}

macro_rules! split_fixed_width {
    ($($marker:ident => $native:ty);*) => {$(
        impl ByteStreamSplitType for $marker {
            fn split_width(self) -> usize {
                <$native as NativeType>::SIZE
            }

            fn gather<S: Sink<$native> + ?Sized>(
                data: &[u8],
                stream_len: usize,
                _width: usize,
                start: usize,
                count: usize,
                out: &mut S,
                scratch: &mut Vec<u8>,
            ) -> Result<()> {
                decoder::gather_natives::<$native, S>(data, stream_len, start, count, out, scratch)
            }
        }
    )*};
}

split_fixed_width!(FloatType => f32; DoubleType => f64; Int32Type => i32; Int64Type => i64);

impl ByteStreamSplitType for FixedLenByteArrayType {
    fn split_width(self) -> usize {
        self.width()
    }

    fn gather<S: Sink<[u8]> + ?Sized>(
        data: &[u8],
        stream_len: usize,
        width: usize,
        start: usize,
        count: usize,
        out: &mut S,
        scratch: &mut Vec<u8>,
    ) -> Result<()> {
        decoder::gather_fixed_len(data, stream_len, width, start, count, out, scratch)
    }
}

#[cfg(test)]
mod tests;
