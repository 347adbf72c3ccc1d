//! The footer, read: Thrift's `FileMetaData` decoded by pqcodec into the parquet crate's
//! [`ParquetMetaData`] (through its public builders), as the parquet crate (59) decodes it with
//! its default options, but for:
//! - encodings the parquet crate cannot name (ALP, GROUP_VAR_INT, ids still to come): left out
//!   of a column chunk's `encodings` and of its page encoding stats (kept, as the parquet crate
//!   keeps them by default, as the set of the data pages' encodings). The pages say what they
//!   are, and pqcodec reads them from the pages;
//! - a column chunk's `file_offset` (deprecated by the format): not kept, the builders cannot set
//!   it (it reads 0);
//! - each column chunk's own physical type: returned beside the metadata where it is not its
//!   schema column's (the parquet crate keeps only the schema's);
//! - the schema: checked before it is built, refused if it nests deeper than
//!   [`MAX_SCHEMA_DEPTH`](super::MAX_SCHEMA_DEPTH) (the parquet crate builds it recursively);
//! - encrypted column metadata: not read (pqcodec reads no encrypted file).
//!
//! Everything is read without recursion (unknown fields are skipped with an explicit stack) but
//! the schema's build, which the depth check bounds. Nothing is allocated before the bytes that
//! hold it are read: lists grow as their elements are read.

use std::sync::Arc;

use parquet::basic::{
    ColumnOrder, CompressionCodec, ConvertedType, EncodingMask, IntType, LogicalType, Repetition,
    SortOrder, TimeUnit, Type as PqType,
};
use parquet::data_type::{ByteArray, FixedLenByteArray, Int96};
use parquet::errors::ParquetError;
use parquet::file::metadata::{
    ColumnChunkMetaData, ColumnChunkMetaDataBuilder, FileMetaData, KeyValue, LevelHistogram,
    ParquetMetaData, RowGroupMetaData, SortingColumn,
};
use parquet::file::statistics::{Statistics, ValueStatistics};
use parquet::geospatial::bounding_box::BoundingBox;
use parquet::geospatial::statistics::GeospatialStatistics;
use parquet::schema::types::{ColumnDescPtr, SchemaDescriptor, Type, TypePtr};

use super::page_header_in::{DATA_PAGE, DATA_PAGE_V2};
use super::parquet_types::{
    codec_of, converted_type_of, edge_interpolation_of, encoding_named, physical_type_of, reason,
    repetition_of,
};
use super::thrift_in::{
    Cursor, Result, ThriftError, bool_field, read_list, read_struct, read_union,
};
use super::{FramingError, MAX_SCHEMA_DEPTH};

/// A footer decoded.
#[derive(Debug)]
pub(crate) struct Footer {
    /// The metadata, without page index.
    pub metadata: ParquetMetaData,
    /// The column chunks whose own metadata gives another physical type than their schema
    /// column's: (row group, column, type id).
    pub chunk_type_mismatches: Vec<(usize, usize, i32)>,
}

/// Decodes the footer's Thrift bytes (the `FileMetaData` struct).
pub(crate) fn decode_footer(buf: &[u8]) -> std::result::Result<Footer, FramingError> {
    let mut c = Cursor::new(buf);
    file_metadata(&mut c).map_err(|e| match e {
        ThriftError::Value(why) => FramingError::Footer(why),
        e => FramingError::Footer(format!("malformed Thrift: {e}")),
    })
}

fn value<T>(why: impl Into<String>) -> Result<T> {
    Err(ThriftError::Value(why.into()))
}

fn parquet_error(e: ParquetError) -> ThriftError {
    ThriftError::Value(reason(e))
}

fn missing<T>(field: Option<T>, name: &str) -> Result<T> {
    field.ok_or_else(|| ThriftError::Value(format!("required field {name} is missing")))
}

/// An enum value read as an i32, mapped by `known`.
fn enum_value<T>(c: &mut Cursor<'_>, name: &str, known: impl Fn(i32) -> Option<T>) -> Result<T> {
    let v = c.i32()?;
    known(v).map_or_else(|| value(format!("unknown {name} {v}")), Ok)
}

fn physical_type(c: &mut Cursor<'_>) -> Result<PqType> {
    enum_value(c, "physical type", physical_type_of)
}

fn string<'a>(c: &mut Cursor<'a>) -> Result<&'a str> {
    let at = c.position();
    std::str::from_utf8(c.binary()?)
        .map_or_else(|_| value(format!("byte {at}: a string is not UTF-8")), Ok)
}

fn double(c: &mut Cursor<'_>) -> Result<f64> {
    let bytes = c.take(8)?;
    Ok(f64::from_le_bytes(bytes.try_into().expect("8 bytes")))
}

