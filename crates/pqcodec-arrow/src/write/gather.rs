//! A leaf array's values at given positions, as the physical type of their column: the inverse
//! of the conversions the reader makes (Int8 into INT32, Date64 into INT32 or INT64,
//! decimals into INT32, INT64 or big-endian bytes, Float16 and intervals into fixed bytes,
//! timestamps into INT96...). Dictionary arrays are looked up through their keys.

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, ArrayRef, ArrowPrimitiveType};
use arrow_buffer::{ArrowNativeType, ScalarBuffer};
use arrow_schema::{DataType, IntervalUnit, TimeUnit};
use pqcodec_core::Int96;

use super::shred::PositionsRef;
use crate::error::{Error, Result};

/// An array whose type a column cannot hold.
pub(crate) fn unsupported(path: &str, physical: &str, data_type: &DataType) -> Error {
    Error::Schema(format!(
        "column {path:?}: an Arrow {data_type} array cannot be written as {physical}"
    ))
}

/// The dictionary's values and, for each position, its key; or the array itself.
pub(crate) fn resolve_dictionary(
    path: &str,
    array: &ArrayRef,
    positions: PositionsRef<'_>,
) -> Result<Option<(ArrayRef, Vec<usize>)>> {
    let Some(dict) = array.as_any_dictionary_opt() else {
        return Ok(None);
    };
    let values = dict.values().clone();
    let keys = dict.keys();
    let mut out = Vec::with_capacity(positions.len());
    let mut bad = None;
    macro_rules! each_key {
        ($t:ty) => {{
            let keys = keys.as_primitive::<$t>().values();
            positions.for_each(|i| {
                // Negative keys become huge and fail the check.
                let key = keys[i] as i64 as usize;
                if key >= values.len() && bad.is_none() {
                    bad = Some((i, keys[i] as i64));
                }
                out.push(key);
            });
        }};
    }
    match keys.data_type() {
        DataType::Int8 => each_key!(Int8Type),
        DataType::Int16 => each_key!(Int16Type),
        DataType::Int32 => each_key!(Int32Type),
        DataType::Int64 => each_key!(Int64Type),
        DataType::UInt8 => each_key!(UInt8Type),
        DataType::UInt16 => each_key!(UInt16Type),
        DataType::UInt32 => each_key!(UInt32Type),
        DataType::UInt64 => each_key!(UInt64Type),
        other => return Err(unsupported(path, "dictionary keys", other)),
    }
    if let Some((i, key)) = bad {
        return Err(Error::Schema(format!(
            "column {path:?}: dictionary key {key} at entry {i} is past the dictionary's {} values",
            values.len()
        )));
    }
    Ok(Some((values, out)))
}

/// The values buffer of a primitive array of any logical type over native `N` (Date32 as
/// `i32`, timestamps of any unit as `i64`...).
fn raw_values<N: ArrowNativeType>(array: &dyn Array) -> ScalarBuffer<N> {
    let data = array.to_data();
    ScalarBuffer::new(data.buffers()[0].clone(), data.offset(), data.len())
}

/// The values at `positions`, a range, of an array that holds the physical type's own values
/// (Int64, timestamps, Date64... for INT64; Float64 for DOUBLE), as they lie: no conversion
/// and no copy. `None` for other arrays and positions.
pub(crate) fn as_is<P: ArrowPrimitiveType>(
    array: &dyn Array,
    positions: &PositionsRef<'_>,
) -> Option<ScalarBuffer<P::Native>> {
    let PositionsRef::Range(range) = positions else {
        return None;
    };
    let same = match array.data_type() {
        DataType::Int32 | DataType::Date32 | DataType::Time32(_) | DataType::Decimal32(..) => {
            P::DATA_TYPE == DataType::Int32
        }
        DataType::Int64
        | DataType::Date64
        | DataType::Time64(_)
        | DataType::Timestamp(..)
        | DataType::Duration(_)
        | DataType::Decimal64(..) => P::DATA_TYPE == DataType::Int64,
        DataType::Float32 => P::DATA_TYPE == DataType::Float32,
        DataType::Float64 => P::DATA_TYPE == DataType::Float64,
        _ => false,
    };
    same.then(|| raw_values::<P::Native>(array).slice(range.start, range.len()))
}

fn cast_into<P: ArrowPrimitiveType, V>(
    array: &dyn Array,
    positions: &PositionsRef<'_>,
    out: &mut Vec<V>,
    f: impl Fn(P::Native) -> V,
) {
    let values = array.as_primitive::<P>().values();
    out.reserve(positions.len());
    positions.for_each(|i| out.push(f(values[i])));
}

