//! PLAIN (`PLAIN = 0`): values back to back, for every physical type.
//!
//! The spec's grammar, per physical type:
//!
//! ```text
//! BOOLEAN              : bit packed, LSB first (value 8i+j is bit j of byte i; the last byte
//!                        is padded with zeros)
//! INT32                : 4 bytes little endian
//! INT64                : 8 bytes little endian
//! INT96                : 12 bytes little endian (deprecated)
//! FLOAT                : 4 bytes IEEE little endian
//! DOUBLE               : 8 bytes IEEE little endian
//! BYTE_ARRAY           : <length: 4 bytes little endian> <the bytes of the array>
//! FIXED_LEN_BYTE_ARRAY : the bytes of the array (the column's type length of them)
//! ```
//!
//! The same bytes make up a dictionary page, which [`decode_plain_page`] reads in one go.
//!
//! The spec gives no example bytes for PLAIN; this one follows its grammar:
//!
//! ```
//! use bytes::Bytes;
//! use pqcodec_core::{BooleanType, ByteArrayType, ByteArrays, Decoder, Encoder, Int32Type};
//! use pqcodec_encodings::plain::{PlainDecoder, PlainEncoder};
//!
//! // INT32: 4 bytes little endian each.
//! let mut enc = PlainEncoder::new(Int32Type);
//! enc.put(&[1, -2])?;
//! let bytes = enc.flush()?;
//! assert_eq!(bytes, [0x01, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF]);
//! assert_eq!(PlainDecoder::new(Bytes::copy_from_slice(&bytes), 2, Int32Type)?.read_all()?, [1, -2]);
//!
//! // BOOLEAN: LSB first, the last byte padded with zeros.
//! let mut enc = PlainEncoder::new(BooleanType);
//! enc.put(&[true, false, true, true, false, false, false, false, true])?;
//! let bytes = enc.flush()?;
//! assert_eq!(bytes, [0b0000_1101, 0b0000_0001]);
//! let mut dec = PlainDecoder::new(Bytes::copy_from_slice(&bytes), 9, BooleanType)?;
//! assert_eq!(dec.skip(8)?, 8);
//! assert_eq!(dec.read_all()?, [true]);
//!
//! // BYTE_ARRAY: a 4-byte little-endian length, then the bytes.
//! let mut enc = PlainEncoder::new(ByteArrayType);
//! enc.put([&b"ab"[..], b""])?;
//! let bytes = enc.flush()?;
//! assert_eq!(bytes, [2, 0, 0, 0, b'a', b'b', 0, 0, 0, 0]);
//! let values: ByteArrays = PlainDecoder::new(Bytes::copy_from_slice(&bytes), 2, ByteArrayType)?.read_all()?;
//! assert_eq!(values.iter().collect::<Vec<_>>(), [&b"ab"[..], b""]);
//! # Ok::<(), pqcodec_core::Error>(())
//! ```

mod decoder;
mod encoder;

pub use decoder::PlainDecoder;
pub use encoder::PlainEncoder;
pub(crate) use encoder::put_byte_arrays;

use pqcodec_core::{
    BooleanType, ByteArrayType, Data, DoubleType, Encoding, Error, FixedLenByteArrayType,
    FloatType, Int32Type, Int64Type, Int96Type, Lengths, Physical, Result, Sink,
};

/// The physical types PLAIN applies to: all eight markers.
///
/// Its methods are the per-type halves of [`PlainDecoder`] and [`PlainEncoder`] and are not
/// meant to be called directly. Only the markers of [`pqcodec_core`] implement it, since they
/// alone implement the sealed [`Physical`].
pub trait PlainType: Physical {
    /// Checks that `data_len` bytes can hold `num_values` values and returns the width of one
    /// value in bytes (0 for BOOLEAN and BYTE_ARRAY, whose values are not whole bytes wide).
    #[doc(hidden)]
    fn plain_width(self, data_len: usize, num_values: usize) -> Result<usize>;

