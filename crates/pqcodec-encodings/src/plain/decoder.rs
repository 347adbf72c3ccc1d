//! The PLAIN decoder and the per-layout kernels behind it.

use std::marker::PhantomData;

use bytes::Bytes;
use pqcodec_core::{Data, Decoder, Encoding, Error, LengthPrefixed, Result, Sink};

use super::{PlainType, too_many};

/// Values converted per stack chunk before they reach the sink as one slice.
const CHUNK: usize = 256;

/// A streaming PLAIN decoder of one page's values of physical type `T`.
///
/// Fixed-width and FIXED_LEN_BYTE_ARRAY values reach the sink as one call's bytes, shared in
/// the page ([`Data`]: a sink may keep them rather than copy them); BOOLEAN values are read
/// straight from the packed bits; BYTE_ARRAY values as one call's whole request
/// ([`Sink::extend_from_prefixed`]; on a bad length the values before it may be appended);
/// skipping moves an offset (walking the lengths for BYTE_ARRAY) and never materialises a
/// value.
#[derive(Debug, Clone)]
pub struct PlainDecoder<T: PlainType> {
    data: Bytes,
    /// Offset of the next value: in bits for BOOLEAN, in bytes otherwise.
    pos: usize,
    /// Width of one value in bytes; 0 for BOOLEAN and BYTE_ARRAY.
    width: usize,
    remaining: usize,
    _type: PhantomData<T>,
}

impl<T: PlainType> PlainDecoder<T> {
    /// A decoder of the first `num_values` values of type `ty` in `data`.
    ///
    /// Fails with [`Error::CountTooLarge`] if `data` cannot hold `num_values` values (for
    /// BYTE_ARRAY: their 4-byte lengths).
    pub fn new(data: Bytes, num_values: usize, ty: T) -> Result<Self> {
        let width = ty.plain_width(data.len(), num_values)?;
        Ok(PlainDecoder {
            data,
            pos: 0,
            width,
            remaining: num_values,
            _type: PhantomData,
        })
    }
}

impl<T: PlainType> Decoder<T> for PlainDecoder<T> {
    fn remaining(&self) -> usize {
        self.remaining
    }

    fn read<S: Sink<T::Value> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize> {
        let n = max.min(self.remaining);
        if n == 0 {
            return Ok(0);
        }
        out.reserve(n);
        T::read_plain(Data::from(&self.data), &mut self.pos, self.width, n, out)?;
        self.remaining -= n;
        Ok(n)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        let n = n.min(self.remaining);
        if n == 0 {
            return Ok(0);
        }
        T::skip_plain(&self.data, &mut self.pos, self.width, n)?;
        self.remaining -= n;
        Ok(n)
    }
}

/// Checks that `data_len` bytes hold `num_values` values of `width` bytes; returns `width`.
pub(super) fn check_fixed(data_len: usize, num_values: usize, width: usize) -> Result<usize> {
    match num_values.checked_mul(width) {
        Some(bytes) if bytes <= data_len => Ok(width),
        _ => Err(too_many(num_values, width, data_len)),
    }
}

/// Takes the `n * width` bytes at `*pos` and moves `*pos` past them.
#[inline]
pub(super) fn take<'a>(
    data: Data<'a>,
    pos: &mut usize,
    width: usize,
    n: usize,
) -> Result<Data<'a>> {
    let rest = data.get(*pos..).unwrap_or_default().len();
    match n.checked_mul(width).filter(|&len| len <= rest) {
        Some(len) => {
            let bytes = data.slice(*pos..*pos + len);
            *pos += len;
            Ok(bytes)
        }
        None => Err(Error::truncated(
            Encoding::Plain,
            "values",
            n.saturating_mul(width),
            rest,
        )),
    }
}

/// Appends the `n` bits starting at bit `*pos` of `data` as booleans, LSB first.
pub(super) fn read_bits<S: Sink<bool> + ?Sized>(
    data: &[u8],
    pos: &mut usize,
    n: usize,
    out: &mut S,
) -> Result<()> {
    let end = pos.checked_add(n);
    let bytes = end.and_then(|end| data.get(*pos / 8..end.div_ceil(8)));
    let Some(bytes) = bytes else {
        return Err(Error::truncated(
            Encoding::Plain,
            "boolean values",
            n.div_ceil(8),
            data.len().saturating_sub(*pos / 8),
        ));
    };
    out.reserve(n);
    let bit_at = |bit: usize| {
        bytes
            .get(bit / 8)
            .is_some_and(|b| (b >> (bit % 8)) & 1 == 1)
    };
    let mut buf = [false; CHUNK];
    // `bit` counts from the start of `bytes`.
    let mut bit = *pos % 8;
    let end = bit + n;
    // The bits before the first whole byte.
    let head = ((8 - bit % 8) % 8).min(n);
    if head > 0 {
        for (i, slot) in buf[..head].iter_mut().enumerate() {
            *slot = bit_at(bit + i);
        }
        out.extend_from_slice(&buf[..head]);
        bit += head;
    }
    // Whole bytes, eight values each, a chunk at a time.
    while end - bit >= 8 {
        let whole = ((end - bit) / 8).min(CHUNK / 8);
        let src = bytes.get(bit / 8..bit / 8 + whole).unwrap_or_default();
        for (slots, &byte) in buf.chunks_exact_mut(8).zip(src) {
            for (j, slot) in slots.iter_mut().enumerate() {
                *slot = (byte >> j) & 1 == 1;
            }
        }
        out.extend_from_slice(&buf[..whole * 8]);
        bit += whole * 8;
    }
    // The bits of the last, partial byte.
    let tail = end - bit;
    if tail > 0 {
        for (i, slot) in buf[..tail].iter_mut().enumerate() {
            *slot = bit_at(bit + i);
        }
        out.extend_from_slice(&buf[..tail]);
    }
    *pos += n;
    Ok(())
}

/// Walks the lengths of `n` byte arrays from `*pos`, moving `*pos` past them.
pub(super) fn walk_byte_arrays(data: &[u8], pos: &mut usize, n: usize) -> Result<()> {
    let mut values = LengthPrefixed::new(data.get(*pos..).unwrap_or_default(), n);
    values.by_ref().for_each(drop);
    if values.left() > 0 {
        return Err(truncated_byte_array(data, *pos + values.position()));
    }
    *pos += values.position();
    Ok(())
}

/// What is missing of the byte array whose 4-byte length is at `at`: the length or the bytes.
#[cold]
fn truncated_byte_array(data: &[u8], at: usize) -> Error {
    let rest = data.get(at..).unwrap_or_default();
    match rest.get(..4) {
        Some(&[a, b, c, d]) => Error::truncated(
            Encoding::Plain,
            "byte array value",
            u32::from_le_bytes([a, b, c, d]) as usize,
            rest.len() - 4,
        ),
        _ => Error::truncated(Encoding::Plain, "byte array length", 4, rest.len()),
    }
}

/// Appends the `n` byte arrays from `*pos` and moves `*pos` past them; on error `*pos` stays
/// (the values before the bad one may be appended).
pub(super) fn read_byte_arrays<S: Sink<[u8]> + ?Sized>(
    data: Data<'_>,
    pos: &mut usize,
    n: usize,
    out: &mut S,
) -> Result<()> {
    let Some(used) = out.extend_from_prefixed(data.slice(*pos..data.len()), n) else {
        // The sink found a value past the end: find it again, for the error.
        walk_byte_arrays(&data, &mut pos.clone(), n)?;
        return Err(Error::invalid(
            Encoding::Plain,
            "byte array",
            "the sink refused values the page holds",
        ));
    };
    *pos += used;
    Ok(())
}