/// Appends the INT32 values of `array` at `positions` to `out`.
pub(crate) fn int32(
    path: &str,
    array: &dyn Array,
    positions: &PositionsRef<'_>,
    out: &mut Vec<i32>,
) -> Result<()> {
    match array.data_type() {
        DataType::Int32 | DataType::Date32 | DataType::Time32(_) => {
            let values = raw_values::<i32>(array);
            match positions {
                PositionsRef::Range(r) => out.extend_from_slice(&values[r.clone()]),
                PositionsRef::Indices(i) => out.extend(i.iter().map(|&i| values[i])),
            }
        }
        DataType::Int8 => cast_into::<Int8Type, _>(array, positions, out, i32::from),
        DataType::Int16 => cast_into::<Int16Type, _>(array, positions, out, i32::from),
        DataType::UInt8 => cast_into::<UInt8Type, _>(array, positions, out, i32::from),
        DataType::UInt16 => cast_into::<UInt16Type, _>(array, positions, out, i32::from),
        DataType::UInt32 => cast_into::<UInt32Type, _>(array, positions, out, |v| v as i32),
        DataType::Int64 => cast_into::<Int64Type, _>(array, positions, out, |v| v as i32),
        DataType::Date64 => {
            cast_into::<Date64Type, _>(array, positions, out, |v| v.div_euclid(86_400_000) as i32)
        }
        DataType::Decimal32(..) => cast_into::<Decimal32Type, _>(array, positions, out, |v| v),
        DataType::Decimal64(..) => {
            cast_into::<Decimal64Type, _>(array, positions, out, |v| v as i32)
        }
        DataType::Decimal128(..) => {
            cast_into::<Decimal128Type, _>(array, positions, out, |v| v as i32)
        }
        DataType::Decimal256(..) => {
            cast_into::<Decimal256Type, _>(array, positions, out, |v| v.as_i128() as i32)
        }
        DataType::Null => out.extend(std::iter::repeat_n(0, positions.len())),
        other => return Err(unsupported(path, "INT32", other)),
    }
    Ok(())
}

/// Appends the INT64 values of `array` at `positions` to `out`.
pub(crate) fn int64(
    path: &str,
    array: &dyn Array,
    positions: &PositionsRef<'_>,
    out: &mut Vec<i64>,
) -> Result<()> {
    match array.data_type() {
        DataType::Int64
        | DataType::Date64
        | DataType::Time64(_)
        | DataType::Timestamp(..)
        | DataType::Duration(_) => {
            let values = raw_values::<i64>(array);
            match positions {
                PositionsRef::Range(r) => out.extend_from_slice(&values[r.clone()]),
                PositionsRef::Indices(i) => out.extend(i.iter().map(|&i| values[i])),
            }
        }
        DataType::UInt64 => cast_into::<UInt64Type, _>(array, positions, out, |v| v as i64),
        DataType::Int32 | DataType::Date32 | DataType::Time32(_) => {
            let values = raw_values::<i32>(array);
            out.reserve(positions.len());
            positions.for_each(|i| out.push(i64::from(values[i])));
        }
        DataType::Int8 => cast_into::<Int8Type, _>(array, positions, out, i64::from),
        DataType::Int16 => cast_into::<Int16Type, _>(array, positions, out, i64::from),
        DataType::UInt8 => cast_into::<UInt8Type, _>(array, positions, out, i64::from),
        DataType::UInt16 => cast_into::<UInt16Type, _>(array, positions, out, i64::from),
        DataType::UInt32 => cast_into::<UInt32Type, _>(array, positions, out, i64::from),
        DataType::Decimal32(..) => cast_into::<Decimal32Type, _>(array, positions, out, i64::from),
        DataType::Decimal64(..) => cast_into::<Decimal64Type, _>(array, positions, out, |v| v),
        DataType::Decimal128(..) => {
            cast_into::<Decimal128Type, _>(array, positions, out, |v| v as i64)
        }
        DataType::Decimal256(..) => {
            cast_into::<Decimal256Type, _>(array, positions, out, |v| v.as_i128() as i64)
        }
        other => return Err(unsupported(path, "INT64", other)),
    }
    Ok(())
}

const JULIAN_DAY_OF_EPOCH: i64 = 2_440_588;
const NANOS_PER_DAY: i64 = 86_400_000_000_000;

/// A timestamp of `nanos_per_unit` nanoseconds per unit as INT96 (Julian day, nanoseconds
/// within it).
fn to_int96(value: i64, nanos_per_unit: i64) -> Int96 {
    let nanos = i128::from(value) * i128::from(nanos_per_unit);
    let day = nanos.div_euclid(i128::from(NANOS_PER_DAY));
    let within = nanos.rem_euclid(i128::from(NANOS_PER_DAY)) as u64;
    let julian = (day + i128::from(JULIAN_DAY_OF_EPOCH)) as u32;
    Int96([within as u32, (within >> 32) as u32, julian])
}

