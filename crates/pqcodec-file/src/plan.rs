//! What a reader reads, worked out once from the builder's settings: the projected schema and
//! leaf columns, the row groups with the rows each reads, and for each row group the byte
//! ranges to fetch (whole column chunks, or only the pages the row selection needs where the
//! offset index tells where they are).

use std::ops::Range;
use std::sync::Arc;

use arrow_buffer::{BooleanBuffer, BooleanBufferBuilder};
use arrow_schema::SchemaRef;
use bytes::Bytes;
use parquet::file::page_index::offset_index::PageLocation;
use pqcodec_arrow::{Column, RecordBatchDecoder};

use crate::error::{Error, Result};
use crate::filter::{RowFilter, as_selection_or_mask, kept, refine, rows_decoded, spread};
use crate::framing::Fetched;
use crate::metadata::FileMetadata;
use crate::metrics::ReadMetrics;
use crate::predicate_cache::{Cache, Shared, leaf_ranges, rows_read};
use crate::row_group::{RowGroupReader, gather, last_gathered};
use crate::selection::RowSelection;
use crate::source::coalesce;

/// A reader's plan.
#[derive(Debug)]
pub(crate) struct Plan {
    pub(crate) meta: Arc<FileMetadata>,
    /// The schema of the batches.
    pub(crate) schema: SchemaRef,
    /// The leaf columns decoded, in order.
    pub(crate) leaves: Vec<usize>,
    /// For each predicate of the row filter, the schema and leaf columns it reads.
    pub(crate) filters: Vec<(SchemaRef, Vec<usize>)>,
    /// The fields the predicates read that a later predicate or the projection reads again:
    /// decoded once, by the first predicate.
    pub(crate) shared: Vec<Shared>,
    /// The bound on the arrays a row group's predicates keep for later readers.
    pub(crate) cache_size: usize,
    pub(crate) batch_size: usize,
    /// Ranges at most this far apart are read as one.
    pub(crate) coalesce_gap: u64,
    /// Where the time spent decompressing and decoding, and the cache's records, are added.
    pub(crate) metrics: Option<ReadMetrics>,
}

/// The bytes one row group needs: coalesced ranges, and for each leaf read (by the filter or
/// the projection, in order) the page locations it reads by (`None`: its whole chunk is
/// fetched).
#[derive(Debug)]
pub(crate) struct GroupFetch {
    pub(crate) row_group: usize,
    pub(crate) selection: RowSelection,
    pub(crate) ranges: Vec<Range<u64>>,
    locations: Vec<(usize, Option<Vec<PageLocation>>)>,
}

/// The row filter, with the offset and limit that count the rows it keeps.
#[derive(Debug, Default)]
pub(crate) struct Remaining {
    pub(crate) offset: usize,
    pub(crate) limit: Option<usize>,
    pub(crate) filter: Option<RowFilter>,
}

impl Remaining {
    /// Whether the limit was reached.
    pub(crate) fn done(&self) -> bool {
        self.limit == Some(0)
    }

    /// The rows of `selection` (over `rows` rows) left after the offset, up to the limit.
    fn apply(&mut self, selection: RowSelection, rows: usize) -> Result<RowSelection> {
        if self.offset == 0 && self.limit.is_none() {
            return Ok(selection);
        }
        let out = RowSelection::resolve(Some(&selection), rows, self.offset, self.limit)?;
        self.offset -= self.offset.min(selection.row_count());
        if let Some(limit) = &mut self.limit {
            *limit -= out.row_count();
        }
        Ok(out)
    }
}

