//! A column's values of one physical type: the encoder (a dictionary's, falling back to the
//! column's own), its dictionary pages and scratch room, behind a trait the column writer uses
//! whatever the type.

use std::sync::Arc;

use arrow_array::Array;
use arrow_schema::DataType;
use pqcodec_core::{Decoder, Encoder, Encoding, PhysicalType};
use pqcodec_encodings::dictionary::{
    DictionaryDecoder, DictionaryEncoder, DictionaryLimits, DictionaryValue,
};
use pqcodec_encodings::dynamic::DynamicType;
use pqcodec_encodings::plain::decode_plain_page;

use super::shred::PositionsRef;
use super::stats::Bounds;
use crate::error::{Error, Result};
use crate::schema::ColumnDesc;

/// The encoder of a column's values: a dictionary's, or the column's own. One lives per
/// column being written.
#[allow(clippy::large_enum_variant)]
pub(super) enum ValueEncoder<T: DynamicType> {
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

    pub(super) fn encoder(&mut self) -> &mut dyn EncoderObj<T> {
        match self {
            ValueEncoder::Dictionary(e) => e,
            ValueEncoder::Direct(e) => e,
        }
    }
}

/// What the column writer needs of an encoder, whatever its type.
pub(super) trait EncoderObj<T: DynamicType> {
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

/// Values to put: an array's at `positions`, and what to do with them.
pub(super) struct Input<'a> {
    /// The column's path, for errors.
    pub(super) path: &'a str,
    pub(super) array: &'a dyn Array,
    pub(super) positions: &'a PositionsRef<'a>,
    pub(super) op: Op,
}

/// A physical type's part in writing Arrow arrays: which Arrow types it takes, how their
/// values reach its encoder, and the bounds they widen.
pub(super) trait Gather: DynamicType + DictionaryValue {
    /// Room for values converted from an array's.
    type Scratch: Default + Send;

    /// Whether a column `desc` of this type holds arrays of `data_type`.
    fn accepts(desc: &ColumnDesc, data_type: &DataType) -> bool;

    /// Empty bounds of values from arrays of `data_type` ordered `unsigned` or not.
    fn empty_bounds(data_type: &DataType, unsigned: bool) -> Bounds;

    /// Does `input.op` with `input`'s values; widens `bounds` by the values put.
    fn put_values(
        t: &mut Typed<Self>,
        input: &Input<'_>,
        bounds: &mut Bounds,
    ) -> Result<Option<Vec<u32>>>;
}

/// What the column writer does with values it gathers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    /// Encode them (and widen the bounds, or leave that to the page's dictionary indices).
    Put,
    /// Add them to the dictionary and give their indices.
    Intern,
}

/// An encoder's error, naming the column.
pub(super) fn column_error(path: &str, e: pqcodec_core::Error) -> Error {
    Error::Schema(format!("column {path:?}: {e}"))
}

/// A column's values of one physical type: the encoder, the dictionary page of a chunk that
/// fell back, and scratch room for converted values.
pub(super) struct Typed<T: Gather> {
    /// The column's type (FIXED_LEN_BYTE_ARRAY's width).
    pub(super) ty: T,
    pub(super) encoder: ValueEncoder<T>,
    /// A fallen-back chunk's dictionary page and its number of values.
    pub(super) fallen_back: Option<(Vec<u8>, usize)>,
    /// Whether a dictionary-encoded page was written in this chunk.
    pub(super) dictionary_pages: bool,
    pub(super) scratch: T::Scratch,
}

impl<T: Gather> Typed<T> {
    pub(super) fn new(dictionary: bool, encoding: Encoding, ty: T) -> pqcodec_core::Result<Self> {
        Ok(Typed {
            ty,
            encoder: ValueEncoder::new(dictionary, encoding, ty)?,
            fallen_back: None,
            dictionary_pages: false,
            scratch: T::Scratch::default(),
        })
    }
}

