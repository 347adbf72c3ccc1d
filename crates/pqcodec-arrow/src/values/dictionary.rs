//! [`DictionaryReader`]: a column read into an Arrow DictionaryArray without looking the
//! indices up.
//!
//! The dictionary page is decoded once into an Arrow array of the value type; data pages
//! decode into keys only. A batch's dictionary is made of segments: the dictionary as it was
//! when the batch started, the distinct values of pages that fell back to PLAIN (interned as
//! they are decoded), and any later dictionary (a new row group). Keys carry their segment's
//! base, so the segments are concatenated once, only when there is more than one.
//!
//! Keys are gathered as `u32` whatever the key type, and narrowed or widened to it (checked)
//! when the batch is finished: the decoding code exists once per value type, not once per
//! value and key type.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, make_array, new_empty_array};
use arrow_buffer::{ArrowNativeType, Buffer, NullBuffer, ToByteSlice};
use arrow_data::ArrayDataBuilder;
use arrow_schema::DataType;
use pqcodec_core::{Decoder, Encoding, Sink};
use pqcodec_encodings::dictionary::IndexDecoder;
use pqcodec_encodings::dynamic::DynamicType;

use super::reader::{decode_dictionary, no_page, short};
use super::spread::{check, spread_fixed};
use super::{Builder, ValueReader};
use crate::error::Fault;
use crate::page::{DictionaryPage, shared_bytes};

/// The decoder of the current page.
enum PageState<T: DynamicType> {
    Indices(IndexDecoder),
    Values(T::Decoder, Encoding),
}

/// The key of value `index` of a segment starting at `base`, if it fits a `u32`.
#[inline]
fn key(base: usize, index: usize) -> Option<u32> {
    base.checked_add(index).and_then(|k| u32::try_from(k).ok())
}

/// Appends dictionary indices as keys, shifted by the dictionary's base.
struct KeySink<'k> {
    keys: &'k mut Vec<u32>,
    base: usize,
    overflow: bool,
}

impl KeySink<'_> {
    #[inline]
    fn key(&mut self, index: u32) -> u32 {
        key(self.base, index as usize).unwrap_or_else(|| {
            self.overflow = true;
            0
        })
    }
}

impl Sink<u32> for KeySink<'_> {
    fn reserve(&mut self, additional: usize) {
        self.keys.reserve_exact(additional);
    }
    #[inline]
    fn push(&mut self, value: &u32) {
        let k = self.key(*value);
        self.keys.push(k);
    }
    #[inline]
    fn push_repeated(&mut self, value: &u32, count: usize) {
        let k = self.key(*value);
        self.keys.resize(self.keys.len() + count, k);
    }
    fn extend_from_slice(&mut self, values: &[u32]) {
        self.keys.reserve(values.len());
        for v in values {
            let k = self.key(*v);
            self.keys.push(k);
        }
    }
}

/// The bytes a value is interned by.
pub(crate) trait InternKey {
    /// Appends the value's identity (its bytes; a float's bits) to `out`.
    fn key_bytes(&self, out: &mut Vec<u8>);
}

impl InternKey for [u8] {
    fn key_bytes(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self);
    }
}

impl InternKey for bool {
    fn key_bytes(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }
}

macro_rules! intern_native {
    ($($t:ty),*) => {$(
        impl InternKey for $t {
            fn key_bytes(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(pqcodec_core::NativeType::to_le_bytes(*self).as_ref());
            }
        }
    )*};
}
intern_native!(i32, i64, f32, f64, pqcodec_core::Int96);

/// Appends the distinct values of fallen-back pages to `values` and their keys to `keys`.
struct Interner<'s, B> {
    values: &'s mut B,
    seen: &'s mut HashMap<Vec<u8>, usize>,
    keys: &'s mut Vec<u32>,
    base: usize,
    scratch: Vec<u8>,
    overflow: bool,
}

impl<B> Interner<'_, B> {
    fn key<V: InternKey + ?Sized>(&mut self, value: &V) -> u32
    where
        B: Sink<V>,
    {
        self.scratch.clear();
        value.key_bytes(&mut self.scratch);
        let index = match self.seen.get(&self.scratch) {
            Some(&i) => i,
            None => {
                let i = self.seen.len();
                self.seen.insert(self.scratch.clone(), i);
                self.values.push(value);
                i
            }
        };
        key(self.base, index).unwrap_or_else(|| {
            self.overflow = true;
            0
        })
    }
}

impl<V, B> Sink<V> for Interner<'_, B>
where
    V: InternKey + ?Sized,
    B: Sink<V>,
{
    fn reserve(&mut self, additional: usize) {
        self.keys.reserve_exact(additional);
    }
    fn push(&mut self, value: &V) {
        let k = self.key(value);
        self.keys.push(k);
    }
    fn push_repeated(&mut self, value: &V, count: usize) {
        let k = self.key(value);
        self.keys.resize(self.keys.len() + count, k);
    }
}

