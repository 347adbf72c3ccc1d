//! [`ChunkPages`]: the pages of one column chunk, framed by pqcodec. Each header is read by
//! [`page_header_in::page_header`] (so that every encoding pqcodec decodes, ALP included, is
//! named, whatever the parquet crate's `Encoding` knows), each body decompressed by
//! [`Decompressor`].

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::Arc;

use arrow_buffer::Buffer;
use parquet::basic::Compression;
use parquet::file::page_index::offset_index::PageLocation;
use pqcodec_arrow::{
    DataPageV1, DataPageV2, DictionaryPage, Page, PageHint, PageSource, SourceError,
};
use pqcodec_core::Encoding;

use super::checks::{PageChecks, page_body};
use super::decompress::Decompressor;
use super::page_header_in::{self, PageHeader};
use super::page_header_in::{DATA_PAGE, DATA_PAGE_V2, DICTIONARY_PAGE, INDEX_PAGE};
use super::snappy;
use super::{Fetched, FramingError};
use crate::metrics::{ReadMetrics, decompressing};

/// The pages of one column chunk, decompressed, from bytes already read: the whole chunk, or,
/// with the chunk's page locations from the offset index, its dictionary page and the data
/// pages a reader does not skip.
///
/// A [`PageSource`] of pqcodec pages that can pass over a page without decompressing it.
pub struct ChunkPages {
    data: Arc<Fetched>,
    row_group: usize,
    /// Pages read or passed over so far (index pages not counted), to name the page of an error.
    page: usize,
    /// `None` for an uncompressed chunk.
    codec: Option<Decompressor>,
    order: Order,
    /// The next page, once its header is read.
    peeked: Option<Framed>,
    /// Where the time spent decompressing is added.
    metrics: Option<ReadMetrics>,
}

/// In what order the pages come.
enum Order {
    /// Header after header, from `at` to the chunk's end.
    Sequential { at: u64, end: u64 },
    /// The dictionary page (where its bytes lie), then the data pages of the offset index,
    /// `rows` rows in all.
    Indexed {
        dictionary: Option<Range<u64>>,
        pages: VecDeque<PageLocation>,
        rows: usize,
    },
}

/// A page whose header was read: the header and where its body lies.
struct Framed {
    header: PageHeader,
    body: Range<u64>,
}

impl std::fmt::Debug for ChunkPages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChunkPages")
            .field("row_group", &self.row_group)
            .field("page", &self.page)
            .finish_non_exhaustive()
    }
}

impl ChunkPages {
    /// The pages of a column chunk of `row_group` compressed with `codec`, lying at `range`
    /// of the file, in `data`. Without `locations`, `data` holds the whole chunk, whose page
    /// headers are checked and must hold the row group's `rows`; with them (checked against
    /// the chunk by the caller), the pages `data` holds are checked.
    pub(crate) fn new(
        row_group: usize,
        codec: Compression,
        range: Range<u64>,
        rows: i64,
        data: Arc<Fetched>,
        locations: Option<Vec<PageLocation>>,
    ) -> Result<Self, FramingError> {
        let chunk_error = |reason: String| FramingError::Chunk { row_group, reason };
        let checks = PageChecks { row_group, codec };
        let order = match locations {
            None => {
                let bytes = data
                    .get(&range)
                    .ok_or_else(|| chunk_error(format!("its bytes {range:?} were not read")))?;
                checks.check(&bytes, rows)?;
                Order::Sequential {
                    at: range.start,
                    end: range.end,
                }
            }
            Some(pages) => {
                let first = pages.first().map_or(range.end, |p| p.offset as u64);
                let dictionary = (range.start < first).then_some(range.start..first);
                let bodies = pages.iter().map(|p| {
                    let at = p.offset as u64;
                    at..at + p.compressed_page_size as u64
                });
                for page in dictionary.clone().into_iter().chain(bodies) {
                    if let Some(bytes) = data.get(&page) {
                        checks.check(&bytes, 0)?;
                    }
                }
                Order::Indexed {
                    dictionary,
                    pages: pages.into(),
                    rows: usize::try_from(rows).unwrap_or(0),
                }
            }
        };
        if let Some((codec, feature)) = super::codec_not_compiled(codec) {
            return Err(FramingError::CodecNotCompiled {
                row_group,
                codec,
                feature,
            });
        }
        let codec = Decompressor::new(codec).map_err(chunk_error)?;
        Ok(ChunkPages {
            data,
            row_group,
            page: 0,
            codec,
            order,
            peeked: None,
            metrics: None,
        })
    }

