//! A leaf column's values into pqcodec's encoders: dictionary first if asked, falling back
//! to the column's own encoding once the dictionary passes its limits.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef};
use arrow_schema::DataType;
use pqcodec_core::Decoder;
use pqcodec_core::{
    BooleanType, ByteArrayType, ColumnType, DoubleType, Encoder, Encoding, FixedLenByteArrayType,
    FloatType, Int32Type, Int64Type, Int96, Int96Type, PhysicalType, with_physical,
};
use pqcodec_encodings::dictionary::{
    DictionaryDecoder, DictionaryEncoder, DictionaryLimits, DictionaryValue,
};
use pqcodec_encodings::dynamic::DynamicType;
use pqcodec_encodings::plain::decode_plain_page;

use super::gather;
use super::shred::PositionsRef;
use super::stats::{Bounds, BytesOrder, SortOrder};
use crate::error::{Error, Result};
use crate::schema::ColumnDesc;

/// The encoder of a column's values: a dictionary's, or the column's own. One lives per
/// column being written.
#[allow(clippy::large_enum_variant)]
enum ValueEncoder<T: DynamicType> {
    Dictionary(DictionaryEncoder<T>),
    Direct(T::Encoder),
}

impl<T: DynamicType> ValueEncoder<T> {
    fn new(dictionary: bool, encoding: Encoding, ty: T) -> pqcodec_core::Result<Self> {
        Ok(if dictionary {
            // Limits are the column writer's to apply, between batches of values.
            let unlimited = DictionaryLimits::unlimited();
            ValueEncoder::Dictionary(DictionaryEncoder::new(ty, unlimited))
        } else {
            ValueEncoder::Direct(T::encoder(encoding, ty)?)
        })
    }

    fn encoder(&mut self) -> &mut dyn EncoderObj<T> {
        match self {
            ValueEncoder::Dictionary(e) => e,
            ValueEncoder::Direct(e) => e,
        }
    }
}

/// What the column writer needs of an encoder, whatever its type.
trait EncoderObj<T: DynamicType> {
    fn estimated_size(&self) -> usize;
    fn flush_into(&mut self, out: &mut Vec<u8>) -> pqcodec_core::Result<()>;
}

impl<T: DynamicType, E: Encoder<T>> EncoderObj<T> for E {
    fn estimated_size(&self) -> usize {
        Encoder::estimated_size(self)
    }
    fn flush_into(&mut self, out: &mut Vec<u8>) -> pqcodec_core::Result<()> {
        Encoder::flush_into(self, out)
    }
}

/// A column's values of one physical type: the encoder, the dictionary page of a chunk that
/// fell back, and scratch room for converted values.
struct Typed<T: DynamicType, S> {
    /// The column's type (FIXED_LEN_BYTE_ARRAY's width).
    ty: T,
    encoder: ValueEncoder<T>,
    /// A fallen-back chunk's dictionary page and its number of values.
    fallen_back: Option<(Vec<u8>, usize)>,
    /// Whether a dictionary-encoded page was written in this chunk.
    dictionary_pages: bool,
    scratch: S,
}

/// The physical type of a [`Typed`].
fn physical<T: DynamicType, S>(_: &Typed<T, S>) -> PhysicalType {
    T::TYPE
}

impl<T: DynamicType, S: Default> Typed<T, S> {
    fn new(dictionary: bool, encoding: Encoding, ty: T) -> pqcodec_core::Result<Self> {
        Ok(Typed {
            ty,
            encoder: ValueEncoder::new(dictionary, encoding, ty)?,
            fallen_back: None,
            dictionary_pages: false,
            scratch: S::default(),
        })
    }
}

macro_rules! each_type {
    ($self:expr, $t:ident => $body:expr) => {
        match $self {
            Values::Boolean($t) => $body,
            Values::Int32($t) => $body,
            Values::Int64($t) => $body,
            Values::Int96($t) => $body,
            Values::Float($t) => $body,
            Values::Double($t) => $body,
            Values::Bytes($t) => $body,
            Values::Fixed($t) => $body,
        }
    };
}

/// A column's values, by physical type.
enum Values {
    Boolean(Typed<BooleanType, Vec<bool>>),
    Int32(Typed<Int32Type, Vec<i32>>),
    Int64(Typed<Int64Type, Vec<i64>>),
    Int96(Typed<Int96Type, Vec<Int96>>),
    Float(Typed<FloatType, Vec<f32>>),
    Double(Typed<DoubleType, Vec<f64>>),
    Bytes(Typed<ByteArrayType, Vec<u8>>),
    Fixed(Typed<FixedLenByteArrayType, Vec<u8>>),
}

