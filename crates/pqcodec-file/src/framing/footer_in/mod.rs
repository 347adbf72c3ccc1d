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

use parquet::basic::{ColumnOrder, SortOrder, Type as PqType};
use parquet::errors::ParquetError;
use parquet::file::metadata::{FileMetaData, KeyValue, ParquetMetaData};
use parquet::schema::types::SchemaDescriptor;

use super::FramingError;
use super::parquet_types::{physical_type_of, reason};
use super::thrift_in::{Cursor, Result, ThriftError, read_list, read_struct, read_union};

mod row_groups;
mod schema;
mod statistics;
#[cfg(test)]
pub(crate) mod tests;

use row_groups::read_row_groups;
use schema::read_schema;
#[cfg(test)]
pub(crate) use schema::{SchemaElement, check_schema_tree};

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
