//! Encoding dictionary pages and dictionary-encoded data pages, with fallback to PLAIN.

use std::hash::BuildHasher;
use std::iter;

use pqcodec_core::{Encoder, Encoding, Error, PhysicalType, Result};

use super::MAX_INDEX_BIT_WIDTH;
use crate::kernels::bitpack::bit_width;
use crate::plain::{PlainEncoder, PlainType};
use crate::rle::RleEncoder;

const ENCODING: Encoding = Encoding::RleDictionary;

/// Marks an empty slot of the hash table.
const EMPTY: u32 = u32::MAX;

/// Most entries a dictionary holds: indices are at most 32 bits and `u32::MAX` marks empty
/// slots.
const MAX_ENTRIES: usize = EMPTY as usize;

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
/// growing, and that value and every later one go to a PLAIN encoder. The indices already
/// buffered still form a dictionary-encoded page: the next `flush_into` writes them
/// ([`DictionaryEncoder::page_encoding`] says [`Encoding::RleDictionary`]), and every flush
/// after that writes a PLAIN page ([`Encoding::Plain`]). So after a fallback two pages may be
/// pending at once: [`Encoder::num_values`] and [`Encoder::estimated_size`] describe the page
/// the next flush writes, and a caller finishing a column chunk flushes while `num_values()`
/// is not 0, reading `page_encoding()` before each flush. The dictionary page is still needed
/// for the dictionary-encoded pages written before the fallback.
#[derive(Debug, Clone)]
pub struct DictionaryEncoder<T: PlainType> {
    type_length: usize,
    limits: DictionaryLimits,
    seed: u64,
    /// The PLAIN bytes of each entry, back to back, in index order.
    keys: Vec<u8>,
    /// `len + 1` offsets into `keys`.
    offsets: Vec<usize>,
    /// The hash of each entry.
    hashes: Vec<u64>,
    /// Open-addressing table of entry indices, a power of two long (or empty).
    slots: Vec<u32>,
    /// Indices of the values of the page being built.
    indices: Vec<u32>,
    /// The PLAIN encoder values go to after the fallback.
    fallback: Option<PlainEncoder<T>>,
    /// Reused for the PLAIN bytes of one value.
    scratch: Vec<u8>,
}

impl<T: PlainType> DictionaryEncoder<T> {
    /// An empty encoder; `type_length` is the value length of a FIXED_LEN_BYTE_ARRAY column
    /// and is ignored for the other types.
    pub fn new(type_length: usize, limits: DictionaryLimits) -> Self {
        DictionaryEncoder {
            type_length,
            limits,
            seed: std::collections::hash_map::RandomState::new().hash_one(0x5eed_u64),
            keys: Vec::new(),
            offsets: vec![0],
            hashes: Vec::new(),
            slots: Vec::new(),
            indices: Vec::new(),
            fallback: None,
            scratch: Vec::new(),
        }
    }

