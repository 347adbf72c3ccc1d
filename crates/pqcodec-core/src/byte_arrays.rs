use crate::sink::prefixed_value;
use crate::{Sink, ValueBuffer};

/// Variable-length byte strings stored back to back, with their offsets: the buffer of the
/// BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByteArrays {
    offsets: Vec<usize>,
    data: Vec<u8>,
}

impl Default for ByteArrays {
    fn default() -> Self {
        ByteArrays {
            offsets: vec![0],
            data: Vec::new(),
        }
    }
}

impl ByteArrays {
    /// An empty buffer.
    pub fn new() -> Self {
        Self::default()
    }

    /// The values, concatenated.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// `len() + 1` offsets into [`ByteArrays::data`]; value `i` is `data[offsets[i]..offsets[i + 1]]`.
    pub fn offsets(&self) -> &[usize] {
        &self.offsets
    }

    /// The values in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u8]> + '_ {
        self.offsets.windows(2).map(|w| &self.data[w[0]..w[1]])
    }

    /// The last value, if any.
    pub fn last(&self) -> Option<&[u8]> {
        ValueBuffer::get(self, ValueBuffer::len(self).checked_sub(1)?)
    }
}

impl<'a> FromIterator<&'a [u8]> for ByteArrays {
    fn from_iter<I: IntoIterator<Item = &'a [u8]>>(iter: I) -> Self {
        let mut out = ByteArrays::new();
        for v in iter {
            out.push(v);
        }
        out
    }
}

impl Sink<[u8]> for ByteArrays {
    fn reserve(&mut self, additional: usize) {
        self.offsets.reserve(additional);
    }
    fn reserve_bytes(&mut self, additional: usize) {
        self.data.reserve(additional);
    }
    #[inline]
    fn push(&mut self, value: &[u8]) {
        self.data.extend_from_slice(value);
        self.offsets.push(self.data.len());
    }
    fn push_repeated(&mut self, value: &[u8], count: usize) {
        self.offsets.reserve(count);
        self.data.reserve(value.len().saturating_mul(count));
        for _ in 0..count {
            self.push(value);
        }
    }
    fn extend_from_lengths(&mut self, lengths: &[u32], data: &[u8]) {
        // The offsets by a prefix sum, then the values' bytes in one copy.
        let base = self.data.len();
        self.offsets.reserve(lengths.len());
        let mut end = 0usize;
        for &len in lengths {
            let next = end + len as usize;
            if next > data.len() {
                break;
            }
            end = next;
            self.offsets.push(base + end);
        }
        self.data
            .extend_from_slice(data.get(..end).unwrap_or_default());
    }
    fn extend_from_deltas(
        &mut self,
        previous: &mut Vec<u8>,
        prefixes: &[u32],
        lengths: &[u32],
        data: &[u8],
        start: usize,
    ) {
        // Each value's prefix copied from the value before it where that was appended.
        self.offsets.reserve(prefixes.len().min(lengths.len()));
        let mut rest = data.get(start..).unwrap_or_default();
        let mut last: Option<usize> = None;
        for (&prefix, &len) in prefixes.iter().zip(lengths) {
            let (suffix, tail) = rest.split_at_checked(len as usize).unwrap_or((rest, &[]));
            rest = tail;
            let (start, prefix) = (self.data.len(), prefix as usize);
            match last {
                None => self
                    .data
                    .extend_from_slice(previous.as_slice().get(..prefix).unwrap_or(previous)),
                Some(at) => self.data.extend_from_within(at..(at + prefix).min(start)),
            }
            self.data.extend_from_slice(suffix);
            self.offsets.push(self.data.len());
            last = Some(start);
        }
        if let Some(at) = last {
            previous.clear();
            previous.extend_from_slice(self.data.as_slice().get(at..).unwrap_or_default());
        }
    }
    fn extend_from_prefixed(&mut self, data: &[u8], n: usize) -> Option<usize> {
        // Lengths read and values copied in one pass; a bad length undoes the batch.
        let (values, bytes) = (self.offsets.len(), self.data.len());
        self.offsets.reserve(n);
        let mut at = 0;
        for _ in 0..n {
            let Some((start, end)) = prefixed_value(data, at) else {
                self.offsets.truncate(values);
                self.data.truncate(bytes);
                return None;
            };
            self.push(&data[start..end]);
            at = end;
        }
        Some(at)
    }
}

