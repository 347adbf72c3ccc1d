use std::marker::PhantomData;

use pqcodec_core::{Binary, Encoder, Encoding, Error, Int32Type, Result};

use crate::delta_binary_packed::DeltaBinaryPackedEncoder;
use crate::delta_length_byte_array::DeltaLengthByteArrayEncoder;

const ENCODING: Encoding = Encoding::DeltaByteArray;

/// DELTA_BYTE_ARRAY encoder of BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY values: prefix lengths and
/// suffix lengths with the default DELTA_BINARY_PACKED layout, then the suffixes.
#[derive(Debug, Clone)]
pub struct DeltaByteArrayEncoder<T: Binary> {
    prefixes: DeltaBinaryPackedEncoder<Int32Type>,
    suffixes: DeltaLengthByteArrayEncoder,
    previous: Vec<u8>,
    /// The length every value must have: FIXED_LEN_BYTE_ARRAY's width, `None` for BYTE_ARRAY.
    fixed_len: Option<usize>,
    _type: PhantomData<T>,
}

impl<T: Binary> DeltaByteArrayEncoder<T> {
    /// An empty encoder of values of type `ty`. For FIXED_LEN_BYTE_ARRAY every value put must
    /// be of `ty`'s width ([`Error::Value`] otherwise).
    pub fn new(ty: T) -> Self {
        DeltaByteArrayEncoder {
            prefixes: DeltaBinaryPackedEncoder::new(),
            suffixes: DeltaLengthByteArrayEncoder::new(),
            previous: Vec::new(),
            fixed_len: ty.value_width(),
            _type: PhantomData,
        }
    }
}

/// Length of the common prefix of `a` and `b`.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut i = 0;
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        if x != y {
            break;
        }
        i += 8;
    }
    i + a[i..]
        .iter()
        .zip(&b[i..])
        .take_while(|(x, y)| x == y)
        .count()
}

impl<T: Binary> Encoder<T> for DeltaByteArrayEncoder<T> {
    fn put<'v, I>(&mut self, values: I) -> Result<()>
    where
        I: IntoIterator<Item = &'v [u8]>,
    {
        for value in values {
            let index = self.suffixes.len();
            if let Some(width) = self.fixed_len
                && value.len() != width
            {
                return Err(Error::Value {
                    encoding: ENCODING,
                    index,
                    reason: format!("{} bytes, not the column's {width}", value.len()),
                });
            }
            if i32::try_from(value.len()).is_err() {
                return Err(Error::Value {
                    encoding: ENCODING,
                    index,
                    reason: format!(
                        "{} bytes is over the i32::MAX a length can hold",
                        value.len()
                    ),
                });
            }
            let prefix = common_prefix(&self.previous, value);
            let suffix = value.get(prefix..).unwrap_or_default();
            self.suffixes.push(suffix, ENCODING, index)?;
            // prefix <= value.len() <= i32::MAX
            self.prefixes.push(prefix as i32);
            self.previous.clear();
            self.previous.extend_from_slice(value);
        }
        Ok(())
    }

    fn num_values(&self) -> usize {
        self.suffixes.len()
    }

    fn estimated_size(&self) -> usize {
        Encoder::<Int32Type>::estimated_size(&self.prefixes) + self.suffixes.size_estimate()
    }

    fn flush_into(&mut self, out: &mut Vec<u8>) -> Result<()> {
        self.prefixes.flush_into(out)?;
        self.suffixes.write_into(out)?;
        self.previous.clear();
        Ok(())
    }
}
