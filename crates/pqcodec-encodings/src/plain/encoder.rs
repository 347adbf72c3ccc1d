//! The PLAIN encoder and the per-layout kernels behind it.

use pqcodec_core::{Encoder, Encoding, Error, NativeType, Physical, PhysicalType, Result};

use super::PlainType;
use crate::kernels::bitpack::pack_bools;

/// A PLAIN encoder of values of physical type `T`.
///
/// A FIXED_LEN_BYTE_ARRAY value whose length is not the type length, or a BYTE_ARRAY value
/// longer than `u32::MAX` bytes, fails the [`Encoder::put`] with [`Error::Value`]; a failed
/// `put` leaves the page as it was before the call.
#[derive(Debug, Clone)]
pub struct PlainEncoder<T: PlainType> {
    buf: Vec<u8>,
    num_values: usize,
    ty: T,
}

impl<T: PlainType> PlainEncoder<T> {
    /// An encoder of values of type `ty`.
    pub fn new(ty: T) -> Self {
        PlainEncoder {
            buf: Vec::new(),
            num_values: 0,
            ty,
        }
    }
}

impl<T: PlainType> PlainEncoder<T> {
    /// Runs `put`, which appends values to the page and returns how many; if it fails, the
    /// page is put back as it was (the last byte too, which BOOLEAN shares between calls).
    fn append(&mut self, put: impl FnOnce(&mut Vec<u8>) -> Result<usize>) -> Result<()> {
        let len = self.buf.len();
        let last = self.buf.last().copied();
        match put(&mut self.buf) {
            Ok(count) => {
                self.num_values += count;
                Ok(())
            }
            Err(e) => {
                self.buf.truncate(len);
                if let (Some(byte), Some(slot)) = (last, self.buf.last_mut()) {
                    *slot = byte;
                }
                Err(e)
            }
        }
    }
}

impl<T: PlainType + Default> Default for PlainEncoder<T> {
    fn default() -> Self {
        Self::new(T::default())
    }
}

impl<T: PlainType> Encoder<T> for PlainEncoder<T> {
    fn put<'v, I>(&mut self, values: I) -> Result<()>
    where
        I: IntoIterator<Item = &'v T::Value>,
        T::Value: 'v,
    {
        let (start, ty) = (self.num_values, self.ty);
        self.append(|buf| ty.put_plain(buf, start, Encoding::Plain, values))
    }

    fn put_slice(&mut self, values: &[T::Value]) -> Result<()>
    where
        T::Value: Sized,
    {
        let (start, ty) = (self.num_values, self.ty);
        self.append(|buf| ty.put_plain_slice(buf, start, Encoding::Plain, values))
    }

    fn put_fixed_width(&mut self, bytes: &[u8], width: usize) -> Result<()>
    where
        T: Physical<Value = [u8]>,
    {
        if T::TYPE != PhysicalType::FixedLenByteArray || Some(width) != self.ty.value_width() {
            return self.put(bytes.chunks_exact(width.max(1)));
        }
        let whole = bytes.len() / width * width;
        self.buf.extend_from_slice(&bytes[..whole]);
        self.num_values += whole / width;
        Ok(())
    }

    fn num_values(&self) -> usize {
        self.num_values
    }

    fn estimated_size(&self) -> usize {
        self.buf.len()
    }

    fn flush_into(&mut self, out: &mut Vec<u8>) -> Result<()> {
        out.extend_from_slice(&self.buf);
        self.buf.clear();
        self.num_values = 0;
        Ok(())
    }

    fn flush(&mut self) -> Result<Vec<u8>> {
        self.num_values = 0;
        Ok(std::mem::take(&mut self.buf))
    }
}

/// Appends booleans as bits, LSB first, after the `start` bits `buf` already holds; bits are
/// gathered 64 at a time.
pub(super) fn put_bits<'v>(
    buf: &mut Vec<u8>,
    start: usize,
    values: impl IntoIterator<Item = &'v bool>,
) -> usize {
    let mut values = values.into_iter();
    buf.reserve(values.size_hint().0 / 8 + 1);
    let mut bit = (start % 8) as u32;
    let mut word = if bit == 0 {
        0
    } else {
        u64::from(buf.pop().unwrap_or_default())
    };
    let mut count = 0;
    loop {
        let room = 64 - bit as usize;
        let mut got = 0;
        for (j, &v) in values.by_ref().take(room).enumerate() {
            word |= u64::from(v) << (bit as usize + j);
            got += 1;
        }
        count += got;
        if got < room {
            bit += got as u32;
            break;
        }
        buf.extend_from_slice(&word.to_le_bytes());
        word = 0;
        bit = 0;
    }
    let bytes = bit.div_ceil(8) as usize;
    buf.extend_from_slice(&word.to_le_bytes()[..bytes]);
    count
}

