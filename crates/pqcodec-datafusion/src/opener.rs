//! [`PqcodecOpener`]: one file of a scan read by pqcodec's async reader. The row groups in the
//! partition's byte range, less those the filters prune against the footer statistics, less
//! the pages they prune against the page index; the projected columns only, less those of one
//! value (their statistics' value given instead); the limit.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, RecordBatchOptions, new_null_array};
use arrow_schema::{Fields, Schema, SchemaRef};
use datafusion::arrow::compute::{can_cast_types, cast};
use datafusion::common::ScalarValue;
use datafusion::common::stats::Precision;
use datafusion::datasource::listing::PartitionedFile;
use datafusion::datasource::physical_plan::parquet::{
    PagePruningAccessPlanFilter, ParquetAccessPlan, ParquetFileMetrics, RowGroupAccess,
    RowGroupAccessPlanFilter, apply_file_schema_type_coercions,
};
use datafusion::datasource::physical_plan::{FileOpenFuture, FileOpener};
use datafusion::error::{DataFusionError, Result};
use datafusion::execution::cache::cache_manager::FileMetadataCache;
use datafusion::physical_expr::simplifier::PhysicalExprSimplifier;
use datafusion::physical_expr_adapter::{
    DefaultPhysicalExprAdapterFactory, PhysicalExprAdapterFactory, replace_columns_with_literals,
};
use datafusion::physical_optimizer::pruning::PruningPredicateBuilder;
use datafusion::physical_plan::PhysicalExpr;
use datafusion::physical_plan::metrics::{Count, ExecutionPlanMetricsSet};
use futures::{FutureExt, StreamExt, TryStreamExt};
use object_store::ObjectStore;
use pqcodec_file::{Projection, ReadMetrics, ReaderBuilder, RowSelection, RowSelector};

use crate::error::Error;
use crate::metadata::{Loads, Source};
use crate::metrics::ScanMetrics;
use crate::options::PqcodecOptions;
use crate::row_filter::{Measures, keeps_any_row, row_filter};

/// Opens the files of one partition of a scan.
pub(crate) struct PqcodecOpener {
    pub(crate) partition: usize,
    pub(crate) store: Arc<dyn ObjectStore>,
    /// The table's schema less its partition columns: what each file is read as.
    pub(crate) logical_file_schema: SchemaRef,
    /// The columns of it to read, in table order.
    pub(crate) projected_schema: SchemaRef,
    pub(crate) partition_fields: Fields,
    pub(crate) predicate: Option<Arc<dyn PhysicalExpr>>,
    pub(crate) options: PqcodecOptions,
    pub(crate) batch_size: usize,
    pub(crate) limit: Option<usize>,
    pub(crate) metrics: ExecutionPlanMetricsSet,
    pub(crate) metadata_cache: Option<Arc<FileMetadataCache>>,
    pub(crate) loads: Arc<Loads>,
    pub(crate) measures: Arc<Measures>,
    pub(crate) adjacent_joins: Arc<[u64]>,
}

impl FileOpener for PqcodecOpener {
    fn open(&self, file: PartitionedFile) -> Result<FileOpenFuture> {
        let path = file.object_meta.location.to_string();
        let file_metrics = ParquetFileMetrics::new(self.partition, &path, &self.metrics);
        let scan_metrics = ScanMetrics::new(&self.metrics, self.partition, &path, &file_metrics);
        // Partition columns are constants within a file, and so are the columns its statistics
        // give one value and no null (as DataFusion's reader finds them): the predicate is
        // simplified with their values before pruning, and those columns are not read.
        let constants = constant_columns(&file, &self.logical_file_schema);
        let mut literals: HashMap<String, ScalarValue> = self
            .partition_fields
            .iter()
            .zip(&file.partition_values)
            .map(|(field, value)| (field.name().clone(), value.clone()))
            .collect();
        literals.extend(constants.clone());
        let predicate = match (&self.predicate, literals.is_empty()) {
            (Some(p), false) => Some(replace_columns_with_literals(Arc::clone(p), &literals)?),
            (p, _) => p.clone(),
        };
        let open = OpenFile {
            path,
            file,
            predicate,
            constants,
            file_metrics,
            scan_metrics,
            store: Arc::clone(&self.store),
            logical_file_schema: Arc::clone(&self.logical_file_schema),
            projected_schema: Arc::clone(&self.projected_schema),
            options: self.options.clone(),
            batch_size: self.batch_size,
            limit: self.limit,
            metadata_cache: self.metadata_cache.clone(),
            loads: Arc::clone(&self.loads),
            measures: Arc::clone(&self.measures),
            adjacent_joins: Arc::clone(&self.adjacent_joins),
        };
        Ok(open.open().boxed())
    }
}

