//! Decoding dictionary-encoded data pages: [`IndexDecoder`] for the indices alone,
//! [`DictionaryDecoder`] for the values they point at.

use std::marker::PhantomData;
use std::sync::Arc;

use bytes::Bytes;

use pqcodec_core::{
    BooleanType, ByteArrayType, ByteArrays, Decoder, DoubleType, Encoding, Error,
    FixedLenByteArrayType, FixedWidth, FloatType, Int32Type, Int64Type, Int96Type, NativeType,
    Physical, Result, Sink, ValueBuffer,
};

use super::MAX_INDEX_BIT_WIDTH;
use crate::plain::PlainType;
use crate::rle::{RleDecoder, RunVisitor, STAGE, Staging};

fn out_of_range(encoding: Encoding, index: u32, len: usize) -> Error {
    Error::DictionaryIndex {
        encoding,
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
pub struct IndexDecoder {
    inner: RleDecoder,
    dictionary_len: usize,
}

impl IndexDecoder {
    /// A decoder of `num_values` indices into a dictionary of `dictionary_len` values from
    /// the data page's value bytes `data`.
    ///
    /// Fails with [`Error::Truncated`] if the bit width byte is missing (unless `num_values`
    /// is 0), [`Error::BitWidth`] if it is over 32, and as [`RleDecoder::new`] does.
    pub fn new(data: Bytes, num_values: usize, dictionary_len: usize) -> Result<Self> {
        Self::with_encoding(data, num_values, dictionary_len, Encoding::RleDictionary)
    }

    /// As [`IndexDecoder::new`], for a page in `encoding` (RLE_DICTIONARY or the deprecated
    /// PLAIN_DICTIONARY, which is laid out the same): errors name it.
    pub fn with_encoding(
        data: Bytes,
        num_values: usize,
        dictionary_len: usize,
        encoding: Encoding,
    ) -> Result<Self> {
        let (width, rest) = match data.first() {
            Some(&width) => (u32::from(width), data.slice(1..)),
            None if num_values == 0 => (0, data),
            None => return Err(Error::truncated(encoding, "bit width", 1, 0)),
        };
        if width > MAX_INDEX_BIT_WIDTH {
            return Err(Error::BitWidth {
                encoding,
                field: "bit width",
                width,
                max: MAX_INDEX_BIT_WIDTH,
            });
        }
        Ok(IndexDecoder {
            inner: RleDecoder::with_encoding(rest, num_values, width, encoding)?,
            dictionary_len,
        })
    }

    /// The page's encoding, which errors name.
    pub fn encoding(&self) -> Encoding {
        self.inner.encoding()
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

    /// How many values a read or gather of up to `max` indices may make room for up front:
    /// no more than the page holds, nor than its bytes could at one bit an index.
    pub fn reserve_hint(&self, max: usize) -> usize {
        self.inner.reserve_hint(max)
    }

    /// Appends up to `max` indices to `out` and returns how many: fewer only at the end of
    /// the page. An RLE run is one [`Sink::push_repeated`]; an index out of the dictionary's
    /// range fails with [`Error::DictionaryIndex`].
    pub fn read<S: Sink<u32> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize> {
        out.reserve(self.inner.reserve_hint(max));
        let mut visitor = CheckedIndices {
            out,
            encoding: self.inner.encoding(),
            len: self.dictionary_len,
            fits: width_fits(self.inner.bit_width(), self.dictionary_len),
        };
        self.inner.visit(&mut visitor, max)
    }

    /// Skips up to `n` indices and returns how many, without unpacking them.
    pub fn skip(&mut self, n: usize) -> Result<usize> {
        self.inner.skip(n)
    }

    /// Appends `dictionary[i]` for each of up to `max` indices `i` to `out` and returns how
    /// many: the fixed-width dictionaries' gather, over a dictionary already converted into
    /// what `out` holds (16-byte string views, decimals), so each entry is converted once,
    /// not once per value. An index out of range fails with [`Error::DictionaryIndex`]
    /// (`dictionary` must be [`IndexDecoder::dictionary_len`] long).
    ///
    /// ```
    /// use pqcodec_encodings::dictionary::IndexDecoder;
    ///
    /// // Bit width 2, a bit-packed run of 8 indices: 1, 0, 2, 1, 1, 1, 1, 1.
    /// let page = [2, 0b11, 0b0110_0001, 0b0101_0101];
    /// let mut indices = IndexDecoder::new(page.to_vec().into(), 8, 3)?;
    /// let mut out = Vec::new();
    /// assert_eq!(indices.gather(&[10u128, 20, 30], &mut out, 4)?, 4);
    /// assert_eq!(out, [20, 10, 30, 20]);
    /// # Ok::<(), pqcodec_core::Error>(())
    /// ```
    pub fn gather<N: NativeType, S: Sink<N> + ?Sized>(
        &mut self,
        dictionary: &[N],
        out: &mut S,
        max: usize,
    ) -> Result<usize> {
        if dictionary.len() != self.dictionary_len {
            return Err(Error::Invalid {
                encoding: self.inner.encoding(),
                field: "dictionary",
                reason: format!(
                    "{} values given where the indices were checked against {}",
                    dictionary.len(),
                    self.dictionary_len
                ),
            });
        }
        gather_fixed(&mut self.inner, dictionary, out, max)
    }
}

/// Checks indices against the dictionary's length, then hands them over.
struct CheckedIndices<'s, S: ?Sized> {
    out: &'s mut S,
    encoding: Encoding,
    len: usize,
    /// Every index the bit width can express is below `len`.
    fits: bool,
}

impl<S: Sink<u32> + ?Sized> RunVisitor for CheckedIndices<'_, S> {
    #[inline]
    fn run(&mut self, value: u32, count: usize) -> Result<()> {
        if value as usize >= self.len {
            return Err(out_of_range(self.encoding, value, self.len));
        }
        self.out.push_repeated(&value, count);
        Ok(())
    }

    #[inline]
    fn values(&mut self, values: &[u32]) -> Result<()> {
        if !self.fits
            && let Some(bad) = first_bad(values, self.len)
        {
            return Err(out_of_range(self.encoding, bad, self.len));
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
pub struct DictionaryDecoder<T: PlainType> {
    indices: IndexDecoder,
    dictionary: Arc<T::Buffer>,
    _type: PhantomData<T>,
}

impl<T: PlainType> DictionaryDecoder<T> {
    /// A decoder of `num_values` values from the data page's value bytes `data` (as
    /// [`IndexDecoder::new`]), looked up in `dictionary`, which it shares.
    pub fn new(data: Bytes, num_values: usize, dictionary: Arc<T::Buffer>) -> Result<Self> {
        Self::with_encoding(data, num_values, dictionary, Encoding::RleDictionary)
    }

    /// As [`DictionaryDecoder::new`], for a page in `encoding` (RLE_DICTIONARY or
    /// PLAIN_DICTIONARY): errors name it.
    pub fn with_encoding(
        data: Bytes,
        num_values: usize,
        dictionary: Arc<T::Buffer>,
        encoding: Encoding,
    ) -> Result<Self> {
        Ok(DictionaryDecoder {
            indices: IndexDecoder::with_encoding(data, num_values, dictionary.len(), encoding)?,
            dictionary,
            _type: PhantomData,
        })
    }

    /// The dictionary values are looked up in.
    pub fn dictionary(&self) -> &Arc<T::Buffer> {
        &self.dictionary
    }
}

/// Whether every index a bit width can express is below `len`: then unpacked indices need no
/// check at all (RLE runs are still checked, once per run).
fn width_fits(bit_width: u32, len: usize) -> bool {
    bit_width < usize::BITS && len >> bit_width != 0
}

/// The largest of `indices` if it is `len` or more.
#[inline]
fn first_bad(indices: &[u32], len: usize) -> Option<u32> {
    // One pass of max (it vectorises), no per-index branch.
    let max = indices.iter().copied().fold(0, u32::max);
    (!indices.is_empty() && max as usize >= len).then_some(max)
}

/// A physical type whose dictionary values [`DictionaryDecoder`] can gather: fixed-width
/// values a chunk at a time into slices, byte arrays straight from the dictionary's offsets,
/// booleans one by one.
pub trait DictionaryValue: PlainType {
    /// Decodes up to `max` indices from `indices` and appends the values they point at in
    /// `dictionary` to `out`; returns how many.
    #[doc(hidden)]
    fn gather<S: Sink<Self::Value> + ?Sized>(
        indices: &mut RleDecoder,
        dictionary: &Self::Buffer,
        out: &mut S,
        max: usize,
    ) -> Result<usize>;
}

/// Looks indices up one by one (BOOLEAN dictionaries: a rarity).
struct GatherEach<'s, T: PlainType, S: ?Sized> {
    out: &'s mut S,
    encoding: Encoding,
    dictionary: &'s T::Buffer,
}

impl<T: PlainType, S: Sink<T::Value> + ?Sized> RunVisitor for GatherEach<'_, T, S> {
    #[inline]
    fn run(&mut self, index: u32, count: usize) -> Result<()> {
        let value = self
            .dictionary
            .get(index as usize)
            .ok_or_else(|| out_of_range(self.encoding, index, self.dictionary.len()))?;
        self.out.push_repeated(value, count);
        Ok(())
    }

    #[inline]
    fn values(&mut self, indices: &[u32]) -> Result<()> {
        for &index in indices {
            let value = self
                .dictionary
                .get(index as usize)
                .ok_or_else(|| out_of_range(self.encoding, index, self.dictionary.len()))?;
            self.out.push(value);
        }
        Ok(())
    }
}

impl DictionaryValue for BooleanType {
    fn gather<S: Sink<bool> + ?Sized>(
        indices: &mut RleDecoder,
        dictionary: &Vec<bool>,
        out: &mut S,
        max: usize,
    ) -> Result<usize> {
        out.reserve(indices.reserve_hint(max));
        let encoding = indices.encoding();
        let mut visitor = GatherEach::<BooleanType, S> {
            out,
            encoding,
            dictionary,
        };
        indices.visit(&mut visitor, max)
    }
}

/// Looks fixed-width indices up a chunk at a time: straight into the sink where it holds its
/// values as a slice ([`Sink::grow_slots`] tells), through [`Sink::extend_from_iter`], else
/// into a [`Staging`] block.
struct GatherFixed<'s, N, S: ?Sized> {
    out: &'s mut S,
    stage: Staging<N>,
    encoding: Encoding,
    dictionary: &'s [N],
    /// The sink lends its slots: nothing is staged.
    lends: bool,
}

impl<N: NativeType, S: Sink<N> + ?Sized> RunVisitor for GatherFixed<'_, N, S> {
    #[inline]
    fn run(&mut self, index: u32, count: usize) -> Result<()> {
        let value = self
            .dictionary
            .get(index as usize)
            .ok_or_else(|| out_of_range(self.encoding, index, self.dictionary.len()))?;
        if self.lends {
            self.out.push_repeated(value, count);
        } else {
            self.stage.repeat(self.out, *value, count);
        }
        Ok(())
    }

    /// On an index past the dictionary, the chunk's values may have reached the sink (looked
    /// up as the last value) before the error.
    #[inline]
    fn values(&mut self, indices: &[u32]) -> Result<()> {
        let dictionary = self.dictionary;
        let mut past = false;
        if dictionary.is_empty() {
            past = !indices.is_empty();
        } else if self.lends {
            self.out
                .extend_from_iter(look_up(dictionary, indices, &mut past));
        } else {
            for chunk in indices.chunks(STAGE) {
                let slots = self.stage.slots(self.out, chunk.len());
                for (slot, value) in slots.iter_mut().zip(look_up(dictionary, chunk, &mut past)) {
                    *slot = value;
                }
            }
        }
        match past.then(|| first_bad(indices, dictionary.len())).flatten() {
            Some(bad) => Err(out_of_range(self.encoding, bad, dictionary.len())),
            None => Ok(()),
        }
    }
}

