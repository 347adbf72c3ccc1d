//! What each physical type does when Arrow arrays are written: the Arrow types it takes, how
//! their values reach its encoder, and the bounds they widen.

use arrow_array::Array;
use arrow_schema::DataType;
use pqcodec_core::{
    BooleanType, ByteArrayType, DoubleType, Encoder, FixedLenByteArrayType, FloatType, Int32Type,
    Int64Type, Int96Type, Physical,
};
use pqcodec_encodings::dynamic::DynamicType;

use super::gather;
use super::shred::PositionsRef;
use super::stats::{Bounds, BytesOrder};
use super::typed::{Gather, Input, Op, Typed, ValueEncoder, column_error};
use crate::error::Result;
use crate::schema::ColumnDesc;

impl Gather for BooleanType {
    type Scratch = Vec<bool>;
    fn accepts(_: &ColumnDesc, data_type: &DataType) -> bool {
        matches!(data_type, DataType::Boolean)
    }
    fn empty_bounds(_: &DataType, _: bool) -> Bounds {
        Bounds::Boolean(None)
    }
    fn put_values(
        t: &mut Typed<Self>,
        input: &Input<'_>,
        bounds: &mut Bounds,
    ) -> Result<Option<Vec<u32>>> {
        put_fixed(t, input, bounds, None, gather::boolean, Bounds::update_bool)
    }
}

/// Arrow types an INT32 or INT64 column holds.
fn integer_like(data_type: &DataType) -> bool {
    data_type.is_integer()
        || matches!(
            data_type,
            DataType::Date32
                | DataType::Date64
                | DataType::Time32(_)
                | DataType::Time64(_)
                | DataType::Timestamp(..)
                | DataType::Duration(_)
                | DataType::Decimal32(..)
                | DataType::Decimal64(..)
                | DataType::Decimal128(..)
                | DataType::Decimal256(..)
                | DataType::Null
        )
}

impl Gather for Int32Type {
    type Scratch = Vec<i32>;
    fn accepts(_: &ColumnDesc, data_type: &DataType) -> bool {
        integer_like(data_type)
    }
    fn empty_bounds(_: &DataType, unsigned: bool) -> Bounds {
        Bounds::Int32(None, unsigned)
    }
    fn put_values(
        t: &mut Typed<Self>,
        input: &Input<'_>,
        bounds: &mut Bounds,
    ) -> Result<Option<Vec<u32>>> {
        let held = gather::as_is::<arrow_array::types::Int32Type>(input.array, input.positions);
        put_fixed(
            t,
            input,
            bounds,
            held.as_deref(),
            gather::int32,
            Bounds::update_i32,
        )
    }
}

impl Gather for Int64Type {
    type Scratch = Vec<i64>;
    fn accepts(_: &ColumnDesc, data_type: &DataType) -> bool {
        integer_like(data_type)
    }
    fn empty_bounds(_: &DataType, unsigned: bool) -> Bounds {
        Bounds::Int64(None, unsigned)
    }
    fn put_values(
        t: &mut Typed<Self>,
        input: &Input<'_>,
        bounds: &mut Bounds,
    ) -> Result<Option<Vec<u32>>> {
        let held = gather::as_is::<arrow_array::types::Int64Type>(input.array, input.positions);
        put_fixed(
            t,
            input,
            bounds,
            held.as_deref(),
            gather::int64,
            Bounds::update_i64,
        )
    }
}

impl Gather for Int96Type {
    type Scratch = Vec<pqcodec_core::Int96>;
    fn accepts(_: &ColumnDesc, data_type: &DataType) -> bool {
        matches!(data_type, DataType::Timestamp(..))
    }
    /// INT96's order is undefined: no bounds.
    fn empty_bounds(_: &DataType, _: bool) -> Bounds {
        Bounds::None
    }
    fn put_values(
        t: &mut Typed<Self>,
        input: &Input<'_>,
        bounds: &mut Bounds,
    ) -> Result<Option<Vec<u32>>> {
        put_fixed(t, input, bounds, None, gather::int96, |_, _| {})
    }
}

