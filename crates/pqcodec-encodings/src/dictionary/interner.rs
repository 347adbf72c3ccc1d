//! The dictionary encoder's hash table: each distinct key (a value's PLAIN bytes) gets the
//! next index.
//!
//! Open addressing with linear probing, kept at most an eighth full while small, a quarter
//! beyond and half when large ([`too_full`]) so that probe sequences stay short and
//! predictable. Keys of up to 4 bytes live in the slots themselves (`key << 32 | index` in a
//! `u64`), and so do keys of 5 to 8 or 12 bytes (in a `u128`): a lookup reads one slot and
//! compares integers. Other keys (BYTE_ARRAY, other FIXED_LEN_BYTE_ARRAY lengths, BOOLEAN)
//! keep 32 bits of their hash in the slot next to their index and are compared as bytes when
//! those match.

use std::hash::BuildHasher;

/// Most entries: indices are 32-bit and an index of `u32::MAX` marks an empty slot.
const MAX_ENTRIES: usize = u32::MAX as usize;

/// Keys whose first slots are read together, ahead of their probes, in a large table.
const TOUCH_AHEAD: usize = 16;

/// Slots of a table before its first growth.
const MIN_SLOTS: usize = 64;

/// Size up to which a table is kept at most an eighth full, a quarter beyond. Tables of more
/// (128 KiB) are where glibc's allocator starts to map and unmap memory for each: criterion's
/// INT96 dictionary encode fell from 150 to 67 M values/s when they went that far.
const SPARSE_BYTES: usize = 64 * 1024;

/// Size from which a table may be half full: a large table's lookups miss the caches, and
/// fewer bytes to miss in beat shorter probe runs (a high-cardinality INT64 column's 1 MiB
/// dictionary: 8 MiB of slots a quarter full, 4 MiB half full).
const DENSE_BYTES: usize = 1024 * 1024;

/// Whether a table of `slots` slots of `slot_size` bytes holding `len` keys is to grow: past
/// an eighth full while it is smaller than `SPARSE_BYTES`, so that most lookups find their
/// key (or an empty slot) at the first slot they read; past a quarter up to `DENSE_BYTES`;
/// past half beyond.
#[inline(always)]
fn too_full(len: usize, slots: usize, slot_size: usize) -> bool {
    let bytes = slots * slot_size;
    len * 2 > slots
        || (len * 4 > slots && bytes < DENSE_BYTES)
        || (len * 8 > slots && bytes < SPARSE_BYTES)
}

/// A slot holding a key inline next to its index.
trait Inline: Copy + PartialEq {
    /// An empty slot (its index half is `u32::MAX`).
    const EMPTY: Self;
    fn pack(key: u128, index: u32) -> Self;
    fn key(self) -> u128;
    fn index(self) -> u32;
    /// Takes this kind of slots out of `table` (none if it holds another kind).
    fn take(table: &mut Table) -> Vec<Self>;
    /// Puts slots of this kind in `table`.
    fn store(table: &mut Table, slots: Vec<Self>);
}

impl Inline for u64 {
    const EMPTY: Self = u64::MAX;
    #[inline(always)]
    fn pack(key: u128, index: u32) -> Self {
        ((key as u64) << 32) | u64::from(index)
    }
    #[inline(always)]
    fn key(self) -> u128 {
        u128::from(self >> 32)
    }
    #[inline(always)]
    fn index(self) -> u32 {
        self as u32
    }
    fn take(table: &mut Table) -> Vec<Self> {
        match table {
            Table::Narrow(slots) => std::mem::take(slots),
            _ => Vec::new(),
        }
    }
    fn store(table: &mut Table, slots: Vec<Self>) {
        *table = Table::Narrow(slots);
    }
}

impl Inline for u128 {
    const EMPTY: Self = u128::MAX;
    #[inline(always)]
    fn pack(key: u128, index: u32) -> Self {
        (key << 32) | u128::from(index)
    }
    #[inline(always)]
    fn key(self) -> u128 {
        self >> 32
    }
    #[inline(always)]
    fn index(self) -> u32 {
        self as u32
    }
    fn take(table: &mut Table) -> Vec<Self> {
        match table {
            Table::Wide(slots) => std::mem::take(slots),
            _ => Vec::new(),
        }
    }
    fn store(table: &mut Table, slots: Vec<Self>) {
        *table = Table::Wide(slots);
    }
}

/// The slots, by how keys are held.
#[derive(Debug, Clone)]
enum Table {
    /// 4-byte keys inline.
    Narrow(Vec<u64>),
    /// 8- or 12-byte keys inline.
    Wide(Vec<u128>),
    /// Other keys: hash in the high 32 bits, index in the low 32 (`u64::MAX` is empty).
    Bytes(Vec<u64>),
}