/// `dictionary[i]` for each `i` of `indices`, an index past the end of `dictionary` (not
/// empty) looking up its last value and setting `past`: no branch per index.
#[inline]
fn look_up<'a, V: Copy>(
    dictionary: &'a [V],
    indices: &'a [u32],
    past: &'a mut bool,
) -> impl Iterator<Item = V> + 'a {
    let last = dictionary.len() - 1;
    indices.iter().map(move |&index| {
        *past |= index as usize > last;
        dictionary[(index as usize).min(last)]
    })
}

/// Fixed-width gathering, shared by the [`DictionaryValue`] impls and
/// [`DictionaryDecoder::read_fixed`].
fn gather_fixed<N: NativeType, S: Sink<N> + ?Sized>(
    indices: &mut RleDecoder,
    dictionary: &[N],
    out: &mut S,
    max: usize,
) -> Result<usize> {
    out.reserve(indices.reserve_hint(max));
    let lends = out.grow_slots(0).is_some();
    let mut visitor = GatherFixed {
        out,
        stage: Staging::new(),
        encoding: indices.encoding(),
        dictionary,
        lends,
    };
    // What was decoded before an error reaches `out` too.
    let result = indices.visit(&mut visitor, max);
    visitor.stage.flush(visitor.out);
    result
}