/// Values read as `Dictionary(key type, value type of B)`.
pub(crate) struct DictionaryReader<T: DynamicType, B> {
    /// Decodes dictionary pages and the values of pages that fell back from the dictionary.
    values: B,
    ty: T,
    data_type: DataType,
    value_type: DataType,
    /// The current dictionary's values.
    dictionary: Option<ArrayRef>,
    /// The batch's dictionary so far, in segments.
    segments: Vec<ArrayRef>,
    segments_len: usize,
    /// Where the current dictionary starts among the segments, once a page used it.
    dictionary_base: Option<usize>,
    /// Where the values in `values` will start among the segments.
    values_base: usize,
    key_type: DataType,
    keys: Vec<u32>,
    /// The fallen-back values interned so far, by their bytes, and their index in `values`.
    interned: HashMap<Vec<u8>, usize>,
    page: Option<PageState<T>>,
}

impl<T, B> DictionaryReader<T, B>
where
    T: DynamicType,
    B: Builder<T>,
{
    /// A reader of `data_type`, `Dictionary(K, V)` with `K` an integer type, whose values
    /// `values` builds as `V`; `None` for another type.
    pub(crate) fn new(values: B, ty: T, data_type: DataType) -> Option<Self> {
        let DataType::Dictionary(key_type, value_type) = &data_type else {
            return None;
        };
        if !key_type.is_dictionary_key_type() {
            return None;
        }
        Some(DictionaryReader {
            key_type: key_type.as_ref().clone(),
            value_type: value_type.as_ref().clone(),
            values,
            ty,
            data_type,
            dictionary: None,
            segments: Vec::new(),
            segments_len: 0,
            dictionary_base: None,
            values_base: 0,
            keys: Vec::new(),
            interned: HashMap::new(),
            page: None,
        })
    }

    fn push_segment(&mut self, segment: ArrayRef) {
        self.segments_len += segment.len();
        self.segments.push(segment);
    }

    /// Moves the fallen-back values decoded so far into a segment of their own.
    fn flush_values(&mut self) -> Result<(), Fault> {
        let n = self.values.len();
        if n > 0 {
            self.values.checkpoint(false)?;
            let segment = self.values.finish(n, None)?;
            self.push_segment(segment);
        }
        self.values_base = self.segments_len;
        self.interned.clear();
        Ok(())
    }
}