/// The keys' bytes, in index order.
#[derive(Debug, Clone)]
struct KeyStore {
    /// Every key's bytes, back to back.
    bytes: Vec<u8>,
    /// Where each key starts in `bytes`, and where the last ends, when keys vary in length.
    offsets: Vec<usize>,
    /// The length of every key, or 0 if they vary.
    stride: usize,
    len: usize,
}

impl KeyStore {
    /// Records a new key, the bytes of `head` then of `key`, and returns its index.
    #[inline]
    fn push(&mut self, head: &[u8], key: &[u8]) -> u32 {
        let index = self.len as u32;
        self.bytes.extend_from_slice(head);
        self.bytes.extend_from_slice(key);
        if self.stride == 0 {
            self.offsets.push(self.bytes.len());
        }
        self.len += 1;
        index
    }

    /// The bytes of key `index` from byte `from` on.
    #[inline]
    fn get_from(&self, index: usize, from: usize) -> &[u8] {
        self.get(index).get(from..).unwrap_or(&[])
    }

    /// The bytes of key `index`.
    #[inline]
    fn get(&self, index: usize) -> &[u8] {
        let range = if self.stride > 0 {
            index * self.stride..(index + 1) * self.stride
        } else {
            match (self.offsets.get(index), self.offsets.get(index + 1)) {
                (Some(&a), Some(&b)) => a..b,
                _ => 0..0,
            }
        };
        self.bytes.get(range).unwrap_or(&[])
    }
}

/// Distinct keys and their indices, within limits.
#[derive(Debug, Clone)]
pub(super) struct Interner {
    seed: u64,
    store: KeyStore,
    max_len: usize,
    max_bytes: usize,
    table: Table,
}

/// Multiplies as 128 bits and folds the halves: a fast, well-mixing step.
#[inline(always)]
fn fold_mul(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ ((p >> 64) as u64)
}

const K1: u64 = 0x9E37_79B9_7F4A_7C15;
const K2: u64 = 0xD6E8_FEB8_6659_FD93;

/// The high half of a slot of a table of keys held as bytes: 32 bits of its key's hash.
const TAG: u64 = 0xFFFF_FFFF_0000_0000;

/// Bytes of a BYTE_ARRAY key before its value: the PLAIN length.
const PLAIN_PREFIX: usize = 4;

/// The hash of an inline key.
#[inline(always)]
fn hash_inline(key: u128, seed: u64) -> u64 {
    fold_mul((key as u64) ^ seed, ((key >> 64) as u64) ^ K1)
}

/// The `N` bytes of `bytes` at `at` as a little-endian integer (0 if out of range).
#[inline(always)]
fn le<const N: usize>(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    if let (Some(dst), Some(src)) = (b.get_mut(..N), bytes.get(at..at + N)) {
        dst.copy_from_slice(src);
    }
    u64::from_le_bytes(b)
}

/// The hash of a key held as bytes (not meant to resist chosen collisions).
#[inline]
fn hash_bytes(key: &[u8], seed: u64) -> u64 {
    let n = key.len();
    let mut h = seed ^ (n as u64).wrapping_mul(K2);
    if n <= 16 {
        // Two possibly overlapping reads cover the key.
        let (a, b) = if n >= 8 {
            (le::<8>(key, 0), le::<8>(key, n - 8))
        } else if n >= 4 {
            (le::<4>(key, 0), le::<4>(key, n - 4))
        } else {
            let first = key.first().map_or(0, |&x| u64::from(x));
            let mid = key.get(n / 2).map_or(0, |&x| u64::from(x));
            let last = key.last().map_or(0, |&x| u64::from(x));
            ((first << 16) | (mid << 8) | last, 0)
        };
        return fold_mul(a ^ h, b ^ K1);
    }
    let mut chunks = key.chunks_exact(16);
    for c in &mut chunks {
        h = fold_mul(le::<8>(c, 0) ^ h, le::<8>(c, 8) ^ K1);
    }
    // The last 16 bytes, overlapping what came before.
    fold_mul(le::<8>(key, n - 16) ^ h, le::<8>(key, n - 8) ^ K2)
}

