//! The predicate cache: a projected field that a predicate of the row filter reads too is
//! decoded once. The predicate's batches of it are kept, then filtered down to the rows the
//! whole filter keeps, in place of decoding the field again (arrow-rs's async reader does the
//! same). A row group's kept arrays are bounded by a size; past it, the field is decoded again.

use std::ops::Range;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, BooleanArray};
use arrow_buffer::{BooleanBuffer, BooleanBufferBuilder};
use arrow_schema::SchemaRef;
use pqcodec_arrow::leaf_count;

use crate::error::{Error, Result};
use crate::selection::RowSelection;

/// The predicate cache's default bound on the arrays one row group keeps: 100 MiB, as
/// arrow-rs's.
pub(crate) const DEFAULT_MAX_SIZE: usize = 100 * 1024 * 1024;

/// A projected field that a predicate reads as it is projected (the same Arrow field over the
/// same leaves): the last predicate to read it, so that its rows are the fewest.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Shared {
    /// The field's index in the projected schema.
    pub(crate) field: usize,
    /// The predicate's index in the row filter.
    pub(crate) predicate: usize,
    /// The field's index in the predicate's schema.
    pub(crate) column: usize,
}

/// Where each field of `schema` lies in `leaves` (its leaf columns, in field order).
pub(crate) fn leaf_ranges(schema: &SchemaRef) -> Vec<Range<usize>> {
    let mut at = 0;
    (schema.fields().iter())
        .map(|field| {
            let start = at;
            at += leaf_count(field);
            start..at
        })
        .collect()
}

/// The fields of the projection (`schema` over `leaves`) that the predicates (each a schema
/// over leaves) read as they are projected.
pub(crate) fn shared_fields(
    schema: &SchemaRef,
    leaves: &[usize],
    filters: &[(SchemaRef, Vec<usize>)],
) -> Vec<Shared> {
    let mut shared = Vec::new();
    for (field, range) in leaf_ranges(schema).into_iter().enumerate() {
        let wanted = &leaves[range];
        let last = filters.iter().enumerate().rev().find_map(|(p, (s, l))| {
            let column = (leaf_ranges(s).into_iter().enumerate())
                .position(|(c, r)| s.field(c) == schema.field(field) && &l[r] == wanted)?;
            Some(Shared {
                field,
                predicate: p,
                column,
            })
        });
        shared.extend(last);
    }
    shared
}

/// The batches of a shared field, as its predicate read them, with the rows they hold.
pub(crate) struct Taken {
    field: usize,
    /// The row group's rows the predicate read (one bit a row of the row group).
    rows: BooleanBuffer,
    arrays: Vec<ArrayRef>,
}

/// What one row group's predicates keep of the shared fields, within a bound on their size.
pub(crate) struct Cache {
    left: usize,
    taken: Vec<Taken>,
}

impl Cache {
    /// A cache keeping at most `max_size` bytes of arrays.
    pub(crate) fn new(max_size: usize) -> Self {
        Cache {
            left: max_size,
            taken: Vec::new(),
        }
    }

    /// Starts keeping `field`'s batches, read over `rows` of the row group.
    pub(crate) fn start(&mut self, field: usize, rows: BooleanBuffer) -> usize {
        self.taken.push(Taken {
            field,
            rows,
            arrays: Vec::new(),
        });
        self.taken.len() - 1
    }

    /// Keeps `array` as the next batch of the field started as `at`, or gives up the field if
    /// the bound would be passed.
    pub(crate) fn keep(&mut self, at: usize, array: &ArrayRef) {
        let Some(taken) = self.taken.get_mut(at) else {
            return;
        };
        if taken.rows.is_empty() {
            return;
        }
        let size = (array.to_data().get_slice_memory_size())
            .unwrap_or_else(|_| array.get_array_memory_size());
        match self.left.checked_sub(size) {
            Some(left) => {
                self.left = left;
                taken.arrays.push(array.clone());
            }
            None => {
                // Given up: no rows, no arrays (what it held is free for the others).
                let freed: usize = (taken.arrays.iter())
                    .map(|a| a.to_data().get_slice_memory_size().unwrap_or(0))
                    .sum();
                self.left = self.left.saturating_add(freed);
                taken.rows = BooleanBuffer::new_unset(0);
                taken.arrays.clear();
            }
        }
    }

    /// The records kept (one a row a field).
    pub(crate) fn records(&self) -> usize {
        let arrays = self.taken.iter().flat_map(|t| &t.arrays);
        arrays.map(|a| a.len()).sum()
    }

    /// Each field kept, with its values for the rows of the row group `kept` keeps (one bit a
    /// row), in field order.
    pub(crate) fn finish(self, kept: &BooleanBuffer) -> Result<Vec<(usize, ArrayRef)>> {
        let mut out = Vec::with_capacity(self.taken.len());
        for taken in self.taken {
            if taken.rows.is_empty() || taken.arrays.is_empty() {
                continue;
            }
            let parts: Vec<&dyn Array> = taken.arrays.iter().map(|a| a.as_ref()).collect();
            let request = |e: arrow_schema::ArrowError| Error::Request(e.to_string());
            let array = arrow_select::concat::concat(&parts).map_err(request)?;
            let array = match &taken.rows == kept {
                true => array,
                false => {
                    let keep = gather(&taken.rows, kept)?;
                    arrow_select::filter::filter(&array, &BooleanArray::new(keep, None))
                        .map_err(request)?
                }
            };
            out.push((taken.field, array));
        }
        out.sort_by_key(|(field, _)| *field);
        Ok(out)
    }
}