    /// The dictionary page: the PLAIN bytes of the dictionary's values, in index order.
    pub fn dictionary_page(&self) -> Result<Vec<u8>> {
        if T::TYPE == PhysicalType::Boolean {
            // Each entry's key is one PLAIN byte of one boolean (0 or 1); the page packs them
            // a bit each.
            let mut page = vec![0u8; self.hashes.len().div_ceil(8)];
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
        self.hashes.len()
    }

    /// Whether the encoder has fallen back to PLAIN.
    pub fn has_fallen_back(&self) -> bool {
        self.fallback.is_some()
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
        self.fallback.is_none() || !self.indices.is_empty()
    }

    /// The bit width indices into the current dictionary are written at: enough for the
    /// largest index (0 for a dictionary of one value, as arrow-rs and parquet-java write).
    fn index_bit_width(&self) -> u32 {
        let largest = self.hashes.len().saturating_sub(1) as u64;
        bit_width(largest).min(MAX_INDEX_BIT_WIDTH)
    }

    fn key(&self, index: usize) -> &[u8] {
        // offsets has len + 1 increasing entries within keys.
        &self.keys[self.offsets[index]..self.offsets[index + 1]]
    }

    /// The index of the entry with `key` (hashing to `hash`), or the free slot to put it in.
    fn find(&self, key: &[u8], hash: u64) -> std::result::Result<u32, usize> {
        let mask = self.slots.len() - 1;
        let mut slot = hash as usize & mask;
        loop {
            let entry = self.slots[slot];
            if entry == EMPTY {
                return Err(slot);
            }
            if self.hashes[entry as usize] == hash && self.key(entry as usize) == key {
                return Ok(entry);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Rebuilds the table with `size` (a power of two) slots.
    fn rehash(&mut self, size: usize) {
        self.slots.clear();
        self.slots.resize(size, EMPTY);
        let mask = size - 1;
        for (entry, &hash) in self.hashes.iter().enumerate() {
            let mut slot = hash as usize & mask;
            while self.slots[slot] != EMPTY {
                slot = (slot + 1) & mask;
            }
            self.slots[slot] = entry as u32;
        }
    }

    /// Whether one more entry of `key_len` bytes stays within the limits.
    fn fits(&self, key_len: usize) -> bool {
        let len = self.hashes.len();
        len < self.limits.max_distinct_values.min(MAX_ENTRIES)
            && self
                .keys
                .len()
                .checked_add(key_len)
                .is_some_and(|size| size <= self.limits.max_dictionary_bytes)
    }

    /// Puts values until one would pass a limit; returns that one, if any, for the PLAIN
    /// encoder along with the values after it.
    fn put_dictionary<'v, I>(
        &mut self,
        values: &mut I,
        first: usize,
    ) -> Result<Option<&'v T::Value>>
    where
        I: Iterator<Item = &'v T::Value>,
        T::Value: 'v,
    {
        let mut scratch = std::mem::take(&mut self.scratch);
        let result = (|| {
            for (i, value) in values.by_ref().enumerate() {
                scratch.clear();
                T::put_plain(
                    &mut scratch,
                    0,
                    self.type_length,
                    ENCODING,
                    iter::once(value),
                )
                .map_err(|e| reindex(e, first + i))?;
                let hash = hash_bytes(&scratch, self.seed);
                if self.slots.is_empty() {
                    self.rehash(64);
                }
                let index = match self.find(&scratch, hash) {
                    Ok(index) => index,
                    Err(slot) => {
                        if !self.fits(scratch.len()) {
                            return Ok(Some(value));
                        }
                        let index = self.hashes.len() as u32;
                        self.slots[slot] = index;
                        self.hashes.push(hash);
                        self.keys.extend_from_slice(&scratch);
                        self.offsets.push(self.keys.len());
                        if self.hashes.len() * 2 > self.slots.len() {
                            self.rehash(self.slots.len() * 2);
                        }
                        index
                    }
                };
                self.indices.push(index);
            }
            Ok(None)
        })();
        self.scratch = scratch;
        result
    }

    /// Undoes a failed put: back to `indices` indices and `entries` dictionary entries, and
    /// no fallback if there was none.
    fn roll_back(&mut self, indices: usize, entries: usize, had_fallback: bool) {
        self.indices.truncate(indices);
        if self.hashes.len() != entries {
            self.hashes.truncate(entries);
            self.offsets.truncate(entries + 1);
            self.keys
                .truncate(self.offsets.last().copied().unwrap_or(0));
            self.rehash(self.slots.len());
        }
        if !had_fallback {
            self.fallback = None;
        }
    }
}

/// Puts the right index on a value error from encoding one value alone.
fn reindex(error: Error, index: usize) -> Error {
    match error {
        Error::Value {
            encoding, reason, ..
        } => Error::Value {
            encoding,
            index,
            reason,
        },
        other => other,
    }
}

/// A 64-bit hash of `bytes`, 8 at a time, keyed by `seed`.
#[inline]
fn hash_bytes(bytes: &[u8], seed: u64) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = seed ^ (bytes.len() as u64).wrapping_mul(K);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let word = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        h = (h ^ word).wrapping_mul(K).rotate_left(29);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut b = [0u8; 8];
        b[..rest.len()].copy_from_slice(rest);
        h = (h ^ u64::from_le_bytes(b)).wrapping_mul(K).rotate_left(29);
    }
    // murmur3's finaliser
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^ (h >> 33)
}

impl<T: PlainType> Encoder<T> for DictionaryEncoder<T> {
    /// Appends values; a value that cannot be encoded (a FIXED_LEN_BYTE_ARRAY of the wrong
    /// length) fails with [`Error::Value`] and leaves the encoder as it was before the call.
    fn put<'v, I>(&mut self, values: I) -> Result<()>
    where
        I: IntoIterator<Item = &'v T::Value>,
        T::Value: 'v,
    {
        let (indices, entries) = (self.indices.len(), self.hashes.len());
        let had_fallback = self.fallback.is_some();
        let mut values = values.into_iter();
        let result = match self.fallback {
            Some(ref mut plain) => plain.put(values),
            None => match self.put_dictionary(&mut values, 0) {
                Ok(Some(first)) => {
                    let plain = self.fallback.insert(PlainEncoder::new(self.type_length));
                    let done = self.indices.len() - indices;
                    plain
                        .put(iter::once(first).chain(values))
                        .map_err(|e| match e {
                            Error::Value {
                                encoding,
                                index,
                                reason,
                            } => Error::Value {
                                encoding,
                                index: index + done,
                                reason,
                            },
                            other => other,
                        })
                }
                Ok(None) => Ok(()),
                Err(e) => Err(e),
            },
        };
        if result.is_err() {
            self.roll_back(indices, entries, had_fallback);
        }
        result
    }

    /// Values in the page the next flush writes: pending indices, or after those the values
    /// given to the PLAIN encoder since the fallback.
    fn num_values(&self) -> usize {
        match &self.fallback {
            Some(plain) if self.indices.is_empty() => plain.num_values(),
            _ => self.indices.len(),
        }
    }

    /// Estimated size of the page the next flush writes.
    fn estimated_size(&self) -> usize {
        match &self.fallback {
            Some(plain) if self.indices.is_empty() => plain.estimated_size(),
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
            if let Some(plain) = &mut self.fallback {
                plain.flush_into(out)?;
            }
            return Ok(());
        }
        let width = self.index_bit_width();
        out.push(width as u8);
        let mut rle = RleEncoder::new(width);
        for run in self.indices.chunk_by(|a, b| a == b) {
            if let Some(&index) = run.first() {
                rle.put_repeated(index, run.len());
            }
        }
        rle.flush_into(out);
        self.indices.clear();
        Ok(())
    }
}
