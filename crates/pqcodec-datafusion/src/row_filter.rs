//! The query's filters evaluated while a file is read (`pushdown_filters`): each conjunct of
//! the predicate becomes a predicate of pqcodec's [`RowFilter`] over the columns it names
//! (those over the same columns as one; cheapest first, fewest compressed bytes, with
//! `reorder_filters`), so that the columns projected are decoded only for the rows every
//! conjunct keeps. A dynamic filter (a join's or a top-k's, which only saves work) is left out
//! once it keeps nearly every row or, coming from a hash join right above the scan
//! ([`AdjacentJoinFilters`](crate::AdjacentJoinFilters)), costs more than the rows it drops
//! save (see [`RowFilter`]): measured over every partition and file of the scan together, and
//! again each time the operator updates it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use arrow_array::{Array, BooleanArray, RecordBatch, RecordBatchOptions};
use arrow_schema::{ArrowError, Schema, SchemaRef};
use datafusion::arrow::array::AsArray;
use datafusion::physical_expr::expressions::DynamicFilterPhysicalExpr;
use datafusion::physical_expr::utils::{collect_columns, reassign_expr_columns};
use datafusion::physical_expr::{conjunction, split_conjunction};
use datafusion::physical_expr_common::physical_expr::{is_volatile, snapshot_generation};
use datafusion::physical_plan::PhysicalExpr;
use datafusion::physical_plan::metrics::Count;
use pqcodec_file::{ArrowPredicate, FileMetadata, Projection, ReadCost, RowFilter, Selectivity};

use crate::{like_chain, prefix_in, routed_case};

/// A conjunct of the predicate over the top-level fields it names.
struct Conjunct {
    expr: Arc<dyn PhysicalExpr>,
    projection: Projection,
    /// A dynamic filter: the operator that made it drops the rows it drops again.
    optional: bool,
    /// A dynamic filter of a hash join right above the scan: the work a row it drops spares
    /// there is the lookup it made.
    adjacent: bool,
    pruned: Count,
    matched: Count,
}

impl ArrowPredicate for Conjunct {
    fn projection(&self) -> &Projection {
        &self.projection
    }

    fn evaluate(&mut self, batch: RecordBatch) -> Result<BooleanArray, ArrowError> {
        let rows = batch.num_rows();
        let external = |e| ArrowError::ExternalError(Box::new(e));
        // A join's filter over hash partitions is evaluated a branch at a time, a LIKE of
        // several pieces by searching for them, and a string's first characters compared with
        // literals without making the substrings.
        let current = match self.expr.downcast_ref::<DynamicFilterPhysicalExpr>() {
            Some(dynamic) => dynamic.current().map_err(external)?,
            None => Arc::clone(&self.expr),
        };
        let special = routed_case::kept_rows(&current, &batch)
            .or_else(|| like_chain::kept_rows(&current, &batch))
            .or_else(|| prefix_in::kept_rows(&current, &batch));
        let kept = match special {
            Some(kept) => kept,
            None => (current.evaluate(&batch))
                .and_then(|value| value.into_array(rows))
                .and_then(|array| routed_case::kept(array.as_ref(), rows)),
        }
        .map_err(external)?;
        let matched = kept.true_count();
        self.matched.add(matched);
        self.pruned.add(rows - matched);
        Ok(kept)
    }

    fn is_optional(&self) -> bool {
        self.optional
    }

    fn repeats_the_work_above(&self) -> bool {
        self.adjacent
    }

    fn generation(&self) -> u64 {
        snapshot_generation(&self.expr)
    }
}

/// What a scan's row filters measured, shared by its partitions and files: what reading a row
/// costs, and what each dynamic filter (by `expression_id`) kept and cost; so that all leave a
/// dynamic filter out once their rows together show it is not worth evaluating.
#[derive(Debug, Default)]
pub(crate) struct Measures {
    read_cost: ReadCost,
    dynamic: Mutex<HashMap<u64, Selectivity>>,
}

impl Measures {
    /// The measure of the dynamic filter `id`.
    fn of(&self, id: u64) -> Selectivity {
        let mut map = self.dynamic.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(id).or_default().clone()
    }
}

