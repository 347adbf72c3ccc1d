//! [`ReaderBuilder`]: what to read of a file (columns, row groups, rows, the Arrow types), and
//! [`BatchReader`], the synchronous reader it builds over a [`RangeRead`].

use std::collections::VecDeque;
use std::sync::Arc;

use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::{ArrowError, FieldRef, Schema, SchemaRef};
use pqcodec_arrow::{Column, Page, RecordBatchDecoder, leaf_count};

use crate::error::{Error, Result};
use crate::filter::RowFilter;
use crate::metadata::FileMetadata;
use crate::metrics::ReadMetrics;
use crate::plan::{Plan, Remaining};
use crate::predicate_cache::{self, shared_fields};
use crate::projection::Projection;
use crate::row_groups::{Next, RowGroups};
use crate::selection::RowSelection;
use crate::source::{RangeRead, read_checked};

/// Rows per batch unless [`ReaderBuilder::with_batch_size`] says otherwise.
pub const DEFAULT_BATCH_SIZE: usize = 8192;

/// How a file's metadata is read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReaderOptions {
    page_index: bool,
}

impl ReaderOptions {
    /// The default: the footer only.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the page index (column and offset indexes) is read too, when the file has one.
    /// With it, a row selection fetches and decodes only the pages holding selected rows.
    pub fn with_page_index(mut self, page_index: bool) -> Self {
        self.page_index = page_index;
        self
    }

    /// Whether the page index is read.
    pub fn page_index(&self) -> bool {
        self.page_index
    }
}

/// What to read of a Parquet file, and how: the builder of [`BatchReader`] (over a
/// [`RangeRead`]) and of [`BatchStream`](crate::BatchStream) (over an
/// [`AsyncRangeRead`](crate::AsyncRangeRead)), shaped like arrow-rs's
/// `ParquetRecordBatchReaderBuilder`.
///
/// ```
/// use bytes::Bytes;
/// use pqcodec_file::{Projection, ReaderBuilder, ReaderOptions, RowSelection, RowSelector};
///
/// # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/pyarrow_plain_opt_v1.parquet");
/// let data = Bytes::from(std::fs::read(path)?);
/// let options = ReaderOptions::new().with_page_index(true);
/// let reader = ReaderBuilder::try_new_with_options(data, options)?
///     .with_projection(Projection::roots([0, 2]))
///     .with_row_selection(vec![RowSelector::skip(100), RowSelector::select(50)].into())
///     .with_batch_size(20)
///     .build()?;
/// let rows: usize = reader.map(|batch| batch.map(|b| b.num_rows())).sum::<Result<_, _>>()?;
/// assert_eq!(rows, 50);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct ReaderBuilder<T> {
    pub(crate) input: T,
    metadata: Arc<FileMetadata>,
    projection: Projection,
    row_groups: Option<Vec<usize>>,
    selection: Option<RowSelection>,
    filter: Option<RowFilter>,
    offset: usize,
    limit: Option<usize>,
    batch_size: usize,
    schema: Option<SchemaRef>,
    fields: Vec<FieldRef>,
    coalesce_gap: Option<u64>,
    metrics: Option<ReadMetrics>,
    max_predicate_cache_size: usize,
}

impl<T> ReaderBuilder<T> {
    /// A builder over `input` whose metadata was already read (shared by readers of other row
    /// groups, on other threads, or cached).
    pub fn new_with_metadata(input: T, metadata: Arc<FileMetadata>) -> Self {
        ReaderBuilder {
            input,
            metadata,
            projection: Projection::all(),
            row_groups: None,
            selection: None,
            filter: None,
            offset: 0,
            limit: None,
            batch_size: DEFAULT_BATCH_SIZE,
            schema: None,
            fields: Vec::new(),
            coalesce_gap: None,
            metrics: None,
            max_predicate_cache_size: predicate_cache::DEFAULT_MAX_SIZE,
        }
    }

    /// The file's metadata.
    pub fn metadata(&self) -> &Arc<FileMetadata> {
        &self.metadata
    }

    /// The Arrow schema of the whole file as this builder reads it: arrow-rs's, with the
    /// overrides of [`with_schema`](Self::with_schema) and [`with_field`](Self::with_field).
    pub fn schema(&self) -> Result<SchemaRef> {
        let base = self
            .schema
            .clone()
            .unwrap_or_else(|| self.metadata.schema());
        if self.fields.is_empty() {
            return Ok(base);
        }
        let mut fields: Vec<FieldRef> = base.fields().iter().cloned().collect();
        for field in &self.fields {
            let slot = fields
                .iter_mut()
                .find(|f| f.name() == field.name())
                .ok_or_else(|| {
                    Error::Request(format!("no top-level field {:?} to override", field.name()))
                })?;
            *slot = Arc::clone(field);
        }
        Ok(Arc::new(Schema::new_with_metadata(
            fields,
            base.metadata().clone(),
        )))
    }