/// A leaf column's value encoder and its running bounds.
pub(crate) struct ValueWriter {
    values: Values,
    path: String,
    encoding: Encoding,
    dictionary: Option<DictionaryLimits>,
    /// Bounds of the values put since the last page.
    pub(crate) bounds: Bounds,
    /// The last Arrow dictionary put and its values' indices in the chunk's dictionary.
    remap: Option<(ArrayRef, Vec<u32>)>,
    /// Which dictionary entries a page uses, while its bounds are taken (all false between).
    seen: Vec<bool>,
    /// Whether the page has values put by their dictionary indices (from Arrow dictionary
    /// arrays): its bounds are then taken from the indices, whatever the type.
    by_index: bool,
}

impl ValueWriter {
    /// A writer of `desc`'s values from Arrow arrays of `data_type`, dictionary-encoded first
    /// if `dictionary` is given, else (and after a fallback) in `encoding`.
    pub(crate) fn try_new(
        desc: &ColumnDesc,
        data_type: &DataType,
        order: SortOrder,
        encoding: Encoding,
        dictionary: Option<DictionaryLimits>,
        statistics: bool,
    ) -> Result<Self> {
        let codec = |source| Error::Schema(format!("column {:?}: {source}", desc.path));
        let dict = dictionary.is_some();
        // Check the fallback encoding applies even when the dictionary comes first.
        let values = match desc.column_type {
            ColumnType::Boolean => {
                Values::Boolean(Typed::new(dict, encoding, BooleanType).map_err(codec)?)
            }
            ColumnType::Int32 => {
                Values::Int32(Typed::new(dict, encoding, Int32Type).map_err(codec)?)
            }
            ColumnType::Int64 => {
                Values::Int64(Typed::new(dict, encoding, Int64Type).map_err(codec)?)
            }
            ColumnType::Int96 => {
                Values::Int96(Typed::new(dict, encoding, Int96Type).map_err(codec)?)
            }
            ColumnType::Float => {
                Values::Float(Typed::new(dict, encoding, FloatType).map_err(codec)?)
            }
            ColumnType::Double => {
                Values::Double(Typed::new(dict, encoding, DoubleType).map_err(codec)?)
            }
            ColumnType::ByteArray => {
                Values::Bytes(Typed::new(dict, encoding, ByteArrayType).map_err(codec)?)
            }
            ColumnType::FixedLenByteArray(ty) => {
                Values::Fixed(Typed::new(dict, encoding, ty).map_err(codec)?)
            }
        };
        if dict {
            with_physical!(desc.column_type, ty: T => T::encoder(encoding, ty).map(drop))
                .map_err(codec)?;
        }
        let value_type = match data_type {
            DataType::Dictionary(_, v) => v.as_ref(),
            other => other,
        };
        check_type(desc, value_type)?;
        let bounds = if statistics {
            bounds_for(desc.physical(), value_type, order)
        } else {
            Bounds::None
        };
        Ok(ValueWriter {
            values,
            path: desc.path.clone(),
            encoding,
            dictionary,
            bounds,
            remap: None,
            seen: Vec::new(),
            by_index: false,
        })
    }

    /// Puts the values of `array` at `positions`. A dictionary array's keys go to a dictionary
    /// encoder as indices: its values are interned once per dictionary, not once per row.
    pub(crate) fn put(&mut self, array: &ArrayRef, positions: PositionsRef<'_>) -> Result<()> {
        if let Some(dict) = array.as_any_dictionary_opt()
            && self.dictionary_encoding()
        {
            let values = dict.values().clone();
            let (_, keys) = gather::resolve_dictionary(&self.path, array, positions)?
                .ok_or_else(|| Error::Schema("not a dictionary".into()))?;
            return self.put_keys(&values, &keys);
        }
        let resolved = gather::resolve_dictionary(&self.path, array, positions.clone())?;
        let (array, positions) = match &resolved {
            Some((values, keys)) => (values, PositionsRef::Indices(keys)),
            None => (array, positions),
        };
        self.apply(array, &positions, Op::Put).map(drop)
    }

    /// Whether values go to a dictionary encoder now.
    fn dictionary_encoding(&self) -> bool {
        each_type!(&self.values, t => matches!(t.encoder, ValueEncoder::Dictionary(_)))
    }