impl Gather for FloatType {
    type Scratch = Vec<f32>;
    fn accepts(_: &ColumnDesc, data_type: &DataType) -> bool {
        matches!(data_type, DataType::Float32 | DataType::Float16)
    }
    fn empty_bounds(_: &DataType, _: bool) -> Bounds {
        Bounds::Float(None)
    }
    fn put_values(
        t: &mut Typed<Self>,
        input: &Input<'_>,
        bounds: &mut Bounds,
    ) -> Result<Option<Vec<u32>>> {
        let held = gather::as_is::<arrow_array::types::Float32Type>(input.array, input.positions);
        put_fixed(
            t,
            input,
            bounds,
            held.as_deref(),
            gather::float,
            Bounds::update_f32,
        )
    }
}

impl Gather for DoubleType {
    type Scratch = Vec<f64>;
    fn accepts(_: &ColumnDesc, data_type: &DataType) -> bool {
        matches!(data_type, DataType::Float64 | DataType::Float32)
    }
    fn empty_bounds(_: &DataType, _: bool) -> Bounds {
        Bounds::Double(None)
    }
    fn put_values(
        t: &mut Typed<Self>,
        input: &Input<'_>,
        bounds: &mut Bounds,
    ) -> Result<Option<Vec<u32>>> {
        let held = gather::as_is::<arrow_array::types::Float64Type>(input.array, input.positions);
        put_fixed(
            t,
            input,
            bounds,
            held.as_deref(),
            gather::double,
            Bounds::update_f64,
        )
    }
}

/// Empty bounds of byte values from arrays of `data_type`.
fn bytes_bounds(data_type: &DataType, unsigned: bool) -> Bounds {
    let order = match data_type {
        DataType::Float16 => BytesOrder::Float16,
        _ if !unsigned => BytesOrder::SignedBigEndian,
        _ => BytesOrder::Lexical,
    };
    if matches!(data_type, DataType::Interval(_)) {
        Bounds::None
    } else {
        Bounds::Bytes(None, order)
    }
}

impl Gather for ByteArrayType {
    type Scratch = Vec<u8>;
    fn accepts(_: &ColumnDesc, data_type: &DataType) -> bool {
        gather::is_bytes(data_type)
            || matches!(
                data_type,
                DataType::Decimal128(..) | DataType::Decimal256(..)
            )
    }
    fn empty_bounds(data_type: &DataType, unsigned: bool) -> Bounds {
        bytes_bounds(data_type, unsigned)
    }
    fn put_values(
        t: &mut Typed<Self>,
        input: &Input<'_>,
        bounds: &mut Bounds,
    ) -> Result<Option<Vec<u32>>> {
        put_bytes(t, input, bounds, None)
    }
}

impl Gather for FixedLenByteArrayType {
    type Scratch = Vec<u8>;
    fn accepts(desc: &ColumnDesc, data_type: &DataType) -> bool {
        matches!(data_type, DataType::FixedSizeBinary(n) if Some(*n as usize) == desc.column_type.value_width())
            || matches!(
                data_type,
                DataType::Decimal32(..)
                    | DataType::Decimal64(..)
                    | DataType::Decimal128(..)
                    | DataType::Decimal256(..)
                    | DataType::Float16
                    | DataType::Interval(_)
            )
    }
    fn empty_bounds(data_type: &DataType, unsigned: bool) -> Bounds {
        bytes_bounds(data_type, unsigned)
    }
    fn put_values(
        t: &mut Typed<Self>,
        input: &Input<'_>,
        bounds: &mut Bounds,
    ) -> Result<Option<Vec<u32>>> {
        let width = t.ty.width();
        put_bytes(t, input, bounds, Some(width))
    }
}