    /// Appends the `n` values starting at `*pos` (a bit offset for BOOLEAN, a byte offset for
    /// the others) to `out` and moves `*pos` past them; `n` values are known to remain. On
    /// error (a BYTE_ARRAY length past the end) `*pos` is left alone (the values before the
    /// bad one may be appended). Values reach the sink as [`Data`] in `data`'s buffer, if it
    /// has one.
    #[doc(hidden)]
    fn read_plain<S: Sink<Self::Value> + ?Sized>(
        data: Data<'_>,
        pos: &mut usize,
        width: usize,
        n: usize,
        out: &mut S,
    ) -> Result<()>;

    /// Moves `*pos` past `n` values without materialising them.
    #[doc(hidden)]
    fn skip_plain(data: &[u8], pos: &mut usize, width: usize, n: usize) -> Result<()>;

    /// Appends the PLAIN bytes of `values` to `buf`, which already holds `start` values, and
    /// returns how many values it appended; errors are reported as `encoding`'s.
    #[doc(hidden)]
    fn put_plain<'v, I>(
        self,
        buf: &mut Vec<u8>,
        start: usize,
        encoding: Encoding,
        values: I,
    ) -> Result<usize>
    where
        I: IntoIterator<Item = &'v Self::Value>,
        Self::Value: 'v;

    /// [`PlainType::put_plain`] of values held in a slice, in bulk where the type allows.
    #[doc(hidden)]
    fn put_plain_slice(
        self,
        buf: &mut Vec<u8>,
        start: usize,
        encoding: Encoding,
        values: &[Self::Value],
    ) -> Result<usize>
    where
        Self::Value: Sized,
    {
        self.put_plain(buf, start, encoding, values)
    }

    /// The PLAIN bytes of `values` as they lie in memory, where they are those bytes
    /// (INT32, INT64, FLOAT and DOUBLE on a little-endian machine).
    #[doc(hidden)]
    fn plain_bytes(values: &[Self::Value]) -> Option<&[u8]>
    where
        Self::Value: Sized,
    {
        let _ = values;
        None
    }

    /// The value's bytes, for BYTE_ARRAY; `None` for the other types.
    #[doc(hidden)]
    fn as_byte_array(value: &Self::Value) -> Option<&[u8]> {
        let _ = value;
        None
    }
}

/// Decodes a whole PLAIN page of `num_values` values of type `ty` (a dictionary page) into an
/// owned buffer.
pub fn decode_plain_page<T: PlainType>(data: &[u8], num_values: usize, ty: T) -> Result<T::Buffer> {
    let width = ty.plain_width(data.len(), num_values)?;
    let mut out = T::Buffer::default();
    if num_values > 0 {
        out.reserve(num_values);
        T::read_plain(data.into(), &mut 0, width, num_values, &mut out)?;
    }
    Ok(out)
}

/// The error for `count` values of `width` bytes that `data_len` bytes cannot hold.
fn too_many(count: usize, width: usize, data_len: usize) -> Error {
    Error::CountTooLarge {
        encoding: Encoding::Plain,
        field: "num_values",
        count: count as u64,
        capacity: data_len.checked_div(width).unwrap_or(0) as u64,
    }
}

impl PlainType for BooleanType {
    fn plain_width(self, data_len: usize, num_values: usize) -> Result<usize> {
        if num_values.div_ceil(8) > data_len {
            return Err(Error::CountTooLarge {
                encoding: Encoding::Plain,
                field: "num_values",
                count: num_values as u64,
                capacity: (data_len as u64).saturating_mul(8),
            });
        }
        Ok(0)
    }

    fn read_plain<S: Sink<bool> + ?Sized>(
        data: Data<'_>,
        pos: &mut usize,
        _width: usize,
        n: usize,
        out: &mut S,
    ) -> Result<()> {
        decoder::read_bits(&data, pos, n, out)
    }

    fn skip_plain(_data: &[u8], pos: &mut usize, _width: usize, n: usize) -> Result<()> {
        *pos += n;
        Ok(())
    }

    fn put_plain<'v, I>(
        self,
        buf: &mut Vec<u8>,
        start: usize,
        _encoding: Encoding,
        values: I,
    ) -> Result<usize>
    where
        I: IntoIterator<Item = &'v bool>,
    {
        Ok(encoder::put_bits(buf, start, values))
    }

    fn put_plain_slice(
        self,
        buf: &mut Vec<u8>,
        start: usize,
        _encoding: Encoding,
        values: &[bool],
    ) -> Result<usize> {
        Ok(encoder::put_bool_slice(buf, start, values))
    }
}

