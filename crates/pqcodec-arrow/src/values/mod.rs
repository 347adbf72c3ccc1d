//! A leaf column's values: decoded page by page into Arrow buffers, then spread over the
//! column's slots (nulls in between) as one Arrow array per batch.
//!
//! - [`Builder`]: a [`Sink`] of one physical type's values writing one Arrow type's buffers,
//!   converting as it appends; one per file: [`primitive`], [`converted`] (INT32 into Int8,
//!   Date64, Decimal128...), [`boolean`], [`binary`] (offsets), [`view`] (Utf8View /
//!   BinaryView), [`fixed`] (FixedSizeBinary, Float16, intervals, decimals from bytes),
//!   [`null`]; [`gather`]: converted dictionaries gathered by index;
//! - [`ValueReader`]: a type-erased reader of a column's pages into a builder,
//!   [`reader::Materialized`] (dictionaries looked up) or [`dictionary::DictionaryReader`]
//!   (Arrow DictionaryArray kept);
//! - [`select`]: which builder a (physical type, Arrow type) pair takes.

pub(crate) mod binary;
pub(crate) mod boolean;
pub(crate) mod borrow;
pub(crate) mod converted;
pub(crate) mod dictionary;
pub(crate) mod fixed;
pub(crate) mod gather;
pub(crate) mod null;
pub(crate) mod primitive;
pub(crate) mod reader;
pub(crate) mod select;
pub(crate) mod spread;
pub(crate) mod view;

use arrow_array::ArrayRef;
use arrow_buffer::{Buffer, NullBuffer};
use pqcodec_core::{Encoding, Physical, Sink};
use pqcodec_encodings::dictionary::IndexDecoder;

use crate::error::Fault;
use crate::page::DictionaryPage;

/// Where a leaf's dense (non-null) values go, and how they become an Arrow array.
pub(crate) trait Builder<T: Physical>: Sink<T::Value> + Send + 'static {
    /// Dense values held.
    fn len(&self) -> usize;

    /// A fault a push could not report (an offset overflow, a value too wide...).
    fn take_fault(&mut self) -> Option<Fault> {
        None
    }

    /// Validates what was appended since the last checkpoint (UTF-8 for string types);
    /// `trusted` values (looked up in an already validated dictionary) are not checked again.
    fn checkpoint(&mut self, trusted: bool) -> Result<(), Fault> {
        let _ = trusted;
        Ok(())
    }

    /// Checks a dictionary's values before data pages are looked up in it.
    fn validate_dictionary(&self, dictionary: &T::Buffer) -> Result<(), Fault> {
        let _ = dictionary;
        Ok(())
    }

    /// Takes the dictionary of the data pages that follow straight from its page (PLAIN,
    /// checked), where the builder keeps what it needs of it without the values decoded
    /// (string views pointing into the page...): returns whether it did, and then gathers
    /// dictionary-encoded pages itself with [`gather`](Self::gather), its dictionary checked
    /// (UTF-8). Otherwise the page is decoded for [`take_dictionary`](Self::take_dictionary).
    fn take_dictionary_page(&mut self, page: &DictionaryPage) -> Result<bool, Fault> {
        let _ = page;
        Ok(false)
    }

    /// Takes the dictionary of the data pages that follow, `page` decoded into `values` (both
    /// checked): returns whether the builder converted it once into what it stores (16-byte
    /// string views...) and gathers dictionary-encoded pages itself with
    /// [`gather`](Self::gather), rather than being handed each value looked up.
    fn take_dictionary(
        &mut self,
        page: &DictionaryPage,
        values: &T::Buffer,
    ) -> Result<bool, Fault> {
        let _ = (page, values);
        Ok(false)
    }

    /// Lets go of what the builder keeps of the current dictionary (the pages that follow
    /// are another column chunk's): freed before the next dictionary page is read, unless the
    /// batch's arrays share it.
    fn release_dictionary(&mut self) {}

    /// Appends the dictionary values of the next `n` indices, gathered from the dictionary
    /// taken; returns how many (fewer at the end of the page). Called only after
    /// [`take_dictionary`](Self::take_dictionary) said it gathers.
    fn gather(&mut self, indices: &mut IndexDecoder, n: usize) -> Result<usize, Fault> {
        let _ = (indices, n);
        Err(reader::no_page())
    }

    /// The array of `slots` slots holding the dense values at the valid slots of `validity`
    /// (every slot when `None`), in order; the builder is left empty.
    fn finish(&mut self, slots: usize, validity: Option<NullBuffer>) -> Result<ArrayRef, Fault>;
}

/// A type-erased reader of one leaf column's values, page by page, into Arrow arrays.
pub(crate) trait ValueReader: Send {
    /// Takes the dictionary the following data pages look indices up in.
    fn set_dictionary(&mut self, page: &DictionaryPage) -> Result<(), Fault>;

    /// Starts a data page whose values (after the levels) are `data`; the page holds
    /// `num_values` non-null values in `encoding`.
    fn start_page(
        &mut self,
        encoding: Encoding,
        data: Buffer,
        num_values: usize,
    ) -> Result<(), Fault>;

    /// Decodes exactly `n` values of the current page into the batch.
    fn read(&mut self, n: usize) -> Result<(), Fault>;

    /// Skips exactly `n` values of the current page.
    fn skip(&mut self, n: usize) -> Result<(), Fault>;

    /// Validates what the current page appended (called before the next page starts and
    /// before a batch is finished).
    fn end_page(&mut self) -> Result<(), Fault>;

    /// Ends the current page, which is done ([`end_page`](Self::end_page)), and drops its
    /// decoder and what the builder keeps of it: its buffer is freed before the next page's is
    /// allocated, unless the batch's arrays share it.
    fn release_page(&mut self) -> Result<(), Fault>;

    /// Forgets the current page and dictionary: the pages that follow are another column
    /// chunk's (validate the current page first with [`end_page`](Self::end_page)).
    fn new_chunk(&mut self);

    /// The batch's array over `slots` slots, nulls where `validity` says; starts a new batch.
    fn finish(&mut self, slots: usize, validity: Option<NullBuffer>) -> Result<ArrayRef, Fault>;
}