/// A list's elements, each read by `element`.
fn list_of<'a, T>(
    c: &mut Cursor<'a>,
    mut element: impl FnMut(&mut Cursor<'a>) -> Result<T>,
) -> Result<Vec<T>> {
    let mut out = Vec::new();
    read_list(c, |c| {
        out.push(element(c)?);
        Ok(())
    })?;
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// FileMetaData.

fn file_metadata(c: &mut Cursor<'_>) -> Result<Footer> {
    let mut version = None;
    let mut schema: Option<Arc<SchemaDescriptor>> = None;
    let mut num_rows = None;
    let mut row_groups = None;
    let mut key_value_metadata = None;
    let mut created_by = None;
    let mut column_orders = None;
    let mut mismatches = Vec::new();
    read_struct(c, |c, field, ty| {
        match field {
            1 => version = Some(c.i32()?),
            // The first schema is the one (as the parquet crate reads it).
            2 if schema.is_none() => schema = Some(Arc::new(read_schema(c)?)),
            3 => num_rows = Some(c.int()?),
            4 => {
                let Some(schema) = &schema else {
                    return value("required field schema is missing: the row groups come first");
                };
                mismatches.clear();
                row_groups = Some(read_row_groups(c, schema, &mut mismatches)?);
            }
            5 => key_value_metadata = Some(list_of(c, key_value)?),
            6 => created_by = Some(string(c)?.to_owned()),
            7 => column_orders = Some(list_of(c, column_order)?),
            _ => c.skip(ty)?,
        }
        Ok(())
    })?;
    let version = missing(version, "version")?;
    let num_rows = missing(num_rows, "num_rows")?;
    let row_groups = missing(row_groups, "row_groups")?;
    // Row groups come after the schema, so there is one.
    let schema = missing(schema, "schema")?;
    let column_orders = match column_orders {
        Some(orders) if orders.len() != schema.num_columns() => {
            return value(format!(
                "{} column orders for {} columns",
                orders.len(),
                schema.num_columns()
            ));
        }
        Some(orders) => Some(sort_orders(orders, &schema)),
        None => None,
    };
    let file = FileMetaData::new(
        version,
        num_rows,
        created_by,
        key_value_metadata,
        schema,
        column_orders,
    );
    Ok(Footer {
        metadata: ParquetMetaData::new(file, row_groups),
        chunk_type_mismatches: mismatches,
    })
}

fn key_value(c: &mut Cursor<'_>) -> Result<KeyValue> {
    let (mut key, mut val) = (None, None);
    read_struct(c, |c, field, ty| {
        match field {
            1 => key = Some(string(c)?.to_owned()),
            2 => val = Some(string(c)?.to_owned()),
            _ => c.skip(ty)?,
        }
        Ok(())
    })?;
    Ok(KeyValue::new(missing(key, "key")?, val))
}

/// A ColumnOrder union: the type-defined order (its sort order set from the schema after), or
/// one this reader does not know.
fn column_order(c: &mut Cursor<'_>) -> Result<ColumnOrder> {
    let mut order = ColumnOrder::UNKNOWN;
    read_union(c, |c, variant, ty| match variant {
        1 => {
            order = ColumnOrder::TYPE_DEFINED_ORDER(SortOrder::SIGNED);
            c.empty_struct()
        }
        _ => c.skip(ty),
    })?;
    Ok(order)
}

/// Type-defined orders given each column's sort order.
fn sort_orders(mut orders: Vec<ColumnOrder>, schema: &SchemaDescriptor) -> Vec<ColumnOrder> {
    for (order, column) in orders.iter_mut().zip(schema.columns()) {
        if let ColumnOrder::TYPE_DEFINED_ORDER(_) = order {
            *order = ColumnOrder::TYPE_DEFINED_ORDER(ColumnOrder::sort_order_for_type(
                column.logical_type_ref(),
                column.converted_type(),
                column.physical_type(),
            ));
        }
    }
    orders
}

// ---------------------------------------------------------------------------------------------
// The schema.

/// One element of the schema's flat list.
#[derive(Debug, Clone, Default)]
pub(crate) struct SchemaElement<'a> {
    /// Field 1.
    pub physical: Option<PqType>,
    /// Field 2.
    pub type_length: Option<i32>,
    /// Field 3.
    pub repetition: Option<Repetition>,
    /// Field 4: its name's bytes (checked to be UTF-8 when built).
    pub name: &'a [u8],
    /// Field 5.
    pub num_children: Option<i32>,
    /// Field 6.
    pub converted: Option<ConvertedType>,
    /// Field 7.
    pub scale: Option<i32>,
    /// Field 8.
    pub precision: Option<i32>,
    /// Field 9.
    pub field_id: Option<i32>,
    /// Field 10.
    pub logical: Option<LogicalType>,
}

