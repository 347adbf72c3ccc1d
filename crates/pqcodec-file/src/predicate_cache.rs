//! The predicate cache: a field that the row filter's predicates read, and that a later
//! predicate or the projection reads again alike, is decoded once. The first predicate reading
//! it (of those not left out) keeps its batches; whoever reads it next takes them, cut down to
//! the rows it reads, in place of decoding the field again (arrow-rs's async reader does the
//! same for the projection). A row group's kept arrays are bounded by a size; past it, the
//! field is decoded again.

use std::ops::Range;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, BooleanArray};
use arrow_buffer::{BooleanBuffer, BooleanBufferBuilder};
use arrow_schema::SchemaRef;
use pqcodec_arrow::leaf_count;

use crate::error::{Error, Result};
use crate::selection::RowSelection;
use crate::view_buffers;

/// The predicate cache's default bound on the arrays one row group keeps: 100 MiB, as
/// arrow-rs's.
pub(crate) const DEFAULT_MAX_SIZE: usize = 100 * 1024 * 1024;

/// A field read alike (the same Arrow field over the same leaves) by a predicate and by a later
/// predicate or the projection.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Shared {
    /// Each predicate reading it, in order, with the field's index in the predicate's schema:
    /// the first evaluated decodes it, the others take it.
    pub(crate) readers: Vec<(usize, usize)>,
    /// The field's index in the projected schema, if it is projected.
    pub(crate) projected: Option<usize>,
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

/// The fields the predicates (each a schema over leaves) read that are read again alike: by a
/// later predicate or by the projection (`schema` over `leaves`).
pub(crate) fn shared_fields(
    schema: &SchemaRef,
    leaves: &[usize],
    filters: &[(SchemaRef, Vec<usize>)],
) -> Vec<Shared> {
    let mut shared: Vec<(&arrow_schema::Field, &[usize], Shared)> = Vec::new();
    for (p, (s, l)) in filters.iter().enumerate() {
        for (column, range) in leaf_ranges(s).into_iter().enumerate() {
            let (field, wanted) = (s.field(column), &l[range]);
            match shared
                .iter_mut()
                .find(|(f, w, _)| *f == field && *w == wanted)
            {
                Some((_, _, entry)) => entry.readers.push((p, column)),
                None => shared.push((
                    field,
                    wanted,
                    Shared {
                        readers: vec![(p, column)],
                        projected: None,
                    },
                )),
            }
        }
    }
    for (field, range) in leaf_ranges(schema).into_iter().enumerate() {
        let (f, wanted) = (schema.field(field), &leaves[range]);
        if let Some((_, _, entry)) = shared.iter_mut().find(|(g, w, _)| *g == f && *w == wanted) {
            entry.projected = Some(field);
        }
    }
    (shared.into_iter())
        .map(|(_, _, entry)| entry)
        .filter(|e| e.readers.len() + usize::from(e.projected.is_some()) > 1)
        .collect()
}

/// The batches of a shared field, as its first predicate read them, with the rows they hold.
struct Kept {
    /// The row group's rows the predicate read (one bit a row of the row group).
    rows: BooleanBuffer,
    arrays: Vec<ArrayRef>,
}

/// What one row group's predicates keep of the shared fields (each at its index in the plan's
/// list), within a bound on their size.
pub(crate) struct Cache {
    left: usize,
    kept: Vec<Option<Kept>>,
    /// Records decoded into the cache, and given from it.
    records: (usize, usize),
}

/// The bytes `array` keeps alive: its buffers whole, even where it is a slice of them or shares
/// them (a page's bytes that views point into), so that the bound holds.
fn size(array: &ArrayRef) -> usize {
    array.get_array_memory_size()
}

impl Cache {
    /// A cache of `fields` shared fields keeping at most `max_size` bytes of arrays.
    pub(crate) fn new(fields: usize, max_size: usize) -> Self {
        Cache {
            left: max_size,
            kept: (0..fields).map(|_| None).collect(),
            records: (0, 0),
        }
    }

    /// Starts keeping shared field `at`'s batches, read over `rows` of the row group.
    pub(crate) fn start(&mut self, at: usize, rows: BooleanBuffer) {
        if let Some(slot) = self.kept.get_mut(at) {
            *slot = Some(Kept {
                rows,
                arrays: Vec::new(),
            });
        }
    }

    /// Keeps `array` as the next batch of shared field `at`, or gives the field up if the bound
    /// would be passed.
    pub(crate) fn keep(&mut self, at: usize, array: &ArrayRef) {
        let Some(Some(kept)) = self.kept.get_mut(at) else {
            return;
        };
        match self.left.checked_sub(size(array)) {
            Some(left) => {
                self.left = left;
                self.records.0 += array.len();
                kept.arrays.push(array.clone());
            }
            None => self.give_up(at),
        }
    }

    /// Gives up shared field `at`: whoever reads it next decodes it (what it held is free for
    /// the others).
    pub(crate) fn give_up(&mut self, at: usize) {
        if let Some(kept) = self.kept.get_mut(at).and_then(Option::take) {
            let freed: usize = kept.arrays.iter().map(size).sum();
            self.left = self.left.saturating_add(freed);
        }
    }

