//! A `CASE key WHEN 0 THEN f0 WHEN 1 THEN f1 ... ELSE e END` predicate evaluated by sending
//! each row to its branch once. A hash join over partitions gives its probe side such a
//! dynamic filter: `key` is the row's partition (`hash_repartition(..) % n`), each branch
//! looks the row up in that partition's build side. DataFusion's `CaseExpr` compares every
//! row left with each `WHEN` in turn and copies the rows left after each branch: on 16
//! partitions, some 8 comparisons and 16 copies of the batch a row. Here the key is computed
//! once, the rows are sorted by branch (a counting sort), and each branch's rows are taken
//! once and evaluated together.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use arrow_array::{Array, BooleanArray, RecordBatch, UInt32Array};
use datafusion::arrow::array::BooleanBufferBuilder;
use datafusion::arrow::compute::take_record_batch;
use datafusion::common::ScalarValue;
use datafusion::error::Result;
use datafusion::physical_expr::expressions::{CaseExpr, Literal};
use datafusion::physical_plan::PhysicalExpr;

/// `WHEN` values routed are below this: the branch table has a slot for each value up to the
/// largest.
const MOST_BRANCHES: u64 = 4096;

/// Which rows of `batch` the predicate `expr` keeps (true, not null), when `expr` is a `CASE`
/// over an unsigned key and small unsigned `WHEN` literals; `None` for any other expression.
pub(crate) fn kept_rows(
    expr: &Arc<dyn PhysicalExpr>,
    batch: &RecordBatch,
) -> Option<Result<BooleanArray>> {
    let case = expr.downcast_ref::<CaseExpr>()?;
    let key = case.expr()?;
    // The branch of each `WHEN` value (`NONE`: the `ELSE`).
    let mut branches = Vec::new();
    for (at, (when, _)) in case.when_then_expr().iter().enumerate() {
        let value = match when.downcast_ref::<Literal>()?.value() {
            ScalarValue::UInt64(Some(v)) if *v < MOST_BRANCHES => *v as usize,
            _ => return None,
        };
        if branches.len() <= value {
            branches.resize(value + 1, NONE);
        }
        // A value given twice: the first `WHEN` takes it, as in `CaseExpr`.
        if branches[value] == NONE {
            branches[value] = at as u32;
        }
    }
    Some(route(case, key, &branches, batch))
}

/// No branch: the row goes to the `ELSE`.
const NONE: u32 = u32::MAX;

fn route(
    case: &CaseExpr,
    key: &Arc<dyn PhysicalExpr>,
    branches: &[u32],
    batch: &RecordBatch,
) -> Result<BooleanArray> {
    let rows = batch.num_rows();
    let keys = key.evaluate(batch)?.into_array(rows)?;
    let Some(keys) = keys.as_primitive_opt::<UInt64Type>() else {
        // Not the key this is written for: `CaseExpr` itself.
        return kept(case.evaluate(batch)?.into_array(rows)?.as_ref(), rows);
    };
    let whens = case.when_then_expr().len();
    // Each row's group: its branch, or `whens` for the `ELSE` (a null key matches no `WHEN`).
    let groups: Vec<u32> = (0..rows)
        .map(|row| match keys.is_null(row) {
            true => NONE,
            false => usize::try_from(keys.value(row))
                .ok()
                .and_then(|k| branches.get(k).copied())
                .unwrap_or(NONE),
        })
        .map(|branch| branch.min(whens as u32))
        .collect();
    // A counting sort of the rows by group: `starts[g]..starts[g + 1]` of `order` are group
    // g's rows, in order.
    let mut starts = vec![0u32; whens + 2];
    for &g in &groups {
        starts[g as usize + 1] += 1;
    }
    for g in 1..starts.len() {
        starts[g] += starts[g - 1];
    }
    let mut next = starts.clone();
    let mut order = vec![0u32; rows];
    for (row, &g) in groups.iter().enumerate() {
        order[next[g as usize] as usize] = row as u32;
        next[g as usize] += 1;
    }

    let mut out = BooleanBufferBuilder::new(rows);
    out.append_n(rows, false);
    for g in 0..=whens {
        let (start, end) = (starts[g] as usize, starts[g + 1] as usize);
        if start == end {
            continue;
        }
        let expr = match g == whens {
            true => match case.else_expr() {
                Some(e) => e,
                // No `ELSE`: null, not kept.
                None => continue,
            },
            false => &case.when_then_expr()[g].1,
        };
        let rows_of = &order[start..end];
        // An empty partition's `false`, a cancelled one's `true`: no rows to take.
        match expr.downcast_ref::<Literal>().map(Literal::value) {
            Some(ScalarValue::Boolean(Some(false) | None)) => continue,
            Some(ScalarValue::Boolean(Some(true))) => {
                rows_of
                    .iter()
                    .for_each(|&row| out.set_bit(row as usize, true));
                continue;
            }
            _ => {}
        }
        let taken;
        let input = match end - start == rows {
            true => batch,
            false => {
                taken = take_record_batch(batch, &UInt32Array::from(rows_of.to_vec()))?;
                &taken
            }
        };
        let result = expr.evaluate(input)?.into_array(input.num_rows())?;
        let result = kept(result.as_ref(), input.num_rows())?;
        for (i, &row) in rows_of.iter().enumerate() {
            if result.value(i) {
                out.set_bit(row as usize, true);
            }
        }
    }
    Ok(BooleanArray::new(out.finish(), None))
}