    /// Puts the entries `keys` of the dictionary `values` by their indices in the chunk's
    /// dictionary, interning `values` first unless they are the last dictionary's.
    fn put_keys(&mut self, values: &ArrayRef, keys: &[usize]) -> Result<()> {
        let known = matches!(&self.remap, Some((v, _)) if Arc::ptr_eq(v, values));
        if !known {
            let all = PositionsRef::Range(0..values.len());
            let indices = self.apply(values, &all, Op::Intern)?.unwrap_or_default();
            self.remap = Some((values.clone(), indices));
        }
        let Some((_, remap)) = &self.remap else {
            return Ok(());
        };
        self.by_index = true;
        let indices: Vec<u32> = keys.iter().map(|&k| remap[k]).collect();
        let path = &self.path;
        each_type!(&mut self.values, t => match &mut t.encoder {
            ValueEncoder::Dictionary(e) => e
                .put_indices(&indices)
                .map_err(|e| Error::Schema(format!("column {path:?}: {e}"))),
            ValueEncoder::Direct(_) => Err(Error::Schema(format!("column {path:?}: no dictionary"))),
        })
    }

    /// Does `op` with the values of `array` at `positions`.
    fn apply(
        &mut self,
        array: &ArrayRef,
        positions: &PositionsRef<'_>,
        op: Op,
    ) -> Result<Option<Vec<u32>>> {
        let array = array.as_ref();
        let path = &self.path;
        let bounds = &mut self.bounds;
        let codec = |e: pqcodec_core::Error| Error::Schema(format!("column {path:?}: {e}"));
        // Values the array holds as they are go straight from it; others through `scratch`.
        macro_rules! fixed {
            ($t:ident, $gather:path, $update:expr, $as_is:expr) => {{
                let as_is = $as_is(array, positions);
                let values = match &as_is {
                    Some(values) => &values[..],
                    None => {
                        $t.scratch.clear();
                        $gather(path, array, positions, &mut $t.scratch)?;
                        &$t.scratch[..]
                    }
                };
                // Numbers are folded as they are put, dictionary or not: a branch-free pass
                // beats looking up each page's dictionary entries.
                if op == Op::Put {
                    $update(bounds, values);
                }
                match (op, &mut $t.encoder) {
                    (Op::Intern, ValueEncoder::Dictionary(e)) => e.intern(values).map(Some),
                    (Op::Intern, ValueEncoder::Direct(_)) => Ok(None),
                    (Op::Put, ValueEncoder::Dictionary(e)) => e.put_slice(values).map(|_| None),
                    (Op::Put, ValueEncoder::Direct(e)) => e.put_slice(values).map(|_| None),
                }
                .map_err(codec)
            }};
        }
        match &mut self.values {
            Values::Boolean(t) => fixed!(
                t,
                gather::boolean,
                Bounds::update_bool,
                |_: &dyn Array, _: &PositionsRef<'_>| None::<Vec<bool>>
            ),
            Values::Int32(t) => fixed!(
                t,
                gather::int32,
                Bounds::update_i32,
                gather::as_is::<arrow_array::types::Int32Type>
            ),
            Values::Int64(t) => fixed!(
                t,
                gather::int64,
                Bounds::update_i64,
                gather::as_is::<arrow_array::types::Int64Type>
            ),
            Values::Int96(t) => fixed!(
                t,
                gather::int96,
                |_: &mut Bounds, _: &[Int96]| {},
                |_: &dyn Array, _: &PositionsRef<'_>| None::<Vec<Int96>>
            ),
            Values::Float(t) => fixed!(
                t,
                gather::float,
                Bounds::update_f32,
                gather::as_is::<arrow_array::types::Float32Type>
            ),
            Values::Double(t) => {
                fixed!(
                    t,
                    gather::double,
                    Bounds::update_f64,
                    gather::as_is::<arrow_array::types::Float64Type>
                )
            }
            Values::Bytes(t) => put_bytes(path, array, positions, None, t, bounds, op),
            Values::Fixed(t) => {
                let width = t.ty.width();
                put_bytes(path, array, positions, Some(width), t, bounds, op)
            }
        }
    }

    /// About the size of the next page's values.
    pub(crate) fn estimated_size(&mut self) -> usize {
        each_type!(&mut self.values, t => t.encoder.encoder().estimated_size())
    }

