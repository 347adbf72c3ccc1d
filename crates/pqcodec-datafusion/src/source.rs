//! [`PqcodecSource`], the [`FileSource`] of a scan: the projection and the filters DataFusion
//! pushes down, turned into an opener per partition.

use std::fmt;
use std::sync::Arc;

use datafusion::common::config::ConfigOptions;
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::datasource::physical_plan::{FileOpener, FileScanConfig, FileSource};
use datafusion::datasource::projection::{ProjectionOpener, SplitProjection};
use datafusion::datasource::table_schema::TableSchema;
use datafusion::error::{DataFusionError, Result};
use datafusion::execution::cache::cache_manager::FileMetadataCache;
use datafusion::physical_expr::projection::ProjectionExprs;
use datafusion::physical_expr::utils::collect_columns;
use datafusion::physical_expr::{conjunction, split_conjunction};
use datafusion::physical_expr_common::physical_expr::is_volatile;
use datafusion::physical_plan::filter_pushdown::{FilterPushdownPropagation, PushedDown};
use datafusion::physical_plan::metrics::ExecutionPlanMetricsSet;
use datafusion::physical_plan::{DisplayFormatType, PhysicalExpr, apply_expression_roots};
use object_store::ObjectStore;

use crate::metadata::Loads;
use crate::opener::PqcodecOpener;
use crate::options::PqcodecOptions;
use crate::row_filter::Measures;

/// The scan of Parquet files by pqcodec, as DataFusion plans it: the table's schema, the
/// columns and expressions projected, and the filters offered for pruning.
///
/// Filters skip row groups and pages and, with `pushdown_filters`, rows before the projected
/// columns are decoded: those it evaluates exactly are then not evaluated again above the scan
/// (`PushedDown::Yes`). What is read is decoded by pqcodec's reader.
#[derive(Clone)]
pub struct PqcodecSource {
    table_schema: TableSchema,
    options: PqcodecOptions,
    projection: SplitProjection,
    predicate: Option<Arc<dyn PhysicalExpr>>,
    batch_size: Option<usize>,
    metrics: ExecutionPlanMetricsSet,
    metadata_cache: Option<Arc<FileMetadataCache>>,
    loads: Arc<Loads>,
    /// What the row filters measure (the cost of reading a row, the dynamic filters), over all
    /// the scan's partitions.
    measures: Arc<Measures>,
    /// The dynamic filters (by expression id) whose hash join takes the scan's rows right away
    /// ([`AdjacentJoinFilters`](crate::AdjacentJoinFilters)).
    adjacent_joins: Arc<[u64]>,
}

impl fmt::Debug for PqcodecSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PqcodecSource")
            .field("table_schema", self.table_schema.table_schema())
            .field("options", &self.options)
            .field("predicate", &self.predicate)
            .finish_non_exhaustive()
    }
}

impl PqcodecSource {
    /// A scan of every column of `table_schema`, with the default options.
    pub fn new(table_schema: impl Into<TableSchema>) -> Self {
        let table_schema = table_schema.into();
        PqcodecSource {
            projection: SplitProjection::unprojected(&table_schema),
            table_schema,
            options: PqcodecOptions::default(),
            predicate: None,
            batch_size: None,
            metrics: ExecutionPlanMetricsSet::new(),
            metadata_cache: None,
            loads: Arc::default(),
            measures: Arc::default(),
            adjacent_joins: Arc::new([]),
        }
    }

    /// Reads with `options`.
    pub fn with_options(mut self, options: PqcodecOptions) -> Self {
        self.options = options;
        self
    }

    /// Keeps the files' metadata in `cache` (DataFusion's runtime cache), shared with schema
    /// inference and statistics.
    pub fn with_metadata_cache(mut self, cache: Arc<FileMetadataCache>) -> Self {
        self.metadata_cache = Some(cache);
        self
    }

    /// Shares `loads` (a format's) for the files' metadata.
    pub(crate) fn with_loads(mut self, loads: Arc<Loads>) -> Self {
        self.loads = loads;
        self
    }

    /// Prunes row groups and pages by `predicate`, over the table's schema.
    pub fn with_predicate(mut self, predicate: Arc<dyn PhysicalExpr>) -> Self {
        self.predicate = Some(predicate);
        self
    }

    /// The source with the dynamic filters of `joins` (expression ids) marked as coming from
    /// a hash join right above the scan, those of its predicate that are; `None` if that marks
    /// what is marked already.
    pub(crate) fn with_adjacent_joins(&self, joins: &[u64]) -> Option<Self> {
        let mut ids = Vec::new();
        if let Some(predicate) = &self.predicate {
            for expr in split_conjunction(predicate) {
                if let Some(id) = expr.expression_id().filter(|id| joins.contains(id)) {
                    ids.push(id);
                }
            }
        }
        (*ids != *self.adjacent_joins).then(|| PqcodecSource {
            adjacent_joins: ids.into(),
            ..self.clone()
        })
    }

    /// How it reads.
    pub fn options(&self) -> &PqcodecOptions {
        &self.options
    }
}

