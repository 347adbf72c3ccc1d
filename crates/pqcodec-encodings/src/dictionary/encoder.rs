//! Encoding dictionary pages and dictionary-encoded data pages, with fallback to PLAIN.

use std::marker::PhantomData;

use pqcodec_core::{Encoder, Encoding, Error, Physical, PhysicalType, Result};

use super::MAX_INDEX_BIT_WIDTH;
use super::interner::Interner;
use crate::kernels::bitpack::bit_width;
use crate::plain::{PlainType, put_byte_arrays};
use crate::rle::RleEncoder;

const ENCODING: Encoding = Encoding::RleDictionary;

/// Limits after which a [`DictionaryEncoder`] stops growing its dictionary and falls back to
/// PLAIN. Fields may be added: set them with the `with_*` methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct DictionaryLimits {
    /// Largest size in bytes of the dictionary page (the dictionary's PLAIN encoding; one byte
    /// per value for BOOLEAN). Default 1 MiB.
    pub max_dictionary_bytes: usize,
    /// Most distinct values. Default unlimited (in practice 2^32 - 1, as indices are 32-bit).
    pub max_distinct_values: usize,
}

impl DictionaryLimits {
    /// No limit: the dictionary grows as long as indices are 32-bit.
    pub fn unlimited() -> Self {
        DictionaryLimits {
            max_dictionary_bytes: usize::MAX,
            max_distinct_values: usize::MAX,
        }
    }

    /// Sets [`max_dictionary_bytes`](Self::max_dictionary_bytes).
    pub fn with_max_dictionary_bytes(mut self, bytes: usize) -> Self {
        self.max_dictionary_bytes = bytes;
        self
    }

    /// Sets [`max_distinct_values`](Self::max_distinct_values).
    pub fn with_max_distinct_values(mut self, values: usize) -> Self {
        self.max_distinct_values = values;
        self
    }
}

impl Default for DictionaryLimits {
    fn default() -> Self {
        DictionaryLimits {
            max_dictionary_bytes: 1 << 20,
            max_distinct_values: usize::MAX,
        }
    }
}

/// An encoder of a column chunk's values as a dictionary plus dictionary-encoded data pages
/// (RLE_DICTIONARY), falling back to PLAIN pages when the dictionary would grow past its
/// [`DictionaryLimits`].
///
/// Values are told apart by their PLAIN bytes, so floats are compared by their bits: `-0.0`
/// and `0.0` are two entries, and so are NaNs with different payloads.
///
/// Pages: while the dictionary holds, [`Encoder::flush_into`] writes a data page of indices
/// (one byte of bit width, then the RLE / bit-packing hybrid, no length prefix) and
/// [`DictionaryEncoder::dictionary_page`] gives the dictionary page, to be written before the
/// column chunk's data pages.
///
/// Fallback: once adding a new distinct value would pass a limit, the dictionary stops
/// growing, and that value and every later one go to a PLAIN page. The indices already
/// buffered still form a dictionary-encoded page: the next `flush_into` writes them
/// ([`DictionaryEncoder::page_encoding`] says [`Encoding::RleDictionary`]), and every flush
/// after that writes a PLAIN page ([`Encoding::Plain`]). So after a fallback two pages may be
/// pending at once: [`Encoder::num_values`] and [`Encoder::estimated_size`] describe the page
/// the next flush writes, and a caller finishing a column chunk flushes while `num_values()`
/// is not 0, reading `page_encoding()` before each flush. The dictionary page is still needed
/// for the dictionary-encoded pages written before the fallback.
///
/// A value that cannot be encoded (a FIXED_LEN_BYTE_ARRAY of the wrong length, a BYTE_ARRAY
/// over 4 GiB) fails the [`Encoder::put`] with [`Error::Value`] and leaves the encoder as it
/// was before the call.
#[derive(Debug, Clone)]
pub struct DictionaryEncoder<T: PlainType> {
    ty: T,
    /// The dictionary: each distinct value's PLAIN bytes (one byte 0 or 1 for BOOLEAN) and
    /// its index.
    interner: Interner,
    /// Indices of the values of the page being built.
    indices: Vec<u32>,
    /// The PLAIN page values go to after the fallback, and how many values it holds.
    plain: Option<(Vec<u8>, usize)>,
    /// The PLAIN bytes of the batch being put.
    scratch: Vec<u8>,
    _type: PhantomData<T>,
}

