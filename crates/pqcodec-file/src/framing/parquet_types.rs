//! The one door between pqcodec's types and the parquet crate's (parquet 59), both ways:
//! physical types, leaf columns, codecs, encodings, sort orders, statistics, a written chunk's
//! metadata, Thrift ids and errors. What parquet 59 cannot say is named where it is lost: its
//! `Encoding` lacks ALP, so the metadata the writer gives back does not list ALP (the footer
//! pqcodec writes does: [`footer_out`](super::footer_out)), and the metadata read from a footer
//! leaves out ALP and GROUP_VAR_INT (`footer_in`), pqcodec framing their pages itself.

use parquet::basic::{
    BoundaryOrder, CompressionCodec, ConvertedType, Encoding as PqEncoding, PageType, Repetition,
    SortOrder as PqSortOrder, Type as PqType,
};
use parquet::data_type::{ByteArray, FixedLenByteArray};
use parquet::errors::ParquetError;
use parquet::file::metadata::{
    ColumnChunkMetaData, ColumnIndexBuilder, OffsetIndexBuilder, PageEncodingStats,
};
use parquet::file::page_index::column_index::ColumnIndexMetaData;
use parquet::file::page_index::offset_index::OffsetIndexMetaData;
use parquet::file::statistics::{Statistics as PqStatistics, ValueStatistics};
use parquet::schema::types::{ColumnDescPtr, ColumnDescriptor};
use pqcodec_arrow::ColumnDesc;
use pqcodec_arrow::write::{Bound, BoundaryOrder as PageOrder, SortOrder, Statistics};
use pqcodec_core::{ColumnType, Encoding, PhysicalType};

use super::FramingError;
use super::page_header_in::{DATA_PAGE_V2, DICTIONARY_PAGE};
use super::page_index_out::{ColumnIndex, PageLocation};
use crate::compression::Compression;

/// Parquet's physical types by their Thrift id.
pub(crate) const PHYSICAL_TYPES: [PqType; 8] = [
    PqType::BOOLEAN,
    PqType::INT32,
    PqType::INT64,
    PqType::INT96,
    PqType::FLOAT,
    PqType::DOUBLE,
    PqType::BYTE_ARRAY,
    PqType::FIXED_LEN_BYTE_ARRAY,
];

/// The physical type as pqcodec names it.
pub fn physical(t: PqType) -> PhysicalType {
    match t {
        PqType::BOOLEAN => PhysicalType::Boolean,
        PqType::INT32 => PhysicalType::Int32,
        PqType::INT64 => PhysicalType::Int64,
        PqType::INT96 => PhysicalType::Int96,
        PqType::FLOAT => PhysicalType::Float,
        PqType::DOUBLE => PhysicalType::Double,
        PqType::BYTE_ARRAY => PhysicalType::ByteArray,
        PqType::FIXED_LEN_BYTE_ARRAY => PhysicalType::FixedLenByteArray,
    }
}

/// The leaf column `c` as pqcodec describes it. A FIXED_LEN_BYTE_ARRAY column of type length 0
/// is refused ([`pqcodec_core::Error::TypeLength`]) with the column's path in the message; the
/// parquet crate refuses a negative one, and other types have none (-1).
pub(crate) fn column_desc(c: &ColumnDescriptor) -> Result<ColumnDesc, String> {
    let type_length = usize::try_from(c.type_length()).unwrap_or(0);
    let column_type = ColumnType::new(physical(c.physical_type()), type_length)
        .map_err(|e| format!("column {:?}: {e}", c.path().string()))?;
    Ok(ColumnDesc {
        path: c.path().string(),
        column_type,
        max_def_level: u16::try_from(c.max_def_level()).unwrap_or(0),
        max_rep_level: u16::try_from(c.max_rep_level()).unwrap_or(0),
    })
}

/// [`column_desc`] of a column of a file's schema: a type it cannot have is the footer's fault.
pub(crate) fn footer_column_desc(c: &ColumnDescriptor) -> Result<ColumnDesc, FramingError> {
    column_desc(c).map_err(FramingError::Footer)
}