impl<T, B> ValueReader for DictionaryReader<T, B>
where
    T: DynamicType,
    B: Builder<T>,
    T::Value: InternKey,
    T::Decoder: Send,
{
    fn set_dictionary(&mut self, page: &DictionaryPage) -> Result<(), Fault> {
        self.flush_values()?;
        let physical = decode_dictionary(page, self.ty)?;
        self.values.validate_dictionary(&physical)?;
        let n = pqcodec_core::ValueBuffer::len(&physical);
        for v in pqcodec_core::ValueBuffer::values(&physical) {
            self.values.push(v);
        }
        if let Some(fault) = self.values.take_fault() {
            return Err(fault);
        }
        self.values.checkpoint(true)?;
        let dictionary = self.values.finish(n, None)?;
        self.dictionary = Some(dictionary);
        self.dictionary_base = None;
        self.values_base = self.segments_len;
        Ok(())
    }

    fn start_page(
        &mut self,
        encoding: Encoding,
        data: Buffer,
        num_values: usize,
    ) -> Result<(), Fault> {
        self.end_page()?;
        self.page = None;
        if encoding.is_dictionary() {
            let Some(dictionary) = self.dictionary.clone() else {
                return Err(Fault::corrupt(
                    encoding,
                    "dictionary page",
                    "a dictionary-encoded data page comes without a dictionary page",
                ));
            };
            let len = dictionary.len();
            if self.dictionary_base.is_none() {
                self.flush_values()?;
                self.dictionary_base = Some(self.segments_len);
                self.push_segment(dictionary);
                self.values_base = self.segments_len;
            }
            let decoder =
                IndexDecoder::with_encoding(shared_bytes(&data), num_values, len, encoding)?;
            self.page = Some(PageState::Indices(decoder));
        } else {
            let decoder = T::decoder(encoding, shared_bytes(&data), num_values, self.ty, None)?;
            self.page = Some(PageState::Values(decoder, encoding));
        }
        Ok(())
    }

    fn read(&mut self, n: usize) -> Result<(), Fault> {
        if n == 0 {
            return Ok(());
        }
        match self.page.as_mut().ok_or_else(no_page)? {
            PageState::Indices(decoder) => {
                let mut sink = KeySink {
                    keys: &mut self.keys,
                    base: self.dictionary_base.unwrap_or(0),
                    overflow: false,
                };
                let got = decoder.read(&mut sink, n)?;
                if sink.overflow {
                    return Err(key_overflow(&self.data_type));
                }
                if got != n {
                    let encoding = decoder.encoding();
                    return Err(short(encoding, "indices", got, n));
                }
            }
            PageState::Values(decoder, encoding) => {
                let mut sink = Interner {
                    values: &mut self.values,
                    seen: &mut self.interned,
                    keys: &mut self.keys,
                    base: self.values_base,
                    scratch: Vec::new(),
                    overflow: false,
                };
                let got = decoder.read(&mut sink, n)?;
                if sink.overflow {
                    return Err(key_overflow(&self.data_type));
                }
                if got != n {
                    return Err(short(*encoding, "values", got, n));
                }
                if let Some(fault) = self.values.take_fault() {
                    return Err(fault);
                }
            }
        }
        Ok(())
    }

    fn skip(&mut self, n: usize) -> Result<(), Fault> {
        if n == 0 {
            return Ok(());
        }
        let (got, encoding, field) = match self.page.as_mut().ok_or_else(no_page)? {
            PageState::Indices(decoder) => {
                let got = decoder.skip(n)?;
                (got, decoder.encoding(), "indices")
            }
            PageState::Values(decoder, encoding) => (decoder.skip(n)?, *encoding, "values"),
        };
        if got != n {
            return Err(short(encoding, field, got, n));
        }
        Ok(())
    }

    fn end_page(&mut self) -> Result<(), Fault> {
        if let Some(PageState::Values(..)) = self.page {
            self.values.checkpoint(false)?;
        }
        Ok(())
    }

    fn release_page(&mut self) -> Result<(), Fault> {
        self.end_page()?;
        self.page = None;
        Ok(())
    }

    fn new_chunk(&mut self) {
        self.page = None;
        self.dictionary = None;
        self.dictionary_base = None;
    }

    fn finish(&mut self, slots: usize, validity: Option<NullBuffer>) -> Result<ArrayRef, Fault> {
        self.end_page()?;
        self.flush_values()?;
        check(self.keys.len(), slots, validity.as_ref())?;
        let values = match self.segments.len() {
            0 => new_empty_array(&self.value_type),
            1 => Arc::clone(&self.segments[0]),
            _ => {
                let parts: Vec<&dyn Array> = self.segments.iter().map(|a| a.as_ref()).collect();
                arrow_select::concat::concat(&parts)?
            }
        };
        let nulls = validity.filter(|v| v.null_count() > 0);
        let mut keys = std::mem::take(&mut self.keys);
        if let Some(v) = &nulls {
            spread_fixed(&mut keys, v);
        }
        // The next batch starts from the current dictionary alone.
        self.segments.clear();
        self.segments_len = 0;
        self.dictionary_base = None;
        self.values_base = 0;
        if let Some(dictionary) = self.dictionary.clone()
            && matches!(self.page, Some(PageState::Indices(_)))
        {
            self.dictionary_base = Some(0);
            self.push_segment(dictionary);
            self.values_base = self.segments_len;
        }
        let keys = key_buffer(keys, &self.key_type).ok_or_else(|| key_overflow(&self.data_type))?;
        let data = ArrayDataBuilder::new(self.data_type.clone())
            .len(slots)
            .add_buffer(keys)
            .add_child_data(values.to_data())
            .nulls(nulls)
            .build()?;
        Ok(make_array(data))
    }
}

/// `keys` as a buffer of `key_type` (an integer type), or `None` if a key does not fit it.
/// Keys that fit 32 bits signed or unsigned are handed over as they are.
fn key_buffer(keys: Vec<u32>, key_type: &DataType) -> Option<Buffer> {
    fn cast<N: ArrowNativeType + ToByteSlice>(keys: &[u32]) -> Option<Buffer> {
        let cast: Option<Vec<N>> = keys.iter().map(|&k| N::from_usize(k as usize)).collect();
        cast.map(Buffer::from_vec)
    }
    match key_type {
        DataType::UInt32 => Some(Buffer::from_vec(keys)),
        DataType::Int32 => {
            let max = keys.iter().copied().max().unwrap_or(0);
            i32::try_from(max).is_ok().then(|| Buffer::from_vec(keys))
        }
        DataType::Int8 => cast::<i8>(&keys),
        DataType::Int16 => cast::<i16>(&keys),
        DataType::Int64 => cast::<i64>(&keys),
        DataType::UInt8 => cast::<u8>(&keys),
        DataType::UInt16 => cast::<u16>(&keys),
        DataType::UInt64 => cast::<u64>(&keys),
        _ => None,
    }
}

fn key_overflow(data_type: &DataType) -> Fault {
    Fault::corrupt(
        Encoding::RleDictionary,
        "indices",
        format!("the batch's dictionary has more values than the keys of {data_type} can index"),
    )
}
