//! One leaf column's pages: levels and values cut into pages at row boundaries, once a page
//! reaches its size in bytes or rows.

use arrow_buffer::Buffer;
use arrow_schema::DataType;
use pqcodec_core::Encoding;
use pqcodec_encodings::rle::RleEncoder;

use super::shred::Shredded;
use super::stats::{BoundaryOrder, Bounds, PageOrder, Statistics};
use super::values::ValueWriter;
use super::{ColumnOptions, PageVersion};
use crate::error::Result;
use crate::page::{DataPageV1, DataPageV2, DictionaryPage, Page};
use crate::schema::ColumnDesc;

/// Levels taken at a time before a page's size is checked (extended to the next row).
const LEVELS_PER_STEP: usize = 1024;

/// A data page made by a [`ColumnEncoder`], not yet compressed.
#[derive(Debug, Clone)]
pub struct EncodedPage {
    /// The page: [`Page::DataV1`] or [`Page::DataV2`].
    pub page: Page,
    /// Rows (records) that start in the page.
    pub num_rows: usize,
    /// Nulls at the leaf.
    pub num_nulls: usize,
    /// The page's statistics, if kept.
    pub statistics: Option<Statistics>,
}

/// The end of a column chunk made by a [`ColumnEncoder`]: its dictionary page, if any, and
/// its data pages not yet taken by [`ColumnEncoder::take_pages`], not yet compressed.
#[derive(Debug, Clone)]
pub struct EncodedChunk {
    /// The dictionary page, before the data pages.
    pub dictionary: Option<DictionaryPage>,
    /// The data pages not taken before, in order.
    pub pages: Vec<EncodedPage>,
    /// The chunk's statistics, if kept.
    pub statistics: Option<Statistics>,
    /// How its pages' bounds follow each other (unordered without statistics).
    pub boundary_order: BoundaryOrder,
}

/// Encodes one leaf column's levels and values into pages.
pub struct ColumnEncoder {
    desc: ColumnDesc,
    options: ColumnOptions,
    values: ValueWriter,
    statistics: bool,
    /// Bounds of the chunk's pages written so far.
    chunk_bounds: Bounds,
    /// Nulls in the chunk's pages written so far.
    chunk_nulls: u64,
    /// Pages written in the chunk so far (taken or not).
    chunk_pages: usize,
    /// The order of their bounds.
    page_order: PageOrder,
    def: Vec<u16>,
    rep: Vec<u16>,
    page_levels: usize,
    page_rows: usize,
    page_nulls: usize,
    pages: Vec<EncodedPage>,
    scratch: Vec<u32>,
}

