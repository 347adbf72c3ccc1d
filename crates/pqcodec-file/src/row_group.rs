//! One row group's batches: its columns' pages decoded, the row selection applied (runs to
//! skip passed to the decoders' `skip`, which passes over whole pages unread where it can),
//! batches of the chosen size; and a row filter's mask, where the rows it keeps are too
//! scattered to skip between: each batch decoded whole and filtered (the rows kept gathered
//! into whole batches), or skipped if it keeps none; and the fields the row filter decoded
//! already (the predicate cache) put in place.

use std::collections::VecDeque;

use arrow_array::{ArrayRef, BooleanArray, RecordBatch, RecordBatchOptions};
use arrow_buffer::BooleanBuffer;
use arrow_schema::SchemaRef;
use arrow_select::coalesce::BatchCoalescer;
use arrow_select::filter::filter_record_batch;
use pqcodec_arrow::RecordBatchDecoder;

use crate::error::{Error, Result};
use crate::selection::{RowSelection, RowSelector};
use crate::view_buffers::with_dense_views;

/// The batches of one row group.
pub(crate) struct RowGroupReader {
    row_group: usize,
    schema: SchemaRef,
    /// `None` when no column is read (an empty projection): batches of rows only.
    decoder: Option<RecordBatchDecoder>,
    runs: VecDeque<RowSelector>,
    batch_size: usize,
    /// Which of the selected rows are kept, and how many were passed so far.
    mask: Option<(BooleanBuffer, usize)>,
    /// Fields not decoded here: the batches' schema, and each field's position in it and its
    /// values for every row given; the rows given so far.
    taken: Option<(SchemaRef, Vec<(usize, ArrayRef)>)>,
    given: usize,
}

impl RowGroupReader {
    pub(crate) fn new(
        row_group: usize,
        schema: SchemaRef,
        decoder: Option<RecordBatchDecoder>,
        selection: RowSelection,
        batch_size: usize,
    ) -> Self {
        let mut runs: VecDeque<RowSelector> = selection.selectors().iter().copied().collect();
        // Nothing is read after trailing skipped rows: they are not skipped through.
        while runs.back().is_some_and(|r| r.skip) {
            runs.pop_back();
        }
        RowGroupReader {
            row_group,
            schema,
            decoder,
            runs,
            batch_size,
            mask: None,
            taken: None,
            given: 0,
        }
    }

    /// Puts the arrays of `taken` (a field's position in `schema`, its values for every row
    /// this reader gives) into the batches, which are then of `schema`.
    pub(crate) fn with_taken(
        mut self,
        schema: SchemaRef,
        mut taken: Vec<(usize, ArrayRef)>,
    ) -> Self {
        taken.sort_unstable_by_key(|(at, _)| *at);
        self.taken = (!taken.is_empty()).then_some((schema, taken));
        self
    }

    /// Keeps only the selected rows `mask` keeps (one bit a selected row).
    pub(crate) fn with_mask(mut self, mask: Option<BooleanBuffer>) -> Self {
        self.mask = mask.map(|m| (m, 0));
        self
    }

    /// The decoder, for the next row group to reuse.
    pub(crate) fn into_decoder(self) -> Option<RecordBatchDecoder> {
        self.decoder
    }

    /// The next batch, gathered in `gather` where the mask dropped rows of it; `None` when the
    /// row group has no more rows to give, though `gather` may hold some of them still: they
    /// are given with the next row group's, or by [`last_gathered`] at the end.
    pub(crate) fn next_batch(
        &mut self,
        gather: &mut BatchCoalescer,
    ) -> Result<Option<RecordBatch>> {
        loop {
            if let Some(batch) = gather.next_completed_batch() {
                return Ok(Some(batch));
            }
            let Some((batch, keep)) = self.next_decoded()? else {
                return Ok(None);
            };
            let Some(keep) = keep else {
                // A whole batch is given as it is, after any rows gathered before it; a small
                // one behind gathered rows joins them.
                let batch = self.with_taken_fields(batch)?;
                if gather.get_buffered_rows() == 0 {
                    return Ok(Some(batch));
                }
                if batch.num_rows() > self.batch_size / 2 {
                    gather.finish_buffered_batch()?;
                }
                gather.push_batch(batch)?;
                continue;
            };
            let keep = BooleanArray::new(keep, None);
            if self.taken.is_none() {
                gather.push_batch_with_filter(batch, &keep)?;
                continue;
            }
            // The taken fields hold only the rows kept: the others go first.
            let batch = filter_record_batch(&batch, &keep)?;
            let batch = with_dense_views(self.with_taken_fields(batch)?)?;
            gather.push_batch(batch)?;
        }
    }

