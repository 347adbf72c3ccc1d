//! The schema: its flat list of elements, checked as a tree, then built as the parquet crate's.

use std::sync::Arc;

use parquet::basic::{ConvertedType, IntType, LogicalType, Repetition, TimeUnit, Type as PqType};
use parquet::schema::types::{SchemaDescriptor, Type, TypePtr};

use crate::framing::parquet_types::{converted_type_of, edge_interpolation_of, repetition_of};
use crate::framing::thrift_in::{Cursor, Result, ThriftError, bool_field, read_struct, read_union};
use crate::framing::{FramingError, MAX_SCHEMA_DEPTH};

use super::{enum_value, list_of, missing, parquet_error, physical_type, string, value};

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

pub(super) fn read_schema(c: &mut Cursor<'_>) -> Result<SchemaDescriptor> {
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