macro_rules! plain_fixed_width {
    ($($marker:ident),*) => {$(
        impl PlainType for $marker {
            fn plain_width(self, data_len: usize, num_values: usize) -> Result<usize> {
                decoder::check_fixed(data_len, num_values, <Self as pqcodec_core::FixedWidth>::Native::SIZE)
            }

            fn read_plain<S: Sink<Self::Value> + ?Sized>(
                data: Data<'_>,
                pos: &mut usize,
                width: usize,
                n: usize,
                out: &mut S,
            ) -> Result<()> {
                out.extend_from_le_bytes(decoder::take(data, pos, width, n)?);
                Ok(())
            }

            fn skip_plain(data: &[u8], pos: &mut usize, width: usize, n: usize) -> Result<()> {
                decoder::take(data.into(), pos, width, n).map(|_| ())
            }

            fn put_plain<'v, I>(
                self,
                buf: &mut Vec<u8>,
                _start: usize,
                _encoding: Encoding,
                values: I,
            ) -> Result<usize>
            where
                I: IntoIterator<Item = &'v Self::Value>,
            {
                Ok(encoder::put_natives(buf, values))
            }

            fn plain_bytes(values: &[Self::Value]) -> Option<&[u8]> {
                <Self as pqcodec_core::FixedWidth>::Native::le_bytes_of(values)
            }

            fn put_plain_slice(
                self,
                buf: &mut Vec<u8>,
                _start: usize,
                _encoding: Encoding,
                values: &[Self::Value],
            ) -> Result<usize> {
                <Self as pqcodec_core::FixedWidth>::Native::extend_le(values, buf);
                Ok(values.len())
            }
        }
    )*};
}

use pqcodec_core::NativeType as _;
plain_fixed_width!(Int32Type, Int64Type, Int96Type, FloatType, DoubleType);

impl PlainType for ByteArrayType {
    fn plain_width(self, data_len: usize, num_values: usize) -> Result<usize> {
        // Every value takes at least its 4-byte length.
        decoder::check_fixed(data_len, num_values, 4)?;
        Ok(0)
    }

    fn read_plain<S: Sink<[u8]> + ?Sized>(
        data: Data<'_>,
        pos: &mut usize,
        _width: usize,
        n: usize,
        out: &mut S,
    ) -> Result<()> {
        decoder::read_byte_arrays(data, pos, n, out)
    }

    fn skip_plain(data: &[u8], pos: &mut usize, _width: usize, n: usize) -> Result<()> {
        decoder::walk_byte_arrays(data, pos, n)
    }

    fn put_plain<'v, I>(
        self,
        buf: &mut Vec<u8>,
        start: usize,
        encoding: Encoding,
        values: I,
    ) -> Result<usize>
    where
        I: IntoIterator<Item = &'v [u8]>,
    {
        encoder::put_byte_arrays(buf, start, encoding, values)
    }

    fn as_byte_array(value: &[u8]) -> Option<&[u8]> {
        Some(value)
    }
}

impl PlainType for FixedLenByteArrayType {
    fn plain_width(self, data_len: usize, num_values: usize) -> Result<usize> {
        decoder::check_fixed(data_len, num_values, self.width())
    }

    fn read_plain<S: Sink<[u8]> + ?Sized>(
        data: Data<'_>,
        pos: &mut usize,
        width: usize,
        n: usize,
        out: &mut S,
    ) -> Result<()> {
        out.extend_back_to_back(decoder::take(data, pos, width, n)?, Lengths::All(width));
        Ok(())
    }

    fn skip_plain(data: &[u8], pos: &mut usize, width: usize, n: usize) -> Result<()> {
        decoder::take(data.into(), pos, width, n).map(|_| ())
    }

    fn put_plain<'v, I>(
        self,
        buf: &mut Vec<u8>,
        start: usize,
        encoding: Encoding,
        values: I,
    ) -> Result<usize>
    where
        I: IntoIterator<Item = &'v [u8]>,
    {
        encoder::put_fixed_len(buf, start, self.width(), encoding, values)
    }
}

#[cfg(test)]
mod tests;