    /// `batch` with the taken fields' values for its rows put in place.
    fn with_taken_fields(&mut self, batch: RecordBatch) -> Result<RecordBatch> {
        let Some((schema, taken)) = &self.taken else {
            return Ok(batch);
        };
        let rows = batch.num_rows();
        let mut columns = batch.columns().to_vec();
        for (at, array) in taken {
            if array.len() < self.given + rows {
                return Err(Error::Request(format!(
                    "the row filter kept {} rows of a column, {} are read",
                    array.len(),
                    self.given + rows
                )));
            }
            columns.insert(*at, array.slice(self.given, rows));
        }
        self.given += rows;
        let options = RecordBatchOptions::new().with_row_count(Some(rows));
        RecordBatch::try_new_with_options(schema.clone(), columns, &options).map_err(Error::Arrow)
    }

    /// The next batch of the decoded fields, and which of its rows the mask keeps where it
    /// drops some (a batch whose rows it drops all is skipped, not decoded).
    fn next_decoded(&mut self) -> Result<Option<(RecordBatch, Option<BooleanBuffer>)>> {
        loop {
            let Some((mask, at)) = &mut self.mask else {
                return Ok(self.next_selected(false)?.map(|batch| (batch, None)));
            };
            let n = self.batch_size.min(mask.len() - *at);
            if n == 0 {
                return Ok(None);
            }
            let keep = mask.slice(*at, n);
            *at += n;
            let count = keep.count_set_bits();
            if count == 0 {
                self.next_selected(true)?;
                continue;
            }
            let Some(batch) = self.next_selected(false)? else {
                // The rows ran out before the mask.
                if let Some((mask, at)) = &mut self.mask {
                    *at = mask.len();
                }
                return Ok(None);
            };
            return Ok(Some((batch, (count < n).then_some(keep))));
        }
    }

    /// The next batch of selected rows (`None` at their end); with `skip`, those rows are
    /// skipped instead, and `None` returned.
    fn next_selected(&mut self, skip: bool) -> Result<Option<RecordBatch>> {
        let row_group = self.row_group;
        let decode = |source| Error::Decode { row_group, source };
        let mut rows = 0;
        while rows < self.batch_size {
            let Some(run) = self.runs.front_mut() else {
                break;
            };
            let n = match run.skip {
                true => run.row_count,
                false => run.row_count.min(self.batch_size - rows),
            };
            let done = match (&mut self.decoder, run.skip || skip) {
                (None, _) => n,
                (Some(d), true) => d.skip(n).map_err(decode)?,
                (Some(d), false) => d.read_records(n).map_err(decode)?,
            };
            if done != n {
                return Err(Error::Decode {
                    row_group,
                    source: pqcodec_arrow::Error::Schema(format!(
                        "the row group's columns end {} rows short of the rows its metadata gives",
                        n - done
                    )),
                });
            }
            if !run.skip {
                rows += n;
            }
            run.row_count -= n;
            if run.row_count == 0 {
                self.runs.pop_front();
            }
        }
        if rows == 0 || skip {
            return Ok(None);
        }
        match &mut self.decoder {
            Some(d) => d.consume_batch().map_err(decode),
            None => {
                let options = RecordBatchOptions::new().with_row_count(Some(rows));
                RecordBatch::try_new_with_options(self.schema.clone(), vec![], &options)
                    .map(Some)
                    .map_err(Error::Arrow)
            }
        }
    }
}

/// Where the rows a mask keeps are gathered into batches of `batch_size` of `schema`, as
/// DataFusion's `FilterExec` gives them (the operators above pay per batch, and a batch's
/// buffers are sized for `batch_size` rows): across row groups, so that only the last batch is
/// short. A batch that keeps over half its rows is given as filtered, not copied again.
pub(crate) fn gather(schema: SchemaRef, batch_size: usize) -> BatchCoalescer {
    BatchCoalescer::new(schema, batch_size).with_biggest_coalesce_batch_size(Some(batch_size / 2))
}

/// The rows `gather` holds still, at the end of the row groups read: a batch each call.
pub(crate) fn last_gathered(gather: &mut BatchCoalescer) -> Result<Option<RecordBatch>> {
    gather.finish_buffered_batch()?;
    Ok(gather.next_completed_batch())
}
