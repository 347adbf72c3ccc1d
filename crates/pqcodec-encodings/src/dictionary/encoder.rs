//! Encoding dictionary pages and dictionary-encoded data pages, with fallback to PLAIN.

use std::hash::BuildHasher;
use std::marker::PhantomData;

use pqcodec_core::{Encoder, Encoding, Error, PhysicalType, Result};

use super::MAX_INDEX_BIT_WIDTH;
use crate::kernels::bitpack::bit_width;
use crate::plain::PlainType;
use crate::rle::RleEncoder;

const ENCODING: Encoding = Encoding::RleDictionary;

/// Marks an empty slot of the hash table.
const EMPTY: u64 = u64::MAX;

/// Most entries a dictionary holds: indices are at most 32 bits, and `u32::MAX` in a slot's
/// index half could be mistaken for an empty slot.
const MAX_ENTRIES: usize = u32::MAX as usize;

/// Limits after which a [`DictionaryEncoder`] stops growing its dictionary and falls back to
/// PLAIN.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DictionaryLimits {
    /// Largest size in bytes of the dictionary page (the dictionary's PLAIN encoding; one byte
    /// per value for BOOLEAN). Default 1 MiB.
    pub max_dictionary_bytes: usize,
    /// Most distinct values. Default unlimited (in practice 2^32 - 1, as indices are 32-bit).
    pub max_distinct_values: usize,
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
    type_length: usize,
    limits: DictionaryLimits,
    seed: u64,
    /// The PLAIN bytes of each entry (one byte 0 or 1 for BOOLEAN), back to back, in index
    /// order.
    keys: Vec<u8>,
    /// Where each entry starts in `keys`, and where the last one ends (variable-length keys);
    /// unused when every key is `stride` bytes.
    offsets: Vec<usize>,
    /// The length of every key for fixed-width types, 0 for BYTE_ARRAY.
    stride: usize,
    /// Number of entries.
    len: usize,
    /// Open-addressing table, a power of two long (or empty): `EMPTY`, or the entry's hash in
    /// the high 32 bits and its index in the low 32.
    slots: Vec<u64>,
    /// Indices of the values of the page being built.
    indices: Vec<u32>,
    /// The PLAIN page values go to after the fallback, and how many values it holds.
    plain: Option<(Vec<u8>, usize)>,
    /// The PLAIN bytes of the batch being put.
    scratch: Vec<u8>,
    _type: PhantomData<T>,
}

impl<T: PlainType> DictionaryEncoder<T> {
    /// An empty encoder; `type_length` is the value length of a FIXED_LEN_BYTE_ARRAY column
    /// and is ignored for the other types.
    pub fn new(type_length: usize, limits: DictionaryLimits) -> Self {
        let stride = match T::TYPE {
            PhysicalType::Boolean => 1,
            PhysicalType::Int32 | PhysicalType::Float => 4,
            PhysicalType::Int64 | PhysicalType::Double => 8,
            PhysicalType::Int96 => 12,
            PhysicalType::FixedLenByteArray => type_length,
            PhysicalType::ByteArray => 0,
        };
        DictionaryEncoder {
            type_length,
            limits,
            seed: std::collections::hash_map::RandomState::new().hash_one(0x5eed_u64),
            keys: Vec::new(),
            offsets: vec![0],
            stride,
            len: 0,
            slots: Vec::new(),
            indices: Vec::new(),
            plain: None,
            scratch: Vec::new(),
            _type: PhantomData,
        }
    }

    /// The dictionary page: the PLAIN bytes of the dictionary's values, in index order.
    pub fn dictionary_page(&self) -> Result<Vec<u8>> {
        if T::TYPE == PhysicalType::Boolean {
            // Each entry's key is one byte, 0 or 1; the page packs them a bit each.
            let mut page = vec![0u8; self.len.div_ceil(8)];
            for (i, &key) in self.keys.iter().enumerate() {
                if let Some(byte) = page.get_mut(i / 8) {
                    *byte |= (key & 1) << (i % 8);
                }
            }
            return Ok(page);
        }
        Ok(self.keys.clone())
    }

    /// Number of values in the dictionary.
    pub fn dictionary_len(&self) -> usize {
        self.len
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
        bit_width(self.len.saturating_sub(1) as u64).min(MAX_INDEX_BIT_WIDTH)
    }

    /// The key of entry `index`.
    #[inline]
    fn key(&self, index: usize) -> &[u8] {
        let range = if self.stride > 0 {
            index * self.stride..(index + 1) * self.stride
        } else {
            match (self.offsets.get(index), self.offsets.get(index + 1)) {
                (Some(&a), Some(&b)) => a..b,
                _ => 0..0,
            }
        };
        self.keys.get(range).unwrap_or(&[])
    }

    /// Rebuilds the table with `size` (a power of two) slots.
    fn rehash(&mut self, size: usize) {
        let mut slots = vec![EMPTY; size];
        let mask = size - 1;
        for entry in 0..self.len {
            let hash = hash_key(self.key(entry), self.seed);
            let mut slot = (hash as usize) & mask;
            while slots[slot] != EMPTY {
                slot = (slot + 1) & mask;
            }
            slots[slot] = (hash & TAG) | entry as u64;
        }
        self.slots = slots;
    }