    /// Adds the time spent decompressing to `metrics`.
    pub(crate) fn with_read_metrics(mut self, metrics: Option<ReadMetrics>) -> Self {
        self.metrics = metrics;
        self
    }

    /// An error of the page about to be read.
    fn error(&self, reason: impl Into<String>) -> FramingError {
        FramingError::Page {
            row_group: self.row_group,
            page: self.page,
            reason: reason.into(),
        }
    }

    /// The bytes of `range`, which must have been read.
    fn bytes(&self, range: &Range<u64>) -> Result<bytes::Bytes, FramingError> {
        self.data.get(range).ok_or_else(|| {
            self.error(format!(
                "bytes {range:?} of the file were not read (the offset index and the pages disagree?)"
            ))
        })
    }

    /// Reads the header of the page starting at `at`, the chunk's bytes up to `end`. The
    /// chunk's checks (`PageChecks::check`) read it before and keep nothing, on purpose: kept,
    /// a chunk of many tiny pages (a hostile file's) would hold parsed headers several times
    /// its own size; parsing one again costs a fraction of a microsecond a page.
    fn frame(&self, at: u64, end: u64) -> Result<Framed, FramingError> {
        let bytes = self.bytes(&(at..end))?;
        let header = page_header_in::page_header(&bytes)
            .map_err(|e| self.error(format!("page header: {e}")))?;
        let body = page_body(&header, &bytes[header.len..]).map_err(|e| self.error(e))?;
        let start = at + header.len as u64;
        Ok(Framed {
            body: start..start + body.len() as u64,
            header,
        })
    }

    /// The next page's header, read if it was not; `None` at the end of the chunk. Index pages
    /// are passed over, as other readers do.
    fn next_framed(&mut self) -> Result<Option<&Framed>, FramingError> {
        while self.peeked.is_none() {
            let range = match &mut self.order {
                Order::Sequential { at, end } if *at < *end => *at..*end,
                Order::Sequential { .. } => return Ok(None),
                Order::Indexed {
                    dictionary, pages, ..
                } => match (dictionary.take(), pages.front()) {
                    (Some(range), _) => range,
                    (None, Some(page)) => {
                        let at = page.offset as u64;
                        let range = at..at + page.compressed_page_size as u64;
                        pages.pop_front();
                        range
                    }
                    (None, None) => return Ok(None),
                },
            };
            let framed = self.frame(range.start, range.end)?;
            if let Order::Sequential { at, .. } = &mut self.order {
                *at = framed.body.end;
            }
            if framed.header.page_type != Some(INDEX_PAGE) {
                self.peeked = Some(framed);
            }
        }
        Ok(self.peeked.as_ref())
    }

