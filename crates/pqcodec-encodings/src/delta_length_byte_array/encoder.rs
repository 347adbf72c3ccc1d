use pqcodec_core::{ByteArrayType, Encoder, Encoding, Error, Int32Type, Result};

use crate::delta_binary_packed::DeltaBinaryPackedEncoder;

/// DELTA_LENGTH_BYTE_ARRAY encoder of BYTE_ARRAY values: lengths with the default
/// DELTA_BINARY_PACKED layout, then the bytes.
#[derive(Debug, Clone, Default)]
pub struct DeltaLengthByteArrayEncoder {
    lengths: DeltaBinaryPackedEncoder<Int32Type>,
    data: Vec<u8>,
}

impl DeltaLengthByteArrayEncoder {
    /// An empty encoder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends one value; values over `i32::MAX` bytes are [`Error::Value`], reported as
    /// `encoding`'s at `index`.
    #[inline]
    pub(crate) fn push(&mut self, value: &[u8], encoding: Encoding, index: usize) -> Result<()> {
        let len = i32::try_from(value.len()).map_err(|_| Error::Value {
            encoding,
            index,
            reason: format!(
                "{} bytes is over the i32::MAX a length can hold",
                value.len()
            ),
        })?;
        self.lengths.push(len);
        self.data.extend_from_slice(value);
        Ok(())
    }

    /// Values put since the last flush.
    pub(crate) fn len(&self) -> usize {
        Encoder::<Int32Type>::num_values(&self.lengths)
    }

    pub(crate) fn size_estimate(&self) -> usize {
        Encoder::<Int32Type>::estimated_size(&self.lengths) + self.data.len()
    }

    pub(crate) fn write_into(&mut self, out: &mut Vec<u8>) -> Result<()> {
        self.lengths.flush_into(out)?;
        out.extend_from_slice(&self.data);
        self.data.clear();
        Ok(())
    }
}

impl Encoder<ByteArrayType> for DeltaLengthByteArrayEncoder {
    fn put<'v, I>(&mut self, values: I) -> Result<()>
    where
        I: IntoIterator<Item = &'v [u8]>,
    {
        for value in values {
            let index = self.len();
            self.push(value, Encoding::DeltaLengthByteArray, index)?;
        }
        Ok(())
    }

    fn num_values(&self) -> usize {
        self.len()
    }

    fn estimated_size(&self) -> usize {
        self.size_estimate()
    }

    fn flush_into(&mut self, out: &mut Vec<u8>) -> Result<()> {
        self.write_into(out)
    }
}