/// The name of the codec `codec` and the cargo feature it needs, if this build was compiled
/// without it (reading SNAPPY is pqcodec's own code: always there).
pub(crate) fn codec_not_compiled(
    codec: parquet::basic::Compression,
) -> Option<(&'static str, &'static str)> {
    use parquet::basic::Compression as C;
    let (name, feature, compiled) = match codec {
        C::GZIP(_) => ("GZIP", "flate2", cfg!(feature = "flate2")),
        C::LZ4 => ("LZ4", "lz4", cfg!(feature = "lz4")),
        C::LZ4_RAW => ("LZ4_RAW", "lz4", cfg!(feature = "lz4")),
        C::ZSTD(_) => ("ZSTD", "zstd", cfg!(feature = "zstd")),
        C::BROTLI(_) => ("BROTLI", "brotli", cfg!(feature = "brotli")),
        C::UNCOMPRESSED | C::SNAPPY | C::LZO => return None,
    };
    (!compiled).then_some((name, feature))
}

/// The parquet crate's name for a codec and its level (a level out of the parquet crate's
/// range taken as its default), as a footer lists it and arrow-rs's writer takes it.
///
/// ```
/// use pqcodec_file::Compression;
///
/// let zstd: parquet::basic::Compression = Compression::Zstd(3).into();
/// assert_eq!(zstd.to_string(), "ZSTD(ZstdLevel(3))");
/// ```
impl From<Compression> for parquet::basic::Compression {
    fn from(codec: Compression) -> Self {
        use parquet::basic::{BrotliLevel, Compression as P, GzipLevel, ZstdLevel};
        match codec {
            Compression::Uncompressed => P::UNCOMPRESSED,
            Compression::Snappy => P::SNAPPY,
            Compression::Gzip(l) => P::GZIP(GzipLevel::try_new(l).unwrap_or_default()),
            Compression::Lz4Raw(_) => P::LZ4_RAW,
            Compression::Zstd(l) => P::ZSTD(ZstdLevel::try_new(l).unwrap_or_default()),
            Compression::Brotli(l) => P::BROTLI(BrotliLevel::try_new(l).unwrap_or_default()),
        }
    }
}

/// The parquet crate's name for an encoding, as a footer lists it; `None` for ALP, which
/// parquet 59 does not name, and for GROUP_VAR_INT (deprecated) and the level encodings'
/// BIT_PACKED, which are not written to files.
pub(crate) fn footer_encoding(e: Encoding) -> Option<PqEncoding> {
    #[allow(deprecated)]
    Some(match e {
        Encoding::Plain => PqEncoding::PLAIN,
        Encoding::PlainDictionary => PqEncoding::PLAIN_DICTIONARY,
        Encoding::Rle => PqEncoding::RLE,
        Encoding::DeltaBinaryPacked => PqEncoding::DELTA_BINARY_PACKED,
        Encoding::DeltaLengthByteArray => PqEncoding::DELTA_LENGTH_BYTE_ARRAY,
        Encoding::DeltaByteArray => PqEncoding::DELTA_BYTE_ARRAY,
        Encoding::RleDictionary => PqEncoding::RLE_DICTIONARY,
        Encoding::ByteStreamSplit => PqEncoding::BYTE_STREAM_SPLIT,
        _ => return None,
    })
}

/// Whether the writer writes pages in `e`: every encoding but GROUP_VAR_INT (deprecated) and
/// BIT_PACKED (the levels' old encoding).
pub(crate) fn written_to_files(e: Encoding) -> bool {
    e == Encoding::Alp || footer_encoding(e).is_some()
}

/// The page type of Thrift id `id`, one of a data page's (v1 or v2) or a dictionary page's.
pub(crate) fn parquet_page_type(id: i32) -> PageType {
    match id {
        DICTIONARY_PAGE => PageType::DICTIONARY_PAGE,
        DATA_PAGE_V2 => PageType::DATA_PAGE_V2,
        _ => PageType::DATA_PAGE,
    }
}

/// A codec's Thrift id (`CompressionCodec`).
pub(crate) fn codec_id(codec: parquet::basic::Compression) -> i32 {
    use parquet::basic::Compression as C;
    match codec {
        C::UNCOMPRESSED => 0,
        C::SNAPPY => 1,
        C::GZIP(_) => 2,
        C::LZO => 3,
        C::BROTLI(_) => 4,
        C::LZ4 => 5,
        C::ZSTD(_) => 6,
        C::LZ4_RAW => 7,
    }
}