/// Checks the schema's tree (flattened depth-first: each group followed by its
/// `num_children` children) without recursion, before the parquet crate's types are built from
/// it: fields nest at most [`MAX_SCHEMA_DEPTH`] levels below the root, every group's children
/// are there, and the leaves' paths are not out of proportion to the `footer_len` bytes they
/// come from (the parquet crate gives each leaf a copy of its ancestors' names: a long name
/// above many leaves would take terabytes).
pub(crate) fn check_schema_tree(
    schema: &[SchemaElement<'_>],
    footer_len: usize,
) -> std::result::Result<(), FramingError> {
    let name = |i: usize| String::from_utf8_lossy(schema[i].name).into_owned();
    // What one part of a leaf's path takes: a `String` and its bytes.
    let part = |i: usize| 24 + schema[i].name.len() as u64;
    let most_path_bytes = PATH_BYTES_PER_FOOTER_BYTE * footer_len as u64 + PATH_BYTES_FREE;
    let mut path_bytes = 0u64;
    // The groups whose children are being read: (element, num_children, children still to
    // come, the bytes of the path to the group's children).
    let mut open: Vec<(usize, i32, i32, u64)> = Vec::new();
    for (i, element) in schema.iter().enumerate() {
        let parent = open.last().map_or(0, |&(.., path)| path);
        if let Some((_, _, left, _)) = open.last_mut() {
            *left -= 1;
        }
        match element.num_children {
            Some(n) if n < 0 => {
                return Err(FramingError::Footer(format!(
                    "schema: element {i} ({:?}) has num_children {n}",
                    name(i)
                )));
            }
            Some(n) if n > 0 => {
                // The root's name is in no path.
                let path = if open.is_empty() { 0 } else { parent + part(i) };
                open.push((i, n, n, path));
                if open.len() > MAX_SCHEMA_DEPTH {
                    return Err(FramingError::Footer(format!(
                        "the schema nests too deep: the children of group {:?} (element {i}) \
                         would be {} levels below the root, more than the {MAX_SCHEMA_DEPTH} \
                         pqcodec reads",
                        name(i),
                        open.len()
                    )));
                }
            }
            _ => {
                path_bytes += 24 + parent + part(i);
                if path_bytes > most_path_bytes {
                    return Err(FramingError::Footer(format!(
                        "schema: the leaves' paths (ancestors' names repeated for each leaf) \
                         reach {path_bytes} bytes at element {i} ({:?}), out of proportion to \
                         a footer of {footer_len} bytes",
                        name(i)
                    )));
                }
            }
        }
        while open.last().is_some_and(|&(_, _, left, _)| left == 0) {
            open.pop();
        }
    }
    match open.last() {
        Some(&(g, n, left, _)) => Err(FramingError::Footer(format!(
            "schema: group {:?} (element {g}) has num_children {n}, but the schema ends {left} \
             short of them",
            name(g)
        ))),
        None => Ok(()),
    }
}

/// The most bytes the leaves' paths may take, per byte of the footer, beyond
/// [`PATH_BYTES_FREE`]: leaves of one-letter names 12 levels deep take about 40 per byte of
/// their own schema elements (and each row group adds bytes to the footer, none to the paths).
const PATH_BYTES_PER_FOOTER_BYTE: u64 = 64;

/// The bytes the leaves' paths may take whatever the footer's length.
const PATH_BYTES_FREE: u64 = 64 << 20;

fn read_schema(c: &mut Cursor<'_>) -> Result<SchemaDescriptor> {
    let elements = list_of(c, schema_element)?;
    check_schema_tree(&elements, c.len()).map_err(|e| match e {
        FramingError::Footer(why) => ThriftError::Value(why),
        e => ThriftError::Value(e.to_string()),
    })?;
    let mut elements = elements.into_iter();
    let Some(root) = elements.next() else {
        return value("the schema has no root");
    };
    let root = build_root(root, &mut elements)?;
    if elements.next().is_some() {
        return value("the schema has more than one root");
    }
    Ok(SchemaDescriptor::new(root))
}

fn schema_element<'a>(c: &mut Cursor<'a>) -> Result<SchemaElement<'a>> {
    let mut e = SchemaElement::default();
    let mut named = false;
    read_struct(c, |c, field, ty| {
        match field {
            1 => e.physical = Some(physical_type(c)?),
            2 => e.type_length = Some(c.i32()?),
            3 => e.repetition = Some(enum_value(c, "repetition", repetition_of)?),
            4 => {
                e.name = c.binary()?;
                named = true;
            }
            5 => e.num_children = Some(c.i32()?),
            6 => e.converted = Some(converted_type(c)?),
            7 => e.scale = Some(c.i32()?),
            8 => e.precision = Some(c.i32()?),
            9 => e.field_id = Some(c.i32()?),
            10 => e.logical = Some(logical_type(c)?),
            _ => c.skip(ty)?,
        }
        Ok(())
    })?;
    if !named {
        return value("required field name of a schema element is missing");
    }
    Ok(e)
}

