//! [`AdjacentJoinFilters`]: the physical optimizer rule that tells each pqcodec scan which of
//! its dynamic filters come from a hash join right above it.

use std::sync::Arc;

use datafusion::common::config::ConfigOptions;
use datafusion::datasource::physical_plan::FileScanConfig;
use datafusion::datasource::source::DataSourceExec;
use datafusion::error::Result;
use datafusion::physical_optimizer::PhysicalOptimizerRule;
use datafusion::physical_plan::coalesce_partitions::CoalescePartitionsExec;
use datafusion::physical_plan::coop::CooperativeExec;
use datafusion::physical_plan::filter::FilterExec;
use datafusion::physical_plan::joins::HashJoinExec;
use datafusion::physical_plan::projection::ProjectionExec;
use datafusion::physical_plan::repartition::RepartitionExec;
use datafusion::physical_plan::{ChildrenPropertiesMode, ExecutionPlan, ReplaceChildrenOptions};

use crate::source::PqcodecSource;

/// Marks the dynamic filters of each pqcodec scan whose hash join takes the scan's rows right
/// away: on its probe side, with only repartitions, projections, filters, the merging of
/// partitions and the probe sides of other hash joins in between.
///
/// A row such a filter drops would cost the joins the lookups the filter made, and little more,
/// so the scan leaves the filter out once it is seen not to spare decoding: the rows it keeps
/// are scattered and every batch is decoded whole anyway (see
/// [`RowFilter`](pqcodec_file::RowFilter)). Other dynamic filters spare work the scan cannot
/// see (a join's build side, an aggregate) and are evaluated unless they keep nearly every row.
/// Without this rule, none is marked.
///
/// [`register`](crate::register) and [`session_context`](crate::session_context) add it to
/// the session; a session built otherwise adds it last, after DataFusion's rules, which make
/// the dynamic filters:
///
/// ```
/// use std::sync::Arc;
/// use datafusion::execution::SessionStateBuilder;
/// use pqcodec_datafusion::AdjacentJoinFilters;
///
/// let state = SessionStateBuilder::new()
///     .with_default_features()
///     .with_physical_optimizer_rule(Arc::new(AdjacentJoinFilters))
///     .build();
/// # let _ = state;
/// ```
#[derive(Debug, Default, Clone, Copy)]
pub struct AdjacentJoinFilters;

impl PhysicalOptimizerRule for AdjacentJoinFilters {
    fn optimize(
        &self,
        plan: Arc<dyn ExecutionPlan>,
        _config: &ConfigOptions,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        Ok(mark(&plan, &[])?.unwrap_or(plan))
    }

    fn name(&self) -> &str {
        "pqcodec_adjacent_join_filters"
    }

    fn schema_check(&self) -> bool {
        true
    }
}

/// `plan` with its pqcodec scans marked, `joins` being the dynamic filters (by expression id)
/// of the hash joins that take `plan`'s rows right away; `None` if nothing changed.
fn mark(plan: &Arc<dyn ExecutionPlan>, joins: &[u64]) -> Result<Option<Arc<dyn ExecutionPlan>>> {
    if let Some(scan) = plan.downcast_ref::<DataSourceExec>() {
        return Ok(marked_scan(scan, joins));
    }
    let children = plan.children();
    let passes_rows = plan.is::<RepartitionExec>()
        || plan.is::<ProjectionExec>()
        || plan.is::<FilterExec>()
        || plan.is::<CoalescePartitionsExec>()
        || plan.is::<CooperativeExec>();
    // A hash join's dynamic filter goes to its probe side, the right, with those of the joins
    // that take the join's rows right away.
    let join = plan.is::<HashJoinExec>().then(|| {
        (plan.dynamic_expressions_produced().iter())
            .filter_map(|f| f.expression_id())
            .collect::<Vec<_>>()
    });
    let mut changed = false;
    let mut marked = Vec::with_capacity(children.len());
    for (at, child) in children.into_iter().enumerate() {
        let joins: Vec<u64> = match &join {
            Some(filters) if at == 1 => filters.iter().chain(joins).copied().collect(),
            Some(_) => vec![],
            None if passes_rows => joins.to_vec(),
            None => vec![],
        };
        match mark(child, &joins)? {
            Some(child) => {
                changed = true;
                marked.push(child);
            }
            None => marked.push(Arc::clone(child)),
        }
    }
    match changed {
        true => {
            let same = ReplaceChildrenOptions::new(ChildrenPropertiesMode::Keep);
            Arc::clone(plan).replace_children(marked, same).map(Some)
        }
        false => Ok(None),
    }
}

/// `scan` with `joins` marked, if it is a pqcodec scan whose marks they change.
fn marked_scan(scan: &DataSourceExec, joins: &[u64]) -> Option<Arc<dyn ExecutionPlan>> {
    let config = scan.data_source().downcast_ref::<FileScanConfig>()?;
    let source = config.file_source().downcast_ref::<PqcodecSource>()?;
    let source = source.with_adjacent_joins(joins)?;
    let mut config = config.clone();
    config.file_source = Arc::new(source);
    Some(DataSourceExec::from_data_source(config))
}