impl Plan {
    /// What row group `row_group` needs to read the rows `selection` selects (over the row
    /// group's rows).
    pub(crate) fn fetch(&self, row_group: usize, selection: RowSelection) -> Result<GroupFetch> {
        let rows = self.rows(row_group);
        let everything = selection.row_count() == rows;
        let wanted = selection.ranges();
        let mut ranges = Vec::new();
        let mut leaves: Vec<usize> = (self.filters.iter())
            .flat_map(|(_, leaves)| leaves)
            .chain(&self.leaves)
            .copied()
            .collect();
        leaves.sort_unstable();
        leaves.dedup();
        let mut locations = Vec::with_capacity(leaves.len());
        for leaf in leaves {
            let (_, bytes) = self
                .meta
                .chunk(row_group, leaf)
                .map_err(|source| Error::Chunk {
                    column: self.meta.columns()[leaf].path.clone(),
                    source,
                })?;
            let pages = match everything {
                true => None,
                false => self.meta.page_locations(row_group, leaf, &bytes)?,
            };
            match &pages {
                None => ranges.push(bytes),
                Some(pages) => {
                    // The dictionary page, if any, lies before the first data page.
                    let first = pages[0].offset as u64;
                    if bytes.start < first {
                        ranges.push(bytes.start..first);
                    }
                    for (i, page) in pages.iter().enumerate() {
                        let start = page.first_row_index as usize;
                        let end = pages
                            .get(i + 1)
                            .map_or(rows, |p| p.first_row_index as usize);
                        if wanted.iter().any(|r| r.start < end && start < r.end) {
                            let at = page.offset as u64;
                            ranges.push(at..at + page.compressed_page_size as u64);
                        }
                    }
                }
            }
            locations.push((leaf, pages));
        }
        Ok(GroupFetch {
            row_group,
            selection,
            ranges: coalesce(ranges, self.coalesce_gap),
            locations,
        })
    }

    /// The reader of a row group from the bytes `fetch` asked for, decoding with `spare` (the
    /// decoder of the row group read before) where given: its buffers and decoders are reused.
    /// The row filter, if any, is evaluated first, then the offset and limit left applied.
    pub(crate) fn row_group(
        &self,
        fetch: GroupFetch,
        data: Vec<Bytes>,
        spare: Option<RecordBatchDecoder>,
        remaining: &mut Remaining,
    ) -> Result<RowGroupReader> {
        let row_group = fetch.row_group;
        let fetched = Arc::new(Fetched::new(&fetch.ranges, data));
        let (mut selection, mut mask, cache) = match &mut remaining.filter {
            Some(filter) => self.filter_rows(row_group, &fetch, &fetched, filter)?,
            None => (fetch.selection, None, None),
        };
        // The offset and limit count rows kept: over a mask, they cut a selection.
        if let Some(bits) = mask.take_if(|_| remaining.offset > 0 || remaining.limit.is_some()) {
            selection = refine(&selection, &bits);
        }
        let rows = selection.covered_rows();
        let selection = remaining.apply(selection, rows)?;
        // The shared fields come from the predicates' batches; the others are decoded.
        let mut taken = Vec::new();
        if let Some(mut cache) = cache {
            let kept = rows_read(&selection, mask.as_ref(), self.rows(row_group));
            for (at, shared) in self.shared.iter().enumerate() {
                if let Some(field) = shared.projected
                    && let Some(array) = cache.take(at, &kept)?
                {
                    taken.push((field, array));
                }
            }
            if let Some(metrics) = &self.metrics {
                let (inner, served) = cache.records();
                metrics.add_cache_records(inner, served);
            }
        }
        let (schema, leaves) = decoded(&self.schema, &self.leaves, &taken);
        let columns = self.columns(row_group, &leaves, &fetched, &fetch.locations)?;
        let decode = |source| Error::Decode { row_group, source };
        let spare = spare.filter(|d| d.schema() == schema);
        let decoder = match (columns.is_empty(), spare) {
            (true, _) => None,
            (false, Some(mut decoder)) => {
                let pages = columns.into_iter().map(|c| c.pages).collect();
                decoder.set_pages(pages).map_err(decode)?;
                Some(decoder)
            }
            (false, None) => Some(
                RecordBatchDecoder::try_new(schema.clone(), columns, self.batch_size)
                    .map_err(decode)?,
            ),
        };
        Ok(
            RowGroupReader::new(row_group, schema, decoder, selection, self.batch_size)
                .with_mask(mask)
                .with_taken(self.schema.clone(), taken),
        )
    }

