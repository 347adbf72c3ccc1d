//! A column chunk's pages compressed and framed (page headers by the parquet crate), with the
//! chunk's metadata, column index and offset index.

use bytes::Bytes;
use parquet::basic::{BoundaryOrder, Encoding as PqEncoding, PageType, Type as PqType};
use parquet::column::page::{CompressedPage, Page as PqPage, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::data_type::{ByteArray, FixedLenByteArray};
use parquet::file::metadata::{
    ColumnChunkMetaData, ColumnIndexBuilder, OffsetIndexBuilder, PageEncodingStats,
};
use parquet::file::statistics::Statistics as PqStatistics;
use parquet::file::writer::{SerializedPageWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;
use pqcodec_arrow::write::{Bound, EncodedPage, Statistics};
use pqcodec_arrow::{DictionaryPage, Page};
use pqcodec_core::Encoding;

use super::compress::{Compressor, parquet_codec};
use super::options::Compression;
use crate::error::{Error, Result};

/// pqcodec's encoding as the parquet crate names it, for page headers; the encodings parquet
/// 59 cannot name (ALP, GROUP_VAR_INT) cannot be framed yet.
pub(crate) fn parquet_encoding(column: &str, e: Encoding) -> Result<PqEncoding> {
    Ok(match e {
        Encoding::Plain => PqEncoding::PLAIN,
        Encoding::PlainDictionary => PqEncoding::PLAIN_DICTIONARY,
        Encoding::Rle => PqEncoding::RLE,
        Encoding::DeltaBinaryPacked => PqEncoding::DELTA_BINARY_PACKED,
        Encoding::DeltaLengthByteArray => PqEncoding::DELTA_LENGTH_BYTE_ARRAY,
        Encoding::DeltaByteArray => PqEncoding::DELTA_BYTE_ARRAY,
        Encoding::RleDictionary => PqEncoding::RLE_DICTIONARY,
        Encoding::ByteStreamSplit => PqEncoding::BYTE_STREAM_SPLIT,
        other => {
            return Err(Error::Request(format!(
                "column {column:?}: {other} pages cannot be framed by the parquet crate this build uses (59)"
            )));
        }
    })
}

/// A framed column chunk: its bytes, from offset 0, and what the row group writer needs.
pub(crate) struct Framed {
    pub bytes: Bytes,
    pub close: ColumnCloseResult,
}

/// One leaf column's chunk being framed: data pages compressed and framed as they come (so a
/// row group is held compressed), the dictionary page put in front when the chunk ends.
pub(crate) struct ChunkWriter {
    descr: ColumnDescPtr,
    path: String,
    codec: Compression,
    compressor: Compressor,
    /// The framed data pages.
    data: TrackedWrite<Vec<u8>>,
    uncompressed: i64,
    num_values: i64,
    encodings: Vec<PqEncoding>,
    encoding_stats: Vec<PageEncodingStats>,
    /// Each data page's offset in `data`, framed size and rows.
    locations: Vec<(i64, i32, i64)>,
    index: Option<ColumnIndexBuilder>,
}

impl ChunkWriter {
    pub(crate) fn new(descr: ColumnDescPtr, codec: Compression) -> Self {
        ChunkWriter {
            path: descr.path().string(),
            descr,
            codec,
            compressor: Compressor::new(codec),
            data: TrackedWrite::new(Vec::new()),
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
        let (pq_page, uncompressed, encoding) = match &page.page {
            Page::DataV1(p) => {
                let mut buf = Vec::new();
                self.compressor
                    .compress(&p.data, &mut buf)
                    .map_err(Error::Io)?;
                let encoding = parquet_encoding(path, p.encoding)?;
                let page = PqPage::DataPage {
                    buf: Bytes::from(buf),
                    num_values: u32_of(path, p.num_values)?,
                    encoding,
                    def_level_encoding: PqEncoding::RLE,
                    rep_level_encoding: PqEncoding::RLE,
                    statistics: None,
                };
                (page, p.data.len(), encoding)
            }
            Page::DataV2(p) => {
                let levels = p.rep_levels_byte_len + p.def_levels_byte_len;
                let mut buf = p.data[..levels].to_vec();
                self.compressor
                    .compress(&p.data[levels..], &mut buf)
                    .map_err(Error::Io)?;
                let encoding = parquet_encoding(path, p.encoding)?;
                let page = PqPage::DataPageV2 {
                    buf: Bytes::from(buf),
                    num_values: u32_of(path, p.num_values)?,
                    encoding,
                    num_nulls: u32_of(path, p.num_nulls)?,
                    num_rows: u32_of(path, p.num_rows)?,
                    def_levels_byte_len: u32_of(path, p.def_levels_byte_len)?,
                    rep_levels_byte_len: u32_of(path, p.rep_levels_byte_len)?,
                    is_compressed: self.codec != Compression::Uncompressed,
                    statistics: None,
                };
                (page, p.data.len(), encoding)
            }
            Page::Dictionary(_) => {
                return Err(Error::Request(format!(
                    "column {path:?}: a dictionary page among the data pages"
                )));
            }
        };
        let page_type = pq_page.page_type();
        let spec = SerializedPageWriter::new(&mut self.data)
            .write_page(CompressedPage::new(pq_page, uncompressed))
            .map_err(|e| self.pq(e))?;
        self.uncompressed += spec.uncompressed_size as i64;
        self.num_values += page.page.num_values() as i64;
        self.count(page_type, encoding);
        self.locations.push((
            spec.offset as i64,
            spec.compressed_size as i32,
            page.num_rows as i64,
        ));
        if let Some(stats) = &page.statistics {
            let builder = self
                .index
                .get_or_insert_with(|| ColumnIndexBuilder::new(self.descr.physical_type()));
            let values = page.page.num_values() - page.num_nulls;
            match (&stats.min, &stats.max) {
                (Some(min), Some(max)) => builder.append(
                    false,
                    min.to_plain_bytes(),
                    max.to_plain_bytes(),
                    page.num_nulls as i64,
                ),
                _ if values == 0 => {
                    builder.append(true, Vec::new(), Vec::new(), page.num_nulls as i64)
                }
                // Values without bounds (only NaNs, or an order-less type): no index.
                _ => builder.to_invalid(),
            }
        }
        Ok(())
    }

    /// Ends the chunk: the dictionary page framed in front of the data pages, the chunk's
    /// metadata and indexes; the writer starts empty for the next chunk.
    pub(crate) fn finish(
        &mut self,
        dictionary: Option<&DictionaryPage>,
        statistics: Option<&Statistics>,
        rows: u64,
    ) -> Result<Framed> {
        let mut head = TrackedWrite::new(Vec::new());
        let mut dictionary_offset = None;
        if let Some(dictionary) = dictionary {
            let mut buf = Vec::new();
            self.compressor
                .compress(&dictionary.data, &mut buf)
                .map_err(Error::Io)?;
            let page = PqPage::DictionaryPage {
                buf: Bytes::from(buf),
                num_values: u32_of(&self.path, dictionary.num_values)?,
                encoding: PqEncoding::PLAIN,
                is_sorted: false,
            };
            let spec = SerializedPageWriter::new(&mut head)
                .write_page(CompressedPage::new(page, dictionary.data.len()))
                .map_err(|e| self.pq(e))?;
            dictionary_offset = Some(0);
            self.uncompressed += spec.uncompressed_size as i64;
            self.count(PageType::DICTIONARY_PAGE, PqEncoding::PLAIN);
        }
        let data = std::mem::replace(&mut self.data, TrackedWrite::new(Vec::new()));
        let data = data.into_inner().map_err(|e| self.pq(e))?;
        let mut bytes = head.into_inner().map_err(|e| self.pq(e))?;
        let shift = bytes.len() as i64;
        bytes.extend_from_slice(&data);
        drop(data);
        let bytes = Bytes::from(bytes);

        let mut offsets = OffsetIndexBuilder::new();
        for &(offset, size, rows) in &self.locations {
            offsets.append_offset_and_size(offset + shift, size);
            offsets.append_row_count(rows);
        }
        let mut builder = ColumnChunkMetaData::builder(self.descr.clone())
            .set_compression(parquet_codec(self.codec))
            .set_encodings(std::mem::replace(
                &mut self.encodings,
                vec![PqEncoding::RLE],
            ))
            .set_page_encoding_stats(std::mem::take(&mut self.encoding_stats))
            .set_total_compressed_size(bytes.len() as i64)
            .set_total_uncompressed_size(std::mem::take(&mut self.uncompressed))
            .set_num_values(std::mem::take(&mut self.num_values))
            .set_data_page_offset(self.locations.first().map_or(shift, |l| l.0 + shift))
            .set_dictionary_page_offset(dictionary_offset);
        if let Some(stats) = statistics {
            builder = builder.set_statistics(parquet_statistics(self.descr.physical_type(), stats));
        }
        let metadata = builder.build().map_err(|e| self.pq(e))?;
        let column_index = match self.index.take() {
            Some(mut builder) if builder.valid() => {
                builder.set_boundary_order(BoundaryOrder::UNORDERED);
                Some(builder.build().map_err(|e| self.pq(e))?)
            }
            _ => None,
        };
        self.locations.clear();
        Ok(Framed {
            close: ColumnCloseResult {
                bytes_written: bytes.len() as u64,
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

fn u32_of(path: &str, n: usize) -> Result<u32> {
    u32::try_from(n).map_err(|_| {
        Error::Request(format!(
            "column {path:?}: a page of {n} values is too large"
        ))
    })
}

pub(crate) fn frame_error(path: &str, e: parquet::errors::ParquetError) -> Error {
    match e {
        parquet::errors::ParquetError::External(inner) => {
            match inner.downcast::<std::io::Error>() {
                Ok(io) => Error::Io(*io),
                Err(other) => Error::Request(format!("column {path:?}: {other}")),
            }
        }
        other => Error::Request(format!("column {path:?}: {other}")),
    }
}

/// The chunk's statistics as the parquet crate holds them.
fn parquet_statistics(physical: PqType, s: &Statistics) -> PqStatistics {
    let nulls = Some(s.null_count);
    macro_rules! typed {
        ($ctor:ident, $variant:ident, $map:expr) => {{
            let get = |b: &Option<Bound>| match b {
                Some(Bound::$variant(v)) => Some($map(v)),
                _ => None,
            };
            PqStatistics::$ctor(get(&s.min), get(&s.max), None, nulls, false)
        }};
    }
    match physical {
        PqType::BOOLEAN => typed!(boolean, Boolean, |v: &bool| *v),
        PqType::INT32 => typed!(int32, Int32, |v: &i32| *v),
        PqType::INT64 => typed!(int64, Int64, |v: &i64| *v),
        PqType::INT96 => PqStatistics::int96(None, None, None, nulls, false),
        PqType::FLOAT => typed!(float, Float, |v: &f32| *v),
        PqType::DOUBLE => typed!(double, Double, |v: &f64| *v),
        PqType::BYTE_ARRAY => {
            typed!(byte_array, Bytes, |v: &Vec<u8>| ByteArray::from(v.clone()))
        }
        PqType::FIXED_LEN_BYTE_ARRAY => typed!(fixed_len_byte_array, Bytes, |v: &Vec<u8>| {
            FixedLenByteArray::from(ByteArray::from(v.clone()))
        }),
    }
}