/// The variant of `variants` whose Thrift id is `id`, if the parquet crate names one.
fn by_id<T: Copy>(variants: &[T], id: i32, id_of: impl Fn(T) -> i32) -> Option<T> {
    variants.iter().copied().find(|&v| id_of(v) == id)
}

/// The physical type of Thrift id `id`.
pub(crate) fn physical_type_of(id: i32) -> Option<PqType> {
    by_id(&PHYSICAL_TYPES, id, |t| t as i32)
}

/// The repetition of Thrift id `id`.
pub(crate) fn repetition_of(id: i32) -> Option<Repetition> {
    by_id(Repetition::VARIANTS, id, |r| r as i32)
}

/// The converted type of Thrift id `id` (-1 is `NONE`, as the parquet crate reads it).
pub(crate) fn converted_type_of(id: i32) -> Option<ConvertedType> {
    by_id(ConvertedType::VARIANTS, id, |t| t as i32)
}

/// The compression codec of Thrift id `id`.
pub(crate) fn codec_of(id: i32) -> Option<CompressionCodec> {
    by_id(CompressionCodec::VARIANTS, id, |c| c as i32)
}

/// Whether the parquet crate names encoding `id`, so that its encoding masks can hold it (59
/// names neither GROUP_VAR_INT nor ALP).
pub(crate) fn encoding_named(id: i32) -> bool {
    by_id(PqEncoding::VARIANTS, id, |e| e as i32).is_some()
}

/// The edge interpolation algorithm of Thrift id `id` (unknown ids kept, as the parquet crate
/// keeps them).
pub(crate) fn edge_interpolation_of(id: i32) -> parquet::basic::EdgeInterpolationAlgorithm {
    use parquet::basic::EdgeInterpolationAlgorithm as A;
    [A::SPHERICAL, A::VINCENTY, A::THOMAS, A::ANDOYER, A::KARNEY]
        .into_iter()
        .find(|a| edge_interpolation_id(a) == id)
        .unwrap_or(A::_Unknown(id))
}

/// An edge interpolation algorithm's Thrift id.
pub(crate) fn edge_interpolation_id(a: &parquet::basic::EdgeInterpolationAlgorithm) -> i32 {
    use parquet::basic::EdgeInterpolationAlgorithm as A;
    match *a {
        A::SPHERICAL => 0,
        A::VINCENTY => 1,
        A::THOMAS => 2,
        A::ANDOYER => 3,
        A::KARNEY => 4,
        A::_Unknown(id) => id,
    }
}

/// Parquet's column order as pqcodec's statistics writer takes it.
pub(crate) fn sort_order(order: PqSortOrder) -> SortOrder {
    match order {
        PqSortOrder::SIGNED => SortOrder::Signed,
        PqSortOrder::UNSIGNED => SortOrder::Unsigned,
        PqSortOrder::UNDEFINED => SortOrder::Undefined,
    }
}

/// What the writer knows of a column chunk it framed: the facts of its metadata.
pub(crate) struct ChunkFacts<'a> {
    pub codec: Compression,
    /// Every encoding of its pages and levels, each once.
    pub encodings: &'a [Encoding],
    /// How many pages of each type (its Thrift id) and encoding.
    pub pages: &'a [(i32, Encoding, i32)],
    pub compressed_size: i64,
    pub uncompressed_size: i64,
    pub num_values: i64,
    pub data_page_offset: i64,
    pub dictionary_page_offset: Option<i64>,
    pub statistics: Option<PqStatistics>,
}

/// A written column chunk's metadata in the parquet crate's type: ALP, which it cannot name,
/// left out of the encodings and page counts.
pub(crate) fn column_chunk_metadata(
    descr: ColumnDescPtr,
    facts: ChunkFacts<'_>,
) -> Result<ColumnChunkMetaData, ParquetError> {
    let encodings = facts.encodings.iter().filter_map(|&e| footer_encoding(e));
    let page_stats = (facts.pages.iter())
        .filter_map(|&(page_type, e, count)| {
            Some(PageEncodingStats {
                page_type: parquet_page_type(page_type),
                encoding: footer_encoding(e)?,
                count,
            })
        })
        .collect();
    let mut builder = ColumnChunkMetaData::builder(descr)
        .set_compression(facts.codec.into())
        .set_encodings(encodings.collect())
        .set_page_encoding_stats(page_stats)
        .set_total_compressed_size(facts.compressed_size)
        .set_total_uncompressed_size(facts.uncompressed_size)
        .set_num_values(facts.num_values)
        .set_data_page_offset(facts.data_page_offset)
        .set_dictionary_page_offset(facts.dictionary_page_offset);
    if let Some(statistics) = facts.statistics {
        builder = builder.set_statistics(statistics);
    }
    builder.build()
}

