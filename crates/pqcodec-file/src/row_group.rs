//! One row group's batches: its columns' pages decoded, the row selection applied (runs to
//! skip passed to the decoders' `skip`, which passes over whole pages unread where it can),
//! batches of the chosen size.

use std::collections::VecDeque;

use arrow_array::{RecordBatch, RecordBatchOptions};
use arrow_schema::SchemaRef;
use pqcodec_arrow::RecordBatchDecoder;

use crate::error::{Error, Result};
use crate::selection::{RowSelection, RowSelector};

/// The batches of one row group.
pub(crate) struct RowGroupReader {
    row_group: usize,
    schema: SchemaRef,
    /// `None` when no column is read (an empty projection): batches of rows only.
    decoder: Option<RecordBatchDecoder>,
    runs: VecDeque<RowSelector>,
    batch_size: usize,
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
        }
    }

    /// The decoder, for the next row group to reuse.
    pub(crate) fn into_decoder(self) -> Option<RecordBatchDecoder> {
        self.decoder
    }

    /// The next batch, or `None` at the end of the row group's selected rows.
    pub(crate) fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
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
            let done = match (&mut self.decoder, run.skip) {
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
        if rows == 0 {
            return Ok(None);
        }
        match &mut self.decoder {
            Some(d) => d.consume_batch().map_err(decode),
            None => {
                let options = RecordBatchOptions::new().with_row_count(Some(rows));
                RecordBatch::try_new_with_options(self.schema.clone(), vec![], &options)
                    .map(Some)
                    .map_err(|e| Error::Request(e.to_string()))
            }
        }
    }
}