    /// The rows of row group `row_group`.
    fn rows(&self, row_group: usize) -> usize {
        let rows = self.meta.metadata().row_group(row_group).num_rows();
        usize::try_from(rows).unwrap_or(0)
    }

    /// The rows of `fetch`'s selection that `filter` keeps: as a selection, or as the
    /// selection and a mask of its rows (one bit a selected row) where the rows kept are too
    /// scattered to skip between; and the predicates' batches of the shared fields.
    fn filter_rows(
        &self,
        row_group: usize,
        fetch: &GroupFetch,
        fetched: &Arc<Fetched>,
        filter: &mut RowFilter,
    ) -> Result<(RowSelection, Option<BooleanBuffer>, Option<Cache>)> {
        let shared = &self.shared;
        let mut cache = (!shared.is_empty()).then(|| Cache::new(shared.len(), self.cache_size));
        let mut selection = fetch.selection.clone();
        let mut mask: Option<BooleanBuffer> = None;
        // The leaf columns no predicate decoded yet: a row predicate `p` drops is spared
        // decoding those it does not read itself.
        let mut undecoded: Vec<usize> = fetch.locations.iter().map(|(leaf, _)| *leaf).collect();
        for (p, (schema, leaves)) in self.filters.iter().enumerate() {
            let spared = undecoded.iter().filter(|l| !leaves.contains(l)).count();
            let rows = mask
                .as_ref()
                .map_or(selection.row_count(), |m| m.count_set_bits());
            if rows == 0 {
                break;
            }
            if filter.leaves_out(p, spared) {
                continue;
            }
            undecoded.retain(|leaf| !leaves.contains(leaf));
            // The shared fields this predicate reads: taken from an earlier predicate's
            // batches, or else decoded and kept for the readers after (`keeping`: its column,
            // the field's index).
            let mut taken = Vec::new();
            let mut keeping = Vec::new();
            if let Some(cache) = &mut cache {
                let reads = |s: &Shared| s.readers.iter().position(|&(q, _)| q == p);
                let mut read = None;
                for (at, s) in shared.iter().enumerate() {
                    let Some(i) = reads(s) else { continue };
                    let read = read.get_or_insert_with(|| {
                        rows_read(&selection, mask.as_ref(), self.rows(row_group))
                    });
                    let column = s.readers[i].1;
                    let read_after = i + 1 < s.readers.len() || s.projected.is_some();
                    match cache.take(at, read)? {
                        Some(array) => taken.push((column, array)),
                        None if read_after => {
                            cache.start(at, read.clone());
                            keeping.push((column, at));
                        }
                        None => {}
                    }
                }
            }
            let (decoded, leaves) = decoded(schema, leaves, &taken);
            let decoding = leaves.len();
            let columns = self.columns(row_group, &leaves, fetched, &fetch.locations)?;
            let decode = |source| Error::Decode { row_group, source };
            // A predicate of no columns to decode sees batches of rows only.
            let decoder = match columns.is_empty() {
                true => None,
                false => Some(
                    RecordBatchDecoder::try_new(decoded.clone(), columns, self.batch_size)
                        .map_err(decode)?,
                ),
            };
            let mut batches = RowGroupReader::new(
                row_group,
                decoded,
                decoder,
                selection.clone(),
                self.batch_size,
            )
            .with_mask(mask.clone())
            .with_taken(schema.clone(), taken);
            let mut gathered = gather(schema.clone(), self.batch_size);
            let mut results = BooleanBufferBuilder::new(rows);
            loop {
                let start = std::time::Instant::now();
                let batch = match batches.next_batch(&mut gathered)? {
                    Some(batch) => batch,
                    None => match last_gathered(&mut gathered)? {
                        Some(batch) => batch,
                        None => break,
                    },
                };
                let n = batch.num_rows();
                filter.count_read(start.elapsed(), n * decoding);
                if let Some(cache) = &mut cache {
                    for &(column, at) in &keeping {
                        cache.keep(at, batch.column(column));
                    }
                }
                let filter_error = |source| Error::Filter { row_group, source };
                let start = std::time::Instant::now();
                let result = filter.predicates[p].evaluate(batch);
                let spent = start.elapsed();
                if let Some(metrics) = &self.metrics {
                    metrics.add_filter(spent);
                }
                let result = result.map_err(filter_error)?;
                if result.len() != n {
                    return Err(filter_error(arrow_schema::ArrowError::ComputeError(
                        format!("{} results for {n} rows", result.len()),
                    )));
                }
                let result = kept(&result);
                filter.count(p, n, result.count_set_bits(), spent);
                results.append_buffer(&result);
                // Measured not worth evaluating: the rest are kept unread.
                if results.len() < rows && filter.leaves_out(p, spared) {
                    results.append_n(rows - results.len(), true);
                    if let Some(cache) = &mut cache {
                        keeping.iter().for_each(|&(_, at)| cache.give_up(at));
                    }
                    break;
                }
            }
            let results = results.finish();
            let bits = match &mask {
                Some(mask) => spread(mask, &results),
                None => results,
            };
            (selection, mask) = as_selection_or_mask(selection, bits);
        }
        let rows = fetch.selection.row_count();
        let (kept, decoded) = match &mask {
            Some(mask) => (mask.count_set_bits(), rows_decoded(mask, self.batch_size)),
            None => (selection.row_count(), selection.row_count()),
        };
        filter.count_dropped(rows.saturating_sub(kept), rows.saturating_sub(decoded));
        Ok((selection, mask, cache))
    }

