//! The row groups a reader has left to read and the one it decodes: what the synchronous
//! reader and the stream share, all but the fetching of bytes.

use std::collections::VecDeque;

use arrow_array::RecordBatch;
use arrow_select::coalesce::BatchCoalescer;
use bytes::Bytes;
use pqcodec_arrow::RecordBatchDecoder;

use crate::error::Result;
use crate::metrics::decoding;
use crate::plan::{GroupFetch, Plan, Remaining};
use crate::row_group::{RowGroupReader, gather, last_gathered};
use crate::selection::RowSelection;

/// What a reader does next.
pub(crate) enum Next {
    /// Gives this batch.
    Batch(RecordBatch),
    /// Fetches these ranges and hands their bytes to [`RowGroups::open`].
    Fetch(GroupFetch),
    /// Ends: every row was given.
    End,
}

/// The row groups left, the one being decoded, and the rows a row filter kept gathered across
/// them into whole batches.
pub(crate) struct RowGroups {
    pub(crate) plan: Plan,
    groups: VecDeque<(usize, RowSelection)>,
    current: Option<RowGroupReader>,
    /// The decoder of the row group read last, for the next to reuse.
    spare: Option<RecordBatchDecoder>,
    remaining: Remaining,
    gather: BatchCoalescer,
}

impl RowGroups {
    pub(crate) fn new(
        plan: Plan,
        groups: VecDeque<(usize, RowSelection)>,
        remaining: Remaining,
    ) -> Self {
        let gather = gather(plan.schema.clone(), plan.batch_size);
        RowGroups {
            plan,
            groups,
            current: None,
            spare: None,
            remaining,
            gather,
        }
    }

    /// How many row groups are left to open.
    pub(crate) fn left(&self) -> usize {
        self.groups.len()
    }

    /// The next batch of the row group being decoded, or else the next row group to fetch.
    pub(crate) fn next(&mut self) -> Result<Next> {
        if let Some(group) = self.current.as_mut() {
            let gather = &mut self.gather;
            match decoding(self.plan.metrics.as_ref(), || group.next_batch(gather)) {
                Ok(Some(batch)) => return Ok(Next::Batch(batch)),
                Ok(None) => self.spare = self.current.take().and_then(|g| g.into_decoder()),
                Err(e) => return Err(self.failed(e)),
            }
        }
        if self.remaining.done() {
            self.groups.clear();
        }
        if let Some((row_group, selection)) = self.groups.pop_front() {
            return match self.plan.fetch(row_group, selection) {
                Ok(fetch) => Ok(Next::Fetch(fetch)),
                Err(e) => Err(self.failed(e)),
            };
        }
        match last_gathered(&mut self.gather) {
            Ok(Some(batch)) => Ok(Next::Batch(batch)),
            Ok(None) => Ok(Next::End),
            Err(e) => Err(self.failed(e)),
        }
    }

    /// Starts decoding the row group `fetch` asked for, from the bytes fetched.
    pub(crate) fn open(&mut self, fetch: GroupFetch, data: Vec<Bytes>) -> Result<()> {
        let spare = self.spare.take();
        let opened = decoding(self.plan.metrics.as_ref(), || {
            self.plan.row_group(fetch, data, spare, &mut self.remaining)
        });
        match opened {
            Ok(group) => {
                self.current = Some(group);
                Ok(())
            }
            Err(e) => Err(self.failed(e)),
        }
    }

    /// `e`, after which nothing more is given.
    pub(crate) fn failed<E>(&mut self, e: E) -> E {
        self.groups.clear();
        self.current = None;
        self.gather = gather(self.plan.schema.clone(), self.plan.batch_size);
        e
    }
}
