//! The pages a column reader takes: already decompressed, framed by the caller.
//!
//! A column chunk is an optional [`DictionaryPage`] followed by data pages, [`DataPageV1`] or
//! [`DataPageV2`]. Several chunks of the same column (row groups) may follow each other in one
//! [`PageSource`]: a new dictionary page replaces the previous dictionary.

use arrow_buffer::Buffer;
use bytes::Bytes;
use pqcodec_core::Encoding;

use crate::error::SourceError;

/// A dictionary page: the dictionary's values, PLAIN encoded.
#[derive(Debug, Clone)]
pub struct DictionaryPage {
    /// The page's bytes, decompressed.
    pub data: Buffer,
    /// Number of values in the dictionary.
    pub num_values: usize,
    /// `PLAIN` or `PLAIN_DICTIONARY` (both mean PLAIN here).
    pub encoding: Encoding,
}

/// A data page, version 1: repetition levels, definition levels (each with its own encoding
/// and, when RLE, its 4-byte length prefix), then the values, all in one buffer.
#[derive(Debug, Clone)]
pub struct DataPageV1 {
    /// The page's bytes, decompressed.
    pub data: Buffer,
    /// Number of levels (values including nulls) in the page.
    pub num_values: usize,
    /// Encoding of the values.
    pub encoding: Encoding,
    /// Encoding of the definition levels: `RLE` or `BIT_PACKED`.
    pub def_level_encoding: Encoding,
    /// Encoding of the repetition levels: `RLE` or `BIT_PACKED`.
    pub rep_level_encoding: Encoding,
}

/// A data page, version 2: repetition levels then definition levels (RLE, no length prefix,
/// their byte lengths in the header), then the values.
#[derive(Debug, Clone)]
pub struct DataPageV2 {
    /// The page's bytes: levels (never compressed) and values, decompressed.
    pub data: Buffer,
    /// Number of levels (values including nulls) in the page.
    pub num_values: usize,
    /// Number of nulls (levels below the maximum definition level).
    pub num_nulls: usize,
    /// Number of records (rows) in the page.
    pub num_rows: usize,
    /// Encoding of the values.
    pub encoding: Encoding,
    /// Byte length of the definition levels.
    pub def_levels_byte_len: usize,
    /// Byte length of the repetition levels, which come first.
    pub rep_levels_byte_len: usize,
}

/// One page of a column chunk.
#[derive(Debug, Clone)]
pub enum Page {
    /// The dictionary of the data pages that follow.
    Dictionary(DictionaryPage),
    /// A data page, version 1.
    DataV1(DataPageV1),
    /// A data page, version 2.
    DataV2(DataPageV2),
}

impl Page {
    /// Number of levels (values including nulls) the page holds; for a dictionary page, the
    /// dictionary's size.
    pub fn num_values(&self) -> usize {
        match self {
            Page::Dictionary(p) => p.num_values,
            Page::DataV1(p) => p.num_values,
            Page::DataV2(p) => p.num_values,
        }
    }

    /// The encoding of the page's values.
    pub fn encoding(&self) -> Encoding {
        match self {
            Page::Dictionary(p) => p.encoding,
            Page::DataV1(p) => p.encoding,
            Page::DataV2(p) => p.encoding,
        }
    }
}

/// What a [`PageSource`] knows of its next page before reading (and decompressing) it: from
/// the page's header, or from the file's offset index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageHint {
    /// A dictionary page.
    pub dictionary: bool,
    /// The rows (records) of a data page, when known (a v2 header, an offset index).
    pub rows: Option<usize>,
    /// The levels (values, nulls included) of a data page, when known (a v1 or v2 header).
    pub levels: Option<usize>,
}

/// Where a column reader gets its pages: every `Iterator<Item = Result<Page, E>>` whose error
/// converts into a boxed error is one.
///
/// A source that can tell how many rows its next page holds without reading it
/// ([`PageSource::peek`]) lets a reader skipping rows pass over whole pages with
/// [`PageSource::skip_page`], never decompressing or decoding them.
pub trait PageSource: Send {
    /// The next page, or `None` at the end of the column.
    fn next_page(&mut self) -> Result<Option<Page>, SourceError>;

    /// What the next page is, if known without reading it; `None` if unknown or at the end.
    fn peek(&mut self) -> Result<Option<PageHint>, SourceError> {
        Ok(None)
    }

    /// Passes over the next page without returning it: a source that peeks need not read it.
    fn skip_page(&mut self) -> Result<(), SourceError> {
        self.next_page().map(drop)
    }
}

impl<I, E> PageSource for I
where
    I: Iterator<Item = Result<Page, E>> + Send,
    E: Into<SourceError>,
{
    fn next_page(&mut self) -> Result<Option<Page>, SourceError> {
        self.next().transpose().map_err(Into::into)
    }
}

/// `buffer`'s bytes as the [`Bytes`] a decoder owns, sharing the buffer's memory: the page is
/// neither copied nor freed while a decoder or an array holds it.
pub(crate) fn shared_bytes(buffer: &Buffer) -> Bytes {
    Bytes::from_owner(Owner(buffer.clone()))
}

/// A buffer, as the owner of the memory of a [`Bytes`].
struct Owner(Buffer);

impl AsRef<[u8]> for Owner {
    fn as_ref(&self) -> &[u8] {
        self.0.as_slice()
    }
}
