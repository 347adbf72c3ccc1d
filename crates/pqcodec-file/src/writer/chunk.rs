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
use pqcodec_arrow::Page;
use pqcodec_arrow::write::{Bound, EncodedChunk, Statistics};
use pqcodec_core::Encoding;

use super::compress::{compress, parquet_codec};
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

/// Compresses and frames `chunk` of column `descr`.
pub(crate) fn frame(
    chunk: EncodedChunk,
    descr: ColumnDescPtr,
    codec: Compression,
    rows: u64,
) -> Result<Framed> {
    let path = descr.path().string();
    let pq = |e: parquet::errors::ParquetError| frame_error(&path, e);
    let mut sink = TrackedWrite::new(Vec::new());
    let mut writer = SerializedPageWriter::new(&mut sink);
    let mut uncompressed_total = 0i64;
    let mut dictionary_offset = None;
    let mut encoding_stats = Vec::new();
    let mut encodings = vec![PqEncoding::RLE];
    let mut scratch = Vec::new();
    let count = |stats: &mut Vec<PageEncodingStats>, page_type, encoding| match stats
        .iter_mut()
        .find(|s: &&mut PageEncodingStats| s.page_type == page_type && s.encoding == encoding)
    {
        Some(s) => s.count += 1,
        None => stats.push(PageEncodingStats {
            page_type,
            encoding,
            count: 1,
        }),
    };
    if let Some(dictionary) = &chunk.dictionary {
        scratch.clear();
        compress(codec, &dictionary.data, &mut scratch).map_err(Error::Io)?;
        let page = PqPage::DictionaryPage {
            buf: Bytes::copy_from_slice(&scratch),
            num_values: u32_of(&path, dictionary.num_values)?,
            encoding: PqEncoding::PLAIN,
            is_sorted: false,
        };
        let spec = writer
            .write_page(CompressedPage::new(page, dictionary.data.len()))
            .map_err(pq)?;
        dictionary_offset = Some(spec.offset as i64);
        uncompressed_total += spec.uncompressed_size as i64;
        count(
            &mut encoding_stats,
            PageType::DICTIONARY_PAGE,
            PqEncoding::PLAIN,
        );
        encodings.push(PqEncoding::PLAIN);
    }
    let mut offsets = OffsetIndexBuilder::new();
    let mut index = chunk
        .statistics
        .as_ref()
        .map(|_| ColumnIndexBuilder::new(descr.physical_type()));
    let mut data_offset = None;
    let mut num_values = 0i64;
    for page in &chunk.pages {
        let (pq_page, uncompressed, encoding) = match &page.page {
            Page::DataV1(p) => {
                scratch.clear();
                compress(codec, &p.data, &mut scratch).map_err(Error::Io)?;
                let encoding = parquet_encoding(&path, p.encoding)?;
                let page = PqPage::DataPage {
                    buf: Bytes::copy_from_slice(&scratch),
                    num_values: u32_of(&path, p.num_values)?,
                    encoding,
                    def_level_encoding: PqEncoding::RLE,
                    rep_level_encoding: PqEncoding::RLE,
                    statistics: None,
                };
                num_values += p.num_values as i64;
                (page, p.data.len(), encoding)
            }
            Page::DataV2(p) => {
                let levels = p.rep_levels_byte_len + p.def_levels_byte_len;
                scratch.clear();
                scratch.extend_from_slice(&p.data[..levels]);
                let compressed = codec != Compression::Uncompressed;
                compress(codec, &p.data[levels..], &mut scratch).map_err(Error::Io)?;
                let encoding = parquet_encoding(&path, p.encoding)?;
                let page = PqPage::DataPageV2 {
                    buf: Bytes::copy_from_slice(&scratch),
                    num_values: u32_of(&path, p.num_values)?,
                    encoding,
                    num_nulls: u32_of(&path, p.num_nulls)?,
                    num_rows: u32_of(&path, p.num_rows)?,
                    def_levels_byte_len: u32_of(&path, p.def_levels_byte_len)?,
                    rep_levels_byte_len: u32_of(&path, p.rep_levels_byte_len)?,
                    is_compressed: compressed,
                    statistics: None,
                };
                num_values += p.num_values as i64;
                (page, p.data.len(), encoding)
            }
            Page::Dictionary(_) => {
                return Err(Error::Request(format!(
                    "column {path:?}: a dictionary page among the data pages"
                )));
            }
        };
        let page_type = pq_page.page_type();
        let spec = writer
            .write_page(CompressedPage::new(pq_page, uncompressed))
            .map_err(pq)?;
        data_offset.get_or_insert(spec.offset as i64);
        uncompressed_total += spec.uncompressed_size as i64;
        count(&mut encoding_stats, page_type, encoding);
        if !encodings.contains(&encoding) {
            encodings.push(encoding);
        }
        offsets.append_offset_and_size(spec.offset as i64, spec.compressed_size as i32);
        offsets.append_row_count(page.num_rows as i64);
        if let (Some(builder), Some(stats)) = (&mut index, &page.statistics) {
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
    }
    writer.close().map_err(pq)?;
    let bytes = Bytes::from(sink.into_inner().map_err(pq)?);
    let data_offset = data_offset.unwrap_or(0);
    let mut builder = ColumnChunkMetaData::builder(descr.clone())
        .set_compression(parquet_codec(codec))
        .set_encodings(encodings)
        .set_page_encoding_stats(encoding_stats)
        .set_total_compressed_size(bytes.len() as i64)
        .set_total_uncompressed_size(uncompressed_total)
        .set_num_values(num_values)
        .set_data_page_offset(data_offset)
        .set_dictionary_page_offset(dictionary_offset);
    if let Some(stats) = &chunk.statistics {
        builder = builder.set_statistics(statistics(descr.physical_type(), stats));
    }
    let metadata = builder.build().map_err(pq)?;
    let column_index = match index {
        Some(mut builder) if builder.valid() => {
            builder.set_boundary_order(BoundaryOrder::UNORDERED);
            Some(builder.build().map_err(pq)?)
        }
        _ => None,
    };
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
fn statistics(physical: PqType, s: &Statistics) -> PqStatistics {
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
