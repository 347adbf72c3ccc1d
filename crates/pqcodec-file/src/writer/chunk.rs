//! A column chunk's pages compressed and framed (page headers by pqcodec), with the chunk's
//! metadata, column index and offset index.

use bytes::Bytes;
use parquet::file::metadata::ColumnChunkMetaData;
use parquet::schema::types::ColumnDescPtr;
use pqcodec_arrow::Page;
use pqcodec_arrow::write::{EncodedChunk, EncodedPage};
use pqcodec_core::Encoding;

use super::compress::Compressor;
use super::truncate::Truncate;
use crate::compression::Compression;
use crate::error::{Error, Result};
use crate::framing::footer_out::ChunkEncodings;
use crate::framing::page_header_in::{DATA_PAGE, DATA_PAGE_V2, DICTIONARY_PAGE};
use crate::framing::page_header_out::{PageKind, write_page_header};
use crate::framing::page_index_out::{ColumnIndex, PageLocation};
use crate::framing::parquet_types::{
    ChunkFacts, boundary_order_id, column_chunk_metadata, parquet_statistics, written_to_files,
};

/// A framed column chunk: its pages' bytes (each page its own buffer: the chunk is never
/// copied into one), its metadata and page index, offsets counted from the chunk's start.
pub(crate) struct Framed {
    pub pages: Vec<Bytes>,
    pub metadata: ColumnChunkMetaData,
    pub encodings: ChunkEncodings,
    pub column_index: Option<ColumnIndex>,
    pub locations: Vec<PageLocation>,
}