    /// The index of `key`, adding it to the dictionary if new; `None` if adding it would pass
    /// a limit.
    #[inline]
    fn intern(&mut self, key: &[u8]) -> Option<u32> {
        let hash = hash_key(key, self.seed);
        let mask = self.slots.len().wrapping_sub(1);
        let mut slot = (hash as usize) & mask;
        while let Some(&entry) = self.slots.get(slot) {
            if entry == EMPTY {
                break;
            }
            if entry & TAG == hash & TAG && key_eq(self.key((entry & !TAG) as usize), key) {
                return Some(entry as u32);
            }
            slot = (slot + 1) & mask;
        }
        // A new entry.
        let fits = self.len < self.limits.max_distinct_values.min(MAX_ENTRIES)
            && self
                .keys
                .len()
                .checked_add(key.len())
                .is_some_and(|size| size <= self.limits.max_dictionary_bytes);
        if !fits {
            return None;
        }
        let index = self.len;
        self.keys.extend_from_slice(key);
        if self.stride == 0 {
            self.offsets.push(self.keys.len());
        }
        self.len += 1;
        if self.len * 4 > self.slots.len() {
            self.rehash((self.slots.len() * 2).max(64));
        } else if let Some(s) = self.slots.get_mut(slot) {
            *s = (hash & TAG) | index as u64;
        }
        Some(index as u32)
    }

    /// Interns the keys of the batch in `scratch` (`count` values), pushing their indices;
    /// returns the value at which a limit was reached and the byte (or, for BOOLEAN, bit)
    /// where its PLAIN bytes start, if one was.
    fn intern_batch(&mut self, scratch: &[u8], count: usize) -> Option<(usize, usize)> {
        self.indices.reserve(count);
        match T::TYPE {
            PhysicalType::Boolean => {
                for i in 0..count {
                    let bit = scratch.get(i / 8).map_or(0, |b| (b >> (i % 8)) & 1);
                    match self.intern(&[bit]) {
                        Some(index) => self.indices.push(index),
                        None => return Some((i, i)),
                    }
                }
            }
            PhysicalType::ByteArray => {
                let mut at = 0;
                for i in 0..count {
                    let len = scratch
                        .get(at..at + 4)
                        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
                    let key = scratch.get(at..at + 4 + len).unwrap_or(&[]);
                    match self.intern(key) {
                        Some(index) => self.indices.push(index),
                        None => return Some((i, at)),
                    }
                    at += 4 + len;
                }
            }
            _ => {
                let stride = self.stride.max(1);
                for (i, key) in scratch.chunks_exact(stride).enumerate() {
                    match self.intern(key) {
                        Some(index) => self.indices.push(index),
                        None => return Some((i, i * stride)),
                    }
                }
            }
        }
        None
    }
}

/// High 32 bits of a slot: the entry's hash.
const TAG: u64 = 0xFFFF_FFFF_0000_0000;

/// Whether two keys are equal; the common fixed lengths compare as integers.
#[inline(always)]
fn key_eq(a: &[u8], b: &[u8]) -> bool {
    match (a.len(), b.len()) {
        (4, 4) => load(a, 0, 4) == load(b, 0, 4),
        (8, 8) => load(a, 0, 8) == load(b, 0, 8),
        (12, 12) => load(a, 0, 8) == load(b, 0, 8) && load(a, 8, 4) == load(b, 8, 4),
        _ => a == b,
    }
}

/// The `n` (4 or 8) bytes of `bytes` at `at` as a little-endian integer (0 if out of range).
#[inline(always)]
fn load(bytes: &[u8], at: usize, n: usize) -> u64 {
    match (n, bytes.get(at..at + n)) {
        (4, Some(b)) => u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        (8, Some(b)) => u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
        _ => 0,
    }
}

/// Multiplies as 128 bits and folds the halves: a fast, well-mixing step.
#[inline(always)]
fn fold_mul(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ ((p >> 64) as u64)
}

const K1: u64 = 0x9E37_79B9_7F4A_7C15;
const K2: u64 = 0xD6E8_FEB8_6659_FD93;

/// A 64-bit hash of `key`, keyed by `seed` (not meant to resist chosen collisions).
#[inline(always)]
fn hash_key(key: &[u8], seed: u64) -> u64 {
    match key.len() {
        4 => fold_mul(load(key, 0, 4) ^ seed, K1),
        8 => fold_mul(load(key, 0, 8) ^ seed, K1),
        12 => fold_mul(load(key, 0, 8) ^ seed, load(key, 8, 4) ^ K1),
        n => {
            let mut h = seed ^ (n as u64).wrapping_mul(K2);
            let mut chunks = key.chunks_exact(16);
            for c in &mut chunks {
                h = fold_mul(load(c, 0, 8) ^ h, load(c, 8, 8) ^ K1);
            }
            let rest = chunks.remainder();
            let mut b = [0u8; 16];
            if let Some(dst) = b.get_mut(..rest.len()) {
                dst.copy_from_slice(rest);
            }
            fold_mul(load(&b, 0, 8) ^ h, load(&b, 8, 8) ^ K2)
        }
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

impl<T: PlainType> Encoder<T> for DictionaryEncoder<T> {
    fn put<'v, I>(&mut self, values: I) -> Result<()>
    where
        I: IntoIterator<Item = &'v T::Value>,
        T::Value: 'v,
    {
        if let Some((buf, count)) = &mut self.plain {
            // After the fallback: straight to the PLAIN page.
            let (len, last) = (buf.len(), buf.last().copied());
            match T::put_plain(buf, *count, self.type_length, Encoding::Plain, values) {
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
        scratch.clear();
        let count = match T::put_plain(&mut scratch, 0, self.type_length, ENCODING, values) {
            Ok(count) => count,
            Err(e) => {
                self.scratch = scratch;
                return Err(reindex(e, self.indices.len()));
            }
        };
        if let Some((i, at)) = self.intern_batch(&scratch, count) {
            let mut buf = Vec::new();
            if T::TYPE == PhysicalType::Boolean {
                append_bits(&mut buf, 0, &scratch, at, count);
            } else {
                buf.extend_from_slice(scratch.get(at..).unwrap_or(&[]));
            }
            self.plain = Some((buf, count - i));
        }
        self.scratch = scratch;
        Ok(())
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