macro_rules! fixed_dictionary_value {
    ($($t:ty),*) => {$(
        impl DictionaryValue for $t {
            #[inline]
            fn gather<S: Sink<<$t as Physical>::Value> + ?Sized>(
                indices: &mut RleDecoder,
                dictionary: &Self::Buffer,
                out: &mut S,
                max: usize,
            ) -> Result<usize> {
                gather_fixed(indices, dictionary.as_slice(), out, max)
            }
        }
    )*};
}
fixed_dictionary_value!(Int32Type, Int64Type, Int96Type, FloatType, DoubleType);

/// Looks byte-array indices up in the dictionary's offsets and data directly.
struct GatherBytes<'s, S: ?Sized> {
    out: &'s mut S,
    encoding: Encoding,
    /// `len + 1` offsets into `data`.
    offsets: &'s [usize],
    data: &'s [u8],
    fits: bool,
}

impl<S: Sink<[u8]> + ?Sized> GatherBytes<'_, S> {
    fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }
}

/// Value `index` of a dictionary's `offsets` and `data`, `index` known to be below the length;
/// empty if the offsets were inconsistent (they never are in a [`ByteArrays`]).
#[inline]
fn byte_value<'d>(offsets: &[usize], data: &'d [u8], index: usize) -> &'d [u8] {
    let (Some(&start), Some(&end)) = (offsets.get(index), offsets.get(index + 1)) else {
        return &[];
    };
    data.get(start..end).unwrap_or(&[])
}

