//! A column chunk's pages compressed and framed (page headers by pqcodec), with the chunk's
//! metadata, column index and offset index.

use std::collections::VecDeque;
use std::io::Read;

use bytes::Bytes;
use parquet::basic::{BoundaryOrder, Encoding as PqEncoding, PageType};
use parquet::column::writer::ColumnCloseResult;
use parquet::file::metadata::{
    ColumnChunkMetaData, ColumnIndexBuilder, OffsetIndexBuilder, PageEncodingStats,
};
use parquet::file::reader::{ChunkReader, Length};
use parquet::schema::types::ColumnDescPtr;
use pqcodec_arrow::Page;
use pqcodec_arrow::write::{BoundaryOrder as PageOrder, EncodedChunk, EncodedPage};
use pqcodec_core::Encoding;

use super::compress::Compressor;
use super::page_header::{PageKind, write_page_header};
use super::truncate::Truncate;
use crate::compression::Compression;
use crate::error::{Error, Result};
use crate::framing::parquet_types::{footer_encoding, parquet_statistics};

/// A framed column chunk: its pages' bytes, from offset 0, and what the row group writer
/// needs.
pub(crate) struct Framed {
    pub bytes: FramedPages,
    pub close: ColumnCloseResult,
}

/// A column chunk's framed pages, each its own buffer, read as one stretch of bytes: the
/// chunk is never copied into one buffer before it is written out.
#[derive(Debug, Default)]
pub(crate) struct FramedPages {
    pages: Vec<Bytes>,
    len: u64,
}

impl FramedPages {
    fn push(&mut self, page: Vec<u8>) {
        self.len += page.len() as u64;
        self.pages.push(Bytes::from(page));
    }
}

impl Length for FramedPages {
    fn len(&self) -> u64 {
        self.len
    }
}

/// Reads [`FramedPages`] from some offset on.
pub(crate) struct PagesRead(VecDeque<Bytes>);

impl Read for PagesRead {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while let Some(front) = self.0.front_mut() {
            if front.is_empty() {
                self.0.pop_front();
                continue;
            }
            let n = front.len().min(buf.len());
            buf[..n].copy_from_slice(&front[..n]);
            bytes::Buf::advance(front, n);
            return Ok(n);
        }
        Ok(0)
    }
}

impl ChunkReader for FramedPages {
    type T = PagesRead;

    fn get_read(&self, start: u64) -> parquet::errors::Result<PagesRead> {
        let mut skip = start;
        let mut out = VecDeque::with_capacity(self.pages.len());
        for page in &self.pages {
            let len = page.len() as u64;
            if skip >= len {
                skip -= len;
                continue;
            }
            out.push_back(page.slice(skip as usize..));
            skip = 0;
        }
        Ok(PagesRead(out))
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<Bytes> {
        let mut out = Vec::with_capacity(length);
        self.get_read(start)?
            .take(length as u64)
            .read_to_end(&mut out)?;
        Ok(Bytes::from(out))
    }
}

/// One leaf column's chunk being framed: data pages compressed and framed as they come (so a
/// row group is held compressed), the dictionary page put in front when the chunk ends.
pub(crate) struct ChunkWriter {
    descr: ColumnDescPtr,
    path: String,
    codec: Compression,
    compressor: Compressor,
    /// The framed data pages.
    data: FramedPages,
    uncompressed: i64,
    num_values: i64,
    encodings: Vec<PqEncoding>,
    encoding_stats: Vec<PageEncodingStats>,
    /// Each data page's offset in `data`, framed size and rows.
    locations: Vec<(i64, i32, i64)>,
    index: Option<ColumnIndexBuilder>,
    /// How long bounds are cut, if they are.
    truncate: Option<Truncate>,
}

impl ChunkWriter {
    pub(crate) fn new(descr: ColumnDescPtr, codec: Compression, truncate: Option<usize>) -> Self {
        ChunkWriter {
            truncate: Truncate::for_column(&descr, truncate),
            path: descr.path().string(),
            descr,
            codec,
            compressor: Compressor::new(codec),
            data: FramedPages::default(),
            uncompressed: 0,
            num_values: 0,
            encodings: vec![PqEncoding::RLE],
            encoding_stats: Vec::new(),
            locations: Vec::new(),
            index: None,
        }
    }