    /// Whether the dictionary has passed its limits: the page so far should be written, then
    /// [`ValueWriter::fall_back`].
    pub(crate) fn past_dictionary_limits(&self) -> bool {
        let Some(limits) = self.dictionary else {
            return false;
        };
        each_type!(&self.values, t => match &t.encoder {
            ValueEncoder::Dictionary(e) => {
                e.dictionary_len() > limits.max_distinct_values
                    || e.dictionary_bytes() > limits.max_dictionary_bytes
            }
            ValueEncoder::Direct(_) => false,
        })
    }

    /// Keeps the dictionary page of this chunk and writes the rest of it in the column's own
    /// encoding. Call with no values pending.
    pub(crate) fn fall_back(&mut self) -> Result<()> {
        self.remap = None;
        let (encoding, path) = (self.encoding, &self.path);
        each_type!(&mut self.values, t => {
            if let ValueEncoder::Dictionary(e) = &t.encoder {
                let page = e.dictionary_page().map_err(|e| Error::Schema(format!("column {path:?}: {e}")))?;
                t.fallen_back = Some((page, e.dictionary_len()));
            }
            t.encoder = ValueEncoder::new(false, encoding, t.ty)
                .map_err(|e| Error::Schema(format!("column {path:?}: {e}")))?;
        });
        Ok(())
    }

    /// Appends the pending values' page to `out`; returns its encoding.
    pub(crate) fn flush_into(&mut self, out: &mut Vec<u8>) -> Result<Encoding> {
        let (encoding, path) = (self.encoding, &self.path);
        let (bounds, seen) = (&mut self.bounds, &mut self.seen);
        let by_index = std::mem::take(&mut self.by_index);
        each_type!(&mut self.values, t => {
            // Bytes compare dearly: a dictionary page's bounds are taken from the entries it
            // uses, each once.
            let bytes = matches!(physical(t), PhysicalType::ByteArray | PhysicalType::FixedLenByteArray);
            if let ValueEncoder::Dictionary(e) = &t.encoder
                && !matches!(bounds, Bounds::None)
                && (bytes || by_index)
            {
                page_bounds(e, bounds, seen);
            }
            drop_unpaying_dictionary(t, encoding)
                .map_err(|e| Error::Schema(format!("column {path:?}: {e}")))?;
            let page_encoding = match &t.encoder {
                ValueEncoder::Dictionary(_) => {
                    t.dictionary_pages = true;
                    Encoding::RleDictionary
                }
                ValueEncoder::Direct(_) => encoding,
            };
            t.encoder.encoder().flush_into(out).map_err(|e| Error::Schema(format!("column {path:?}: {e}")))?;
            Ok(page_encoding)
        })
    }

    /// Ends the column chunk: its dictionary page (PLAIN bytes, number of values) if its
    /// pages use one. The next chunk starts with a new dictionary.
    pub(crate) fn finish_chunk(&mut self) -> Result<Option<(Vec<u8>, usize)>> {
        self.remap = None;
        let (encoding, path) = (self.encoding, &self.path);
        let dictionary = self.dictionary.is_some();
        each_type!(&mut self.values, t => {
            let page = match (&t.encoder, t.fallen_back.take()) {
                (_, Some(page)) => Some(page),
                (ValueEncoder::Dictionary(e), None) if t.dictionary_pages => Some((
                    e.dictionary_page().map_err(|e| Error::Schema(format!("column {path:?}: {e}")))?,
                    e.dictionary_len(),
                )),
                _ => None,
            };
            t.dictionary_pages = false;
            t.encoder = ValueEncoder::new(dictionary, encoding, t.ty)
                .map_err(|e| Error::Schema(format!("column {path:?}: {e}")))?;
            Ok(page)
        })
    }
}