fn converted_type(c: &mut Cursor<'_>) -> Result<ConvertedType> {
    enum_value(c, "converted type", converted_type_of)
}

/// A LogicalType union.
fn logical_type(c: &mut Cursor<'_>) -> Result<LogicalType> {
    let mut logical = None;
    read_union(c, |c, variant, ty| {
        logical = Some(match variant {
            1 => unit(c, LogicalType::String)?,
            2 => unit(c, LogicalType::Map)?,
            3 => unit(c, LogicalType::List)?,
            4 => unit(c, LogicalType::Enum)?,
            5 => {
                let (mut scale, mut precision) = (None, None);
                read_struct(c, |c, field, ty| {
                    match field {
                        1 => scale = Some(c.i32()?),
                        2 => precision = Some(c.i32()?),
                        _ => c.skip(ty)?,
                    }
                    Ok(())
                })?;
                LogicalType::decimal(missing(scale, "scale")?, missing(precision, "precision")?)
            }
            6 => unit(c, LogicalType::Date)?,
            7 | 8 => {
                let (utc, unit) = time_type(c)?;
                match variant {
                    7 => LogicalType::time(utc, unit),
                    _ => LogicalType::timestamp(utc, unit),
                }
            }
            10 => {
                let (mut width, mut signed) = (None, None);
                read_struct(c, |c, field, ty| {
                    match field {
                        1 => width = Some(c.byte()? as i8),
                        2 => signed = Some(bool_field(c, ty)?),
                        _ => c.skip(ty)?,
                    }
                    Ok(())
                })?;
                LogicalType::integer(missing(width, "bit_width")?, missing(signed, "is_signed")?)
            }
            11 => unit(c, LogicalType::Unknown)?,
            12 => unit(c, LogicalType::Json)?,
            13 => unit(c, LogicalType::Bson)?,
            14 => unit(c, LogicalType::Uuid)?,
            15 => unit(c, LogicalType::Float16)?,
            16 => {
                let mut version = None;
                read_struct(c, |c, field, ty| {
                    match field {
                        1 => version = Some(c.byte()? as i8),
                        _ => c.skip(ty)?,
                    }
                    Ok(())
                })?;
                LogicalType::variant(version)
            }
            17 | 18 => {
                let (mut crs, mut algorithm) = (None, None);
                read_struct(c, |c, field, ty| {
                    match (variant, field) {
                        (_, 1) => crs = Some(string(c)?.to_owned()),
                        (18, 2) => algorithm = Some(edge_interpolation_of(c.i32()?)),
                        _ => c.skip(ty)?,
                    }
                    Ok(())
                })?;
                match variant {
                    17 => LogicalType::geometry(crs),
                    _ => LogicalType::geography(crs, algorithm),
                }
            }
            field_id => {
                c.skip(ty)?;
                LogicalType::_Unknown { field_id }
            }
        });
        Ok(())
    })?;
    Ok(logical.expect("a union has one variant"))
}

/// A variant without fields: its empty struct.
fn unit(c: &mut Cursor<'_>, logical: LogicalType) -> Result<LogicalType> {
    c.empty_struct()?;
    Ok(logical)
}

/// Time's and Timestamp's fields: isAdjustedToUTC and the unit.
fn time_type(c: &mut Cursor<'_>) -> Result<(bool, TimeUnit)> {
    let (mut utc, mut unit) = (None, None);
    read_struct(c, |c, field, ty| {
        match field {
            1 => utc = Some(bool_field(c, ty)?),
            2 => {
                let mut read = None;
                read_union(c, |c, variant, _| {
                    read = Some(match variant {
                        1 => TimeUnit::MILLIS,
                        2 => TimeUnit::MICROS,
                        3 => TimeUnit::NANOS,
                        _ => return value(format!("unknown time unit {variant}")),
                    });
                    c.empty_struct()
                })?;
                unit = read;
            }
            _ => c.skip(ty)?,
        }
        Ok(())
    })?;
    Ok((
        missing(utc, "is_adjusted_to_u_t_c")?,
        missing(unit, "unit")?,
    ))
}