impl Interner {
    /// An empty interner of keys `stride` bytes long (0: of varying length), holding at most
    /// `max_len` keys of `max_bytes` bytes in all.
    pub(super) fn new(stride: usize, max_len: usize, max_bytes: usize) -> Self {
        let table = match stride {
            1..=4 => Table::Narrow(Vec::new()),
            5..=8 | 12 => Table::Wide(Vec::new()),
            _ => Table::Bytes(Vec::new()),
        };
        Interner {
            seed: std::collections::hash_map::RandomState::new().hash_one(0x5eed_u64),
            store: KeyStore {
                bytes: Vec::new(),
                offsets: vec![0],
                stride,
                len: 0,
            },
            max_len: max_len.min(MAX_ENTRIES),
            max_bytes,
            table,
        }
    }

    /// Number of keys.
    pub(super) fn len(&self) -> usize {
        self.store.len
    }

    /// The bytes of key `index`, from byte `from` on (empty if there is no such key).
    pub(super) fn key(&self, index: usize, from: usize) -> &[u8] {
        self.store.get_from(index, from)
    }

    /// Every key's bytes, back to back, in index order.
    pub(super) fn keys(&self) -> &[u8] {
        &self.store.bytes
    }

    /// Whether one more key of `n` bytes stays within the limits.
    #[inline]
    fn fits(store: &KeyStore, max_len: usize, max_bytes: usize, n: usize) -> bool {
        store.len < max_len
            && store
                .bytes
                .len()
                .checked_add(n)
                .is_some_and(|size| size <= max_bytes)
    }

    /// Interns each of the `count` `stride`-byte keys of `bytes` and pushes its index to
    /// `indices`; stops at the first key that would pass a limit and returns its position and
    /// byte offset. (BYTE_ARRAY values come one by one, [`Interner::intern_value`].)
    pub(super) fn intern_all(
        &mut self,
        bytes: &[u8],
        count: usize,
        indices: &mut Vec<u32>,
    ) -> Option<(usize, usize)> {
        indices.reserve(count);
        match self.store.stride {
            1 => self.intern_inline::<u64, 1>(bytes, indices),
            2 => self.intern_inline::<u64, 2>(bytes, indices),
            3 => self.intern_inline::<u64, 3>(bytes, indices),
            4 => self.intern_inline::<u64, 4>(bytes, indices),
            5 => self.intern_inline::<u128, 5>(bytes, indices),
            6 => self.intern_inline::<u128, 6>(bytes, indices),
            7 => self.intern_inline::<u128, 7>(bytes, indices),
            8 => self.intern_inline::<u128, 8>(bytes, indices),
            12 => self.intern_inline::<u128, 12>(bytes, indices),
            stride => {
                for i in 0..count {
                    let at = i * stride;
                    let key = bytes.get(at..at + stride).unwrap_or(&[]);
                    match self.intern_bytes(key) {
                        Some(index) => indices.push(index),
                        None => return Some((i, at)),
                    }
                }
                None
            }
        }
    }

