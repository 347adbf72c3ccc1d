//! Counting a column chunk's distinct values, to know the dictionary it would need.
//!
//! Counted exactly, not estimated from the sample: a dictionary's size decides whether the
//! writer keeps it or falls back, and a sample of runs cannot tell sorted keys (new values in
//! every run) from a few thousand values spread over the chunk. The count stops once the
//! dictionary is past the writer's limit, so a column of unique values costs little.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef};
use arrow_schema::DataType;
use pqcodec_core::ColumnType;

/// Distinct values of one leaf column over one row group, and the bytes their PLAIN
/// dictionary page would hold.
#[derive(Debug)]
pub(crate) struct DistinctCounter {
    seen: HashSet<u64, BuildHasherDefault<MixHasher>>,
    /// Bytes of the PLAIN dictionary of the values seen.
    bytes: u64,
    /// The dictionary's size the writer falls back past.
    limit: u64,
    /// Bytes a fixed-width value takes in the dictionary page (0 for BYTE_ARRAY).
    width: u64,
    /// Set once past `limit`, or on values this counter cannot hash.
    given_up: bool,
}

/// What a counter found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Distinct {
    /// The values and their dictionary page's bytes.
    Counted { values: u64, bytes: u64 },
    /// The dictionary would be past the limit: the writer would fall back.
    OverLimit,
    /// Values of an Arrow type that is not counted (the dictionary is judged on the sample).
    Unknown,
}

impl DistinctCounter {
    pub(crate) fn new(column_type: ColumnType, limit: u64) -> Self {
        // Byte arrays are counted by their bytes, of no one width.
        let width = column_type.value_width().unwrap_or(0) as u64;
        DistinctCounter {
            seen: HashSet::default(),
            bytes: 0,
            limit,
            width,
            given_up: false,
        }
    }

    /// Counts the non-null values of `leaf`, a leaf column's values (no struct, list or map).
    pub(crate) fn observe(&mut self, leaf: &ArrayRef) {
        if self.over_limit() {
            return;
        }
        let leaf = match leaf.as_any_dictionary_opt() {
            // The dictionary's values, used or not: an upper bound.
            Some(dictionary) => dictionary.values(),
            None => leaf,
        };
        match leaf.data_type() {
            DataType::Utf8 => {
                self.add_all(leaf.as_string::<i32>().iter().map(|v| v.map(str::as_bytes)))
            }
            DataType::LargeUtf8 => {
                self.add_all(leaf.as_string::<i64>().iter().map(|v| v.map(str::as_bytes)))
            }
            DataType::Utf8View => {
                self.add_all(leaf.as_string_view().iter().map(|v| v.map(str::as_bytes)))
            }
            DataType::Binary => self.add_all(leaf.as_binary::<i32>().iter()),
            DataType::LargeBinary => self.add_all(leaf.as_binary::<i64>().iter()),
            DataType::BinaryView => self.add_all(leaf.as_binary_view().iter()),
            DataType::FixedSizeBinary(_) => self.add_all(leaf.as_fixed_size_binary().iter()),
            t if t.is_primitive() => {
                let Some(width) = t.primitive_width() else {
                    self.given_up = true;
                    return;
                };
                let data = leaf.to_data();
                let start = data.offset() * width;
                let values = &data.buffers()[0].as_slice()[start..start + data.len() * width];
                let nulls = leaf.logical_nulls();
                self.add_all(
                    values
                        .chunks_exact(width)
                        .enumerate()
                        .map(|(i, v)| nulls.as_ref().is_none_or(|n| n.is_valid(i)).then_some(v)),
                );
            }
            _ => self.given_up = true,
        }
    }

    fn add_all<'a>(&mut self, values: impl Iterator<Item = Option<&'a [u8]>>) {
        for value in values.flatten() {
            if self.seen.insert(key(value)) {
                self.bytes += if self.width == 0 {
                    4 + value.len() as u64
                } else {
                    self.width
                };
                if self.over_limit() {
                    return;
                }
            }
        }
    }

    fn over_limit(&self) -> bool {
        self.given_up || self.bytes > self.limit
    }

    /// What was found; the counter starts again from nothing.
    pub(crate) fn finish(&mut self) -> Distinct {
        let found = if self.given_up {
            Distinct::Unknown
        } else if self.bytes > self.limit {
            Distinct::OverLimit
        } else {
            Distinct::Counted {
                values: self.seen.len() as u64,
                bytes: self.bytes,
            }
        };
        self.seen.clear();
        self.bytes = 0;
        self.given_up = false;
        found
    }
}

/// A value's key: a 64-bit hash of its bytes and length. Two values sharing one (about one
/// pair in ten million among a million values) are counted once.
fn key(value: &[u8]) -> u64 {
    let mut h = MixHasher::default();
    h.write(value);
    h.write_usize(value.len());
    h.finish()
}

/// A fast multiply-and-rotate hasher, for the keys and for the set of keys. Crafted values
/// can only make a count slower or one short, never wrong in a way that matters more.
#[derive(Default)]
pub(crate) struct MixHasher(u64);

const MIX: u64 = 0x9e37_79b9_7f4a_7c15;

impl Hasher for MixHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let v = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
            self.write_u64(v);
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(last));
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(MIX);
    }

    fn finish(&self) -> u64 {
        // A final mix so that the set's buckets see every input bit.
        let x = self.0 ^ (self.0 >> 32);
        x.wrapping_mul(MIX) ^ (x >> 29)
    }
}