    /// The columns of `leaves` of a row group, their pages in `fetched`.
    fn columns(
        &self,
        row_group: usize,
        leaves: &[usize],
        fetched: &Arc<Fetched>,
        locations: &[(usize, Option<Vec<PageLocation>>)],
    ) -> Result<Vec<Column>> {
        let mut columns = Vec::with_capacity(leaves.len());
        for &leaf in leaves {
            let desc = self.meta.columns()[leaf].clone();
            let at = locations.partition_point(|(l, _)| *l < leaf);
            let pages = locations.get(at).and_then(|(_, p)| p.clone());
            let pages = (self.meta)
                .chunk_pages(row_group, leaf, Arc::clone(fetched), pages)
                .map_err(|source| Error::Chunk {
                    column: desc.path.clone(),
                    source,
                })?
                .with_read_metrics(self.metrics.clone());
            columns.push(Column::new(desc, pages));
        }
        Ok(columns)
    }
}

/// The fields of `schema` (over `leaves`, in field order) left to decode, those of `taken`
/// (a field's index, its values) aside: their schema and leaves.
fn decoded(
    schema: &SchemaRef,
    leaves: &[usize],
    taken: &[(usize, arrow_array::ArrayRef)],
) -> (SchemaRef, Vec<usize>) {
    if taken.is_empty() {
        return (schema.clone(), leaves.to_vec());
    }
    let ranges = leaf_ranges(schema);
    let fields: Vec<usize> = (0..ranges.len())
        .filter(|f| !taken.iter().any(|(t, _)| t == f))
        .collect();
    let kept_leaves = (fields.iter())
        .flat_map(|&f| leaves[ranges[f].clone()].iter().copied())
        .collect();
    let fields = fields.iter().map(|&f| schema.field(f).clone());
    let decoded = arrow_schema::Schema::new_with_metadata(
        fields.collect::<Vec<_>>(),
        schema.metadata().clone(),
    );
    (Arc::new(decoded), kept_leaves)
}