/// A column index's boundary order, as its Thrift id.
pub(crate) fn boundary_order_id(order: PageOrder) -> i32 {
    let order = match order {
        PageOrder::Unordered => BoundaryOrder::UNORDERED,
        PageOrder::Ascending => BoundaryOrder::ASCENDING,
        PageOrder::Descending => BoundaryOrder::DESCENDING,
    };
    order as i32
}

/// A column chunk's statistics as the parquet crate holds them, a byte bound replaced by what
/// `cut_min` or `cut_max` gives for it (a shorter bound) if anything.
pub(crate) fn parquet_statistics(
    physical: PqType,
    s: &Statistics,
    cut_min: impl Fn(&[u8]) -> Option<Vec<u8>>,
    cut_max: impl Fn(&[u8]) -> Option<Vec<u8>>,
) -> PqStatistics {
    let nulls = Some(s.null_count);
    // Byte bounds, cut if they are too long, and whether each is the value itself.
    let bytes = |b: &Option<Bound>, cut: &dyn Fn(&[u8]) -> Option<Vec<u8>>| match b {
        Some(Bound::Bytes(v)) => match cut(v) {
            Some(shorter) => (Some(shorter), false),
            None => (Some(v.clone()), true),
        },
        _ => (None, true),
    };
    let ((min, min_exact), (max, max_exact)) = (bytes(&s.min, &cut_min), bytes(&s.max, &cut_max));
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
        PqType::BYTE_ARRAY => PqStatistics::ByteArray(
            ValueStatistics::new(
                min.map(ByteArray::from),
                max.map(ByteArray::from),
                None,
                nulls,
                false,
            )
            .with_min_is_exact(min_exact)
            .with_max_is_exact(max_exact),
        ),
        PqType::FIXED_LEN_BYTE_ARRAY => {
            let flba = |v: Vec<u8>| FixedLenByteArray::from(ByteArray::from(v));
            PqStatistics::FixedLenByteArray(
                ValueStatistics::new(min.map(flba), max.map(flba), None, nulls, false)
                    .with_min_is_exact(min_exact)
                    .with_max_is_exact(max_exact),
            )
        }
    }
}

/// A column chunk's column index (`None`: it has none) as the parquet crate holds it.
pub(crate) fn parquet_column_index(
    physical: PqType,
    index: Option<&ColumnIndex>,
) -> Result<ColumnIndexMetaData, ParquetError> {
    let Some(index) = index else {
        return Ok(ColumnIndexMetaData::NONE);
    };
    let mut builder = ColumnIndexBuilder::new(physical);
    let pages = index.min.iter().zip(&index.max).zip(&index.null_counts);
    for (((min, max), &nulls), &null_page) in pages.zip(&index.null_pages) {
        builder.append(null_page, min.clone(), max.clone(), nulls);
    }
    builder.set_boundary_order(match index.boundary_order {
        1 => BoundaryOrder::ASCENDING,
        2 => BoundaryOrder::DESCENDING,
        _ => BoundaryOrder::UNORDERED,
    });
    builder.build()
}

/// A column chunk's offset index as the parquet crate holds it.
pub(crate) fn parquet_offset_index(pages: &[PageLocation]) -> OffsetIndexMetaData {
    // The builder counts first rows from 0 by each page's rows.
    let mut builder = OffsetIndexBuilder::new();
    for (i, p) in pages.iter().enumerate() {
        builder.append_offset_and_size(p.offset, p.size);
        let next = pages.get(i + 1).map_or(p.first_row, |n| n.first_row);
        builder.append_row_count(next - p.first_row);
    }
    builder.build()
}

/// The parquet crate's error without the prefix its variant adds ("Parquet error: ", ...).
pub(crate) fn reason(e: ParquetError) -> String {
    match e {
        ParquetError::General(message) => message,
        ParquetError::External(e) => e.to_string(),
        e => e.to_string(),
    }
}
