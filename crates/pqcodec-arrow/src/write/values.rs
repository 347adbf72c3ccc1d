//! A leaf column's values into pqcodec's encoders: dictionary first if asked, falling back
//! to the column's own encoding once the dictionary passes its limits.

use std::sync::Arc;

use arrow_array::ArrayRef;
use arrow_array::cast::AsArray;
use arrow_schema::DataType;
use pqcodec_core::{Encoding, with_physical};
use pqcodec_encodings::dictionary::DictionaryLimits;
use pqcodec_encodings::dynamic::DynamicType;

use super::gather;
use super::shred::PositionsRef;
use super::stats::{Bounds, SortOrder};
use super::typed::{ColumnValues, Gather, Input, Op, Typed, column_error};
use crate::error::{Error, Result};
use crate::schema::ColumnDesc;

/// A leaf column's value encoder and its running bounds.
pub(crate) struct ValueWriter {
    values: Box<dyn ColumnValues>,
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
        let codec = |e| column_error(&desc.path, e);
        let dict = dictionary.is_some();
        let value_type = match data_type {
            DataType::Dictionary(_, v) => v.as_ref(),
            other => other,
        };
        let (values, accepted, bounds) = with_physical!(desc.column_type, ty: T => {
            let values: Box<dyn ColumnValues> =
                Box::new(Typed::new(dict, encoding, ty).map_err(codec)?);
            if dict {
                // The fallback encoding must apply even when the dictionary comes first.
                T::encoder(encoding, ty).map_err(codec)?;
            }
            let bounds = if statistics && order != SortOrder::Undefined {
                T::empty_bounds(value_type, order == SortOrder::Unsigned)
            } else {
                Bounds::None
            };
            (values, T::accepts(desc, value_type), bounds)
        });
        if !accepted {
            return Err(gather::unsupported(
                &desc.path,
                desc.physical().name(),
                value_type,
            ));
        }
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
            && self.values.dictionary_encoding()
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
        if !self.values.dictionary_encoding() {
            return Err(Error::Schema(format!(
                "column {:?}: no dictionary",
                self.path
            )));
        }
        self.by_index = true;
        let indices: Vec<u32> = keys.iter().map(|&k| remap[k]).collect();
        self.values
            .put_indices(&indices)
            .map_err(|e| column_error(&self.path, e))
    }

    /// Does `op` with the values of `array` at `positions`.
    fn apply(
        &mut self,
        array: &ArrayRef,
        positions: &PositionsRef<'_>,
        op: Op,
    ) -> Result<Option<Vec<u32>>> {
        let input = Input {
            path: &self.path,
            array: array.as_ref(),
            positions,
            op,
        };
        self.values.put_values(&input, &mut self.bounds)
    }

    /// About the size of the next page's values.
    pub(crate) fn estimated_size(&mut self) -> usize {
        self.values.estimated_size()
    }

    /// Whether the dictionary has passed its limits: the page so far should be written, then
    /// [`ValueWriter::fall_back`].
    pub(crate) fn past_dictionary_limits(&self) -> bool {
        self.dictionary
            .is_some_and(|limits| self.values.past_limits(limits))
    }

    /// Keeps the dictionary page of this chunk and writes the rest of it in the column's own
    /// encoding. Call with no values pending.
    pub(crate) fn fall_back(&mut self) -> Result<()> {
        self.remap = None;
        self.values
            .fall_back(self.encoding)
            .map_err(|e| column_error(&self.path, e))
    }

    /// Appends the pending values' page to `out`; returns its encoding.
    pub(crate) fn flush_into(&mut self, out: &mut Vec<u8>) -> Result<Encoding> {
        let by_index = std::mem::take(&mut self.by_index);
        self.values
            .flush_into(
                out,
                self.encoding,
                &mut self.bounds,
                &mut self.seen,
                by_index,
            )
            .map_err(|e| column_error(&self.path, e))
    }

    /// Ends the column chunk: its dictionary page (PLAIN bytes, number of values) if its
    /// pages use one. The next chunk starts with a new dictionary.
    pub(crate) fn finish_chunk(&mut self) -> Result<Option<(Vec<u8>, usize)>> {
        self.remap = None;
        self.values
            .finish_chunk(self.dictionary.is_some(), self.encoding)
            .map_err(|e| column_error(&self.path, e))
    }
}