/// One leaf column's chunk being framed: data pages compressed and framed as they come (so a
/// row group is held compressed), the dictionary page put in front when the chunk ends.
pub(crate) struct ChunkWriter {
    descr: ColumnDescPtr,
    path: String,
    codec: Compression,
    compressor: Compressor,
    /// The framed data pages, and their bytes in all.
    data: Vec<Bytes>,
    data_len: u64,
    uncompressed: i64,
    num_values: i64,
    encodings: ChunkEncodings,
    /// Each data page's offset in `data`, framed size and first row.
    locations: Vec<PageLocation>,
    rows: i64,
    /// The column index, once a page has bounds; `None` inside once a page has values
    /// without bounds (only NaNs, or a type without order): then the chunk has none.
    index: Option<Option<ColumnIndex>>,
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
            data: Vec::new(),
            data_len: 0,
            uncompressed: 0,
            num_values: 0,
            encodings: levels_listed(),
            locations: Vec::new(),
            rows: 0,
            index: None,
        }
    }

    /// The page's header and `body`: the framed page, and its size uncompressed (header
    /// included, as the footer counts it).
    fn frame(&self, kind: PageKind, body: &[u8], uncompressed: usize) -> Result<(Vec<u8>, i64)> {
        let mut framed = Vec::with_capacity(body.len() + 64);
        let size = |n: usize| {
            i32::try_from(n).map_err(|_| Error::TooLarge {
                what: format!("column {:?}: a page of {n} bytes", self.path),
                limit: "2 GiB a page",
            })
        };
        write_page_header(kind, size(uncompressed)?, size(body.len())?, &mut framed);
        let header = framed.len();
        framed.extend_from_slice(body);
        Ok((framed, (header + uncompressed) as i64))
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
            PageKind::DataV2 { .. } => DATA_PAGE_V2,
            _ => DATA_PAGE,
        };
        let offset = self.data_len as i64;
        let size = i32_of(path, framed.len())?;
        self.data_len += framed.len() as u64;
        self.uncompressed += uncompressed;
        self.data.push(Bytes::from(framed));
        self.num_values += page.page.num_values() as i64;
        self.encodings.count(page_type, encoding);
        self.locations.push(PageLocation {
            offset,
            size,
            first_row: self.rows,
        });
        self.rows += page.num_rows as i64;
        if let Some(stats) = &page.statistics {
            let values = page.page.num_values() - page.num_nulls;
            let bounds = match (&stats.min, &stats.max) {
                (Some(min), Some(max)) => {
                    let (min, max) = (min.to_plain_bytes(), max.to_plain_bytes());
                    Some(match &self.truncate {
                        Some(t) => (t.min(&min).unwrap_or(min), t.max(&max).unwrap_or(max)),
                        None => (min, max),
                    })
                }
                _ if values == 0 => Some((Vec::new(), Vec::new())),
                // Values without bounds (only NaNs, or an order-less type): no index.
                _ => None,
            };
            let index = self
                .index
                .get_or_insert_with(|| Some(ColumnIndex::default()));
            match (index.as_mut(), bounds) {
                (Some(index), Some((min, max))) => {
                    index.null_pages.push(values == 0);
                    index.min.push(min);
                    index.max.push(max);
                    index.null_counts.push(page.num_nulls as i64);
                }
                _ => *index = None,
            }
        }
        Ok(())
    }

    /// Ends the chunk, whose data pages were pushed: the dictionary page framed in front of
    /// them, the chunk's metadata and indexes; the writer starts empty for the next chunk.
    pub(crate) fn finish(&mut self, chunk: &EncodedChunk) -> Result<Framed> {
        let (dictionary, statistics) = (chunk.dictionary.as_ref(), chunk.statistics.as_ref());
        let mut pages = Vec::with_capacity(self.data.len() + 1);
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
            pages.push(Bytes::from(framed));
            dictionary_offset = Some(0);
            self.uncompressed += uncompressed;
            self.encodings.count(DICTIONARY_PAGE, Encoding::Plain);
        }
        let shift = pages.first().map_or(0, |p| p.len() as i64);
        pages.append(&mut self.data);
        let len = std::mem::take(&mut self.data_len) + shift as u64;
        let mut locations = std::mem::take(&mut self.locations);
        for l in &mut locations {
            l.offset += shift;
        }
        self.rows = 0;
        let encodings = std::mem::replace(&mut self.encodings, levels_listed());
        let statistics = statistics.map(|stats| {
            let truncate = self.truncate.as_ref();
            parquet_statistics(
                self.descr.physical_type(),
                stats,
                |v| truncate.and_then(|t| t.min(v)),
                |v| truncate.and_then(|t| t.max(v)),
            )
        });
        let facts = ChunkFacts {
            codec: self.codec,
            encodings: &encodings.listed,
            pages: &encodings.pages,
            compressed_size: len as i64,
            uncompressed_size: std::mem::take(&mut self.uncompressed),
            num_values: std::mem::take(&mut self.num_values),
            data_page_offset: locations.first().map_or(shift, |l| l.offset),
            dictionary_page_offset: dictionary_offset,
            statistics,
        };
        let metadata = column_chunk_metadata(self.descr.clone(), facts)
            .map_err(|e| frame_error(&self.path, e))?;
        let column_index = self.index.take().flatten().map(|mut index| {
            index.boundary_order = boundary_order_id(chunk.boundary_order);
            index
        });
        Ok(Framed {
            pages,
            metadata,
            encodings,
            column_index,
            locations,
        })
    }
}

/// A chunk's encodings before its pages: RLE, the levels'.
fn levels_listed() -> ChunkEncodings {
    ChunkEncodings {
        listed: vec![Encoding::Rle],
        pages: Vec::new(),
    }
}

/// Fails if the writer does not write pages in `e`.
pub(crate) fn check_written(column: &str, e: Encoding) -> Result<()> {
    match written_to_files(e) {
        true => Ok(()),
        false => Err(Error::Request(format!(
            "column {column:?}: {e} is not written to files"
        ))),
    }
}

fn i32_of(path: &str, n: usize) -> Result<i32> {
    i32::try_from(n).map_err(|_| Error::TooLarge {
        what: format!("column {path:?}: a page of {n} values"),
        limit: "2^31 - 1 values a page",
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