/// Appends the INT96 values (timestamps) of `array` at `positions` to `out`.
pub(crate) fn int96(
    path: &str,
    array: &dyn Array,
    positions: &PositionsRef<'_>,
    out: &mut Vec<Int96>,
) -> Result<()> {
    let nanos_per_unit = match array.data_type() {
        DataType::Timestamp(TimeUnit::Second, _) => 1_000_000_000,
        DataType::Timestamp(TimeUnit::Millisecond, _) => 1_000_000,
        DataType::Timestamp(TimeUnit::Microsecond, _) => 1_000,
        DataType::Timestamp(TimeUnit::Nanosecond, _) => 1,
        other => return Err(unsupported(path, "INT96", other)),
    };
    let values = raw_values::<i64>(array);
    out.reserve(positions.len());
    positions.for_each(|i| out.push(to_int96(values[i], nanos_per_unit)));
    Ok(())
}

/// Appends the FLOAT values of `array` at `positions` to `out`.
pub(crate) fn float(
    path: &str,
    array: &dyn Array,
    positions: &PositionsRef<'_>,
    out: &mut Vec<f32>,
) -> Result<()> {
    match array.data_type() {
        DataType::Float32 => cast_into::<Float32Type, _>(array, positions, out, |v| v),
        DataType::Float16 => cast_into::<Float16Type, _>(array, positions, out, f32::from),
        other => return Err(unsupported(path, "FLOAT", other)),
    }
    Ok(())
}

/// Appends the DOUBLE values of `array` at `positions` to `out`.
pub(crate) fn double(
    path: &str,
    array: &dyn Array,
    positions: &PositionsRef<'_>,
    out: &mut Vec<f64>,
) -> Result<()> {
    match array.data_type() {
        DataType::Float64 => cast_into::<Float64Type, _>(array, positions, out, |v| v),
        DataType::Float32 => cast_into::<Float32Type, _>(array, positions, out, f64::from),
        other => return Err(unsupported(path, "DOUBLE", other)),
    }
    Ok(())
}

/// Appends the BOOLEAN values of `array` at `positions` to `out`.
pub(crate) fn boolean(
    path: &str,
    array: &dyn Array,
    positions: &PositionsRef<'_>,
    out: &mut Vec<bool>,
) -> Result<()> {
    let Some(bools) = array.as_boolean_opt() else {
        return Err(unsupported(path, "BOOLEAN", array.data_type()));
    };
    let values = bools.values();
    out.reserve(positions.len());
    positions.for_each(|i| out.push(values.value(i)));
    Ok(())
}

/// Calls `f` with the BYTE_ARRAY value of `array` at each of `positions`.
pub(crate) fn byte_array<'a>(
    path: &str,
    array: &'a dyn Array,
    positions: &PositionsRef<'_>,
    mut f: impl FnMut(&'a [u8]),
) -> Result<()> {
    match array.data_type() {
        DataType::Utf8 => {
            let a = array.as_string::<i32>();
            positions.for_each(|i| f(a.value(i).as_bytes()));
        }
        DataType::LargeUtf8 => {
            let a = array.as_string::<i64>();
            positions.for_each(|i| f(a.value(i).as_bytes()));
        }
        DataType::Utf8View => {
            let a = array.as_string_view();
            positions.for_each(|i| f(a.value(i).as_bytes()));
        }
        DataType::Binary => {
            let a = array.as_binary::<i32>();
            positions.for_each(|i| f(a.value(i)));
        }
        DataType::LargeBinary => {
            let a = array.as_binary::<i64>();
            positions.for_each(|i| f(a.value(i)));
        }
        DataType::BinaryView => {
            let a = array.as_binary_view();
            positions.for_each(|i| f(a.value(i)));
        }
        DataType::FixedSizeBinary(_) => {
            let a = array.as_fixed_size_binary();
            positions.for_each(|i| f(a.value(i)));
        }
        other => return Err(unsupported(path, "BYTE_ARRAY", other)),
    }
    Ok(())
}

/// Whether [`byte_array`] can hand out `data_type`'s values as they are.
pub(crate) fn is_bytes(data_type: &DataType) -> bool {
    matches!(
        data_type,
        DataType::Utf8
            | DataType::LargeUtf8
            | DataType::Utf8View
            | DataType::Binary
            | DataType::LargeBinary
            | DataType::BinaryView
            | DataType::FixedSizeBinary(_)
    )
}

/// The least and greatest of the values [`made_bytes`] made, as their bytes, where the
/// column orders them as numbers (decimals) and any were made.
pub(crate) type MadeBounds = Option<(Vec<u8>, Vec<u8>)>;