/// What opening one file needs, owned by its future.
struct OpenFile {
    path: String,
    file: PartitionedFile,
    predicate: Option<Arc<dyn PhysicalExpr>>,
    /// The file's columns of one value, not read.
    constants: HashMap<String, ScalarValue>,
    file_metrics: ParquetFileMetrics,
    scan_metrics: ScanMetrics,
    store: Arc<dyn ObjectStore>,
    logical_file_schema: SchemaRef,
    projected_schema: SchemaRef,
    options: PqcodecOptions,
    batch_size: usize,
    limit: Option<usize>,
    metadata_cache: Option<Arc<FileMetadataCache>>,
    loads: Arc<Loads>,
    measures: Arc<Measures>,
    adjacent_joins: Arc<[u64]>,
}

impl OpenFile {
    async fn open(
        self,
    ) -> Result<futures::stream::BoxStream<'static, Result<RecordBatch, DataFusionError>>> {
        let object = &self.file.object_meta;
        let page_index = self.options.page_index && self.predicate.is_some();
        let meta = {
            // Metadata is not counted in `bytes_scanned`, as DataFusion's reader counts.
            let source = Source::new(Arc::clone(&self.store), object, None);
            let cache = self.metadata_cache.as_ref();
            let time = Some(&self.file_metrics.metadata_load_time);
            self.loads
                .load(&source, object, cache, page_index, time)
                .await?
        };
        let bytes: Count = self.file_metrics.bytes_scanned.clone();
        let source = Source::new(Arc::clone(&self.store), object, Some(bytes));

        // The file's columns as the table reads them (strings as views...), which pqcodec
        // decodes into directly.
        let physical = meta.schema();
        let read_schema =
            match apply_file_schema_type_coercions(&self.logical_file_schema, &physical) {
                Some(schema) => Arc::new(schema),
                None => physical,
            };

        // The predicate over this file's columns: missing ones become nulls, types cast.
        let predicate = match self.predicate {
            Some(p) => {
                let rewriter = DefaultPhysicalExprAdapterFactory.create(
                    Arc::clone(&self.logical_file_schema),
                    Arc::clone(&read_schema),
                )?;
                let simplifier = PhysicalExprSimplifier::new(&read_schema);
                Some(simplifier.simplify(rewriter.rewrite(p)?)?)
            }
            None => None,
        };