impl<T: PlainType> DictionaryEncoder<T> {
    /// An empty encoder of values of type `ty`.
    pub fn new(ty: T, limits: DictionaryLimits) -> Self {
        // Byte arrays are interned by their bytes, of no one width.
        let stride = ty.value_width().unwrap_or(0);
        DictionaryEncoder {
            ty,
            interner: Interner::new(
                stride,
                limits.max_distinct_values,
                limits.max_dictionary_bytes,
            ),
            indices: Vec::new(),
            plain: None,
            scratch: Vec::new(),
            _type: PhantomData,
        }
    }

    /// The dictionary page: the PLAIN bytes of the dictionary's values, in index order.
    pub fn dictionary_page(&self) -> Result<Vec<u8>> {
        let keys = self.interner.keys();
        if T::TYPE == PhysicalType::Boolean {
            // Each entry's key is one byte, 0 or 1; the page packs them a bit each.
            let mut page = vec![0u8; keys.len().div_ceil(8)];
            for (i, &key) in keys.iter().enumerate() {
                if let Some(byte) = page.get_mut(i / 8) {
                    *byte |= (key & 1) << (i % 8);
                }
            }
            return Ok(page);
        }
        Ok(keys.to_vec())
    }

    /// Number of values in the dictionary.
    pub fn dictionary_len(&self) -> usize {
        self.interner.len()
    }

    /// Size in bytes of the dictionary page as it stands (before BOOLEAN's bit packing).
    pub fn dictionary_bytes(&self) -> usize {
        self.interner.keys().len()
    }

    /// Adds `values` to the dictionary (those not in it yet) without putting them in a page,
    /// and returns each one's index: how a writer maps another dictionary (an Arrow
    /// dictionary's values) onto this one, hashing each of its values once. Fails after a
    /// fallback, or if a limit is reached.
    pub fn intern<'v, I>(&mut self, values: I) -> Result<Vec<u32>>
    where
        I: IntoIterator<Item = &'v T::Value>,
        T::Value: 'v,
    {
        let before = self.indices.len();
        if self.plain.is_none() {
            self.put(values)?;
        }
        if self.plain.is_some() {
            self.indices.truncate(before);
            return Err(Error::invalid(
                ENCODING,
                "dictionary",
                "the dictionary is past its limits",
            ));
        }
        Ok(self.indices.split_off(before))
    }

    /// Puts values by their indices in the dictionary (from [`DictionaryEncoder::intern`]).
    /// Fails, putting nothing, if an index is past the dictionary or after a fallback.
    pub fn put_indices(&mut self, indices: &[u32]) -> Result<()> {
        let len = self.interner.len();
        if self.plain.is_some() {
            return Err(Error::invalid(
                ENCODING,
                "indices",
                "the encoder has fallen back to PLAIN",
            ));
        }
        if let Some(bad) = indices.iter().find(|&&i| i as usize >= len) {
            return Err(Error::invalid(
                ENCODING,
                "indices",
                format!("index {bad} is past the dictionary's {len} values"),
            ));
        }
        self.indices.extend_from_slice(indices);
        Ok(())
    }

    /// The indices of the values in the page being built (none after a fallback's last index
    /// page is written).
    pub fn pending_indices(&self) -> &[u32] {
        &self.indices
    }

    /// The PLAIN bytes of dictionary entry `index` (a BYTE_ARRAY's without its length; for
    /// BOOLEAN one byte, 0 or 1); empty past the dictionary.
    pub fn entry(&self, index: u32) -> &[u8] {
        let from = if T::TYPE == PhysicalType::ByteArray {
            4
        } else {
            0
        };
        self.interner.key(index as usize, from)
    }

    /// Whether the encoder has fallen back to PLAIN.
    pub fn has_fallen_back(&self) -> bool {
        self.plain.is_some()
    }

    /// The encoding of the page the next flush writes: [`Encoding::RleDictionary`] while
    /// indices are pending (always, before a fallback), [`Encoding::Plain`] after them.
    pub fn page_encoding(&self) -> Encoding {
        if self.writes_indices() {
            Encoding::RleDictionary
        } else {
            Encoding::Plain
        }
    }

