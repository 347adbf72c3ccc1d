//! Row groups and their column chunks' metadata.

use std::sync::Arc;

use parquet::basic::{CompressionCodec, EncodingMask, Type as PqType};
use parquet::file::metadata::{
    ColumnChunkMetaData, ColumnChunkMetaDataBuilder, LevelHistogram, RowGroupMetaData,
    SortingColumn,
};
use parquet::file::statistics::Statistics;
use parquet::geospatial::statistics::GeospatialStatistics;
use parquet::schema::types::{ColumnDescPtr, SchemaDescriptor};

use crate::framing::page_header_in::{DATA_PAGE, DATA_PAGE_V2};
use crate::framing::parquet_types::{codec_of, encoding_named};
use crate::framing::thrift_in::{Cursor, Result, bool_field, read_list, read_struct};

use super::statistics::{geospatial_statistics, statistics};
use super::{enum_value, list_of, missing, parquet_error, physical_type, string, value};

// Row groups and column chunks.

pub(super) fn read_row_groups(
    c: &mut Cursor<'_>,
    schema: &Arc<SchemaDescriptor>,
    mismatches: &mut Vec<(usize, usize, i32)>,
) -> Result<Vec<RowGroupMetaData>> {
    let mut groups = Vec::new();
    // Ordinals are given to every row group or to none; if to none, they are their places.
    let mut first_has_ordinal = None;
    read_list(c, |c| {
        let place = groups.len();
        let Ok(ordinal) = i16::try_from(place) else {
            return value(format!("row group {place}: more than 32,767 row groups"));
        };
        let group = row_group(c, schema, place, mismatches)?;
        let has_ordinal = group.ordinal().is_some();
        let first = *first_has_ordinal.get_or_insert(has_ordinal);
        let group = match (first, has_ordinal) {
            (false, false) => {
                (group.into_builder().set_ordinal(ordinal).build()).map_err(parquet_error)?
            }
            (true, true) => group,
            _ => {
                return value(format!(
                    "row group {place}: ordinals are given to some row groups only"
                ));
            }
        };
        groups.push(group);
        Ok(())
    })?;
    Ok(groups)
}

fn row_group(
    c: &mut Cursor<'_>,
    schema: &Arc<SchemaDescriptor>,
    place: usize,
    mismatches: &mut Vec<(usize, usize, i32)>,
) -> Result<RowGroupMetaData> {
    let mut columns = None;
    let (mut total_byte_size, mut num_rows) = (None, None);
    let (mut sorting_columns, mut file_offset, mut ordinal) = (None, None, None);
    read_struct(c, |c, field, ty| {
        match field {
            1 if columns.is_some() => {
                return value(format!(
                    "row group {place}: its column chunks are given twice"
                ));
            }
            1 => {
                let (_, size) = c.list()?;
                if size as usize != schema.num_columns() {
                    return value(format!(
                        "row group {place} has {size} column chunks, the schema {} columns",
                        schema.num_columns()
                    ));
                }
                // As many as the schema has columns, whose elements the footer's bytes hold.
                let mut chunks = Vec::with_capacity(schema.num_columns());
                for (i, descr) in schema.columns().iter().enumerate() {
                    let (chunk, physical) = column_chunk(c, descr)?;
                    if let Some(own) = physical.filter(|&p| p != descr.physical_type()) {
                        mismatches.push((place, i, own as i32));
                    }
                    chunks.push(chunk);
                }
                columns = Some(chunks);
            }
            2 => total_byte_size = Some(c.int()?),
            3 => num_rows = Some(c.int()?),
            4 => sorting_columns = Some(list_of(c, sorting_column)?),
            5 => file_offset = Some(c.int()?),
            7 => ordinal = Some(c.int()? as i16),
            _ => c.skip(ty)?,
        }
        Ok(())
    })?;
    let mut builder = RowGroupMetaData::builder(Arc::clone(schema))
        .set_column_metadata(missing(columns, "columns")?)
        .set_total_byte_size(missing(total_byte_size, "total_byte_size")?)
        .set_num_rows(missing(num_rows, "num_rows")?)
        .set_sorting_columns(sorting_columns);
    if let Some(offset) = file_offset {
        builder = builder.set_file_offset(offset);
    }
    if let Some(ordinal) = ordinal {
        builder = builder.set_ordinal(ordinal);
    }
    builder.build().map_err(parquet_error)
}