        let parquet = meta.metadata();
        let groups = parquet.row_groups();
        let parquet_schema = parquet.file_metadata().schema_descr();
        // A row group belongs to the byte range holding its first page: found by a binary
        // search over the offsets the metadata sorted once, not a walk of every row group.
        let share = match &self.file.range {
            Some(range) => {
                let bound = |offset: i64| u64::try_from(offset).unwrap_or(0);
                let mut share = ParquetAccessPlan::new_none(groups.len());
                for g in meta.row_groups_starting_in(bound(range.start)..bound(range.end)) {
                    share.scan(g);
                }
                share
            }
            None => ParquetAccessPlan::new_all(groups.len()),
        };
        let mut row_groups = RowGroupAccessPlanFilter::new(share);
        if let Some(predicate) = &predicate
            && self.options.pruning
        {
            let errors = self.file_metrics.predicate_evaluation_errors.clone();
            let pruning = PruningPredicateBuilder::new()
                .with_file_schema(Arc::clone(&read_schema))
                .with_error_counter(&errors)
                .with_max_in_list_size(self.options.max_in_list_size)
                .build(Arc::clone(predicate));
            if let Some(pruning) = pruning {
                row_groups.prune_by_statistics(
                    &read_schema,
                    parquet_schema,
                    groups,
                    &pruning,
                    &self.file_metrics,
                );
            }
        }
        let mut plan = row_groups.build();
        if let Some(predicate) = &predicate
            && page_index
            && !plan.is_empty()
        {
            let pages = PagePruningAccessPlanFilter::new(predicate, Arc::clone(&read_schema));
            if pages.filter_number() > 0 {
                plan = pages.prune_plan_with_page_index(
                    plan,
                    &read_schema,
                    parquet_schema,
                    parquet,
                    &self.file_metrics,
                );
            }
        }
        let (chosen, selection) = to_pqcodec(plan, |g| groups[g].num_rows());

        // The projected columns, by top-level field; those the file lacks are nulls.
        let roots: Vec<usize> = self
            .projected_schema
            .fields()
            .iter()
            .filter(|f| !self.constants.contains_key(f.name()))
            .filter_map(|f| read_schema.index_of(f.name()).ok())
            .collect();
        let read_metrics = ReadMetrics::new();
        let mut builder = ReaderBuilder::new_with_metadata(source, Arc::clone(&meta))
            .with_read_metrics(read_metrics.clone())
            .with_schema(Arc::clone(&read_schema))
            .with_projection(Projection::roots(roots))
            .with_row_groups(chosen)
            .with_batch_size(self.batch_size)
            .with_coalesce_gap(self.options.coalesce_gap);
        if let Some(selection) = selection {
            builder = builder.with_row_selection(selection);
        }
        if let Some(limit) = self.limit {
            builder = builder.with_limit(limit);
        }
        if let Some(predicate) = &predicate
            && self.options.pushdown_filters
        {
            let pruned = &self.file_metrics.pushdown_rows_pruned;
            let matched = &self.file_metrics.pushdown_rows_matched;
            if !keeps_any_row(predicate)? {
                return Ok(futures::stream::empty().boxed());
            }
            let reorder = self.options.reorder_filters;
            let counts = (pruned, matched);
            let measured = (&*self.measures, &*self.adjacent_joins);
            if let Some(filter) =
                row_filter(predicate, &read_schema, &meta, reorder, counts, measured)?
            {
                builder = builder.with_row_filter(filter);
            }
            if let Some(bytes) = self.options.max_predicate_cache_size {
                builder = builder.with_max_predicate_cache_size(bytes);
            }
        }
        let path = self.path;
        let file_error = |path: &str, source| Error::File {
            path: path.to_string(),
            source,
        };
        let stream = builder
            .build_stream()
            .map_err(|source| file_error(&path, source))?;
        let schema = Arc::clone(&self.projected_schema);
        let adapter = Adapter::new(&path, schema, &stream.schema(), self.constants)?;
        let batches = stream
            .map_err(move |source| DataFusionError::from(file_error(&path, source)))
            .and_then(move |batch| futures::future::ready(adapter.adapt(&batch)))
            .boxed();
        Ok(self.scan_metrics.timed(batches, read_metrics).boxed())
    }
}