    /// Reads only these columns.
    pub fn with_projection(mut self, projection: Projection) -> Self {
        self.projection = projection;
        self
    }

    /// Reads only these row groups, in this order.
    pub fn with_row_groups(mut self, row_groups: Vec<usize>) -> Self {
        self.row_groups = Some(row_groups);
        self
    }

    /// Reads only the rows `selection` selects, counted over the row groups read.
    pub fn with_row_selection(mut self, selection: RowSelection) -> Self {
        self.selection = Some(selection);
        self
    }

    /// Reads only the rows `filter` keeps, of those selected: its predicates are evaluated
    /// first, each decoding its own columns for the rows still kept, then the projected
    /// columns are decoded for the rows kept, run by run, or a batch at a time and filtered
    /// where the rows kept are scattered (late materialisation). The offset and limit count
    /// the rows kept.
    pub fn with_row_filter(mut self, filter: RowFilter) -> Self {
        self.filter = Some(filter);
        self
    }

    /// Skips the first `offset` rows that would be read.
    pub fn with_offset(mut self, offset: usize) -> Self {
        self.offset = offset;
        self
    }

    /// Reads at most `limit` rows.
    pub fn with_limit(mut self, limit: usize) -> Self {
        self.limit = Some(limit);
        self
    }

    /// Rows per batch (at least 1). A batch does not cross row groups.
    pub fn with_batch_size(mut self, batch_size: usize) -> Self {
        self.batch_size = batch_size.max(1);
        self
    }

    /// The Arrow schema of the whole file to read into, in place of arrow-rs's: the same
    /// fields over the same columns, with other Arrow types where pqcodec can decode into them
    /// (Utf8View for strings, a dictionary, another timestamp unit...).
    pub fn with_schema(mut self, schema: SchemaRef) -> Self {
        self.schema = Some(schema);
        self
    }

    /// Reads the top-level field of `field`'s name as `field` (its type, nested fields
    /// included), e.g. `Field::new("s", DataType::Utf8View, true)`.
    pub fn with_field(mut self, field: FieldRef) -> Self {
        self.fields.push(field);
        self
    }

    /// Reads byte ranges at most `gap` bytes apart as one, in place of the source's own choice
    /// ([`RangeRead::coalesce_gap`]); 0 reads exactly the bytes needed.
    pub fn with_coalesce_gap(mut self, gap: u64) -> Self {
        self.coalesce_gap = Some(gap);
        self
    }

    /// Bounds the arrays that the row filter's predicates keep, in bytes per row group
    /// (100 MiB by default; 0 keeps none). A column that a predicate reads and a later
    /// predicate or the projection reads again is decoded once, by the first: the others take
    /// its batches cut to the rows they read, unless they would pass the bound.
    pub fn with_max_predicate_cache_size(mut self, bytes: usize) -> Self {
        self.max_predicate_cache_size = bytes;
        self
    }

    /// Adds the time spent decompressing, decoding and evaluating the row filter, and the
    /// predicate cache's records, to `metrics`.
    pub fn with_read_metrics(mut self, metrics: ReadMetrics) -> Self {
        self.metrics = Some(metrics);
        self
    }

    /// The plan, the settings checked; the row groups to read with their selections.
    pub(crate) fn plan(&self, source_gap: u64) -> Result<(Plan, VecDeque<(usize, RowSelection)>)> {
        let full = self.schema()?;
        let meta = &self.metadata;
        let schema = full.clone();
        let leaves: usize = schema.fields().iter().map(leaf_count).sum();
        if leaves != meta.columns().len() {
            return Err(Error::Request(format!(
                "the schema to read has {leaves} leaf columns, the file {}",
                meta.columns().len()
            )));
        }
        let (schema, leaves) = self.projection.apply(meta.columns(), &schema)?;
        let groups = meta.metadata().row_groups();
        let chosen = match &self.row_groups {
            Some(chosen) => chosen.clone(),
            None => (0..groups.len()).collect(),
        };
        if let Some(&bad) = chosen.iter().find(|&&g| g >= groups.len()) {
            return Err(Error::Request(format!(
                "no row group {bad}: the file has {}",
                groups.len()
            )));
        }
        let rows = |g: usize| usize::try_from(groups[g].num_rows()).unwrap_or(0);
        let total = chosen.iter().map(|&g| rows(g)).sum();
        // With a row filter, the offset and limit count the rows it keeps, row group by row
        // group as they are read.
        let (offset, limit) = match &self.filter {
            Some(_) => (0, None),
            None => (self.offset, self.limit),
        };
        let mut selection = RowSelection::resolve(self.selection.as_ref(), total, offset, limit)?;
        let mut filters = Vec::new();
        for predicate in self.filter.iter().flat_map(|f| &f.predicates) {
            filters.push(predicate.projection().apply(meta.columns(), &full)?);
        }
        let shared = match self.max_predicate_cache_size {
            0 => Vec::new(),
            _ => shared_fields(&schema, &leaves, &filters),
        };
        let plan = Plan {
            meta: Arc::clone(meta),
            schema,
            leaves,
            filters,
            shared,
            cache_size: self.max_predicate_cache_size,
            batch_size: self.batch_size,
            coalesce_gap: self.coalesce_gap.unwrap_or(source_gap),
            metrics: self.metrics.clone(),
        };
        check_schema(&plan)?;
        let groups = chosen
            .into_iter()
            .map(|g| (g, selection.split_off_front(rows(g))))
            .filter(|(_, s)| s.row_count() > 0)
            .collect();
        Ok((plan, groups))
    }
}