/// A [`Typed`] of any type: what the column writer asks of its values.
pub(super) trait ColumnValues: Send {
    /// Whether values go to a dictionary encoder now.
    fn dictionary_encoding(&self) -> bool;
    /// Puts values by their indices in the dictionary (none without one).
    fn put_indices(&mut self, indices: &[u32]) -> pqcodec_core::Result<()>;
    /// Does `input.op` with `input`'s values.
    fn put_values(&mut self, input: &Input<'_>, bounds: &mut Bounds) -> Result<Option<Vec<u32>>>;
    /// About the size of the next page's values.
    fn estimated_size(&mut self) -> usize;
    /// Whether the dictionary has passed `limits`.
    fn past_limits(&self, limits: DictionaryLimits) -> bool;
    /// Keeps the dictionary page and goes on in `encoding`.
    fn fall_back(&mut self, encoding: Encoding) -> pqcodec_core::Result<()>;
    /// Appends the pending page to `out`, a dictionary page's bounds taken from the entries
    /// it uses; returns its encoding.
    fn flush_into(
        &mut self,
        out: &mut Vec<u8>,
        encoding: Encoding,
        bounds: &mut Bounds,
        seen: &mut Vec<bool>,
        by_index: bool,
    ) -> pqcodec_core::Result<Encoding>;
    /// Ends the chunk: its dictionary page if its pages use one; the next chunk starts with
    /// a new dictionary if `dictionary`.
    fn finish_chunk(
        &mut self,
        dictionary: bool,
        encoding: Encoding,
    ) -> pqcodec_core::Result<Option<(Vec<u8>, usize)>>;
}

impl<T: Gather> ColumnValues for Typed<T>
where
    Typed<T>: Send,
{
    fn dictionary_encoding(&self) -> bool {
        matches!(self.encoder, ValueEncoder::Dictionary(_))
    }

    fn put_indices(&mut self, indices: &[u32]) -> pqcodec_core::Result<()> {
        match &mut self.encoder {
            ValueEncoder::Dictionary(e) => e.put_indices(indices),
            ValueEncoder::Direct(_) => Ok(()),
        }
    }

    fn put_values(&mut self, input: &Input<'_>, bounds: &mut Bounds) -> Result<Option<Vec<u32>>> {
        T::put_values(self, input, bounds)
    }

    fn estimated_size(&mut self) -> usize {
        self.encoder.encoder().estimated_size()
    }

    fn past_limits(&self, limits: DictionaryLimits) -> bool {
        match &self.encoder {
            ValueEncoder::Dictionary(e) => {
                e.dictionary_len() > limits.max_distinct_values
                    || e.dictionary_bytes() > limits.max_dictionary_bytes
            }
            ValueEncoder::Direct(_) => false,
        }
    }

    fn fall_back(&mut self, encoding: Encoding) -> pqcodec_core::Result<()> {
        if let ValueEncoder::Dictionary(e) = &self.encoder {
            self.fallen_back = Some((e.dictionary_page()?, e.dictionary_len()));
        }
        self.encoder = ValueEncoder::new(false, encoding, self.ty)?;
        Ok(())
    }

    fn flush_into(
        &mut self,
        out: &mut Vec<u8>,
        encoding: Encoding,
        bounds: &mut Bounds,
        seen: &mut Vec<bool>,
        by_index: bool,
    ) -> pqcodec_core::Result<Encoding> {
        // Bytes compare dearly: a dictionary page's bounds are taken from the entries it
        // uses, each once.
        let bytes = matches!(
            T::TYPE,
            PhysicalType::ByteArray | PhysicalType::FixedLenByteArray
        );
        if let ValueEncoder::Dictionary(e) = &self.encoder
            && !matches!(bounds, Bounds::None)
            && (bytes || by_index)
        {
            page_bounds(e, bounds, seen);
        }
        drop_unpaying_dictionary(self, encoding)?;
        let page_encoding = match &self.encoder {
            ValueEncoder::Dictionary(_) => {
                self.dictionary_pages = true;
                Encoding::RleDictionary
            }
            ValueEncoder::Direct(_) => encoding,
        };
        self.encoder.encoder().flush_into(out)?;
        Ok(page_encoding)
    }

    fn finish_chunk(
        &mut self,
        dictionary: bool,
        encoding: Encoding,
    ) -> pqcodec_core::Result<Option<(Vec<u8>, usize)>> {
        let page = match (&self.encoder, self.fallen_back.take()) {
            (_, Some(page)) => Some(page),
            (ValueEncoder::Dictionary(e), None) if self.dictionary_pages => {
                Some((e.dictionary_page()?, e.dictionary_len()))
            }
            _ => None,
        };
        self.dictionary_pages = false;
        self.encoder = ValueEncoder::new(dictionary, encoding, self.ty)?;
        Ok(page)
    }
}

/// At a chunk's first page, drops the dictionary if it does not pay (as parquet-java's writer
/// does): when the dictionary and the page of indices are no smaller than the page's values
/// in PLAIN, the page's values are encoded in the column's own encoding instead, and the
/// chunk goes on without a dictionary. High-cardinality columns are then neither hashed any
/// further nor written twice over.
fn drop_unpaying_dictionary<T: Gather>(
    t: &mut Typed<T>,
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