/// The row groups to read and, where pages were pruned, pqcodec's selection of rows over them.
fn to_pqcodec(
    plan: ParquetAccessPlan,
    rows: impl Fn(usize) -> i64,
) -> (Vec<usize>, Option<RowSelection>) {
    let chosen = plan.row_group_indexes();
    let pages_pruned = plan
        .inner()
        .iter()
        .any(|g| matches!(g, RowGroupAccess::Selection(_)));
    if !pages_pruned {
        return (chosen, None);
    }
    let mut selectors = Vec::new();
    for (g, access) in plan.into_inner().into_iter().enumerate() {
        match access {
            RowGroupAccess::Skip => {}
            RowGroupAccess::Scan => {
                selectors.push(RowSelector::select(usize::try_from(rows(g)).unwrap_or(0)))
            }
            RowGroupAccess::Selection(selection) => {
                selectors.extend(selection.iter().map(|s| RowSelector {
                    row_count: s.row_count,
                    skip: s.skip,
                }))
            }
        }
    }
    (chosen, Some(selectors.into()))
}

/// The columns of `file` (read as `schema`) its statistics give one value and no null: their
/// value, cast to the column's type.
fn constant_columns(file: &PartitionedFile, schema: &Schema) -> HashMap<String, ScalarValue> {
    let Some(statistics) = file.statistics.as_deref() else {
        return HashMap::new();
    };
    let columns = schema.fields().iter().zip(&statistics.column_statistics);
    columns
        .filter_map(|(field, stats)| {
            let (Precision::Exact(min), Precision::Exact(max)) =
                (&stats.min_value, &stats.max_value)
            else {
                return None;
            };
            if min != max || min.is_null() || stats.null_count != Precision::Exact(0) {
                return None;
            }
            let value = match min.data_type() == *field.data_type() {
                true => min.clone(),
                false => min.cast_to(field.data_type()).ok()?,
            };
            Some((field.name().clone(), value))
        })
        .collect()
}

/// Where a column of the projected table schema comes from.
enum Values {
    /// The batches read, this column of them.
    Read(usize),
    /// One value for every row: a column the file's statistics give one value.
    Constant(ScalarValue),
    /// Nulls: the file has no such column.
    Missing,
}

/// Batches as read (the file's projected columns, in file order) made into batches of the
/// projected table schema: columns found by name, cast where the table's type differs, the
/// constant columns' values, nulls where the file has no such column.
struct Adapter {
    schema: SchemaRef,
    /// For each field of `schema`, where its values come from.
    columns: Vec<Values>,
}

impl Adapter {
    fn new(
        path: &str,
        schema: SchemaRef,
        read: &Schema,
        mut constants: HashMap<String, ScalarValue>,
    ) -> Result<Self> {
        let mut columns = Vec::with_capacity(schema.fields().len());
        for field in schema.fields() {
            if let Some(value) = constants.remove(field.name()) {
                columns.push(Values::Constant(value));
                continue;
            }
            let column = read.index_of(field.name()).ok();
            if let Some(i) = column {
                let from = read.field(i).data_type();
                if from != field.data_type() && !can_cast_types(from, field.data_type()) {
                    return Err(Error::Column {
                        path: path.to_string(),
                        column: field.name().clone(),
                        reason: format!("{from} cannot be read as {}", field.data_type()),
                    }
                    .into());
                }
            }
            columns.push(column.map_or(Values::Missing, Values::Read));
        }
        Ok(Adapter { schema, columns })
    }

    fn adapt(&self, batch: &RecordBatch) -> Result<RecordBatch> {
        let rows = batch.num_rows();
        let columns: Vec<ArrayRef> = self
            .columns
            .iter()
            .zip(self.schema.fields())
            .map(|(column, field)| match column {
                Values::Read(i) => {
                    let array = batch.column(*i);
                    if array.data_type() == field.data_type() {
                        Ok(Arc::clone(array))
                    } else {
                        Ok(cast(array, field.data_type())?)
                    }
                }
                Values::Constant(value) => value.to_array_of_size(rows),
                Values::Missing => Ok(new_null_array(field.data_type(), rows)),
            })
            .collect::<Result<_>>()?;
        let options = RecordBatchOptions::new().with_row_count(Some(rows));
        Ok(RecordBatch::try_new_with_options(
            Arc::clone(&self.schema),
            columns,
            &options,
        )?)
    }
}