impl std::fmt::Debug for ColumnEncoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ColumnEncoder")
            .field("desc", &self.desc)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl ColumnEncoder {
    /// An encoder of the column `desc`, whose values come from Arrow arrays of `data_type`.
    /// Fails if the encoding does not apply to the column's type or the arrays cannot be
    /// written as it.
    pub(crate) fn try_new(
        desc: ColumnDesc,
        data_type: &DataType,
        options: ColumnOptions,
    ) -> Result<Self> {
        let values = ValueWriter::try_new(
            &desc,
            data_type,
            options.sort_order,
            options.encoding,
            options.dictionary,
            options.statistics,
        )?;
        Ok(ColumnEncoder {
            statistics: options.statistics,
            chunk_bounds: values.bounds.cleared(),
            chunk_nulls: 0,
            chunk_pages: 0,
            page_order: PageOrder::default(),
            desc,
            options,
            values,
            def: Vec::new(),
            rep: Vec::new(),
            page_levels: 0,
            page_rows: 0,
            page_nulls: 0,
            pages: Vec::new(),
            scratch: Vec::new(),
        })
    }

    /// The column.
    pub fn desc(&self) -> &ColumnDesc {
        &self.desc
    }

    /// Encodes a batch's share of the column.
    pub(crate) fn write(&mut self, shredded: &Shredded) -> Result<()> {
        let max_def = self.desc.max_def_level;
        let total = shredded.levels;
        let (mut level, mut value) = (0, 0);
        while level < total {
            let mut end = (level + LEVELS_PER_STEP).min(total);
            if !shredded.rep.is_empty() {
                while end < total && shredded.rep[end] != 0 {
                    end += 1;
                }
            }
            let (values, nulls) = if shredded.def.is_empty() {
                (end - level, 0)
            } else {
                let values = shredded.def[level..end]
                    .iter()
                    .filter(|&&d| d == max_def)
                    .count();
                (values, end - level - values)
            };
            let rows = if shredded.rep.is_empty() {
                end - level
            } else {
                shredded.rep[level..end].iter().filter(|&&r| r == 0).count()
            };
            self.values.put(
                &shredded.values,
                shredded.positions.slice(value..value + values),
            )?;
            if !shredded.def.is_empty() {
                self.def.extend_from_slice(&shredded.def[level..end]);
            }
            if !shredded.rep.is_empty() {
                self.rep.extend_from_slice(&shredded.rep[level..end]);
            }
            self.page_levels += end - level;
            self.page_rows += rows;
            self.page_nulls += nulls;
            level = end;
            value += values;
            if self.values.past_dictionary_limits() {
                self.flush_page()?;
                self.values.fall_back()?;
            } else if self.page_rows >= self.options.page_rows
                || self.values.estimated_size() + (self.def.len() + self.rep.len()) / 4
                    >= self.options.page_bytes
            {
                self.flush_page()?;
            }
        }
        Ok(())
    }

    /// Writes the pending levels and values as a data page.
    fn flush_page(&mut self) -> Result<()> {
        if self.page_levels == 0 {
            return Ok(());
        }
        let mut data = Vec::with_capacity(self.values.estimated_size() + 64);
        let rep_len = self.levels_into(false, &mut data);
        let def_len = self.levels_into(true, &mut data);
        let encoding = self.values.flush_into(&mut data)?;
        let num_values = self.page_levels;
        let page = match self.options.page_version {
            PageVersion::V1 => Page::DataV1(DataPageV1 {
                data: Buffer::from_vec(data),
                num_values,
                encoding,
                def_level_encoding: Encoding::Rle,
                rep_level_encoding: Encoding::Rle,
            }),
            PageVersion::V2 => Page::DataV2(DataPageV2 {
                data: Buffer::from_vec(data),
                num_values,
                num_nulls: self.page_nulls,
                num_rows: self.page_rows,
                encoding,
                def_levels_byte_len: def_len,
                rep_levels_byte_len: rep_len,
            }),
        };
        let statistics = self.statistics.then(|| {
            let (min, max) = self.values.bounds.finish();
            if let (Some(lo), Some(hi)) = (&min, &max) {
                self.page_order
                    .push(&self.chunk_bounds, lo.clone(), hi.clone());
            }
            Statistics {
                min,
                max,
                null_count: self.page_nulls as u64,
            }
        });
        self.chunk_bounds.merge(&self.values.bounds);
        self.chunk_nulls += self.page_nulls as u64;
        self.chunk_pages += 1;
        self.values.bounds = self.values.bounds.cleared();
        self.pages.push(EncodedPage {
            page,
            num_rows: self.page_rows,
            num_nulls: self.page_nulls,
            statistics,
        });
        self.def.clear();
        self.rep.clear();
        self.page_levels = 0;
        self.page_rows = 0;
        self.page_nulls = 0;
        Ok(())
    }

    /// Appends the pending definition (`def`) or repetition levels, RLE, to `out`: with their
    /// 4-byte length first in a v1 page. Returns the bytes written (without the length).
    fn levels_into(&mut self, def: bool, out: &mut Vec<u8>) -> usize {
        let (levels, max) = if def {
            (&self.def, self.desc.max_def_level)
        } else {
            (&self.rep, self.desc.max_rep_level)
        };
        if max == 0 {
            return 0;
        }
        let mut encoder = RleEncoder::new(u16::BITS - max.leading_zeros());
        if def && self.page_nulls == 0 {
            // No nulls: every definition level is the greatest, one run.
            encoder.put_repeated(u32::from(max), levels.len());
        } else {
            for chunk in levels.chunks(4096) {
                self.scratch.clear();
                self.scratch.extend(chunk.iter().map(|&l| u32::from(l)));
                encoder.put_slice(&self.scratch);
            }
        }
        let prefixed = self.options.page_version == PageVersion::V1;
        let start = out.len();
        if prefixed {
            out.extend_from_slice(&[0; 4]);
        }
        encoder.flush_into(out);
        let len = out.len() - start - if prefixed { 4 } else { 0 };
        if prefixed {
            out[start..start + 4].copy_from_slice(&(len as u32).to_le_bytes());
        }
        len
    }

    /// The data pages finished so far, to compress and write out while the chunk goes on.
    pub fn take_pages(&mut self) -> Vec<EncodedPage> {
        std::mem::take(&mut self.pages)
    }

    /// Ends the column chunk: its dictionary page and the pages not yet taken, and a fresh
    /// start for the next one.
    pub fn finish_chunk(&mut self) -> Result<EncodedChunk> {
        self.flush_page()?;
        if self.chunk_pages == 0 {
            // An empty chunk still has a data page, of no values.
            let mut data = Vec::new();
            let encoding = self.values.flush_into(&mut data)?;
            self.pages.push(EncodedPage {
                page: match self.options.page_version {
                    PageVersion::V1 => Page::DataV1(DataPageV1 {
                        data: Buffer::from_vec(data),
                        num_values: 0,
                        encoding,
                        def_level_encoding: Encoding::Rle,
                        rep_level_encoding: Encoding::Rle,
                    }),
                    PageVersion::V2 => Page::DataV2(DataPageV2 {
                        data: Buffer::from_vec(data),
                        num_values: 0,
                        num_nulls: 0,
                        num_rows: 0,
                        encoding,
                        def_levels_byte_len: 0,
                        rep_levels_byte_len: 0,
                    }),
                },
                num_rows: 0,
                num_nulls: 0,
                statistics: self.statistics.then(Statistics::default),
            });
        }
        let dictionary = self
            .values
            .finish_chunk()?
            .map(|(bytes, num_values)| DictionaryPage {
                data: Buffer::from_vec(bytes),
                num_values,
                encoding: Encoding::Plain,
            });
        let pages = std::mem::take(&mut self.pages);
        let statistics = self.statistics.then(|| {
            let (min, max) = self.chunk_bounds.finish();
            Statistics {
                min,
                max,
                null_count: self.chunk_nulls,
            }
        });
        let boundary_order = match statistics {
            Some(_) => self.page_order.finish(),
            None => BoundaryOrder::Unordered,
        };
        self.chunk_bounds = self.chunk_bounds.cleared();
        self.chunk_nulls = 0;
        self.chunk_pages = 0;
        Ok(EncodedChunk {
            dictionary,
            pages,
            statistics,
            boundary_order,
        })
    }
}