impl PqcodecSource {
    /// Whether the row filter evaluates `filter` exactly in every file: it is not volatile
    /// (evaluated twice, `random() < 0.5` would keep fewer rows) and it names columns of the
    /// files only, no partition column. A column a file lacks is null there, and a conjunct
    /// left with no column is evaluated once for the whole file (see the opener).
    fn evaluates_exactly(&self, filter: &Arc<dyn PhysicalExpr>) -> bool {
        let file_schema = self.table_schema.file_schema();
        let columns = collect_columns(filter);
        !is_volatile(filter)
            && !columns.is_empty()
            && columns
                .iter()
                .all(|c| file_schema.index_of(c.name()).is_ok_and(|i| i == c.index()))
    }
}

impl FileSource for PqcodecSource {
    fn create_file_opener(
        &self,
        object_store: Arc<dyn ObjectStore>,
        base_config: &FileScanConfig,
        partition: usize,
    ) -> Result<Arc<dyn FileOpener>> {
        let file_schema = self.table_schema.file_schema();
        let projected = Arc::new(file_schema.project(&self.projection.file_indices)?);
        let batch_size = self
            .batch_size
            .or(base_config.batch_size)
            .ok_or_else(|| DataFusionError::Internal("no batch size was set".into()))?;
        let opener = Arc::new(PqcodecOpener {
            partition,
            store: object_store,
            logical_file_schema: Arc::clone(file_schema),
            projected_schema: projected,
            partition_fields: self.table_schema.table_partition_cols().clone(),
            predicate: self.predicate.clone(),
            options: self.options.clone(),
            batch_size,
            limit: base_config.limit,
            metrics: self.metrics.clone(),
            metadata_cache: self.metadata_cache.clone(),
            loads: Arc::clone(&self.loads),
            measures: Arc::clone(&self.measures),
            adjacent_joins: Arc::clone(&self.adjacent_joins),
        });
        ProjectionOpener::try_new(self.projection.clone(), opener, file_schema)
    }

    fn table_schema(&self) -> &TableSchema {
        &self.table_schema
    }

    fn with_batch_size(&self, batch_size: usize) -> Arc<dyn FileSource> {
        let mut source = self.clone();
        source.batch_size = Some(batch_size);
        Arc::new(source)
    }

    fn filter(&self) -> Option<Arc<dyn PhysicalExpr>> {
        self.predicate.clone()
    }

    fn projection(&self) -> Option<&ProjectionExprs> {
        Some(&self.projection.source)
    }

    fn metrics(&self) -> &ExecutionPlanMetricsSet {
        &self.metrics
    }

    fn file_type(&self) -> &str {
        "parquet"
    }

    fn fmt_extra(&self, t: DisplayFormatType, f: &mut fmt::Formatter) -> fmt::Result {
        match t {
            DisplayFormatType::Default | DisplayFormatType::Verbose => {
                f.write_str(", reader=pqcodec")?;
                if let Some(predicate) = &self.predicate {
                    write!(f, ", pruning_predicate={predicate}")?;
                }
                if !self.adjacent_joins.is_empty() {
                    write!(f, ", adjacent_join_filters={}", self.adjacent_joins.len())?;
                }
                Ok(())
            }
            DisplayFormatType::TreeRender => writeln!(f, "reader=pqcodec"),
        }
    }

    fn try_pushdown_projection(
        &self,
        projection: &ProjectionExprs,
    ) -> Result<Option<Arc<dyn FileSource>>> {
        let mut source = self.clone();
        let merged = self.projection.source.try_merge(projection)?;
        source.projection = SplitProjection::new(self.table_schema.file_schema(), &merged);
        Ok(Some(Arc::new(source)))
    }

    fn try_pushdown_filters(
        &self,
        filters: Vec<Arc<dyn PhysicalExpr>>,
        config: &ConfigOptions,
    ) -> Result<FilterPushdownPropagation<Arc<dyn FileSource>>> {
        if filters.is_empty() {
            return Ok(FilterPushdownPropagation::with_parent_pushdown_result(
                vec![],
            ));
        }
        // Every filter prunes. With pushdown, those the scan evaluates exactly, row by row,
        // are not evaluated again above it: `Yes`. The rest stay `No`.
        let pushdown = self.options.pushdown_filters || config.execution.parquet.pushdown_filters;
        let pushed = filters
            .iter()
            .map(|f| match pushdown && self.evaluates_exactly(f) {
                true => PushedDown::Yes,
                false => PushedDown::No,
            })
            .collect();
        let mut source = self.clone();
        source.options.pushdown_filters = pushdown;
        source.predicate = Some(conjunction(self.predicate.iter().cloned().chain(filters)));
        Ok(
            FilterPushdownPropagation::with_parent_pushdown_result(pushed)
                .with_updated_node(Arc::new(source) as Arc<dyn FileSource>),
        )
    }

    fn apply_expressions(
        &self,
        f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> Result<TreeNodeRecursion>,
    ) -> Result<TreeNodeRecursion> {
        apply_expression_roots(
            self.predicate
                .iter()
                .chain(self.projection.source.iter().map(|p| &p.expr)),
            f,
        )
    }
}