impl ValueBuffer<[u8]> for ByteArrays {
    fn len(&self) -> usize {
        self.offsets.len() - 1
    }
    fn get(&self, index: usize) -> Option<&[u8]> {
        let start = *self.offsets.get(index)?;
        let end = *self.offsets.get(index + 1)?;
        Some(&self.data[start..end])
    }
    fn values<'s>(&'s self) -> impl Iterator<Item = &'s [u8]>
    where
        [u8]: 's,
    {
        self.iter()
    }
    fn clear(&mut self) {
        self.offsets.truncate(1);
        self.data.clear();
    }
    fn reset(&mut self, values: usize, bytes: usize) {
        crate::sink::reset_vec(&mut self.offsets, values.saturating_add(1));
        self.offsets.push(0);
        crate::sink::reset_vec(&mut self.data, bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sink::push_deltas;

    #[test]
    fn push_get_iter() {
        let mut b = ByteArrays::new();
        b.push(b"ab");
        b.push(b"");
        b.push_repeated(b"c", 2);
        assert_eq!(b.len(), 4);
        assert_eq!(b.get(0), Some(&b"ab"[..]));
        assert_eq!(b.get(1), Some(&b""[..]));
        assert_eq!(b.get(4), None);
        assert_eq!(
            b.iter().collect::<Vec<_>>(),
            vec![&b"ab"[..], b"", b"c", b"c"]
        );
        assert_eq!(b.last(), Some(&b"c"[..]));
        b.clear();
        assert!(b.is_empty());
        assert_eq!(b.last(), None);
    }

    #[test]
    fn extend_from_lengths_matches_pushes() {
        let data = b"abcdefghij";
        let mut bulk = ByteArrays::new();
        bulk.push(b"x");
        bulk.extend_from_lengths(&[3, 0, 5, 2], data);
        let mut one = ByteArrays::new();
        for v in [&b"x"[..], b"abc", b"", b"defgh", b"ij"] {
            one.push(v);
        }
        assert_eq!(bulk, one);
        // A length past the end stops the append there.
        let mut short = ByteArrays::new();
        short.extend_from_lengths(&[4, 7, 1], data);
        assert_eq!(short.iter().collect::<Vec<_>>(), [&b"abcd"[..]]);
        assert_eq!(short.data(), b"abcd");
    }

    /// DELTA_BYTE_ARRAY values appended two calls at a time give what the default's pushes
    /// give, and leave the same last value; a prefix past the value before it or lengths past
    /// the suffixes append something, without a panic.
    #[test]
    fn extend_from_deltas_matches_pushes() {
        // "ab", "abcd", "abx", "", "y", "yz"; then "yzw" and "w".
        let (prefixes, lengths, suffixes) = (
            [0, 2, 2, 0, 0, 1, 2, 0],
            [2, 2, 1, 0, 1, 1, 1, 1],
            b"abcdxyzww",
        );
        let mut bulk = ByteArrays::from_iter([&b"q"[..]]);
        let mut one: Vec<Vec<u8>> = vec![b"q".to_vec()];
        let (mut p1, mut p2) = (Vec::new(), Vec::new());
        bulk.extend_from_deltas(&mut p1, &prefixes[..6], &lengths[..6], b"--abcdxyzww", 2);
        push_deltas(
            &mut one,
            &mut p2,
            &prefixes[..6],
            &lengths[..6],
            &suffixes[..],
        );
        assert_eq!((&p1, &p2), (&b"yz".to_vec(), &b"yz".to_vec()));
        bulk.extend_from_deltas(&mut p1, &prefixes[6..], &lengths[6..], b"--abcdxyzww", 9);
        push_deltas(
            &mut one,
            &mut p2,
            &prefixes[6..],
            &lengths[6..],
            &suffixes[7..],
        );
        assert_eq!(bulk.iter().collect::<Vec<_>>(), one);
        assert_eq!(bulk.len(), 9);
        assert_eq!(p1, b"w");

        let mut bad = ByteArrays::new();
        bad.extend_from_deltas(&mut Vec::new(), &[5, 9], &[3, 4], b"ab", 1);
        assert_eq!(bad.len(), 2);
    }

    /// PLAIN's layout: each value after its 4-byte little-endian length.
    fn prefixed(values: &[&[u8]]) -> Vec<u8> {
        let mut out = Vec::new();
        for v in values {
            out.extend_from_slice(&(v.len() as u32).to_le_bytes());
            out.extend_from_slice(v);
        }
        out
    }

    #[test]
    fn extend_from_prefixed_appends_all_or_nothing_here_and_by_default() {
        let values: [&[u8]; 4] = [b"abc", b"", b"defgh", b"ij"];
        let mut data = prefixed(&values);
        data.extend_from_slice(b"trailing");
        let mut bulk = ByteArrays::from_iter([&b"x"[..]]);
        let mut plain: Vec<Vec<u8>> = vec![b"x".to_vec()];
        assert_eq!(bulk.extend_from_prefixed(&data, 4), Some(data.len() - 8));
        assert_eq!(plain.extend_from_prefixed(&data, 4), Some(data.len() - 8));
        let expect: Vec<&[u8]> = [&b"x"[..]].into_iter().chain(values).collect();
        assert_eq!(bulk.iter().collect::<Vec<_>>(), expect);
        assert_eq!(plain, expect);
        // A fifth value's length reads "trai", far past the end: nothing of the batch stays.
        assert_eq!(bulk.extend_from_prefixed(&data, 5), None);
        assert_eq!(plain.extend_from_prefixed(&data, 5), None);
        assert_eq!(bulk.iter().collect::<Vec<_>>(), expect);
        assert_eq!(plain, expect);
        // A length cut short, and a length of 0 values.
        assert_eq!(bulk.extend_from_prefixed(&data[..6], 2), None);
        assert_eq!(bulk.extend_from_prefixed(&data, 0), Some(0));
        assert_eq!(bulk.len(), 5);
    }
}