    fn pq(&self, e: parquet::errors::ParquetError) -> Error {
        frame_error(&self.path, e)
    }

    /// The page's header and `body`: the framed page, and its size uncompressed (header
    /// included, as the footer counts it).
    fn frame(&self, kind: PageKind, body: &[u8], uncompressed: usize) -> Result<(Vec<u8>, i64)> {
        let mut framed = Vec::with_capacity(body.len() + 64);
        let size = |n: usize| {
            i32::try_from(n).map_err(|_| {
                Error::Request(format!(
                    "column {:?}: a page of {n} bytes is too large",
                    self.path
                ))
            })
        };
        write_page_header(kind, size(uncompressed)?, size(body.len())?, &mut framed);
        let header = framed.len();
        framed.extend_from_slice(body);
        Ok((framed, (header + uncompressed) as i64))
    }

    fn count(&mut self, page_type: PageType, encoding: PqEncoding) {
        match self
            .encoding_stats
            .iter_mut()
            .find(|s| s.page_type == page_type && s.encoding == encoding)
        {
            Some(s) => s.count += 1,
            None => self.encoding_stats.push(PageEncodingStats {
                page_type,
                encoding,
                count: 1,
            }),
        }
        if !self.encodings.contains(&encoding) {
            self.encodings.push(encoding);
        }
    }

    /// Compresses and frames a data page.
    pub(crate) fn push(&mut self, page: &EncodedPage) -> Result<()> {
        let path = &self.path;
        let compressed = self.codec != Compression::Uncompressed;
        let (kind, data, levels, encoding) = match &page.page {
            Page::DataV1(p) => {
                let kind = PageKind::DataV1 {
                    num_values: i32_of(path, p.num_values)?,
                    encoding: p.encoding,
                };
                (kind, &p.data, 0, p.encoding)
            }
            Page::DataV2(p) => {
                let kind = PageKind::DataV2 {
                    num_values: i32_of(path, p.num_values)?,
                    num_nulls: i32_of(path, p.num_nulls)?,
                    num_rows: i32_of(path, p.num_rows)?,
                    encoding: p.encoding,
                    def_levels_byte_len: i32_of(path, p.def_levels_byte_len)?,
                    rep_levels_byte_len: i32_of(path, p.rep_levels_byte_len)?,
                    is_compressed: compressed,
                };
                let levels = p.rep_levels_byte_len + p.def_levels_byte_len;
                (kind, &p.data, levels, p.encoding)
            }
            Page::Dictionary(_) => {
                return Err(Error::Request(format!(
                    "column {path:?}: a dictionary page among the data pages"
                )));
            }
        };
        // A v2 page's levels are not compressed.
        let (framed, uncompressed) = if compressed {
            let mut body = data[..levels].to_vec();
            self.compressor
                .compress(&data[levels..], &mut body)
                .map_err(Error::Io)?;
            self.frame(kind, &body, data.len())?
        } else {
            self.frame(kind, data, data.len())?
        };
        let page_type = match kind {
            PageKind::DataV2 { .. } => PageType::DATA_PAGE_V2,
            _ => PageType::DATA_PAGE,
        };
        let offset = self.data.len;
        let framed_len = framed.len();
        self.uncompressed += uncompressed;
        self.data.push(framed);
        self.num_values += page.page.num_values() as i64;
        let (listed, framed_len) = (listed_encoding(path, encoding)?, i32_of(path, framed_len)?);
        self.count(page_type, listed);
        self.locations
            .push((offset as i64, framed_len, page.num_rows as i64));
        if let Some(stats) = &page.statistics {
            let builder = self
                .index
                .get_or_insert_with(|| ColumnIndexBuilder::new(self.descr.physical_type()));
            let values = page.page.num_values() - page.num_nulls;
            match (&stats.min, &stats.max) {
                (Some(min), Some(max)) => {
                    let (min, max) = (min.to_plain_bytes(), max.to_plain_bytes());
                    let (min, max) = match &self.truncate {
                        Some(t) => (t.min(&min).unwrap_or(min), t.max(&max).unwrap_or(max)),
                        None => (min, max),
                    };
                    builder.append(false, min, max, page.num_nulls as i64)
                }
                _ if values == 0 => {
                    builder.append(true, Vec::new(), Vec::new(), page.num_nulls as i64)
                }
                // Values without bounds (only NaNs, or an order-less type): no index.
                _ => builder.to_invalid(),
            }
        }
        Ok(())
    }