/// Converts an array's values at some positions (the column's path given for errors).
type Convert<V> = fn(&str, &dyn Array, &PositionsRef<'_>, &mut Vec<V>) -> Result<()>;

/// Does `input.op` with fixed-width values: `held` if the array holds them as they are,
/// else those `convert` makes into the scratch room.
fn put_fixed<T>(
    t: &mut Typed<T>,
    input: &Input<'_>,
    bounds: &mut Bounds,
    held: Option<&[T::Value]>,
    convert: Convert<T::Value>,
    update: fn(&mut Bounds, &[T::Value]),
) -> Result<Option<Vec<u32>>>
where
    T: Gather<Scratch = Vec<<T as Physical>::Value>>,
    T::Value: Sized,
{
    let values = match held {
        Some(values) => values,
        None => {
            t.scratch.clear();
            convert(input.path, input.array, input.positions, &mut t.scratch)?;
            &t.scratch[..]
        }
    };
    // Numbers are folded as they are put, dictionary or not: a branch-free pass beats
    // looking up each page's dictionary entries.
    if input.op == Op::Put {
        update(bounds, values);
    }
    match (input.op, &mut t.encoder) {
        (Op::Intern, ValueEncoder::Dictionary(e)) => e.intern(values).map(Some),
        (Op::Intern, ValueEncoder::Direct(_)) => Ok(None),
        (Op::Put, ValueEncoder::Dictionary(e)) => e.put_slice(values).map(|_| None),
        (Op::Put, ValueEncoder::Direct(e)) => e.put_slice(values).map(|_| None),
    }
    .map_err(|e| column_error(input.path, e))
}

/// Does `input.op` with byte values: as the array holds them, or made for the column (fixed
/// width `width`).
fn put_bytes<T: Gather<Scratch = Vec<u8>, Value = [u8]>>(
    t: &mut Typed<T>,
    input: &Input<'_>,
    bounds: &mut Bounds,
    width: Option<usize>,
) -> Result<Option<Vec<u32>>> {
    let Input {
        path,
        array,
        positions,
        op,
    } = *input;
    let codec = |e| column_error(path, e);
    // A dictionary encoder's page takes its bounds from its indices when written.
    let direct = matches!(t.encoder, ValueEncoder::Direct(_));
    if gather::is_bytes(array.data_type()) {
        let mut values: Vec<&[u8]> = Vec::with_capacity(positions.len());
        gather::byte_array(path, array, positions, |v| values.push(v))?;
        if op == Op::Put && direct {
            bounds.update_bytes_all(values.iter().copied());
        }
        return put_each(&mut t.encoder, op, values.iter().copied()).map_err(codec);
    }
    let width = width.unwrap_or(match array.data_type() {
        DataType::Decimal256(..) => 32,
        _ => 16,
    });
    let mut scratch = std::mem::take(&mut t.scratch);
    scratch.clear();
    let made = gather::made_bytes(path, array, positions, width, &mut scratch)?;
    let values = scratch.chunks_exact(width.max(1));
    if op == Op::Put && direct {
        match made {
            Some((lo, hi)) => {
                bounds.update_bytes(&lo);
                bounds.update_bytes(&hi);
            }
            None => bounds.update_bytes_all(values.clone()),
        }
    }
    let result = match op {
        // The made bytes are the values back to back: put in bulk.
        Op::Put => match &mut t.encoder {
            ValueEncoder::Dictionary(e) => e.put_fixed_width(&scratch, width),
            ValueEncoder::Direct(e) => e.put_fixed_width(&scratch, width),
        }
        .map(|_| None)
        .map_err(codec),
        Op::Intern => put_each(&mut t.encoder, op, values).map_err(codec),
    };
    t.scratch = scratch;
    result
}

/// Does `op` with byte values one by one.
fn put_each<'a, T: DynamicType<Value = [u8]>>(
    encoder: &mut ValueEncoder<T>,
    op: Op,
    values: impl Iterator<Item = &'a [u8]>,
) -> pqcodec_core::Result<Option<Vec<u32>>> {
    match (op, encoder) {
        (Op::Intern, ValueEncoder::Direct(_)) => Ok(None),
        (Op::Intern, ValueEncoder::Dictionary(e)) => e.intern(values).map(Some),
        (Op::Put, ValueEncoder::Dictionary(e)) => e.put(values).map(|_| None),
        (Op::Put, ValueEncoder::Direct(e)) => e.put(values).map(|_| None),
    }
}
