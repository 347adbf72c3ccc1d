//! [`Data`]: the bytes a decoder hands a [`Sink`](crate::Sink), and the buffer they lie in when
//! the decoder shares it.

use std::ops::{Deref, Range};

use bytes::Bytes;

/// Bytes handed to a [`Sink`](crate::Sink): a slice, and, where a decoder hands over bytes of
/// a buffer it shares (its page, as [`Bytes`]), that buffer and where in it they start. A sink
/// that keeps memory rather than copying it (an Arrow array sharing the page) keeps a clone of
/// the buffer; any other sink reads the slice.
///
/// ```
/// use bytes::Bytes;
/// use pqcodec_core::Data;
///
/// let page = Bytes::from_static(b"\x01\x00\x02\x00\x03\x00");
/// let values = Data::in_buffer(&page, 2..6);
/// assert_eq!(&*values, b"\x02\x00\x03\x00");
/// assert_eq!(values.buffer().map(|(buffer, at)| (buffer.len(), at)), Some((6, 2)));
/// // A slice of no shared buffer: staged values.
/// assert!(Data::from(&[1u8, 2][..]).buffer().is_none());
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Data<'a> {
    bytes: &'a [u8],
    /// The buffer `bytes` lies in, and the offset of `bytes` in it.
    buffer: Option<(&'a Bytes, usize)>,
}

impl<'a> Data<'a> {
    /// The bytes `range` of `buffer`, which the sink may keep by cloning `buffer`. A range past
    /// the buffer's end is cut at it.
    pub fn in_buffer(buffer: &'a Bytes, range: Range<usize>) -> Self {
        let whole = Data {
            bytes: buffer,
            buffer: Some((buffer, 0)),
        };
        whole.slice(range)
    }

    /// The bytes `range` of these, in the same buffer. A range past the end is cut at it.
    ///
    /// ```
    /// use bytes::Bytes;
    /// use pqcodec_core::Data;
    ///
    /// let page = Bytes::from_static(b"abcdef");
    /// let tail = Data::in_buffer(&page, 2..6).slice(1..3);
    /// assert_eq!((&*tail, tail.buffer().map(|(_, at)| at)), (&b"de"[..], Some(3)));
    /// ```
    pub fn slice(&self, range: Range<usize>) -> Data<'a> {
        let end = range.end.min(self.bytes.len());
        let start = range.start.min(end);
        Data {
            bytes: &self.bytes[start..end],
            buffer: self.buffer.map(|(buffer, at)| (buffer, at + start)),
        }
    }

    /// The bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The shared buffer the bytes lie in and their offset there, if the decoder gave one:
    /// `buffer[offset..offset + self.len()]` is the bytes.
    pub fn buffer(&self) -> Option<(&'a Bytes, usize)> {
        self.buffer
    }
}

impl Deref for Data<'_> {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        self.bytes
    }
}

impl<'a> From<&'a [u8]> for Data<'a> {
    /// Bytes of no shared buffer: a sink copies what it takes of them.
    fn from(bytes: &'a [u8]) -> Self {
        Data {
            bytes,
            buffer: None,
        }
    }
}

impl<'a, const N: usize> From<&'a [u8; N]> for Data<'a> {
    fn from(bytes: &'a [u8; N]) -> Self {
        Data::from(&bytes[..])
    }
}

impl<'a> From<&'a Vec<u8>> for Data<'a> {
    fn from(bytes: &'a Vec<u8>) -> Self {
        Data::from(bytes.as_slice())
    }
}

impl<'a> From<&'a Bytes> for Data<'a> {
    /// The whole of `buffer`, shared.
    fn from(buffer: &'a Bytes) -> Self {
        Data::in_buffer(buffer, 0..buffer.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_past_the_buffer_are_cut_at_its_end() {
        let page = Bytes::from_static(b"abcdef");
        let data = Data::in_buffer(&page, 4..9);
        assert_eq!(
            (&*data, data.buffer().map(|(_, at)| at)),
            (&b"ef"[..], Some(4))
        );
        let data = Data::in_buffer(&page, 8..9);
        assert_eq!(
            (&*data, data.buffer().map(|(_, at)| at)),
            (&b""[..], Some(6))
        );
        #[allow(clippy::reversed_empty_ranges)]
        let data = Data::in_buffer(&page, 3..1);
        assert_eq!(
            (&*data, data.buffer().map(|(_, at)| at)),
            (&b""[..], Some(1))
        );
        assert_eq!(&*Data::from(&page), b"abcdef");
    }
}