    /// [`Interner::intern_all`] for keys of `N` (1 to 8, or 12) bytes held inline in `S` slots.
    fn intern_inline<S: Inline, const N: usize>(
        &mut self,
        bytes: &[u8],
        indices: &mut Vec<u32>,
    ) -> Option<(usize, usize)> {
        let mut slots = S::take(&mut self.table);
        let mut result = None;
        let key_of = |chunk: &[u8]| {
            if N == 12 {
                u128::from(le::<8>(chunk, 0)) | (u128::from(le::<4>(chunk, 8)) << 64)
            } else {
                u128::from(le::<N>(chunk, 0))
            }
        };
        // The previous key and its index: a run of equal keys (sorted or clustered columns)
        // is looked up once. No key is `u128::MAX` (keys have at most 96 bits).
        let mut last = (u128::MAX, 0);
        let mut hashes = [0u64; TOUCH_AHEAD];
        'groups: for (g, group) in bytes.chunks(N * TOUCH_AHEAD).enumerate() {
            let keys = group.chunks_exact(N);
            let touched = slots.len() * size_of::<S>() > SPARSE_BYTES;
            if touched {
                // A table past the first caches: each key's first slot is read before any is
                // probed. The reads do not wait for each other, so their cache misses overlap
                // instead of coming one after another; the probes then find the slots cached.
                let mask = slots.len() - 1;
                let mut touch = 0;
                for (h, chunk) in hashes.iter_mut().zip(keys.clone()) {
                    *h = hash_inline(key_of(chunk), self.seed);
                    touch ^= slots.get(*h as usize & mask).map_or(0, |s| s.index());
                }
                std::hint::black_box(touch);
            }
            for (j, chunk) in keys.enumerate() {
                let i = g * TOUCH_AHEAD + j;
                let key = key_of(chunk);
                if key == last.0 {
                    indices.push(last.1);
                    continue;
                }
                if slots.is_empty() {
                    slots = vec![S::EMPTY; MIN_SLOTS];
                }
                let hash = if touched {
                    hashes[j]
                } else {
                    hash_inline(key, self.seed)
                };
                let mask = slots.len() - 1;
                let mut pos = hash as usize & mask;
                let found = loop {
                    match slots.get(pos) {
                        Some(&s) if s == S::EMPTY => break None,
                        Some(&s) if s.key() == key => break Some(s.index()),
                        Some(_) => pos = (pos + 1) & mask,
                        None => break None,
                    }
                };
                let index = match found {
                    Some(index) => index,
                    None => {
                        if !Self::fits(&self.store, self.max_len, self.max_bytes, N) {
                            result = Some((i, i * N));
                            break 'groups;
                        }
                        let index = self.store.push(&[], chunk);
                        if let Some(s) = slots.get_mut(pos) {
                            *s = S::pack(key, index);
                        }
                        if too_full(self.store.len, slots.len(), size_of::<S>()) {
                            slots = self.grow_inline(&slots);
                        }
                        index
                    }
                };
                indices.push(index);
                last = (key, index);
            }
        }
        S::store(&mut self.table, slots);
        result
    }

    /// The inline table `slots` moved to twice as many slots.
    fn grow_inline<S: Inline>(&self, slots: &[S]) -> Vec<S> {
        let mut grown = vec![S::EMPTY; slots.len() * 2];
        let mask = grown.len() - 1;
        for &s in slots {
            if s == S::EMPTY {
                continue;
            }
            let mut pos = hash_inline(s.key(), self.seed) as usize & mask;
            while grown.get(pos).is_some_and(|&g| g != S::EMPTY) {
                pos = (pos + 1) & mask;
            }
            if let Some(g) = grown.get_mut(pos) {
                *g = s;
            }
        }
        grown
    }

    /// The index of the BYTE_ARRAY `value` (at most `u32::MAX` bytes) in a table of keys
    /// held as bytes, adding it if new; `None` if adding it would pass a limit. The key stored
    /// is the value's PLAIN form (4-byte length, then the bytes), so that the keys are the
    /// dictionary page; the table hashes and compares the value's bytes only.
    #[inline]
    pub(super) fn intern_value(&mut self, value: &[u8]) -> Option<u32> {
        self.intern_probe(value, PLAIN_PREFIX)
    }

    /// The index of `key` in a table of keys held as bytes, adding it if new; `None` if adding
    /// it would pass a limit.
    #[inline]
    pub(super) fn intern_bytes(&mut self, key: &[u8]) -> Option<u32> {
        self.intern_probe(key, 0)
    }

    /// [`Interner::intern_bytes`] of `probe`, whose stored key is `prefix` bytes (0, or the
    /// 4-byte PLAIN length) then `probe`; a table holds keys of one kind only.
    #[inline(always)]
    fn intern_probe(&mut self, probe: &[u8], prefix: usize) -> Option<u32> {
        let Interner {
            seed,
            store,
            max_len,
            max_bytes,
            table,
        } = self;
        if !matches!(table, Table::Bytes(_)) {
            *table = Table::Bytes(Vec::new());
        }
        let Table::Bytes(slots) = table else {
            return None;
        };
        if slots.is_empty() {
            *slots = vec![u64::MAX; MIN_SLOTS];
        }
        let hash = hash_bytes(probe, *seed);
        let mask = slots.len() - 1;
        let mut pos = hash as usize & mask;
        while let Some(&s) = slots.get(pos) {
            if s == u64::MAX {
                break;
            }
            if s & TAG == hash & TAG && bytes_eq(store.get_from(s as u32 as usize, prefix), probe) {
                return Some(s as u32);
            }
            pos = (pos + 1) & mask;
        }
        if !Self::fits(
            store,
            *max_len,
            *max_bytes,
            probe.len().saturating_add(prefix),
        ) {
            return None;
        }
        // The PLAIN length of a BYTE_ARRAY value (at most `u32::MAX` bytes), or nothing.
        let length = (probe.len() as u32).to_le_bytes();
        let index = store.push(length.get(..prefix).unwrap_or(&[]), probe);
        if let Some(s) = slots.get_mut(pos) {
            *s = (hash & TAG) | u64::from(index);
        }
        if too_full(store.len, slots.len(), size_of::<u64>()) {
            // Rebuild from the keys.
            let mut grown = vec![u64::MAX; slots.len() * 2];
            let mask = grown.len() - 1;
            for entry in 0..store.len {
                let hash = hash_bytes(store.get_from(entry, prefix), *seed);
                let mut pos = hash as usize & mask;
                while grown.get(pos).is_some_and(|&g| g != u64::MAX) {
                    pos = (pos + 1) & mask;
                }
                if let Some(g) = grown.get_mut(pos) {
                    *g = (hash & TAG) | entry as u64;
                }
            }
            *slots = grown;
        }
        Some(index)
    }
}

