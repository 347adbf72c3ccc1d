//! [`Materialized`]: a column's values decoded into plain Arrow arrays, dictionary pages looked
//! up as the data pages are read.

use std::sync::Arc;

use arrow_array::ArrayRef;
use arrow_buffer::{Buffer, NullBuffer};
use pqcodec_core::{Decoder, Encoding, PhysicalType, ValueBuffer};
use pqcodec_encodings::dictionary::IndexDecoder;
use pqcodec_encodings::dynamic::DynamicType;

use super::{Builder, ValueReader};
use crate::error::Fault;
use crate::page::{DictionaryPage, shared_bytes};

/// How the current data page is read.
enum PageState<T: DynamicType> {
    /// Values decoded (dictionary pages' looked up) by the codec's decoder.
    Values(T::Decoder),
    /// Indices the builder gathers from the dictionary it converted.
    Indices(IndexDecoder),
}

/// Decodes a dictionary page's values into a physical buffer.
pub(crate) fn decode_dictionary<T: DynamicType>(
    page: &DictionaryPage,
    ty: T,
) -> Result<T::Buffer, Fault> {
    decode_dictionary_into(page, ty, T::Buffer::default())
}

/// [`decode_dictionary`] into `out`, whose allocation it reuses (sized to the page's values).
fn decode_dictionary_into<T: DynamicType>(
    page: &DictionaryPage,
    ty: T,
    mut out: T::Buffer,
) -> Result<T::Buffer, Fault> {
    // Every value but a boolean takes a byte of the page at least, so the room made is
    // bounded by the page; a BYTE_ARRAY value's bytes follow a 4-byte length.
    let len = page.data.len();
    let values = page.num_values.min(len);
    let bytes = match T::TYPE {
        PhysicalType::FixedLenByteArray => len,
        _ => len.saturating_sub(values.saturating_mul(4)),
    };
    check_dictionary_encoding(page.encoding)?;
    out.reset(values, bytes);
    let mut decoder = T::decoder(
        Encoding::Plain,
        shared_bytes(&page.data),
        page.num_values,
        ty,
        None,
    )?;
    let got = decoder.read(&mut out, page.num_values)?;
    if got != page.num_values {
        return Err(short(Encoding::Plain, "dictionary", got, page.num_values));
    }
    Ok(out)
}

/// Dictionary pages are PLAIN (`PLAIN_DICTIONARY` in old writers).
pub(crate) fn check_dictionary_encoding(encoding: Encoding) -> Result<(), Fault> {
    match encoding {
        Encoding::Plain | Encoding::PlainDictionary => Ok(()),
        other => Err(Fault::corrupt(
            other,
            "dictionary page",
            "dictionary pages must be PLAIN or PLAIN_DICTIONARY encoded",
        )),
    }
}

/// The error for a page that holds fewer values than its levels promise.
pub(crate) fn short(encoding: Encoding, field: &'static str, got: usize, want: usize) -> Fault {
    Fault::corrupt(
        encoding,
        field,
        format!("{got} values where {want} were expected"),
    )
}

/// The page state missing: a read before any data page (an internal invariant).
pub(crate) fn no_page() -> Fault {
    Fault::corrupt(Encoding::Plain, "values", "values read outside a data page")
}

/// Values decoded into builder `B`, dictionary-encoded pages looked up in the dictionary.
pub(crate) struct Materialized<T: DynamicType, B> {
    builder: B,
    ty: T,
    /// How many values the current dictionary holds, once one was taken.
    dictionary_len: Option<usize>,
    /// The dictionary's values, decoded, where the builder does not gather.
    dictionary: Option<Arc<T::Buffer>>,
    /// The builder gathers dictionary-encoded pages from its own conversion of the dictionary.
    gathers: bool,
    page: Option<(PageState<T>, Encoding)>,
    /// The allocation of the last dictionary let go, for the next one: a column's
    /// dictionaries, one a row group and often alike in size, reuse one buffer (no pages
    /// faulted in again).
    spare: Option<T::Buffer>,
}