/// Appends the values of `array` at `positions` as FIXED_LEN_BYTE_ARRAY(`width`) or
/// BYTE_ARRAY bytes made for the column (big-endian decimals, Float16, intervals), each
/// `width` bytes, back to back, to `out`. Decimals also give their least and greatest value,
/// found as numbers on the way.
pub(crate) fn made_bytes(
    path: &str,
    array: &dyn Array,
    positions: &PositionsRef<'_>,
    width: usize,
    out: &mut Vec<u8>,
) -> Result<MadeBounds> {
    let wrong_width = || {
        Error::Schema(format!(
            "column {path:?}: an Arrow {} array cannot be written as FIXED_LEN_BYTE_ARRAY({width})",
            array.data_type()
        ))
    };
    out.reserve(positions.len() * width);
    Ok(match array.data_type() {
        DataType::Decimal32(..) => decimal_be(
            array.as_primitive::<Decimal32Type>().values(),
            |v, shift| (i128::from(v) << shift).to_be_bytes(),
            positions,
            width,
            out,
        ),
        DataType::Decimal64(..) => decimal_be(
            array.as_primitive::<Decimal64Type>().values(),
            |v, shift| (i128::from(v) << shift).to_be_bytes(),
            positions,
            width,
            out,
        ),
        DataType::Decimal128(..) => decimal_be(
            array.as_primitive::<Decimal128Type>().values(),
            |v, shift| (v << shift).to_be_bytes(),
            positions,
            width,
            out,
        ),
        DataType::Decimal256(..) => decimal_be(
            array.as_primitive::<Decimal256Type>().values(),
            |v, shift| (v << shift as u8).to_be_bytes(),
            positions,
            width,
            out,
        ),
        DataType::Float16 if width == 2 => {
            let values = array.as_primitive::<Float16Type>().values();
            positions.for_each(|i| out.extend_from_slice(&values[i].to_le_bytes()));
            None
        }
        DataType::Interval(IntervalUnit::YearMonth) if width == 12 => {
            let values = array.as_primitive::<IntervalYearMonthType>().values();
            positions.for_each(|i| {
                out.extend_from_slice(&values[i].to_le_bytes());
                out.extend_from_slice(&[0; 8]);
            });
            None
        }
        DataType::Interval(IntervalUnit::DayTime) if width == 12 => {
            let values = array.as_primitive::<IntervalDayTimeType>().values();
            positions.for_each(|i| {
                out.extend_from_slice(&[0; 4]);
                out.extend_from_slice(&values[i].days.to_le_bytes());
                out.extend_from_slice(&values[i].milliseconds.to_le_bytes());
            });
            None
        }
        _ => return Err(wrong_width()),
    })
}

/// Big-endian two's complement values of `N` bytes cut to their last `width` bytes (or
/// sign-extended), appended to `out`, and the bytes of the least and greatest value.
///
/// `be(v, shift)` is `v << shift` big-endian: with `shift` the bits cut away, the value's
/// last `width` bytes come first, so that every value is one `N`-byte store whose tail the
/// next value's store overwrites.
fn decimal_be<V: Copy + Ord, const N: usize>(
    values: &[V],
    be: impl Fn(V, u32) -> [u8; N],
    positions: &PositionsRef<'_>,
    width: usize,
    out: &mut Vec<u8>,
) -> MadeBounds {
    let mut bounds: Option<(V, V)> = None;
    let mut fold = |v: V| match &mut bounds {
        None => bounds = Some((v, v)),
        Some((lo, hi)) => {
            *lo = (*lo).min(v);
            *hi = (*hi).max(v);
        }
    };
    let bytes = |v: V| -> Vec<u8> {
        let mut one = Vec::with_capacity(width.max(N));
        put_be(&be, v, width, &mut one);
        one
    };
    if width <= N && width > 0 {
        let shift = 8 * (N - width) as u32;
        let start = out.len();
        let n = positions.len();
        out.resize(start + n * width + N, 0);
        let mut at = start;
        positions.for_each(|i| {
            let v = values[i];
            fold(v);
            if let Some(slot) = out.get_mut(at..at + N) {
                slot.copy_from_slice(&be(v, shift));
            }
            at += width;
        });
        out.truncate(start + n * width);
    } else {
        positions.for_each(|i| {
            fold(values[i]);
            put_be(&be, values[i], width, out);
        });
    }
    bounds.map(|(lo, hi)| (bytes(lo), bytes(hi)))
}

/// One value of [`decimal_be`], appended to `out` by the general path.
fn put_be<V: Copy, const N: usize>(
    be: &impl Fn(V, u32) -> [u8; N],
    v: V,
    width: usize,
    out: &mut Vec<u8>,
) {
    let bytes = be(v, 0);
    if width <= N {
        out.extend_from_slice(&bytes[N - width..]);
    } else {
        let fill = if bytes[0] & 0x80 != 0 { 0xff } else { 0 };
        out.extend(std::iter::repeat_n(fill, width - N));
        out.extend_from_slice(&bytes);
    }
}