/// The root and, below it, the elements that follow in `rest` (depth-first), as the parquet
/// crate builds them: a root without children is an empty group, a repetition is required of
/// every element but the root, a group's converted and logical types are kept.
fn build_root<'a>(
    root: SchemaElement<'a>,
    rest: &mut impl Iterator<Item = SchemaElement<'a>>,
) -> Result<TypePtr> {
    if root.num_children.is_none_or(|n| n == 0) {
        let root = Type::group_type_builder(name(&root)?).build();
        return Ok(Arc::new(root.map_err(parquet_error)?));
    }
    let root = build(root, rest, true)?;
    if !root.is_group() {
        return value("the schema's root is not a group");
    }
    Ok(root)
}

/// An element and its children, taken from `rest`. [`check_schema_tree`] bounds the depth.
fn build<'a>(
    e: SchemaElement<'a>,
    rest: &mut impl Iterator<Item = SchemaElement<'a>>,
    is_root: bool,
) -> Result<TypePtr> {
    let name = name(&e)?;
    // Checked before any builder sees it, as the parquet crate checks it (its conversion to a
    // converted type panics on other widths).
    if let Some(LogicalType::Integer(IntType { bit_width, .. })) = &e.logical
        && !matches!(bit_width, 8 | 16 | 32 | 64)
    {
        return value(format!(
            "schema element {name:?}: an Integer logical type of {bit_width} bits (8, 16, 32 or 64)"
        ));
    }
    let converted = e.converted.unwrap_or(ConvertedType::NONE);
    let built = match e.num_children {
        None | Some(0) => {
            let Some(repetition) = e.repetition else {
                return value(format!(
                    "schema element {name:?} (a leaf) has no repetition"
                ));
            };
            match e.physical {
                Some(physical) => Type::primitive_type_builder(name, physical)
                    .with_repetition(repetition)
                    .with_converted_type(converted)
                    .with_logical_type(e.logical)
                    .with_length(e.type_length.unwrap_or(-1))
                    .with_precision(e.precision.unwrap_or(-1))
                    .with_scale(e.scale.unwrap_or(-1))
                    .with_id(e.field_id)
                    .build(),
                None => {
                    let group = Type::group_type_builder(name)
                        .with_converted_type(converted)
                        .with_logical_type(e.logical)
                        .with_id(e.field_id);
                    if is_root {
                        group.build()
                    } else {
                        group.with_repetition(repetition).build()
                    }
                }
            }
        }
        Some(n) => {
            let mut fields = Vec::new();
            for _ in 0..n {
                let Some(child) = rest.next() else {
                    return value(format!("schema group {name:?} is short of its children"));
                };
                fields.push(build(child, rest, false)?);
            }
            let group = Type::group_type_builder(name)
                .with_converted_type(converted)
                .with_logical_type(e.logical)
                .with_fields(fields)
                .with_id(e.field_id);
            match (is_root, e.repetition) {
                (true, _) => group.build(),
                (false, Some(repetition)) => group.with_repetition(repetition).build(),
                (false, None) => {
                    return value(format!("schema group {name:?} has no repetition"));
                }
            }
        }
    };
    Ok(Arc::new(built.map_err(parquet_error)?))
}

fn name<'a>(e: &SchemaElement<'a>) -> Result<&'a str> {
    std::str::from_utf8(e.name).or_else(|_| {
        value(format!(
            "a schema element's name is not UTF-8: {:?}",
            String::from_utf8_lossy(e.name)
        ))
    })
}

// ---------------------------------------------------------------------------------------------
// Row groups and column chunks.