    /// Whether the next flush writes a page of indices.
    fn writes_indices(&self) -> bool {
        self.plain.is_none() || !self.indices.is_empty()
    }

    /// The bit width indices into the current dictionary are written at: enough for the
    /// largest index (0 for a dictionary of one value, as arrow-rs and parquet-java write).
    fn index_bit_width(&self) -> u32 {
        bit_width(self.interner.len().saturating_sub(1) as u64).min(MAX_INDEX_BIT_WIDTH)
    }

    /// Interns the batch whose PLAIN bytes are `scratch` (`count` values), pushing their
    /// indices; returns the value at which a limit was reached and the byte (or, for BOOLEAN,
    /// bit) where its PLAIN bytes start, if one was.
    fn intern_batch(&mut self, scratch: &[u8], count: usize) -> Option<(usize, usize)> {
        if T::TYPE == PhysicalType::Boolean {
            self.indices.reserve(count);
            for i in 0..count {
                let bit = scratch.get(i / 8).map_or(0, |b| (b >> (i % 8)) & 1);
                match self.interner.intern_bytes(&[bit]) {
                    Some(index) => self.indices.push(index),
                    None => return Some((i, i)),
                }
            }
            return None;
        }
        self.interner.intern_all(scratch, count, &mut self.indices)
    }
}

/// Appends bits `from..to` of `bits` (LSB first) to the PLAIN BOOLEAN page `buf` holding
/// `count` values.
fn append_bits(buf: &mut Vec<u8>, count: usize, bits: &[u8], from: usize, to: usize) {
    for (k, i) in (from..to).enumerate() {
        let bit = bits.get(i / 8).map_or(0, |b| (b >> (i % 8)) & 1);
        let at = count + k;
        if at.is_multiple_of(8) {
            buf.push(0);
        }
        if let Some(last) = buf.last_mut() {
            *last |= bit << (at % 8);
        }
    }
}

/// Puts the right index on a value error.
fn reindex(error: Error, offset: usize) -> Error {
    match error {
        Error::Value {
            encoding,
            index,
            reason,
        } => Error::Value {
            encoding,
            index: index + offset,
            reason,
        },
        other => other,
    }
}

impl<T: PlainType> DictionaryEncoder<T> {
    /// Appends BYTE_ARRAY values before a fallback: each interned from its own bytes, without
    /// a PLAIN copy of the batch first. Their lengths are checked before anything changes.
    fn intern_byte_arrays(&mut self, values: &[&[u8]]) -> Result<()> {
        if values.iter().any(|v| u32::try_from(v.len()).is_err()) {
            // The PLAIN writer names the value and changes nothing.
            return self.append(None, |buf, start, encoding| {
                put_byte_arrays(buf, start, encoding, values.iter().copied())
            });
        }
        self.indices.reserve(values.len());
        for (i, value) in values.iter().enumerate() {
            let Some(index) = self.interner.intern_value(value) else {
                // A limit: this value and the rest go to the PLAIN page.
                let rest = values.get(i..).unwrap_or(&[]);
                let mut buf = Vec::new();
                put_byte_arrays(&mut buf, 0, Encoding::Plain, rest.iter().copied())?;
                self.plain = Some((buf, rest.len()));
                return Ok(());
            };
            self.indices.push(index);
        }
        Ok(())
    }