/// Does `op` with byte values: as the array holds them, or made for the column (fixed width
/// `width`).
fn put_bytes<T: DynamicType<Value = [u8]>>(
    path: &str,
    array: &dyn Array,
    positions: &PositionsRef<'_>,
    width: Option<usize>,
    t: &mut Typed<T, Vec<u8>>,
    bounds: &mut Bounds,
    op: Op,
) -> Result<Option<Vec<u32>>> {
    let codec = |e: pqcodec_core::Error| Error::Schema(format!("column {path:?}: {e}"));
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

/// At a chunk's first page, drops the dictionary if it does not pay (as parquet-java's writer
/// does): when the dictionary and the page of indices are no smaller than the page's values
/// in PLAIN, the page's values are encoded in the column's own encoding instead, and the
/// chunk goes on without a dictionary. High-cardinality columns are then neither hashed any
/// further nor written twice over.
fn drop_unpaying_dictionary<T: DynamicType + DictionaryValue, S>(
    t: &mut Typed<T, S>,
    encoding: Encoding,
) -> pqcodec_core::Result<()> {
    let ValueEncoder::Dictionary(e) = &mut t.encoder else {
        return Ok(());
    };
    let n = Encoder::num_values(e);
    if t.dictionary_pages || t.fallen_back.is_some() || n == 0 || T::TYPE == PhysicalType::Boolean {
        return Ok(());
    }
    let indices = e.pending_indices();
    let plain: usize = match T::TYPE {
        PhysicalType::ByteArray => indices.iter().map(|&i| e.entry(i).len() + 4).sum(),
        _ => n * e.entry(0).len(),
    };
    if e.dictionary_bytes() + Encoder::estimated_size(e) < plain {
        return Ok(());
    }
    let mut page = Vec::new();
    Encoder::flush_into(e, &mut page)?;
    let dictionary = decode_plain_page(&e.dictionary_page()?, e.dictionary_len(), t.ty)?;
    let values = DictionaryDecoder::<T>::new(page.into(), n, Arc::new(dictionary))?.read_all()?;
    let mut direct = T::encoder(encoding, t.ty)?;
    T::put_buffer(&mut direct, &values)?;
    t.encoder = ValueEncoder::Direct(direct);
    Ok(())
}

/// Widens `bounds` by the dictionary entries the page `e` is building uses, each once.
fn page_bounds<T: DynamicType>(
    e: &DictionaryEncoder<T>,
    bounds: &mut Bounds,
    seen: &mut Vec<bool>,
) {
    seen.resize(seen.len().max(e.dictionary_len()), false);
    let mut used = Vec::new();
    for &i in e.pending_indices() {
        if let Some(s) = seen.get_mut(i as usize)
            && !*s
        {
            *s = true;
            used.push(i);
        }
    }
    for &i in &used {
        bounds.update_plain(e.entry(i));
        seen[i as usize] = false;
    }
}

/// What [`ValueWriter`] does with values it gathers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    /// Encode them (and widen the bounds, or leave that to the page's dictionary indices).
    Put,
    /// Add them to the dictionary and give their indices.
    Intern,
}

/// Refuses arrays of a type the column cannot hold, before anything is written.
fn check_type(desc: &ColumnDesc, data_type: &DataType) -> Result<()> {
    let ok = match desc.physical() {
        PhysicalType::Boolean => matches!(data_type, DataType::Boolean),
        PhysicalType::Int32 | PhysicalType::Int64 => {
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
        PhysicalType::Int96 => matches!(data_type, DataType::Timestamp(..)),
        PhysicalType::Float => matches!(data_type, DataType::Float32 | DataType::Float16),
        PhysicalType::Double => matches!(data_type, DataType::Float64 | DataType::Float32),
        PhysicalType::ByteArray => {
            gather::is_bytes(data_type)
                || matches!(
                    data_type,
                    DataType::Decimal128(..) | DataType::Decimal256(..)
                )
        }
        PhysicalType::FixedLenByteArray => {
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
    };
    if ok {
        Ok(())
    } else {
        Err(gather::unsupported(
            &desc.path,
            desc.physical().name(),
            data_type,
        ))
    }
}

/// Empty bounds of the column's order.
fn bounds_for(physical: PhysicalType, data_type: &DataType, order: SortOrder) -> Bounds {
    if order == SortOrder::Undefined {
        return Bounds::None;
    }
    let unsigned = order == SortOrder::Unsigned;
    match physical {
        PhysicalType::Boolean => Bounds::Boolean(None),
        PhysicalType::Int32 => Bounds::Int32(None, unsigned),
        PhysicalType::Int64 => Bounds::Int64(None, unsigned),
        PhysicalType::Int96 => Bounds::None,
        PhysicalType::Float => Bounds::Float(None),
        PhysicalType::Double => Bounds::Double(None),
        PhysicalType::ByteArray | PhysicalType::FixedLenByteArray => {
            let bytes_order = match data_type {
                DataType::Float16 => BytesOrder::Float16,
                _ if !unsigned => BytesOrder::SignedBigEndian,
                _ => BytesOrder::Lexical,
            };
            if matches!(data_type, DataType::Interval(_)) {
                Bounds::None
            } else {
                Bounds::Bytes(None, bytes_order)
            }
        }
    }
}
