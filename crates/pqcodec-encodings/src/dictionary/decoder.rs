//! Decoding dictionary-encoded data pages: [`IndexDecoder`] for the indices alone,
//! [`DictionaryDecoder`] for the values they point at.

use std::marker::PhantomData;

use pqcodec_core::{Decoder, Encoding, Error, FixedWidth, NativeType, Result, Sink, ValueBuffer};

use super::MAX_INDEX_BIT_WIDTH;
use crate::plain::PlainType;
use crate::rle::{CHUNK, RleDecoder, RunVisitor};

const ENCODING: Encoding = Encoding::RleDictionary;

fn out_of_range(index: u32, len: usize) -> Error {
    Error::DictionaryIndex {
        encoding: ENCODING,
        index: u64::from(index),
        len,
    }
}

/// A streaming decoder of the dictionary indices of a data page (RLE_DICTIONARY, or the
/// deprecated PLAIN_DICTIONARY): one byte of bit width (at most 32), then the RLE /
/// bit-packing hybrid without a length prefix.
///
/// Every index read is checked against the dictionary's length, once per RLE run and once
/// per unpacked chunk; [`IndexDecoder::skip`] does not unpack, so it does not check the
/// indices it skips.
#[derive(Debug, Clone)]
pub struct IndexDecoder<'a> {
    inner: RleDecoder<'a>,
    dictionary_len: usize,
}

impl<'a> IndexDecoder<'a> {
    /// A decoder of `num_values` indices into a dictionary of `dictionary_len` values from
    /// the data page's value bytes `data`.
    ///
    /// Fails with [`Error::Truncated`] if the bit width byte is missing (unless `num_values`
    /// is 0), [`Error::BitWidth`] if it is over 32, and as [`RleDecoder::new`] does.
    pub fn new(data: &'a [u8], num_values: usize, dictionary_len: usize) -> Result<Self> {
        let (width, rest) = match data.split_first() {
            Some((&width, rest)) => (u32::from(width), rest),
            None if num_values == 0 => (0, data),
            None => return Err(Error::truncated(ENCODING, "bit width", 1, 0)),
        };
        if width > MAX_INDEX_BIT_WIDTH {
            return Err(Error::BitWidth {
                encoding: ENCODING,
                field: "bit width",
                width,
                max: MAX_INDEX_BIT_WIDTH,
            });
        }
        Ok(IndexDecoder {
            inner: RleDecoder::with_encoding(rest, width, num_values, ENCODING)?,
            dictionary_len,
        })
    }

    /// The bit width of the indices, from the page's first byte.
    pub fn bit_width(&self) -> u32 {
        self.inner.bit_width()
    }

    /// The length of the dictionary indices are checked against.
    pub fn dictionary_len(&self) -> usize {
        self.dictionary_len
    }

    /// Indices not yet read or skipped.
    pub fn remaining(&self) -> usize {
        self.inner.remaining()
    }

    /// Appends up to `max` indices to `out` and returns how many: fewer only at the end of
    /// the page. An RLE run is one [`Sink::push_repeated`]; an index out of the dictionary's
    /// range fails with [`Error::DictionaryIndex`].
    pub fn read<S: Sink<u32> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize> {
        out.reserve(self.inner.reserve_hint(max));
        let mut visitor = CheckedIndices {
            out,
            len: self.dictionary_len,
        };
        self.inner.visit(&mut visitor, max)
    }

    /// Skips up to `n` indices and returns how many, without unpacking them.
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        self.inner.skip(n)
    }
}

/// Checks indices against the dictionary's length, then hands them over.
struct CheckedIndices<'s, S: ?Sized> {
    out: &'s mut S,
    len: usize,
}

impl<S: Sink<u32> + ?Sized> RunVisitor for CheckedIndices<'_, S> {
    #[inline]
    fn run(&mut self, value: u32, count: usize) -> Result<()> {
        if value as usize >= self.len {
            return Err(out_of_range(value, self.len));
        }
        self.out.push_repeated(&value, count);
        Ok(())
    }

    #[inline]
    fn values(&mut self, values: &[u32]) -> Result<()> {
        let max = values.iter().copied().max().unwrap_or(0);
        if !values.is_empty() && max as usize >= self.len {
            return Err(out_of_range(max, self.len));
        }
        self.out.extend_from_slice(values);
        Ok(())
    }
}