    /// Shared field `at`'s values for the rows of the row group `read` holds (one bit a row),
    /// if it is kept.
    pub(crate) fn take(&mut self, at: usize, read: &BooleanBuffer) -> Result<Option<ArrayRef>> {
        let Some(Some(kept)) = self.kept.get_mut(at) else {
            return Ok(None);
        };
        if kept.arrays.is_empty() {
            return Ok(None);
        }
        // Each batch cut to the rows read, then joined: readers come in order, each reading
        // some of the rows the one before read, so what is kept is cut down to what this one
        // reads, for the next.
        if &kept.rows != read {
            let keep = gather(&kept.rows, read)?;
            let held: usize = kept.arrays.iter().map(|a| a.len()).sum();
            if keep.len() != held {
                return Err(Error::Request(format!(
                    "the predicate cache holds {held} rows of a column, not {}",
                    keep.len()
                )));
            }
            let mut at = 0;
            for array in &mut kept.arrays {
                let part = BooleanArray::new(keep.slice(at, array.len()), None);
                at += array.len();
                *array = arrow_select::filter::filter(array, &part)?;
            }
            kept.rows = read.clone();
        }
        if kept.arrays.len() != 1 {
            kept.arrays = vec![view_buffers::concat(&kept.arrays)?];
        }
        let array = kept.arrays[0].clone();
        self.records.1 += array.len();
        Ok(Some(array))
    }

    /// The records decoded into the cache, and those given from it.
    pub(crate) fn records(&self) -> (usize, usize) {
        self.records
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

/// For each row `held` holds, whether `wanted` holds it: `wanted` filtered by `held`.
fn gather(held: &BooleanBuffer, wanted: &BooleanBuffer) -> Result<BooleanBuffer> {
    let wanted = BooleanArray::new(wanted.clone(), None);
    let gathered = arrow_select::filter::filter(&wanted, &BooleanArray::new(held.clone(), None))?;
    Ok(gathered.as_boolean().values().clone())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::{Int32Array, StringArray, StringViewArray};
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
    fn a_field_read_again_alike_is_shared() {
        let projected = schema(&[("a", DataType::Int32), ("b", DataType::Utf8)]);
        let filters = vec![
            (schema(&[("a", DataType::Int32)]), vec![0]),
            (
                schema(&[("c", DataType::Int32), ("a", DataType::Int32)]),
                vec![2, 0],
            ),
            // `b` read as another type is not the projected field.
            (schema(&[("b", DataType::Utf8View)]), vec![1]),
            (schema(&[("c", DataType::Int32)]), vec![2]),
        ];
        let shared = shared_fields(&projected, &[0, 1], &filters);
        let a = Shared {
            readers: vec![(0, 0), (1, 1)],
            projected: Some(0),
        };
        let c = Shared {
            readers: vec![(1, 0), (3, 0)],
            projected: None,
        };
        assert_eq!(shared, [a, c.clone()]);
        // The same field over other leaves (another file's column of that name) is not shared;
        // a field one predicate alone reads is not either.
        let a = Shared {
            readers: vec![(0, 0), (1, 1)],
            projected: None,
        };
        assert_eq!(shared_fields(&projected, &[3, 1], &filters), [a, c]);
        assert!(shared_fields(&projected, &[3, 1], &filters[2..3]).is_empty());
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
    fn kept_batches_are_cut_to_the_rows_each_reader_reads() {
        let read = BooleanBuffer::from_iter([true, true, false, true, true, true]);
        let mut cache = Cache::new(2, 1 << 20);
        cache.start(1, read.clone());
        cache.keep(1, &(Arc::new(Int32Array::from(vec![10, 11])) as ArrayRef));
        cache.keep(
            1,
            &(Arc::new(Int32Array::from(vec![13, 14, 15])) as ArrayRef),
        );
        // Field 0 was not kept: its reader decodes it.
        assert!(cache.take(0, &read).unwrap().is_none());
        let all = cache.take(1, &read).unwrap().unwrap();
        assert_eq!(all.len(), 5);
        let fewer = BooleanBuffer::from_iter([false, true, false, true, false, true]);
        let taken = cache.take(1, &fewer).unwrap().unwrap();
        assert_eq!(
            taken.as_ref(),
            &Int32Array::from(vec![11, 13, 15]) as &dyn Array
        );
        assert_eq!(cache.records(), (5, 8));
    }

    #[test]
    fn batches_viewing_one_page_are_taken_as_one_array_over_it() {
        let page = StringViewArray::from_iter_values((0..30).map(|i| format!("{i:020}")));
        let rows = BooleanBuffer::from_iter([true; 30]);
        let mut cache = Cache::new(1, 1 << 20);
        cache.start(0, rows.clone());
        for at in [0, 10, 20] {
            cache.keep(0, &(Arc::new(page.slice(at, 10)) as ArrayRef));
        }
        let taken = cache.take(0, &rows).unwrap().unwrap();
        assert_eq!(taken.as_string_view(), &page);
        assert_eq!(
            taken.as_string_view().data_buffers().len(),
            page.data_buffers().len()
        );
    }

    #[test]
    fn a_field_past_the_bound_is_given_up_and_frees_its_share() {
        let rows = BooleanBuffer::from_iter([true; 4]);
        let strings: ArrayRef = Arc::new(StringArray::from(vec!["0123456789"; 2]));
        let ints = |a, b| Arc::new(Int32Array::from(vec![a, b])) as ArrayRef;
        let (big, small) = (size(&strings), size(&ints(1, 2)));
        assert!(big > small);
        let mut cache = Cache::new(2, big + 2 * small);
        cache.start(0, rows.clone());
        cache.start(1, rows.clone());
        cache.keep(0, &strings);
        cache.keep(1, &ints(1, 2));
        // The second batch of strings passes the bound: the field is decoded again instead.
        cache.keep(0, &strings);
        cache.keep(1, &ints(3, 4));
        assert!(cache.take(0, &rows).unwrap().is_none());
        assert_eq!(cache.take(1, &rows).unwrap().unwrap().len(), 4);
    }
}