impl<S: Sink<[u8]> + ?Sized> RunVisitor for GatherBytes<'_, S> {
    #[inline]
    fn run(&mut self, index: u32, count: usize) -> Result<()> {
        if index as usize >= self.len() {
            return Err(out_of_range(self.encoding, index, self.len()));
        }
        let value = byte_value(self.offsets, self.data, index as usize);
        self.out.push_repeated(value, count);
        Ok(())
    }

    #[inline]
    fn values(&mut self, indices: &[u32]) -> Result<()> {
        if !self.fits
            && let Some(bad) = first_bad(indices, self.len())
        {
            return Err(out_of_range(self.encoding, bad, self.len()));
        }
        // The values' spans, looked up as the sink takes them.
        let offsets = self.offsets;
        let spans = indices.iter().map(|&index| {
            let index = index as usize;
            // Indices were checked against the dictionary: both offsets exist.
            match (offsets.get(index), offsets.get(index + 1)) {
                (Some(&start), Some(&end)) => (start, end),
                _ => (0, 0),
            }
        });
        self.out.extend_from_spans(self.data.into(), spans);
        Ok(())
    }
}

/// Dictionaries of at most this many bytes are padded on the stack for the sink's wide copies.
const SMALL_DICTIONARY: usize = 1024;

macro_rules! binary_dictionary_value {
    ($($t:ty),*) => {$(
        impl DictionaryValue for $t {
            fn gather<S: Sink<[u8]> + ?Sized>(
                indices: &mut RleDecoder,
                dictionary: &ByteArrays,
                out: &mut S,
                max: usize,
            ) -> Result<usize> {
                out.reserve(indices.reserve_hint(max));
                let offsets = dictionary.offsets();
                let fits = width_fits(indices.bit_width(), offsets.len().saturating_sub(1));
                // A small dictionary's data is first copied with zero padding after it, so
                // that the sink may copy every value as whole words.
                let mut padded = [0u8; SMALL_DICTIONARY + 64];
                let data = match padded.get_mut(..dictionary.data().len()) {
                    Some(head) if dictionary.data().len() <= SMALL_DICTIONARY => {
                        head.copy_from_slice(dictionary.data());
                        &padded[..]
                    }
                    _ => dictionary.data(),
                };
                indices.visit(
                    &mut GatherBytes {
                        out,
                        encoding: indices.encoding(),
                        offsets,
                        data,
                        fits,
                    },
                    max,
                )
            }
        }
    )*};
}
binary_dictionary_value!(ByteArrayType, FixedLenByteArrayType);

impl<T: PlainType + FixedWidth> DictionaryDecoder<T> {
    /// [`Decoder::read`] for the fixed-width types into a sink of their native values:
    /// values are gathered a chunk at a time into a stack buffer and handed over with one
    /// [`Sink::extend_from_slice`] per chunk.
    pub fn read_fixed<S: Sink<T::Native> + ?Sized>(
        &mut self,
        out: &mut S,
        max: usize,
    ) -> Result<usize> {
        gather_fixed(
            &mut self.indices.inner,
            self.dictionary.as_slice(),
            out,
            max,
        )
    }
}

impl<T: DictionaryValue> Decoder<T> for DictionaryDecoder<T> {
    fn remaining(&self) -> usize {
        self.indices.remaining()
    }

    #[inline]
    fn read<S: Sink<T::Value> + ?Sized>(&mut self, out: &mut S, max: usize) -> Result<usize> {
        T::gather(&mut self.indices.inner, &self.dictionary, out, max)
    }

    fn skip(&mut self, n: usize) -> Result<usize> {
        self.indices.skip(n)
    }
}
