//! What the scan's own string predicates ([`like_chain`](crate::like_chain),
//! [`prefix_in`](crate::prefix_in)) share: their literals, the string arrays they match and
//! the rows a null value drops.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, BooleanArray, StringArrayType};
use arrow_schema::DataType;
use datafusion::arrow::buffer::BooleanBuffer;
use datafusion::common::ScalarValue;
use datafusion::physical_expr::expressions::Literal;
use datafusion::physical_plan::PhysicalExpr;

/// A string literal's value; `None` for a null or anything else.
pub(crate) fn string_literal(expr: &Arc<dyn PhysicalExpr>) -> Option<&str> {
    match expr.downcast_ref::<Literal>()?.value() {
        ScalarValue::Utf8(Some(s))
        | ScalarValue::Utf8View(Some(s))
        | ScalarValue::LargeUtf8(Some(s)) => Some(s),
        _ => None,
    }
}

/// Whether each of `values` (Utf8, LargeUtf8 or Utf8View) `matches`, or does not when
/// `negated`, nulls aside; `None` for other arrays (binary, dictionaries), left to DataFusion.
pub(crate) fn matched(
    values: &ArrayRef,
    negated: bool,
    matches: impl Fn(&[u8]) -> bool,
) -> Option<BooleanBuffer> {
    fn each<'a>(
        array: impl StringArrayType<'a>,
        negated: bool,
        matches: impl Fn(&[u8]) -> bool,
    ) -> BooleanBuffer {
        BooleanBuffer::collect_bool(array.len(), |i| {
            matches(array.value(i).as_bytes()) != negated
        })
    }
    Some(match values.data_type() {
        DataType::Utf8View => each(values.as_string_view(), negated, matches),
        DataType::Utf8 => each(values.as_string::<i32>(), negated, matches),
        DataType::LargeUtf8 => each(values.as_string::<i64>(), negated, matches),
        _ => return None,
    })
}

/// The rows kept: those `kept` whose value is not null (a null value is neither in nor out
/// of what a predicate compares it with).
pub(crate) fn kept_where_valid(kept: BooleanBuffer, values: &dyn Array) -> BooleanArray {
    match values.logical_nulls() {
        Some(nulls) => BooleanArray::new(&kept & nulls.inner(), None),
        None => BooleanArray::new(kept, None),
    }
}