impl<T: DynamicType, B: Builder<T>> Materialized<T, B> {
    pub(crate) fn new(builder: B, ty: T) -> Self {
        Materialized {
            builder,
            ty,
            dictionary_len: None,
            dictionary: None,
            gathers: false,
            page: None,
            spare: None,
        }
    }

    /// Lets the current page and dictionary go, keeping the dictionary's allocation.
    fn drop_dictionary(&mut self) {
        self.page = None;
        self.builder.release_dictionary();
        self.dictionary_len = None;
        self.gathers = false;
        if let Some(dictionary) = self.dictionary.take().and_then(|d| Arc::try_unwrap(d).ok()) {
            self.spare = Some(dictionary);
        }
    }
}

impl<T, B> ValueReader for Materialized<T, B>
where
    T: DynamicType,
    B: Builder<T>,
    T::Decoder: Send,
{
    fn set_dictionary(&mut self, page: &DictionaryPage) -> Result<(), Fault> {
        self.drop_dictionary();
        check_dictionary_encoding(page.encoding)?;
        self.gathers = self.builder.take_dictionary_page(page)?;
        if !self.gathers {
            let spare = self.spare.take().unwrap_or_default();
            let dictionary = decode_dictionary_into(page, self.ty, spare)?;
            self.builder.validate_dictionary(&dictionary)?;
            self.gathers = self.builder.take_dictionary(page, &dictionary)?;
            // A dictionary the builder converted is let go (its conversion holds the values).
            if !self.gathers {
                self.dictionary = Some(Arc::new(dictionary));
            }
        }
        self.dictionary_len = Some(page.num_values);
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
        let dictionary_len = match self.dictionary_len {
            Some(len) if encoding.is_dictionary() => Some(len),
            None if encoding.is_dictionary() => {
                return Err(Fault::corrupt(
                    encoding,
                    "dictionary page",
                    "a dictionary-encoded data page comes without a dictionary page",
                ));
            }
            _ => None,
        };
        let ty = self.ty;
        let bytes = shared_bytes(&data);
        let state = match dictionary_len {
            Some(len) if self.gathers => PageState::Indices(IndexDecoder::with_encoding(
                bytes, num_values, len, encoding,
            )?),
            Some(_) => PageState::Values(T::decoder(
                encoding,
                bytes,
                num_values,
                ty,
                self.dictionary.clone(),
            )?),
            None => PageState::Values(T::decoder(encoding, bytes, num_values, ty, None)?),
        };
        self.page = Some((state, encoding));
        Ok(())
    }

    fn read(&mut self, n: usize) -> Result<(), Fault> {
        if n == 0 {
            return Ok(());
        }
        let (page, encoding) = self.page.as_mut().ok_or_else(no_page)?;
        let builder = &mut self.builder;
        let got = match page {
            PageState::Values(decoder) => decoder.read(builder, n)?,
            PageState::Indices(indices) => builder.gather(indices, n)?,
        };
        if got != n {
            return Err(short(*encoding, "values", got, n));
        }
        match self.builder.take_fault() {
            Some(fault) => Err(fault),
            None => Ok(()),
        }
    }

    fn skip(&mut self, n: usize) -> Result<(), Fault> {
        if n == 0 {
            return Ok(());
        }
        let (page, encoding) = self.page.as_mut().ok_or_else(no_page)?;
        let got = match page {
            PageState::Values(decoder) => decoder.skip(n)?,
            PageState::Indices(indices) => indices.skip(n)?,
        };
        if got != n {
            return Err(short(*encoding, "values", got, n));
        }
        Ok(())
    }

    fn end_page(&mut self) -> Result<(), Fault> {
        let trusted = self
            .page
            .as_ref()
            .is_some_and(|(_, encoding)| encoding.is_dictionary());
        self.builder.checkpoint(trusted)
    }

    fn release_page(&mut self) -> Result<(), Fault> {
        self.end_page()?;
        self.page = None;
        Ok(())
    }

    fn new_chunk(&mut self) {
        self.drop_dictionary();
    }

    fn finish(&mut self, slots: usize, validity: Option<NullBuffer>) -> Result<ArrayRef, Fault> {
        self.end_page()?;
        self.builder.finish(slots, validity)
    }
}
