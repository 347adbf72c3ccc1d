use pqcodec_core::{Encoding, Error, Result};

use super::varint::{read_uleb128, zigzag_decode};

/// A cursor over page bytes whose every read is checked, failing with an error that names the
/// encoding and the field being read.
#[derive(Debug, Clone)]
pub struct ByteReader<'a> {
    data: &'a [u8],
    pos: usize,
    encoding: Encoding,
}

impl<'a> ByteReader<'a> {
    /// A cursor at the start of `data`, reporting errors as `encoding`'s.
    pub fn new(data: &'a [u8], encoding: Encoding) -> Self {
        ByteReader {
            data,
            pos: 0,
            encoding,
        }
    }

    /// Bytes read so far.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes left.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// The bytes not yet read.
    pub fn rest(&self) -> &'a [u8] {
        &self.data[self.pos..]
    }

    /// Takes the next `n` bytes.
    #[inline]
    pub fn take(&mut self, n: usize, field: &'static str) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(Error::truncated(self.encoding, field, n, self.remaining()));
        }
        let out = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// Takes a 4-byte little-endian unsigned integer.
    #[inline]
    pub fn u32_le(&mut self, field: &'static str) -> Result<u32> {
        let b = self.take(4, field)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Takes a ULEB128 varint.
    #[inline]
    pub fn uleb128(&mut self, field: &'static str) -> Result<u64> {
        // Most varints here (run headers, small lengths) are one byte.
        if let Some(&byte) = self.data.get(self.pos)
            && byte < 0x80
        {
            self.pos += 1;
            return Ok(u64::from(byte));
        }
        match read_uleb128(self.rest()) {
            Some((value, len)) => {
                self.pos += len;
                Ok(value)
            }
            None if self.remaining() < 10 && self.rest().iter().all(|b| b & 0x80 != 0) => Err(
                Error::truncated(self.encoding, field, self.remaining() + 1, self.remaining()),
            ),
            None => Err(Error::invalid(
                self.encoding,
                field,
                "ULEB128 varint does not fit in 64 bits",
            )),
        }
    }

    /// Takes a zigzag ULEB128 varint.
    #[inline]
    pub fn zigzag(&mut self, field: &'static str) -> Result<i64> {
        self.uleb128(field).map(zigzag_decode)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_errors_name_the_field() {
        let mut r = ByteReader::new(&[0x03, 1, 0, 0, 0, 0x80], Encoding::Rle);
        assert_eq!(r.uleb128("header"), Ok(3));
        assert_eq!(r.u32_le("value"), Ok(1));
        assert_eq!(
            r.uleb128("run header"),
            Err(Error::truncated(Encoding::Rle, "run header", 2, 1))
        );
        assert_eq!(
            r.take(2, "x"),
            Err(Error::truncated(Encoding::Rle, "x", 2, 1))
        );
        let mut r = ByteReader::new(&[0xFF; 11], Encoding::Rle);
        assert!(matches!(r.uleb128("h"), Err(Error::Invalid { .. })));
    }
}