    /// Ends the chunk, whose data pages were pushed: the dictionary page framed in front of
    /// them, the chunk's metadata and indexes; the writer starts empty for the next chunk.
    pub(crate) fn finish(&mut self, chunk: &EncodedChunk, rows: u64) -> Result<Framed> {
        let (dictionary, statistics) = (chunk.dictionary.as_ref(), chunk.statistics.as_ref());
        let mut bytes = FramedPages::default();
        let mut dictionary_offset = None;
        if let Some(dictionary) = dictionary {
            let mut buf = Vec::new();
            self.compressor
                .compress(&dictionary.data, &mut buf)
                .map_err(Error::Io)?;
            let kind = PageKind::Dictionary {
                num_values: i32_of(&self.path, dictionary.num_values)?,
            };
            let (framed, uncompressed) = self.frame(kind, &buf, dictionary.data.len())?;
            bytes.push(framed);
            dictionary_offset = Some(0);
            self.uncompressed += uncompressed;
            self.count(PageType::DICTIONARY_PAGE, PqEncoding::PLAIN);
        }
        let shift = bytes.len as i64;
        let data = std::mem::take(&mut self.data);
        bytes.len += data.len;
        bytes.pages.extend(data.pages);

        let mut offsets = OffsetIndexBuilder::new();
        for &(offset, size, rows) in &self.locations {
            offsets.append_offset_and_size(offset + shift, size);
            offsets.append_row_count(rows);
        }
        let mut builder = ColumnChunkMetaData::builder(self.descr.clone())
            .set_compression(self.codec.into())
            .set_encodings(std::mem::replace(
                &mut self.encodings,
                vec![PqEncoding::RLE],
            ))
            .set_page_encoding_stats(std::mem::take(&mut self.encoding_stats))
            .set_total_compressed_size(bytes.len as i64)
            .set_total_uncompressed_size(std::mem::take(&mut self.uncompressed))
            .set_num_values(std::mem::take(&mut self.num_values))
            .set_data_page_offset(self.locations.first().map_or(shift, |l| l.0 + shift))
            .set_dictionary_page_offset(dictionary_offset);
        if let Some(stats) = statistics {
            let truncate = self.truncate.as_ref();
            builder = builder.set_statistics(parquet_statistics(
                self.descr.physical_type(),
                stats,
                |v| truncate.and_then(|t| t.min(v)),
                |v| truncate.and_then(|t| t.max(v)),
            ));
        }
        let metadata = builder.build().map_err(|e| self.pq(e))?;
        let column_index = match self.index.take() {
            Some(mut builder) if builder.valid() => {
                builder.set_boundary_order(match chunk.boundary_order {
                    PageOrder::Unordered => BoundaryOrder::UNORDERED,
                    PageOrder::Ascending => BoundaryOrder::ASCENDING,
                    PageOrder::Descending => BoundaryOrder::DESCENDING,
                });
                Some(builder.build().map_err(|e| self.pq(e))?)
            }
            _ => None,
        };
        self.locations.clear();
        Ok(Framed {
            close: ColumnCloseResult {
                bytes_written: bytes.len,
                rows_written: rows,
                metadata,
                bloom_filter: None,
                column_index,
                offset_index: Some(offsets.build()),
            },
            bytes,
        })
    }
}

/// The parquet crate's name for `e`, which column `column`'s pages are written in, as the
/// footer lists it.
pub(crate) fn listed_encoding(column: &str, e: Encoding) -> Result<parquet::basic::Encoding> {
    footer_encoding(e)
        .ok_or_else(|| Error::Request(format!("column {column:?}: {e} is not written to files")))
}

fn i32_of(path: &str, n: usize) -> Result<i32> {
    i32::try_from(n).map_err(|_| {
        Error::Request(format!(
            "column {path:?}: a page of {n} values is too large"
        ))
    })
}

pub(crate) fn frame_error(path: &str, e: parquet::errors::ParquetError) -> Error {
    let format = |source| Error::Format {
        context: format!("column {path:?}"),
        source,
    };
    match e {
        parquet::errors::ParquetError::External(inner) => {
            match inner.downcast::<std::io::Error>() {
                Ok(io) => Error::Io(*io),
                Err(other) => format(other),
            }
        }
        other => format(Box::new(other)),
    }
}
