//! What the advisor keeps of the data it is shown: runs of contiguous rows from across the
//! column, and each row group's distinct values per leaf column.

use std::ops::Range;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, OffsetSizeTrait, RecordBatch};
use arrow_schema::{DataType, FieldRef};
use pqcodec_arrow::ColumnDesc;

use super::distinct::{Distinct, DistinctCounter};
use crate::error::{Error, Result};

/// The rows of the sample: `runs` runs of `run_rows` contiguous rows, evenly spread over
/// `total` rows (all of them when that is fewer).
pub(crate) fn plan_runs(total: u64, runs: u64, run_rows: u64) -> Vec<Range<u64>> {
    if total <= runs * run_rows {
        return vec![0..total];
    }
    let stride = total / runs;
    (0..runs)
        .map(|i| {
            let start = i * stride + (stride - run_rows) / 2;
            start..start + run_rows
        })
        .collect()
}

/// One top-level field's sample and its leaves' distinct counts.
#[derive(Debug)]
pub(crate) struct FieldSample {
    pub(crate) field: FieldRef,
    /// Its leaf columns, in Parquet's order.
    pub(crate) leaves: Vec<ColumnDesc>,
    pieces: Vec<ArrayRef>,
    counters: Vec<DistinctCounter>,
    /// Per leaf, what each row group's count found.
    pub(crate) groups: Vec<Vec<Distinct>>,
}

impl FieldSample {
    fn new(field: FieldRef, leaves: Vec<ColumnDesc>, dictionary_limit: u64) -> Self {
        let counters = leaves
            .iter()
            .map(|l| DistinctCounter::new(l.column_type, dictionary_limit))
            .collect();
        FieldSample {
            groups: vec![Vec::new(); leaves.len()],
            field,
            leaves,
            pieces: Vec::new(),
            counters,
        }
    }

    /// The sampled rows, as one array.
    pub(crate) fn rows(&self) -> Result<ArrayRef> {
        let pieces: Vec<&dyn Array> = self.pieces.iter().map(|p| p.as_ref()).collect();
        if pieces.is_empty() {
            return Ok(arrow_array::new_empty_array(self.field.data_type()));
        }
        Ok(arrow_select::concat::concat(&pieces)?)
    }

    fn count(&mut self, column: &ArrayRef) {
        let mut leaves = Vec::with_capacity(self.leaves.len());
        leaf_arrays(column, &mut leaves);
        if leaves.len() != self.counters.len() {
            // A shape this walk does not follow: nothing counted, the sample decides.
            leaves.clear();
        }
        for (counter, leaf) in self.counters.iter_mut().zip(&leaves) {
            counter.observe(leaf);
        }
    }

    fn end_group(&mut self) {
        for (counter, groups) in self.counters.iter_mut().zip(&mut self.groups) {
            groups.push(counter.finish());
        }
    }
}

/// Takes a column's batches in order, as a file's row groups would hold them.
#[derive(Debug)]
pub(crate) struct Sampler {
    runs: Vec<Range<u64>>,
    row_group_rows: u64,
    /// Rows seen so far.
    position: u64,
    rows_in_group: u64,
    /// The rows of each row group counted.
    pub(crate) group_rows: Vec<u64>,
    pub(crate) fields: Vec<FieldSample>,
}

impl Sampler {
    /// A sampler of the given fields, each with its leaf columns, keeping the rows of `runs`
    /// and counting distinct values per `row_group_rows` rows up to `dictionary_limit` bytes.
    pub(crate) fn new(
        fields: Vec<(FieldRef, Vec<ColumnDesc>)>,
        runs: Vec<Range<u64>>,
        row_group_rows: u64,
        dictionary_limit: u64,
    ) -> Self {
        Sampler {
            runs,
            row_group_rows: row_group_rows.max(1),
            position: 0,
            rows_in_group: 0,
            group_rows: Vec::new(),
            fields: fields
                .into_iter()
                .map(|(f, leaves)| FieldSample::new(f, leaves, dictionary_limit))
                .collect(),
        }
    }

    /// Rows seen.
    pub(crate) fn rows(&self) -> u64 {
        self.position
    }

    /// The next rows, as the writer would be given them.
    pub(crate) fn observe(&mut self, batch: &RecordBatch) -> Result<()> {
        if batch.num_columns() != self.fields.len() {
            return Err(Error::Request(format!(
                "a batch of {} columns given to an advisor of {}",
                batch.num_columns(),
                self.fields.len()
            )));
        }
        let mut offset = 0usize;
        while offset < batch.num_rows() {
            let room = (self.row_group_rows - self.rows_in_group) as usize;
            let n = room.min(batch.num_rows() - offset);
            let part = batch.slice(offset, n);
            let start = self.position;
            for (sample, column) in self.fields.iter_mut().zip(part.columns()) {
                sample.count(column);
                for run in &self.runs {
                    let from = run.start.max(start);
                    let to = run.end.min(start + n as u64);
                    if from < to {
                        sample
                            .pieces
                            .push(column.slice((from - start) as usize, (to - from) as usize));
                    }
                }
            }
            self.position += n as u64;
            self.rows_in_group += n as u64;
            offset += n;
            if self.rows_in_group == self.row_group_rows {
                self.end_group();
            }
        }
        Ok(())
    }

    /// Ends the row group being counted, if it has rows.
    pub(crate) fn end_group(&mut self) {
        if self.rows_in_group > 0 {
            for field in &mut self.fields {
                field.end_group();
            }
            self.group_rows.push(self.rows_in_group);
            self.rows_in_group = 0;
        }
    }
}

/// The leaf columns' values under `array`, in Parquet's column order: a struct's fields, a
/// list's or map's entries (those its rows reach).
pub(crate) fn leaf_arrays(array: &ArrayRef, out: &mut Vec<ArrayRef>) {
    match array.data_type() {
        DataType::Struct(_) => {
            for child in array.as_struct().columns() {
                leaf_arrays(child, out);
            }
        }
        DataType::List(_) => leaf_arrays(&list_values::<i32>(array), out),
        DataType::LargeList(_) => leaf_arrays(&list_values::<i64>(array), out),
        DataType::Map(_, _) => {
            let map = array.as_map();
            let offsets = map.value_offsets();
            let (first, last) = (offsets[0] as usize, offsets[offsets.len() - 1] as usize);
            let entries: ArrayRef = std::sync::Arc::new(map.entries().slice(first, last - first));
            leaf_arrays(&entries, out);
        }
        _ => out.push(array.clone()),
    }
}

fn list_values<O: OffsetSizeTrait>(array: &ArrayRef) -> ArrayRef {
    let list = array.as_list::<O>();
    let offsets = list.value_offsets();
    let first = offsets[0].as_usize();
    let last = offsets[offsets.len() - 1].as_usize();
    list.values().slice(first, last - first)
}