fn sorting_column(c: &mut Cursor<'_>) -> Result<SortingColumn> {
    let (mut column_idx, mut descending, mut nulls_first) = (None, None, None);
    read_struct(c, |c, field, ty| {
        match field {
            1 => column_idx = Some(c.i32()?),
            2 => descending = Some(bool_field(c, ty)?),
            3 => nulls_first = Some(bool_field(c, ty)?),
            _ => c.skip(ty)?,
        }
        Ok(())
    })?;
    Ok(SortingColumn {
        column_idx: missing(column_idx, "column_idx")?,
        descending: missing(descending, "descending")?,
        nulls_first: missing(nulls_first, "nulls_first")?,
    })
}

/// A ColumnChunk and the physical type its own metadata gives (`None` if it gives none).
fn column_chunk(
    c: &mut Cursor<'_>,
    descr: &ColumnDescPtr,
) -> Result<(ColumnChunkMetaData, Option<PqType>)> {
    let mut file_path = None;
    let mut has_file_offset = false;
    // As the parquet crate reads a ColumnMetaData given twice: into the same fields, the
    // required ones checked in the last.
    let mut meta = ColumnMeta::default();
    let mut missing_required = Some("encodings");
    let (mut offset_index, mut offset_index_len) = (None, None);
    let (mut column_index, mut column_index_len) = (None, None);
    read_struct(c, |c, field, ty| {
        match field {
            1 => file_path = Some(string(c)?.to_owned()),
            2 => {
                // Deprecated, and not settable through the builder: read and dropped.
                c.int()?;
                has_file_offset = true;
            }
            3 => missing_required = column_metadata(c, descr.physical_type(), &mut meta)?,
            4 => offset_index = Some(c.int()?),
            5 => offset_index_len = Some(c.i32()?),
            6 => column_index = Some(c.int()?),
            7 => column_index_len = Some(c.i32()?),
            _ => c.skip(ty)?,
        }
        Ok(())
    })?;
    if !has_file_offset {
        return value("required field file_offset of a column chunk is missing");
    }
    if let Some(field) = missing_required {
        return value(format!(
            "required field {field} of a column chunk's metadata is missing"
        ));
    }
    let mut builder = ColumnChunkMetaData::builder(Arc::clone(descr));
    if offset_index.is_some() || offset_index_len.is_some() {
        builder = builder
            .set_offset_index_offset(offset_index)
            .set_offset_index_length(offset_index_len);
    }
    if column_index.is_some() || column_index_len.is_some() {
        builder = builder
            .set_column_index_offset(column_index)
            .set_column_index_length(column_index_len);
    }
    if let Some(path) = file_path {
        builder = builder.set_file_path(path);
    }
    let physical = meta.physical;
    let chunk = meta.apply(builder).build().map_err(parquet_error)?;
    Ok((chunk, physical))
}

/// A ColumnMetaData's fields.
#[derive(Default)]
struct ColumnMeta {
    physical: Option<PqType>,
    encodings: EncodingMask,
    codec: Option<CompressionCodec>,
    num_values: i64,
    total_uncompressed_size: i64,
    total_compressed_size: i64,
    data_page_offset: i64,
    index_page_offset: Option<i64>,
    dictionary_page_offset: Option<i64>,
    statistics: Option<Statistics>,
    data_page_encodings: Option<EncodingMask>,
    bloom_filter_offset: Option<i64>,
    bloom_filter_length: Option<i32>,
    unencoded_byte_array_data_bytes: Option<i64>,
    repetition_level_histogram: Option<Vec<i64>>,
    definition_level_histogram: Option<Vec<i64>>,
    geo_statistics: Option<GeospatialStatistics>,
}

impl ColumnMeta {
    /// Sets what was read on `builder`. Each setter moves the whole metadata, so fields the
    /// chunk does not have are left at the builder's defaults rather than set to `None`.
    fn apply(self, builder: ColumnChunkMetaDataBuilder) -> ColumnChunkMetaDataBuilder {
        let mut builder = builder
            .set_encodings_mask(self.encodings)
            .set_num_values(self.num_values)
            .set_total_uncompressed_size(self.total_uncompressed_size)
            .set_total_compressed_size(self.total_compressed_size)
            .set_data_page_offset(self.data_page_offset);
        if let Some(codec) = self.codec {
            builder = builder.set_compression_codec(codec);
        }
        if self.index_page_offset.is_some() {
            builder = builder.set_index_page_offset(self.index_page_offset);
        }
        if self.dictionary_page_offset.is_some() {
            builder = builder.set_dictionary_page_offset(self.dictionary_page_offset);
        }
        if let Some(statistics) = self.statistics {
            builder = builder.set_statistics(statistics);
        }
        if let Some(mask) = self.data_page_encodings {
            builder = builder.set_page_encoding_stats_mask(mask);
        }
        if self.bloom_filter_offset.is_some() || self.bloom_filter_length.is_some() {
            builder = builder
                .set_bloom_filter_offset(self.bloom_filter_offset)
                .set_bloom_filter_length(self.bloom_filter_length);
        }
        if self.unencoded_byte_array_data_bytes.is_some() {
            builder =
                builder.set_unencoded_byte_array_data_bytes(self.unencoded_byte_array_data_bytes);
        }
        if let Some(levels) = self.repetition_level_histogram {
            builder = builder.set_repetition_level_histogram(Some(LevelHistogram::from(levels)));
        }
        if let Some(levels) = self.definition_level_histogram {
            builder = builder.set_definition_level_histogram(Some(LevelHistogram::from(levels)));
        }
        if let Some(geo) = self.geo_statistics {
            builder = builder.set_geo_statistics(Box::new(geo));
        }
        builder
    }
}