/// Appends booleans held in a slice as bits, LSB first, after the `start` bits `buf` already
/// holds: up to the next whole byte as [`put_bits`] does, then eight values to a byte.
pub(super) fn put_bool_slice(buf: &mut Vec<u8>, start: usize, values: &[bool]) -> usize {
    let head = ((8 - start % 8) % 8).min(values.len());
    put_bits(buf, start, &values[..head]);
    let rest = &values[head..];
    let at = buf.len();
    buf.resize(at + rest.len().div_ceil(8), 0);
    pack_bools(rest, &mut buf[at..]);
    values.len()
}

/// Bytes of values put together on the stack before they are appended at once.
const STACK_BYTES: usize = 4096;

/// Appends fixed-width values little endian, a stack chunk at a time.
pub(crate) fn put_natives<'v, N: NativeType>(
    buf: &mut Vec<u8>,
    values: impl IntoIterator<Item = &'v N>,
) -> usize {
    let mut values = values.into_iter();
    buf.reserve(values.size_hint().0.saturating_mul(N::SIZE));
    let mut chunk = [0u8; STACK_BYTES];
    let mut count = 0;
    loop {
        let mut len = 0;
        for (slot, v) in chunk.chunks_exact_mut(N::SIZE).zip(values.by_ref()) {
            slot.copy_from_slice(v.to_le_bytes().as_ref());
            len += N::SIZE;
        }
        if len == 0 {
            return count;
        }
        buf.extend_from_slice(&chunk[..len]);
        count += len / N::SIZE;
    }
}

/// Appends byte arrays, each after its 4-byte little-endian length.
pub(crate) fn put_byte_arrays<'v>(
    buf: &mut Vec<u8>,
    start: usize,
    encoding: Encoding,
    values: impl IntoIterator<Item = &'v [u8]>,
) -> Result<usize> {
    let mut count = 0;
    for v in values {
        let Ok(len) = u32::try_from(v.len()) else {
            return Err(Error::Value {
                encoding,
                index: start + count,
                reason: format!(
                    "a byte array of {} bytes is longer than a 4-byte length can say",
                    v.len()
                ),
            });
        };
        buf.extend_from_slice(&len.to_le_bytes());
        append_value(buf, v);
        count += 1;
    }
    Ok(count)
}

/// Longest value [`append_value`] copies with [`copy_short`].
const SHORT: usize = 32;

/// Appends `value` to `buf`; one of at most [`SHORT`] bytes as a fixed-size append, the value
/// copied over it in fixed-size pieces, then a cut: no variable-length copy.
#[inline(always)]
fn append_value(buf: &mut Vec<u8>, value: &[u8]) {
    let (at, n) = (buf.len(), value.len());
    if n > SHORT {
        buf.extend_from_slice(value);
        return;
    }
    buf.extend_from_slice(&[0; SHORT]);
    if let Some(out) = buf.get_mut(at..at + n) {
        copy_short(out, value);
    }
    buf.truncate(at + n);
}

/// Copies `value` (at most [`SHORT`] bytes) to `out`, of the same length: as two fixed-size
/// copies, overlapping, for 4 bytes or more, so that no call to `memcpy` is made. Written
/// straight to the page: a window built on the stack and then read back whole would wait on
/// the store buffer.
#[inline(always)]
fn copy_short(out: &mut [u8], value: &[u8]) {
    fn ends<const K: usize>(out: &mut [u8], value: &[u8]) {
        let n = value.len();
        out[..K].copy_from_slice(&value[..K]);
        out[n - K..].copy_from_slice(&value[n - K..]);
    }
    match value.len() {
        16.. => ends::<16>(out, value),
        8.. => ends::<8>(out, value),
        4.. => ends::<4>(out, value),
        _ => out.copy_from_slice(value),
    }
}

/// Appends fixed-length byte arrays, checking each is `width` long.
pub(crate) fn put_fixed_len<'v>(
    buf: &mut Vec<u8>,
    start: usize,
    width: usize,
    encoding: Encoding,
    values: impl IntoIterator<Item = &'v [u8]>,
) -> Result<usize> {
    let values = values.into_iter();
    buf.reserve(values.size_hint().0.saturating_mul(width));
    let mut count = 0;
    for v in values {
        if v.len() != width {
            return Err(Error::Value {
                encoding,
                index: start + count,
                reason: format!(
                    "FIXED_LEN_BYTE_ARRAY value is {} bytes long, the type length is {width}",
                    v.len()
                ),
            });
        }
        append_value(buf, v);
        count += 1;
    }
    Ok(count)
}