/// A filter's `result` over `rows` rows as booleans, null as false.
pub(crate) fn kept(result: &dyn Array, rows: usize) -> Result<BooleanArray> {
    let Some(booleans) = result.as_boolean_opt() else {
        return datafusion::common::internal_err!(
            "a filter gives {}, not booleans",
            result.data_type()
        );
    };
    if booleans.len() != rows {
        return datafusion::common::internal_err!(
            "a filter gives {} values for {rows} rows",
            booleans.len()
        );
    }
    Ok(match booleans.nulls() {
        Some(nulls) => BooleanArray::new(booleans.values() & nulls.inner(), None),
        None => booleans.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{Int64Array, UInt64Array};
    use arrow_schema::{DataType, Field, Schema};
    use datafusion::logical_expr::Operator;
    use datafusion::physical_expr::expressions::{BinaryExpr, Column, InListExpr, col, lit};
    use pqcodec_testkit::Rng;

    /// `CASE k WHEN 0 THEN v IN (..) ... ELSE <else> END` over `branches` partitions, some
    /// of them empty (`false`), as a partitioned hash join's dynamic filter.
    fn partitioned(schema: &Schema, branches: u64, else_: Option<bool>) -> Arc<dyn PhysicalExpr> {
        let whens = (0..branches)
            .filter(|b| b % 5 != 4)
            .map(|b| {
                let then: Arc<dyn PhysicalExpr> = match b % 3 {
                    2 => lit(false),
                    _ => {
                        let list = (0..20).map(|i| lit(i * 7 + b as i64)).collect();
                        let in_list =
                            InListExpr::try_new(col("v", schema).unwrap(), list, false, schema);
                        Arc::new(in_list.unwrap())
                    }
                };
                (lit(ScalarValue::UInt64(Some(b))), then)
            })
            .collect();
        let key = Arc::new(BinaryExpr::new(
            col("k", schema).unwrap(),
            Operator::Modulo,
            lit(ScalarValue::UInt64(Some(branches))),
        ));
        let else_ = else_.map(lit);
        Arc::new(CaseExpr::try_new(Some(key), whens, else_).unwrap())
    }

    #[test]
    fn keeps_what_case_keeps() {
        let schema = Schema::new(vec![
            Field::new("k", DataType::UInt64, true),
            Field::new("v", DataType::Int64, true),
        ]);
        let mut rng = Rng::new(7);
        let rows = 5000;
        let k: UInt64Array = (0..rows)
            .map(|_| (rng.below(10) != 0).then(|| rng.next_u64()))
            .collect();
        let v: Int64Array = (0..rows)
            .map(|_| (rng.below(20) != 0).then(|| rng.below(200) as i64))
            .collect();
        let batch =
            RecordBatch::try_new(Arc::new(schema.clone()), vec![Arc::new(k), Arc::new(v)]).unwrap();
        for branches in [1, 2, 16, 37] {
            for else_ in [None, Some(false), Some(true)] {
                let expr = partitioned(&schema, branches, else_);
                let routed = kept_rows(&expr, &batch).expect("routed").unwrap();
                let direct = expr.evaluate(&batch).unwrap().into_array(rows).unwrap();
                let direct = kept(direct.as_ref(), rows).unwrap();
                assert_eq!(routed, direct, "{branches} branches, else {else_:?}");
                assert!(
                    routed.true_count() > 0,
                    "{branches} branches keep some rows"
                );
            }
        }
    }

    #[test]
    fn other_expressions_are_left_to_datafusion() {
        let schema = Schema::new(vec![Field::new("k", DataType::UInt64, true)]);
        let batch = RecordBatch::new_empty(Arc::new(schema.clone()));
        let column: Arc<dyn PhysicalExpr> = Arc::new(Column::new("k", 0));
        assert!(kept_rows(&column, &batch).is_none());
        // A WHEN that is not an unsigned literal.
        let case = CaseExpr::try_new(Some(column), vec![(lit(1i64), lit(true))], None).unwrap();
        assert!(kept_rows(&(Arc::new(case) as Arc<dyn PhysicalExpr>), &batch).is_none());
    }
}