impl<T> ReaderBuilder<T> {
    /// The row filter, and the offset and limit left to apply after it (applied by the plan's
    /// selections when there is none).
    pub(crate) fn take_remaining(&mut self) -> Remaining {
        match self.filter.take() {
            Some(filter) => Remaining {
                offset: self.offset,
                limit: self.limit,
                filter: Some(filter),
            },
            None => Remaining::default(),
        }
    }
}

/// Checks that the plan's Arrow types (the row filter's too) can be decoded from its columns
/// before any page is read.
fn check_schema(plan: &Plan) -> Result<()> {
    let decodable = |schema: &arrow_schema::SchemaRef, leaves: &[usize]| {
        let columns = leaves
            .iter()
            .map(|&leaf| {
                let none = std::iter::empty::<Result<Page, std::convert::Infallible>>();
                Column::new(plan.meta.columns()[leaf].clone(), none)
            })
            .collect();
        RecordBatchDecoder::try_new(schema.clone(), columns, 1)
            .map(drop)
            .map_err(Error::Schema)
    };
    decodable(&plan.schema, &plan.leaves)?;
    // The row filter's columns, as its predicates read them.
    for (schema, leaves) in &plan.filters {
        decodable(schema, leaves)?;
    }
    Ok(())
}

impl<T: RangeRead + 'static> ReaderBuilder<T> {
    /// A builder over `input`, its footer read.
    pub fn try_new(input: T) -> Result<Self> {
        Self::try_new_with_options(input, ReaderOptions::new())
    }

    /// A builder over `input`, its metadata read as `options` say.
    pub fn try_new_with_options(input: T, options: ReaderOptions) -> Result<Self> {
        let metadata = FileMetadata::load(&input, options.page_index)?;
        Ok(Self::new_with_metadata(input, Arc::new(metadata)))
    }

    /// The reader. Fails if the settings do not fit the file (a column, row group or row that
    /// does not exist, a schema that cannot be read from the columns).
    pub fn build(mut self) -> Result<BatchReader> {
        let (plan, groups) = self.plan(self.input.coalesce_gap())?;
        let remaining = self.take_remaining();
        Ok(BatchReader {
            input: Box::new(self.input),
            groups: RowGroups::new(plan, groups, remaining),
        })
    }
}

/// RecordBatches read from a [`RangeRead`] a row group at a time: the projected column chunks
/// of one row group (or only their selected pages) are fetched, then decoded batch by batch.
///
/// `Send`: readers of different row groups can run on their own threads.
pub struct BatchReader {
    input: Box<dyn RangeRead>,
    groups: RowGroups,
}

impl std::fmt::Debug for BatchReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BatchReader")
            .field("schema", &self.groups.plan.schema)
            .field("row_groups_left", &self.groups.left())
            .finish_non_exhaustive()
    }
}

impl BatchReader {
    /// The next batch, or `None` at the end.
    pub fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        loop {
            match self.groups.next()? {
                Next::Batch(batch) => return Ok(Some(batch)),
                Next::End => return Ok(None),
                Next::Fetch(fetch) => match read_checked(&*self.input, &fetch.ranges) {
                    Ok(data) => self.groups.open(fetch, data)?,
                    Err(e) => return Err(self.groups.failed(e)),
                },
            }
        }
    }
}

impl Iterator for BatchReader {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_batch().map_err(ArrowError::from).transpose()
    }
}

impl RecordBatchReader for BatchReader {
    fn schema(&self) -> SchemaRef {
        self.groups.plan.schema.clone()
    }
}
