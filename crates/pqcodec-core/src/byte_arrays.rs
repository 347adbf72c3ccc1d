use crate::sink::{GROWN_SLACK, Lengths, prefixed_value};
use crate::{Data, Sink, ValueBuffer};

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
    fn extend_from_spans<I: IntoIterator<Item = (usize, usize)>>(
        &mut self,
        data: Data<'_>,
        spans: I,
    ) {
        let data = data.bytes();
        let spans = spans.into_iter();
        self.offsets.reserve(spans.size_hint().0);
        for (start, end) in spans {
            let Some(value) = data.get(start..end) else {
                return;
            };
            self.data.extend_from_slice(value);
            self.offsets.push(self.data.len());
        }
    }
    fn extend_from_prefixed(&mut self, data: Data<'_>, n: usize) -> Option<usize> {
        // Each length read and its value copied in one pass, the offsets reserved once.
        let data = data.bytes();
        self.offsets.reserve(n.min(data.len() / 4));
        let mut at = 0;
        for _ in 0..n {
            let (start, end) = prefixed_value(data, at)?;
            self.push(&data[start..end]);
            at = end;
        }
        Some(at)
    }
    fn extend_back_to_back(&mut self, data: Data<'_>, lengths: Lengths<'_>) {
        let data = data.bytes();
        // The offsets by a prefix sum, then the values' bytes in one copy.
        let base = self.data.len();
        let end = match lengths {
            Lengths::Each(lengths) => {
                self.offsets.reserve(lengths.len());
                self.offsets
                    .extend(Lengths::ends_within(lengths, data.len()).map(|end| base + end));
                self.offsets.last().map_or(0, |&end| end - base)
            }
            Lengths::All(0) => 0,
            Lengths::All(width) => {
                let n = data.len() / width;
                self.offsets.extend((1..=n).map(|i| base + i * width));
                n * width
            }
        };
        self.data
            .extend_from_slice(data.get(..end).unwrap_or_default());
    }
    fn extend_in_place<F: FnOnce(&mut [u8])>(
        &mut self,
        lengths: &[u32],
        write: F,
    ) -> Result<(), F> {
        let base = self.data.len();
        let mut end = base;
        self.offsets.extend(lengths.iter().map(|&len| {
            end += len as usize;
            end
        }));
        self.data.resize(end + GROWN_SLACK, 0);
        write(&mut self.data[base..]);
        self.data.truncate(end);
        Ok(())
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
    fn prefixed_values_match_pushes() {
        let data = [
            2, 0, 0, 0, b'h', b'i', 0, 0, 0, 0, 1, 0, 0, 0, b'!', 9, 0, 0, 0,
        ];
        let mut bulk = ByteArrays::new();
        assert_eq!(bulk.extend_from_prefixed(data[..].into(), 3), Some(15));
        assert_eq!(bulk.iter().collect::<Vec<_>>(), [&b"hi"[..], b"", b"!"]);
        // A value past the end: `None`, the ones before it kept.
        let mut short = ByteArrays::new();
        assert_eq!(short.extend_from_prefixed(data[..].into(), 4), None);
        assert_eq!(short, bulk);
    }

    #[test]
    fn back_to_back_values_match_pushes() {
        let data = b"abcdefghij";
        let mut bulk = ByteArrays::new();
        bulk.push(b"x");
        bulk.extend_back_to_back(data.into(), Lengths::Each(&[3, 0, 5, 2]));
        bulk.extend_back_to_back(data[..7].into(), Lengths::All(3));
        let mut one = ByteArrays::new();
        for v in [&b"x"[..], b"abc", b"", b"defgh", b"ij", b"abc", b"def"] {
            one.push(v);
        }
        assert_eq!(bulk, one);
        // A length past the end stops the append there.
        let mut short = ByteArrays::new();
        short.extend_back_to_back(data.into(), Lengths::Each(&[4, 7, 1]));
        assert_eq!(short.iter().collect::<Vec<_>>(), [&b"abcd"[..]]);
        assert_eq!(short.data(), b"abcd");
    }

    /// Values written in place are the bytes left in the values' room; the slack after them
    /// is dropped.
    #[test]
    fn values_written_in_place_keep_their_room_only() {
        let mut b = ByteArrays::from_iter([&b"x"[..]]);
        let written = b.extend_in_place(&[2, 0, 3], |out| {
            assert_eq!(out.len(), 5 + GROWN_SLACK);
            out.fill(b'z');
            out[..5].copy_from_slice(b"abcde");
        });
        assert!(written.is_ok());
        b.push(b"y");
        let want: [&[u8]; 5] = [b"x", b"ab", b"", b"cde", b"y"];
        assert_eq!(b.iter().collect::<Vec<_>>(), want);
    }
}