fn read_row_groups(
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

/// Statistics, typed by the column's physical type: `min_value` and `max_value`, or if neither
/// is set the deprecated `min` and `max`.
fn statistics(c: &mut Cursor<'_>, physical: PqType) -> Result<Statistics> {
    let (mut max, mut min, mut max_value, mut min_value) = (None, None, None, None);
    let (mut null_count, mut distinct_count) = (None, None);
    let (mut max_exact, mut min_exact) = (None, None);
    read_struct(c, |c, field, ty| {
        match field {
            1 => max = Some(c.binary()?),
            2 => min = Some(c.binary()?),
            3 => null_count = Some(c.int()?),
            4 => distinct_count = Some(c.int()?),
            5 => max_value = Some(c.binary()?),
            6 => min_value = Some(c.binary()?),
            7 => max_exact = Some(bool_field(c, ty)?),
            8 => min_exact = Some(bool_field(c, ty)?),
            _ => c.skip(ty)?,
        }
        Ok(())
    })?;
    let null_count = match null_count {
        Some(n) if n < 0 => return value(format!("statistics: null count {n}")),
        n => n.map(|n| n as u64),
    };
    let distinct_count = distinct_count.map(|n| n as u64);
    let deprecated = min_value.is_none() && max_value.is_none();
    let (min, max) = if deprecated {
        (min, max)
    } else {
        (min_value, max_value)
    };
    let width = match physical {
        PqType::BOOLEAN => 1,
        PqType::INT32 | PqType::FLOAT => 4,
        PqType::INT64 | PqType::DOUBLE => 8,
        PqType::INT96 => 12,
        _ => 0,
    };
    if min.is_some_and(|v| v.len() < width) || max.is_some_and(|v| v.len() < width) {
        return value(format!(
            "statistics: a {physical} min or max of fewer than {width} bytes"
        ));
    }
    fn le<const N: usize>(v: &[u8]) -> [u8; N] {
        v[..N].try_into().expect("length checked")
    }
    let stats = match physical {
        PqType::BOOLEAN => Statistics::boolean(
            min.map(|v| v[0] != 0),
            max.map(|v| v[0] != 0),
            distinct_count,
            null_count,
            deprecated,
        ),
        PqType::INT32 => Statistics::int32(
            min.map(|v| i32::from_le_bytes(le(v))),
            max.map(|v| i32::from_le_bytes(le(v))),
            distinct_count,
            null_count,
            deprecated,
        ),
        PqType::INT64 => Statistics::int64(
            min.map(|v| i64::from_le_bytes(le(v))),
            max.map(|v| i64::from_le_bytes(le(v))),
            distinct_count,
            null_count,
            deprecated,
        ),
        PqType::INT96 => {
            if min.is_some_and(|v| v.len() != 12) || max.is_some_and(|v| v.len() != 12) {
                return value("statistics: an INT96 min or max of more than 12 bytes");
            }
            let int96 = |v: &[u8]| {
                let word = |i: usize| u32::from_le_bytes(le(&v[i * 4..]));
                let mut value = Int96::new();
                value.set_data(word(0), word(1), word(2));
                value
            };
            Statistics::int96(
                min.map(int96),
                max.map(int96),
                distinct_count,
                null_count,
                deprecated,
            )
        }
        PqType::FLOAT => Statistics::float(
            min.map(|v| f32::from_le_bytes(le(v))),
            max.map(|v| f32::from_le_bytes(le(v))),
            distinct_count,
            null_count,
            deprecated,
        ),
        PqType::DOUBLE => Statistics::double(
            min.map(|v| f64::from_le_bytes(le(v))),
            max.map(|v| f64::from_le_bytes(le(v))),
            distinct_count,
            null_count,
            deprecated,
        ),
        PqType::BYTE_ARRAY => Statistics::ByteArray(
            ValueStatistics::new(
                min.map(|v| ByteArray::from(v.to_vec())),
                max.map(|v| ByteArray::from(v.to_vec())),
                distinct_count,
                null_count,
                deprecated,
            )
            .with_max_is_exact(max_exact.unwrap_or(false))
            .with_min_is_exact(min_exact.unwrap_or(false)),
        ),
        PqType::FIXED_LEN_BYTE_ARRAY => Statistics::FixedLenByteArray(
            ValueStatistics::new(
                min.map(|v| FixedLenByteArray::from(v.to_vec())),
                max.map(|v| FixedLenByteArray::from(v.to_vec())),
                distinct_count,
                null_count,
                deprecated,
            )
            .with_max_is_exact(max_exact.unwrap_or(false))
            .with_min_is_exact(min_exact.unwrap_or(false)),
        ),
    };
    Ok(stats)
}

fn geospatial_statistics(c: &mut Cursor<'_>) -> Result<GeospatialStatistics> {
    let (mut bbox, mut types) = (None, None);
    read_struct(c, |c, field, ty| {
        match field {
            1 => bbox = Some(bounding_box(c)?),
            2 => types = Some(list_of(c, |c| c.i32())?),
            _ => c.skip(ty)?,
        }
        Ok(())
    })?;
    Ok(GeospatialStatistics::new(
        bbox,
        types.filter(|t| !t.is_empty()),
    ))
}

/// A BoundingBox: x and y required, z and m kept when both ends are there.
fn bounding_box(c: &mut Cursor<'_>) -> Result<BoundingBox> {
    let mut v: [Option<f64>; 8] = [None; 8];
    read_struct(c, |c, field, ty| {
        match field {
            1..=8 => v[field as usize - 1] = Some(double(c)?),
            _ => c.skip(ty)?,
        }
        Ok(())
    })?;
    let [xmin, xmax, ymin, ymax, zmin, zmax, mmin, mmax] = v;
    let mut bbox = BoundingBox::new(
        missing(xmin, "xmin")?,
        missing(xmax, "xmax")?,
        missing(ymin, "ymin")?,
        missing(ymax, "ymax")?,
    );
    if let (Some(lo), Some(hi)) = (zmin, zmax) {
        bbox = bbox.with_zrange(lo, hi);
    }
    if let (Some(lo), Some(hi)) = (mmin, mmax) {
        bbox = bbox.with_mrange(lo, hi);
    }
    Ok(bbox)
}

#[cfg(test)]
pub(crate) mod tests {
    use parquet::file::metadata::ParquetMetaDataReader;

    use super::*;
    use crate::framing::thrift_out::{self, ThriftOut};

    /// A footer whose schema is a root and `groups` nested groups of one child, the last a leaf.
    pub(crate) fn nested_footer(groups: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let mut w = ThriftOut::new(&mut out);
        w.i32(1, 1).list(2, thrift_out::STRUCT, groups + 2);
        for i in 0..=groups {
            w.element()
                .binary(4, format!("g{i}").as_bytes())
                .i32(5, 1)
                .end();
        }
        w.element().i32(1, 1).i32(3, 0).binary(4, b"a").end();
        w.end();
        out
    }

    /// The footer's Thrift bytes of a file.
    fn footer_of(file: &[u8]) -> &[u8] {
        let n = file.len();
        let len = u32::from_le_bytes(file[n - 8..n - 4].try_into().unwrap()) as usize;
        &file[n - 8 - len..n - 8]
    }

    /// The metadata's debug form, column chunks' `file_offset` (which pqcodec does not keep)
    /// left out.
    fn shown(metadata: &ParquetMetaData) -> String {
        let text = format!("{metadata:#?}");
        text.lines()
            .filter(|line| {
                let line = line.trim();
                !(line.starts_with("file_offset: ")
                    && !line.contains("Some")
                    && line != "file_offset: None,")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn error(buf: &[u8]) -> String {
        decode_footer(buf).unwrap_err().to_string()
    }

    #[test]
    fn footers_of_real_files_decode_as_the_parquet_crate_decodes_them() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data");
        let mut compared = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "parquet") {
                continue;
            }
            let file = std::fs::read(&path).unwrap();
            let footer = footer_of(&file);
            let ours = decode_footer(footer).unwrap();
            assert!(ours.chunk_type_mismatches.is_empty(), "{path:?}");
            let theirs = ParquetMetaDataReader::decode_metadata(footer).unwrap();
            assert_eq!(shown(&ours.metadata), shown(&theirs), "{path:?}");
            compared += 1;
        }
        assert!(compared >= 50, "{compared}");
    }

    /// Why pqcodec refuses some footers the parquet crate reads: deliberately.
    const REFUSED_ON_PURPOSE: [&str; 3] = [
        // Built recursively by the parquet crate: a stack overflow a little deeper.
        "the schema nests too deep",
        // Skipped by the parquet crate one loop iteration each, for lack of bytes.
        "skipped containers claim more bools than the bytes hold",
        // The parquet crate appends the second list to the first, more chunks than columns.
        "column chunks are given twice",
    ];

    #[test]
    fn mutated_footers_decode_as_the_parquet_crate_decodes_them_or_are_refused_on_purpose() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data");
        let mut rng = pqcodec_testkit::Rng::new(0x600d_f007);
        let (mut equal, mut refused) = (0, 0);
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
            .collect();
        paths.sort();
        for path in paths {
            let file = std::fs::read(&path).unwrap();
            let footer = footer_of(&file);
            for _ in 0..120 {
                let mut bytes = footer.to_vec();
                for _ in 0..1 + rng.below(3) {
                    let at = rng.below(bytes.len());
                    match rng.below(4) {
                        0 => bytes[at] ^= 1 << rng.below(8),
                        1 => bytes[at] = rng.below(256) as u8,
                        2 => {
                            let end = (at + 1 + rng.below(16)).min(bytes.len());
                            bytes.drain(at..end);
                        }
                        _ => {
                            let end = (at + 1 + rng.below(16)).min(bytes.len());
                            let copy = bytes[at..end].to_vec();
                            bytes.splice(at..at, copy);
                        }
                    }
                    if bytes.is_empty() {
                        bytes.push(0);
                    }
                }
                // Ours never panics (no catch here); the parquet crate's may.
                let ours = decode_footer(&bytes);
                if let Err(e) = &ours
                    && REFUSED_ON_PURPOSE
                        .iter()
                        .any(|why| e.to_string().contains(why))
                {
                    refused += 1;
                    continue;
                }
                let theirs =
                    std::panic::catch_unwind(|| ParquetMetaDataReader::decode_metadata(&bytes));
                let Ok(Ok(theirs)) = theirs else {
                    continue;
                };
                match ours {
                    Ok(ours) => {
                        assert_eq!(shown(&ours.metadata), shown(&theirs), "{path:?} {bytes:?}");
                        equal += 1;
                    }
                    Err(e) => panic!("{path:?}: {e}, but the parquet crate reads {bytes:?}"),
                }
            }
        }
        assert!(
            equal > 600 && refused > 0,
            "{equal} equal, {refused} refused"
        );
    }

    #[test]
    fn encodings_the_parquet_crate_cannot_name_are_left_out() {
        // A chunk listing PLAIN, ALP (10), GROUP_VAR_INT (1), RLE and id 40, its data pages
        // ALP and RLE_DICTIONARY.
        let mut out = Vec::new();
        let mut w = ThriftOut::new(&mut out);
        w.i32(1, 2).list(2, thrift_out::STRUCT, 2);
        w.element().binary(4, b"schema").i32(5, 1).end();
        w.element().i32(1, 5).i32(3, 0).binary(4, b"x").end();
        w.i64(3, 3).list(4, thrift_out::STRUCT, 1).element();
        w.list(1, thrift_out::STRUCT, 1)
            .element()
            .i64(2, 4)
            .begin(3);
        w.i32(1, 5).list(2, thrift_out::I32, 5);
        for id in [0, 10, 1, 3, 40] {
            w.elem_i32(id);
        }
        w.list(3, thrift_out::BINARY, 1).elem_binary(b"x");
        w.i32(4, 0).i64(5, 3).i64(6, 30).i64(7, 30).i64(9, 4);
        w.list(13, thrift_out::STRUCT, 2);
        w.element().i32(1, 0).i32(2, 10).i32(3, 1).end();
        w.element().i32(1, 0).i32(2, 8).i32(3, 1).end();
        w.end().end();
        w.i64(2, 30).i64(3, 3).end();
        w.end();
        let footer = decode_footer(&out).unwrap();
        let chunk = footer.metadata.row_group(0).column(0);
        let names = |e: &mut dyn Iterator<Item = parquet::basic::Encoding>| {
            e.map(|e| e.to_string()).collect::<Vec<_>>().join(",")
        };
        assert_eq!(names(&mut chunk.encodings()), "PLAIN,RLE");
        let mask = chunk.page_encoding_stats_mask().unwrap();
        assert_eq!(names(&mut mask.encodings()), "RLE_DICTIONARY");
        assert_eq!(footer.metadata.row_group(0).ordinal(), Some(0));
    }

    #[test]
    fn truncated_footers_are_errors() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/data/pyarrow_plain_allnull_v2.parquet"
        );
        let file = std::fs::read(path).unwrap();
        let footer = footer_of(&file);
        for cut in 0..footer.len() {
            let e = error(&footer[..cut]);
            assert!(e.starts_with("footer (file metadata): "), "{cut}: {e}");
        }
    }

    #[test]
    fn bad_type_ids_and_deep_unknown_fields_are_errors() {
        // Field 1 of type 14.
        assert!(error(&[0x1E]).contains("byte 0: 14 is not a Thrift type id"));
        // An unknown field 20 holding structs nested 100 deep.
        let mut buf = vec![0x0C, 40];
        buf.extend([0x1C; 100]);
        buf.extend([0; 102]);
        assert!(error(&buf).contains("nested more than 64 deep"));
        // 63 deep is skipped, and the footer found wanting.
        let mut buf = vec![0x0C, 40];
        buf.extend([0x1C; 62]);
        buf.extend([0; 64]);
        assert!(error(&buf).contains("required field version is missing"));
    }

    #[test]
    fn skipped_containers_of_bools_take_no_bytes_but_no_more_bools_than_the_bytes_hold() {
        // Field 20: a list of 2 bools, then field 21: a map of 2 bool pairs; then the stop.
        let mut buf = vec![0x09, 40, 0x21, 0x1B, 0x02, 0x11, 0];
        assert!(error(&buf).contains("required field version is missing"));
        // Another map, of 3 pairs: 12 bools in all in 10 bytes.
        buf.splice(6..6, [0x1B, 0x03, 0x11]);
        let what = "byte 9: skipped containers claim more bools than the bytes hold";
        assert!(error(&buf).contains(what));
        // A list of 2^31-1 bools.
        let buf = [0x09, 40, 0xF1, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0];
        assert!(error(&buf).contains("byte 8: skipped containers"));
    }

    #[test]
    fn schemas_are_checked_before_they_are_built() {
        let e = error(&nested_footer(100_000));
        assert!(e.contains("the schema nests too deep"), "{e}");
        // Shallow enough, then built as the parquet crate builds it: groups need a repetition.
        let e = error(&nested_footer(3));
        assert!(e.contains("schema group \"g3\" has no repetition"), "{e}");
    }
}