/// Whether the conjuncts of `predicate` that name no column (columns the file lacks, made
/// literals) keep the rows: each is evaluated once, for the whole file.
pub(crate) fn keeps_any_row(predicate: &Arc<dyn PhysicalExpr>) -> datafusion::error::Result<bool> {
    let one_row = RecordBatch::try_new_with_options(
        Arc::new(Schema::empty()),
        vec![],
        &RecordBatchOptions::new().with_row_count(Some(1)),
    )?;
    for expr in split_conjunction(predicate) {
        if is_volatile(expr) || !collect_columns(expr).is_empty() {
            continue;
        }
        let value = expr.evaluate(&one_row)?.into_array(1)?;
        let kept = value
            .as_boolean_opt()
            .is_some_and(|b| b.is_valid(0) && b.value(0));
        if !kept {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The row filter of `predicate` (over `schema`, the file's columns as read), counting the
/// rows each conjunct prunes and keeps in `pruned` and `matched`; the conjuncts cheapest first
/// if `reorder`, else in the predicate's order; the read cost and the dynamic filters measured
/// in `measures`, those of `adjacent_joins` (expression ids) coming from a hash join right
/// above the scan; `None` if it has no conjunct to evaluate.
pub(crate) fn row_filter(
    predicate: &Arc<dyn PhysicalExpr>,
    schema: &SchemaRef,
    meta: &FileMetadata,
    reorder: bool,
    (pruned, matched): (&Count, &Count),
    (measures, adjacent_joins): (&Measures, &[u64]),
) -> datafusion::error::Result<Option<RowFilter>> {
    // Each top-level field's compressed bytes in the file, to order the conjuncts (summed
    // once per file when its footer was read).
    let mut first_leaf = Vec::with_capacity(schema.fields().len() + 1);
    let mut leaves = 0;
    for field in schema.fields() {
        first_leaf.push(leaves);
        leaves += pqcodec_arrow::leaf_count(field);
    }
    first_leaf.push(leaves);
    let bytes = |root: usize| -> u64 {
        (first_leaf[root]..first_leaf[root + 1])
            .map(|leaf| meta.column_compressed_size(leaf))
            .fold(0, u64::saturating_add)
    };

    // A volatile conjunct (`random() < 0.5`) is left to the filter above the scan: evaluated
    // twice, it would keep fewer rows.
    let mut exprs: Vec<(Arc<dyn PhysicalExpr>, Vec<usize>, bool)> = Vec::new();
    for expr in split_conjunction(predicate)
        .into_iter()
        .filter(|e| !is_volatile(e))
    {
        let mut roots: Vec<usize> = collect_columns(expr)
            .iter()
            .map(|c| schema.index_of(c.name()))
            .collect::<Result<_, _>>()?;
        roots.sort_unstable();
        roots.dedup();
        // A conjunct of no columns (one about a column this file lacks, made a literal) is
        // the same for every row: `keeps_any_row` evaluates it once.
        if roots.is_empty() {
            continue;
        }
        // Static conjuncts over the same columns (`d >= x AND d < y`) are evaluated as one, on
        // the same batch: apart, the second would take its columns again for the rows the
        // first kept (from the predicate cache, a copy of each), and cost more than both
        // comparisons together.
        let optional = expr.downcast_ref::<DynamicFilterPhysicalExpr>().is_some();
        let same = (exprs.iter_mut()).find(|(_, other_roots, other_optional)| {
            !optional && !*other_optional && *other_roots == roots
        });
        match same {
            Some((other, _, _)) => *other = conjunction([Arc::clone(other), Arc::clone(expr)]),
            None => exprs.push((Arc::clone(expr), roots, optional)),
        }
    }

    let mut conjuncts = Vec::with_capacity(exprs.len());
    for (expr, roots, optional) in exprs {
        // The batch the conjunct sees: its fields, in the file's order.
        let projected = Schema::new(
            roots
                .iter()
                .map(|&r| Arc::clone(&schema.fields()[r]))
                .collect::<Vec<_>>(),
        );
        let id = optional.then(|| expr.expression_id()).flatten();
        let adjacent = id.is_some_and(|id| adjacent_joins.contains(&id));
        let measured = id.map(|id| measures.of(id));
        let expr = reassign_expr_columns(expr, &projected)?;
        let cost = (roots.iter().map(|&r| bytes(r))).fold(0, u64::saturating_add);
        conjuncts.push((
            cost,
            measured,
            Conjunct {
                expr,
                projection: Projection::roots(roots),
                optional,
                adjacent,
                pruned: pruned.clone(),
                matched: matched.clone(),
            },
        ));
    }
    if conjuncts.is_empty() {
        return Ok(None);
    }
    if reorder {
        conjuncts.sort_by_key(|(cost, _, _)| *cost);
    }
    let (dynamic, predicates): (Vec<_>, Vec<_>) = (conjuncts.into_iter())
        .map(|(_, measured, c)| (measured, Box::new(c) as Box<dyn ArrowPredicate>))
        .unzip();
    let mut filter = RowFilter::new(predicates).with_read_cost(measures.read_cost.clone());
    for (p, measured) in dynamic.into_iter().enumerate() {
        if let Some(selectivity) = measured {
            filter = filter.with_selectivity(p, selectivity);
        }
    }
    Ok(Some(filter))
}