/// Whether two keys are equal, comparing 8 bytes at a time.
#[inline(always)]
fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n < 8 {
        // Short keys without a call to `memcmp`: two overlapping words, or the first, middle
        // and last byte (all of a key of up to three).
        if n >= 4 {
            return le::<4>(a, 0) == le::<4>(b, 0) && le::<4>(a, n - 4) == le::<4>(b, n - 4);
        }
        let at = |v: &[u8], i: usize| v.get(i).copied();
        return n == 0
            || (at(a, 0) == at(b, 0)
                && at(a, n / 2) == at(b, n / 2)
                && at(a, n - 1) == at(b, n - 1));
    }
    // Words at 0, 8, ..., then the last 8 bytes (overlapping).
    let mut at = 0;
    while at + 8 < n {
        if le::<8>(a, at) != le::<8>(b, at) {
            return false;
        }
        at += 8;
    }
    le::<8>(a, n - 8) == le::<8>(b, n - 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_tables_grow_past_an_eighth_full_large_ones_past_a_quarter() {
        // 64 slots of 16 bytes: 1 KiB.
        assert!(!too_full(8, 64, 16));
        assert!(too_full(9, 64, 16));
        // 4096 slots of 16 bytes: 64 KiB.
        assert!(!too_full(1024, 4096, 16));
        assert!(too_full(1025, 4096, 16));

        // 1000 distinct keys, twice: the same indices, in a table of 64 KiB, an eighth full
        // for 4-byte keys (8192 slots of 8 bytes), a quarter for 8-byte ones (4096 of 16).
        let expect: Vec<u32> = (0..1000).chain(0..1000).collect();
        for (width, slots) in [(4, 8192), (8, 4096)] {
            let keys: Vec<u8> = (0..1000u64)
                .flat_map(|k| (k * 0x9E37_79B9).to_le_bytes()[..width].to_vec())
                .collect();
            let mut interner = Interner::new(width, usize::MAX, usize::MAX);
            let mut indices = Vec::new();
            assert_eq!(interner.intern_all(&keys, 1000, &mut indices), None);
            assert_eq!(interner.intern_all(&keys, 1000, &mut indices), None);
            assert_eq!(indices, expect);
            let len = match &interner.table {
                Table::Narrow(s) => s.len(),
                Table::Wide(s) => s.len(),
                Table::Bytes(s) => s.len(),
            };
            assert_eq!(len, slots, "{width}-byte keys");
        }
    }

    /// Keys of every width, inline or not, get the indices a map of first sightings gives,
    /// past several growths of the table.
    #[test]
    fn every_key_width_gets_first_sighting_indices() {
        for width in [1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16] {
            let count = 20_000;
            let keys: Vec<u8> = (0..count as u64)
                .flat_map(|k| {
                    let v = (k * 7919 % 5003).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    let mut b = v.to_le_bytes().to_vec();
                    b.extend_from_slice(&v.rotate_left(17).to_le_bytes());
                    b.truncate(width);
                    b
                })
                .collect();
            let mut first = std::collections::HashMap::new();
            let expect: Vec<u32> = keys
                .chunks_exact(width)
                .map(|k| {
                    let next = first.len() as u32;
                    *first.entry(k.to_vec()).or_insert(next)
                })
                .collect();
            let mut interner = Interner::new(width, usize::MAX, usize::MAX);
            let mut indices = Vec::new();
            assert_eq!(interner.intern_all(&keys, count, &mut indices), None);
            assert_eq!(indices, expect, "{width}-byte keys");
            assert_eq!(interner.len(), first.len(), "{width}-byte keys");
        }
    }

    #[test]
    fn bytes_eq_is_equality_at_every_short_length() {
        for n in 0..=20usize {
            let a: Vec<u8> = (0..n as u8).map(|i| i.wrapping_mul(37)).collect();
            assert!(bytes_eq(&a, &a.clone()), "{n} bytes");
            assert!(!bytes_eq(&a, &a[..n.saturating_sub(1)]) || n == 0);
            for i in 0..n {
                let mut b = a.clone();
                b[i] ^= 0x40;
                assert!(!bytes_eq(&a, &b), "{n} bytes, byte {i} differs");
            }
        }
    }
}