/// Reads a ColumnMetaData into `meta`; returns the first required field it lacks (the type is
/// not required of it: the schema gives it).
fn column_metadata(
    c: &mut Cursor<'_>,
    physical: PqType,
    meta: &mut ColumnMeta,
) -> Result<Option<&'static str>> {
    const REQUIRED: [(i16, &str); 6] = [
        (2, "encodings"),
        (4, "codec"),
        (5, "num_values"),
        (6, "total_uncompressed_size"),
        (7, "total_compressed_size"),
        (9, "data_page_offset"),
    ];
    let mut seen = [false; 6];
    read_struct(c, |c, field, ty| {
        match field {
            1 => meta.physical = Some(physical_type(c)?),
            2 => meta.encodings = encoding_list(c)?,
            4 => meta.codec = Some(enum_value(c, "compression codec", codec_of)?),
            5 => meta.num_values = c.int()?,
            6 => meta.total_uncompressed_size = c.int()?,
            7 => meta.total_compressed_size = c.int()?,
            9 => meta.data_page_offset = c.int()?,
            10 => meta.index_page_offset = Some(c.int()?),
            11 => meta.dictionary_page_offset = Some(c.int()?),
            12 => meta.statistics = Some(statistics(c, physical)?),
            13 => meta.data_page_encodings = Some(data_page_encodings(c)?),
            14 => meta.bloom_filter_offset = Some(c.int()?),
            15 => meta.bloom_filter_length = Some(c.i32()?),
            16 => {
                let (mut bytes, mut repetition, mut definition) = (None, None, None);
                read_struct(c, |c, field, ty| {
                    match field {
                        1 => bytes = Some(c.int()?),
                        2 => repetition = Some(list_of(c, |c| c.int())?),
                        3 => definition = Some(list_of(c, |c| c.int())?),
                        _ => c.skip(ty)?,
                    }
                    Ok(())
                })?;
                meta.unencoded_byte_array_data_bytes = bytes;
                meta.repetition_level_histogram = repetition;
                meta.definition_level_histogram = definition;
            }
            17 => meta.geo_statistics = Some(geospatial_statistics(c)?),
            _ => c.skip(ty)?,
        }
        if let Some(i) = REQUIRED.iter().position(|&(id, _)| id == field) {
            seen[i] = true;
        }
        Ok(())
    })?;
    Ok(REQUIRED
        .iter()
        .zip(seen)
        .find_map(|(&(_, name), seen)| (!seen).then_some(name)))
}

/// A list of encodings, as the set the parquet crate names.
fn encoding_list(c: &mut Cursor<'_>) -> Result<EncodingMask> {
    let mut mask = 0;
    read_list(c, |c| {
        let id = c.i32()?;
        if encoding_named(id) {
            mask |= 1 << id;
        }
        Ok(())
    })?;
    EncodingMask::try_new(mask).map_err(parquet_error)
}

/// A list of PageEncodingStats, as the set of the data pages' encodings the parquet crate
/// names.
fn data_page_encodings(c: &mut Cursor<'_>) -> Result<EncodingMask> {
    let mut mask = 0;
    read_list(c, |c| {
        let (mut page_type, mut encoding, mut count) = (None, None, None);
        read_struct(c, |c, field, ty| {
            match field {
                1 => page_type = Some(c.i32()?),
                2 => encoding = Some(c.i32()?),
                3 => count = Some(c.i32()?),
                _ => c.skip(ty)?,
            }
            Ok(())
        })?;
        let page_type = missing(page_type, "page_type")?;
        let encoding = missing(encoding, "encoding")?;
        missing(count, "count")?;
        if !(DATA_PAGE..=DATA_PAGE_V2).contains(&page_type) {
            return value(format!("unknown page type {page_type}"));
        }
        if matches!(page_type, DATA_PAGE | DATA_PAGE_V2) && encoding_named(encoding) {
            mask |= 1 << encoding;
        }
        Ok(())
    })?;
    EncodingMask::try_new(mask).map_err(parquet_error)
}