/// A streaming decoder of a dictionary-encoded data page into the dictionary's values.
///
/// The dictionary is the column chunk's dictionary page, decoded as PLAIN (for instance with
/// [`decode_plain_page`](crate::plain::decode_plain_page)). An RLE run of one index reaches the
/// sink as one [`Sink::push_repeated`] of the value; bit-packed indices are unpacked a chunk
/// at a time and their values gathered.
#[derive(Debug, Clone)]
pub struct DictionaryDecoder<'a, T: PlainType> {
    indices: IndexDecoder<'a>,
    dictionary: &'a T::Buffer,
    _type: PhantomData<T>,
}

impl<'a, T: PlainType> DictionaryDecoder<'a, T> {
    /// A decoder of `num_values` values from the data page's value bytes `data` (as
    /// [`IndexDecoder::new`]), looked up in `dictionary`.
    pub fn new(data: &'a [u8], num_values: usize, dictionary: &'a T::Buffer) -> Result<Self> {
        Ok(DictionaryDecoder {
            indices: IndexDecoder::new(data, num_values, dictionary.len())?,
            dictionary,
            _type: PhantomData,
        })
    }

    /// The dictionary values are looked up in.
    pub fn dictionary(&self) -> &'a T::Buffer {
        self.dictionary
    }
}

/// Looks indices up in the dictionary and hands the values over.
struct Gather<'s, T: PlainType, S: ?Sized> {
    out: &'s mut S,
    dictionary: &'s T::Buffer,
}

impl<T: PlainType, S: Sink<T::Value> + ?Sized> RunVisitor for Gather<'_, T, S> {
    #[inline]
    fn run(&mut self, index: u32, count: usize) -> Result<()> {
        let value = self
            .dictionary
            .get(index as usize)
            .ok_or_else(|| out_of_range(index, self.dictionary.len()))?;
        self.out.push_repeated(value, count);
        Ok(())
    }

    #[inline]
    fn values(&mut self, indices: &[u32]) -> Result<()> {
        for &index in indices {
            let value = self
                .dictionary
                .get(index as usize)
                .ok_or_else(|| out_of_range(index, self.dictionary.len()))?;
            self.out.push(value);
        }
        Ok(())
    }
}

/// Looks fixed-width indices up a chunk at a time into a stack buffer and hands the values
/// over as slices.
struct GatherFixed<'s, N, S: ?Sized> {
    out: &'s mut S,
    dictionary: &'s [N],
}

impl<N: NativeType, S: Sink<N> + ?Sized> RunVisitor for GatherFixed<'_, N, S> {
    #[inline]
    fn run(&mut self, index: u32, count: usize) -> Result<()> {
        let value = self
            .dictionary
            .get(index as usize)
            .ok_or_else(|| out_of_range(index, self.dictionary.len()))?;
        self.out.push_repeated(value, count);
        Ok(())
    }

    #[inline]
    fn values(&mut self, indices: &[u32]) -> Result<()> {
        let len = self.dictionary.len();
        let max = indices.iter().copied().max().unwrap_or(0);
        if max as usize >= len {
            return Err(out_of_range(max, len));
        }
        let mut buf = [N::default(); CHUNK];
        for (slot, &index) in buf.iter_mut().zip(indices) {
            // Every index was checked against the length above.
            if let Some(&v) = self.dictionary.get(index as usize) {
                *slot = v;
            }
        }
        self.out
            .extend_from_slice(buf.get(..indices.len()).unwrap_or(&[]));
        Ok(())
    }
}

impl<'a, T: PlainType + FixedWidth> DictionaryDecoder<'a, T> {
    /// [`Decoder::read`] for the fixed-width types, faster: values are gathered a chunk at a
    /// time into a stack buffer and handed over with one [`Sink::extend_from_slice`] per chunk.
    pub fn read_fixed<S: Sink<T::Native> + ?Sized>(
        &mut self,
        out: &mut S,
        max: usize,
    ) -> Result<usize> {
        out.reserve(self.indices.inner.reserve_hint(max));
        let mut gather = GatherFixed {
            out,
            dictionary: self.dictionary.as_slice(),
        };
        self.indices.inner.visit(&mut gather, max)
    }
}

impl<T: PlainType> Decoder<T> for DictionaryDecoder<'_, T> {
    fn remaining(&self) -> usize {
        self.indices.remaining()
    }

    fn read<S: Sink<T::Value> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize> {
        out.reserve(self.indices.inner.reserve_hint(max));
        let mut gather = Gather::<T, S> {
            out,
            dictionary: self.dictionary,
        };
        self.indices.inner.visit(&mut gather, max)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        self.indices.skip(n)
    }
}