    /// Decompresses the body of `framed` into a page.
    fn page(&mut self, framed: Framed) -> Result<Page, FramingError> {
        let h = &framed.header;
        let body = self.bytes(&framed.body)?;
        let uncompressed = h.uncompressed_size.unwrap_or(0).max(0) as usize;
        let encoding = |id: Option<i32>, what: &str| match id {
            Some(id) => {
                Encoding::from_id(id).ok_or_else(|| format!("page header: unknown {what} {id}"))
            }
            None => Err(format!("page header: no {what}")),
        };
        let count = |n: Option<i32>| n.map_or(0, |n| n.max(0) as usize);
        // Levels of a v2 page are never compressed; the rest is, unless it says otherwise.
        let (levels, compressed) = match (h.page_type, &h.data_v2) {
            (Some(DATA_PAGE_V2), Some(v2)) => (
                count(v2.level_lens[0]) + count(v2.level_lens[1]),
                v2.is_compressed,
            ),
            _ => (0, true),
        };
        let data = match self.codec.as_mut() {
            Some(codec) if compressed => {
                let split = levels.min(body.len());
                // Room for what the header claims, within what the body can hold for the
                // codecs that bound it (checked); BROTLI's output grows as it comes.
                let room =
                    uncompressed.min(body.len().saturating_mul(1 << 15).saturating_add(4096));
                let mut out = Vec::with_capacity(room + snappy::SLACK);
                out.extend_from_slice(&body[..split]);
                // A page of no values (all nulls) may be empty, not compressed.
                if uncompressed > levels {
                    let values = uncompressed - levels;
                    let input = &body[split..];
                    let decompress = || codec.decompress(input, values, &mut out);
                    decompressing(self.metrics.as_ref(), decompress).map_err(|e| self.error(e))?;
                }
                if out.len() != uncompressed {
                    return Err(self.error(format!(
                        "the page decompresses to {} bytes, not the {uncompressed} its header gives",
                        out.len()
                    )));
                }
                // A dictionary lives as long as any batch whose views point into it, and
                // Arrow sizes it by its capacity: the decompressor's slack would make a small
                // one look mostly unused, and DataFusion's coalescers then copy every batch's
                // strings out of it, into blocks of up to 1 MiB each.
                if h.page_type == Some(DICTIONARY_PAGE) {
                    out.shrink_to_fit();
                }
                Buffer::from(out)
            }
            _ => Buffer::from(body),
        };
        let page = match h.page_type {
            Some(DICTIONARY_PAGE) => {
                let d = h.dictionary.unwrap_or_default();
                Page::Dictionary(DictionaryPage {
                    data,
                    num_values: count(d.num_values),
                    encoding: encoding(d.encoding, "encoding").map_err(|e| self.error(e))?,
                })
            }
            Some(DATA_PAGE) => {
                let d = h.data.unwrap_or_default();
                let [values, def, rep] = d.encodings;
                let named = |id, what| encoding(id, what).map_err(|e| self.error(e));
                Page::DataV1(DataPageV1 {
                    data,
                    num_values: count(d.num_values),
                    encoding: named(values, "encoding")?,
                    def_level_encoding: named(def, "definition_level_encoding")?,
                    rep_level_encoding: named(rep, "repetition_level_encoding")?,
                })
            }
            Some(DATA_PAGE_V2) => {
                let v2 = h.data_v2.as_ref().ok_or_else(|| {
                    self.error("page header: a data page v2 without its data_page_header_v2")
                })?;
                Page::DataV2(DataPageV2 {
                    data,
                    num_values: count(v2.counts[0]),
                    num_nulls: count(v2.counts[1]),
                    num_rows: count(v2.counts[2]),
                    encoding: encoding(v2.encoding, "encoding").map_err(|e| self.error(e))?,
                    def_levels_byte_len: count(v2.level_lens[0]),
                    rep_levels_byte_len: count(v2.level_lens[1]),
                })
            }
            other => return Err(self.error(format!("page header: unknown page type {other:?}"))),
        };
        Ok(page)
    }
}

impl PageSource for ChunkPages {
    fn next_page(&mut self) -> Result<Option<Page>, SourceError> {
        self.next_framed()?;
        let Some(framed) = self.peeked.take() else {
            return Ok(None);
        };
        let page = self.page(framed)?;
        self.page += 1;
        Ok(Some(page))
    }

    fn peek(&mut self) -> Result<Option<PageHint>, SourceError> {
        // A data page located by the offset index is known by its location, unread (it may
        // not have been fetched).
        if self.peeked.is_none()
            && let Order::Indexed {
                dictionary: None,
                pages,
                rows,
            } = &self.order
        {
            return Ok(pages.front().map(|page| {
                let end = pages.get(1).map_or(*rows, |p| p.first_row_index as usize);
                PageHint {
                    dictionary: false,
                    rows: Some(end.saturating_sub(page.first_row_index as usize)),
                    levels: None,
                }
            }));
        }
        let Some(framed) = self.next_framed()? else {
            return Ok(None);
        };
        let h = &framed.header;
        Ok(Some(match h.page_type {
            Some(DICTIONARY_PAGE) => PageHint {
                dictionary: true,
                rows: None,
                levels: None,
            },
            _ => match &h.data_v2 {
                Some(v2) => PageHint {
                    dictionary: false,
                    rows: v2.counts[2].map(|n| n.max(0) as usize),
                    levels: v2.counts[0].map(|n| n.max(0) as usize),
                },
                None => PageHint {
                    dictionary: false,
                    rows: None,
                    levels: h.data.and_then(|d| d.num_values).map(|n| n.max(0) as usize),
                },
            },
        }))
    }

    fn skip_page(&mut self) -> Result<(), SourceError> {
        match (&mut self.order, self.peeked.is_some()) {
            (
                Order::Indexed {
                    dictionary: None,
                    pages,
                    ..
                },
                false,
            ) => {
                pages.pop_front();
            }
            _ => {
                self.next_framed()?;
                self.peeked = None;
            }
        }
        self.page += 1;
        Ok(())
    }
}