/// The rows of a row group of `rows` rows that `selection` selects and `mask` (one bit a
/// selected row), if any, keeps: one bit a row of the row group.
pub(crate) fn rows_read(
    selection: &RowSelection,
    mask: Option<&BooleanBuffer>,
    rows: usize,
) -> BooleanBuffer {
    let mut out = BooleanBufferBuilder::new(rows);
    let mut selected = 0;
    for run in selection.selectors() {
        match (run.skip, mask) {
            (true, _) => out.append_n(run.row_count, false),
            (false, None) => out.append_n(run.row_count, true),
            (false, Some(mask)) => out.append_buffer(&mask.slice(selected, run.row_count)),
        }
        if !run.skip {
            selected += run.row_count;
        }
    }
    out.append_n(rows.saturating_sub(out.len()), false);
    out.finish()
}

/// For each row `read` holds, whether `kept` holds it: `kept` filtered by `read`.
fn gather(read: &BooleanBuffer, kept: &BooleanBuffer) -> Result<BooleanBuffer> {
    let kept = BooleanArray::new(kept.clone(), None);
    let gathered = arrow_select::filter::filter(&kept, &BooleanArray::new(read.clone(), None))
        .map_err(|e| Error::Request(e.to_string()))?;
    Ok(gathered.as_boolean().values().clone())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::{Int32Array, StringArray};
    use arrow_schema::{DataType, Field, Schema};

    use super::*;
    use crate::selection::RowSelector;

    fn schema(fields: &[(&str, DataType)]) -> SchemaRef {
        let fields: Vec<Field> = (fields.iter())
            .map(|(n, t)| Field::new(*n, t.clone(), true))
            .collect();
        Arc::new(Schema::new(fields))
    }

    #[test]
    fn a_projected_field_is_shared_with_the_last_predicate_reading_it_alike() {
        let projected = schema(&[("a", DataType::Int32), ("b", DataType::Utf8)]);
        let filters = vec![
            (schema(&[("a", DataType::Int32)]), vec![0]),
            (
                schema(&[("a", DataType::Int32), ("c", DataType::Int32)]),
                vec![0, 2],
            ),
            // `b` read as another type is not the projected field.
            (schema(&[("b", DataType::Utf8View)]), vec![1]),
        ];
        let shared = shared_fields(&projected, &[0, 1], &filters);
        assert_eq!(
            shared,
            [Shared {
                field: 0,
                predicate: 1,
                column: 0
            }]
        );
        // The same field over other leaves (another file's column of that name) is not shared.
        assert!(shared_fields(&projected, &[3, 1], &filters[..2]).is_empty());
    }

    #[test]
    fn rows_read_spread_a_mask_over_the_selection() {
        let selection: RowSelection = vec![
            RowSelector::skip(2),
            RowSelector::select(3),
            RowSelector::skip(1),
            RowSelector::select(2),
        ]
        .into();
        let all = rows_read(&selection, None, 10);
        let bits: Vec<bool> = all.iter().collect();
        let want = [0, 0, 1, 1, 1, 0, 1, 1, 0, 0].map(|b| b == 1);
        assert_eq!(bits, want);
        let mask = BooleanBuffer::from_iter([true, false, true, false, true]);
        let masked: Vec<bool> = rows_read(&selection, Some(&mask), 10).iter().collect();
        assert_eq!(masked, [0, 0, 1, 0, 1, 0, 0, 1, 0, 0].map(|b| b == 1));
    }

    #[test]
    fn kept_batches_are_cut_to_the_rows_kept_at_the_end() {
        let read = BooleanBuffer::from_iter([true, true, false, true, true, true]);
        let mut cache = Cache::new(1 << 20);
        let at = cache.start(1, read);
        cache.keep(at, &(Arc::new(Int32Array::from(vec![10, 11])) as ArrayRef));
        cache.keep(
            at,
            &(Arc::new(Int32Array::from(vec![13, 14, 15])) as ArrayRef),
        );
        let kept = BooleanBuffer::from_iter([false, true, false, true, false, true]);
        let out = cache.finish(&kept).unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].0, 1);
        assert_eq!(
            out[0].1.as_ref(),
            &Int32Array::from(vec![11, 13, 15]) as &dyn Array
        );
    }

    #[test]
    fn a_field_past_the_bound_is_given_up_and_frees_its_share() {
        let rows = BooleanBuffer::from_iter([true; 4]);
        let mut cache = Cache::new(40);
        let big = cache.start(0, rows.clone());
        let small = cache.start(1, rows.clone());
        let strings: ArrayRef = Arc::new(StringArray::from(vec!["0123456789"; 2]));
        cache.keep(big, &strings);
        cache.keep(small, &(Arc::new(Int32Array::from(vec![1, 2])) as ArrayRef));
        // The second batch of strings passes the bound: the field is decoded again instead.
        cache.keep(big, &strings);
        cache.keep(small, &(Arc::new(Int32Array::from(vec![3, 4])) as ArrayRef));
        let out = cache.finish(&rows).unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].0, 1);
        assert_eq!(out[0].1.len(), 4);
    }
}