    /// Appends values: `plain` writes their PLAIN bytes to the page or buffer it is given,
    /// which holds the count of values it is passed, and returns how many it wrote; `borrowed`
    /// are those bytes already, if the caller has them.
    fn append(
        &mut self,
        borrowed: Option<(&[u8], usize)>,
        plain: impl FnOnce(&mut Vec<u8>, usize, Encoding) -> Result<usize>,
    ) -> Result<()> {
        if let Some((buf, count)) = &mut self.plain {
            // After the fallback: straight to the PLAIN page.
            let (len, last) = (buf.len(), buf.last().copied());
            match plain(buf, *count, Encoding::Plain) {
                Ok(n) => *count += n,
                Err(e) => {
                    buf.truncate(len);
                    if let (Some(byte), Some(slot)) = (last, buf.last_mut()) {
                        *slot = byte;
                    }
                    return Err(e);
                }
            }
            return Ok(());
        }
        // The batch's PLAIN bytes first: a value that cannot be encoded fails here, before
        // anything changes.
        let mut scratch = std::mem::take(&mut self.scratch);
        let (bytes, count) = match borrowed {
            Some(borrowed) => borrowed,
            None => {
                scratch.clear();
                match plain(&mut scratch, 0, ENCODING) {
                    Ok(count) => (&scratch[..], count),
                    Err(e) => {
                        self.scratch = scratch;
                        return Err(reindex(e, self.indices.len()));
                    }
                }
            }
        };
        if let Some((i, at)) = self.intern_batch(bytes, count) {
            let mut buf = Vec::new();
            if T::TYPE == PhysicalType::Boolean {
                append_bits(&mut buf, 0, bytes, at, count);
            } else {
                buf.extend_from_slice(bytes.get(at..).unwrap_or(&[]));
            }
            self.plain = Some((buf, count - i));
        }
        self.scratch = scratch;
        Ok(())
    }
}

impl<T: PlainType> Encoder<T> for DictionaryEncoder<T> {
    fn put<'v, I>(&mut self, values: I) -> Result<()>
    where
        I: IntoIterator<Item = &'v T::Value>,
        T::Value: 'v,
    {
        let ty = self.ty;
        if T::TYPE == PhysicalType::ByteArray && self.plain.is_none() {
            let values: Vec<&[u8]> = values
                .into_iter()
                .map(|v| T::as_byte_array(v).unwrap_or_default())
                .collect();
            return self.intern_byte_arrays(&values);
        }
        self.append(None, |buf, start, encoding| {
            ty.put_plain(buf, start, encoding, values)
        })
    }

    /// Fixed-width values are interned from the slice's own bytes where the machine holds
    /// them as their PLAIN bytes.
    fn put_slice(&mut self, values: &[T::Value]) -> Result<()>
    where
        T::Value: Sized,
    {
        let ty = self.ty;
        let borrowed = T::plain_bytes(values).map(|bytes| (bytes, values.len()));
        self.append(borrowed, |buf, start, encoding| {
            ty.put_plain_slice(buf, start, encoding, values)
        })
    }

    fn put_fixed_width(&mut self, bytes: &[u8], width: usize) -> Result<()>
    where
        T: Physical<Value = [u8]>,
    {
        if T::TYPE != PhysicalType::FixedLenByteArray || Some(width) != self.ty.value_width() {
            return self.put(bytes.chunks_exact(width.max(1)));
        }
        // The bytes are the values' PLAIN bytes already.
        let whole = &bytes[..bytes.len() / width * width];
        let ty = self.ty;
        self.append(
            Some((whole, whole.len() / width)),
            |buf, start, encoding| ty.put_plain(buf, start, encoding, whole.chunks_exact(width)),
        )
    }

    /// Values in the page the next flush writes: pending indices, or after those the values
    /// put since the fallback.
    fn num_values(&self) -> usize {
        match &self.plain {
            Some((_, count)) if self.indices.is_empty() => *count,
            _ => self.indices.len(),
        }
    }

    /// Estimated size of the page the next flush writes.
    fn estimated_size(&self) -> usize {
        match &self.plain {
            Some((buf, _)) if self.indices.is_empty() => buf.len(),
            _ => {
                let n = self.indices.len();
                1 + (n * self.index_bit_width() as usize).div_ceil(8) + n.div_ceil(504)
            }
        }
    }

    /// Writes the next page: the pending indices (bit width byte, then the hybrid), or a
    /// PLAIN page after the fallback; see [`DictionaryEncoder`].
    fn flush_into(&mut self, out: &mut Vec<u8>) -> Result<()> {
        if !self.writes_indices() {
            if let Some((buf, count)) = &mut self.plain {
                out.extend_from_slice(buf);
                buf.clear();
                *count = 0;
            }
            return Ok(());
        }
        let width = self.index_bit_width();
        out.push(width as u8);
        let mut rle = RleEncoder::new(width);
        rle.put_slice(&self.indices);
        rle.flush_into(out);
        self.indices.clear();
        Ok(())
    }
}
