//! `s [NOT] LIKE 'a%b%c'` evaluated by searching each value for the pattern's pieces in turn.
//!
//! Arrow's `like` kernel compares, or searches for one substring, when the pattern has one
//! of the shapes `a`, `a%`, `%a` or `%a%`; any other pattern becomes a regular expression,
//! matched value by value (TPC-H's `%special%requests%` among them: q13 at scale factor 10
//! costs 15 % less CPU searched as here).
//! A pattern whose only wildcard is `%` needs no such machine: a value matches when it starts
//! with the first piece, ends with the last, and holds the pieces between in order, each
//! found leftmost after the one before (the leftmost match ends earliest, leaving the most
//! room to the rest). Patterns with `_` or an escape (`\`), `ILIKE` and arrays other than
//! strings are left to DataFusion.

use std::sync::Arc;

use arrow_array::{BooleanArray, RecordBatch};
use datafusion::error::Result;
use datafusion::physical_expr::expressions::LikeExpr;
use datafusion::physical_plan::PhysicalExpr;
use memchr::memmem::Finder;

use crate::string_values::{kept_where_valid, matched, string_literal};

/// Which rows of `batch` the predicate `expr` keeps (true, not null), when `expr` is a
/// case-sensitive `LIKE` or `NOT LIKE` of a string column against a pattern that [`Chain`]
/// takes; `None` for any other expression.
pub(crate) fn kept_rows(
    expr: &Arc<dyn PhysicalExpr>,
    batch: &RecordBatch,
) -> Option<Result<BooleanArray>> {
    let like = expr.downcast_ref::<LikeExpr>()?;
    if like.case_insensitive() {
        return None;
    }
    let chain = Chain::new(string_literal(like.pattern())?)?;
    let rows = batch.num_rows();
    let values = match like.expr().evaluate(batch).and_then(|v| v.into_array(rows)) {
        Ok(values) => values,
        Err(e) => return Some(Err(e)),
    };
    let kept = matched(&values, like.negated(), |v| chain.matches(v))?;
    Some(Ok(kept_where_valid(kept, values.as_ref())))
}

/// A LIKE pattern whose only wildcard is `%`, split at it: `first%middle[0]%...%last`.
#[derive(Debug)]
pub(crate) struct Chain {
    /// What a value starts with (empty when the pattern starts with `%`).
    first: Vec<u8>,
    /// What it holds, in this order, between `first` and `last` (no empty pieces).
    middle: Vec<Finder<'static>>,
    /// What it ends with (empty when the pattern ends with `%`).
    last: Vec<u8>,
}

impl Chain {
    /// The pattern's pieces, when its only wildcard is `%` and Arrow's kernel would match it as
    /// a regular expression: `None` for `a`, `a%`, `%a` and `%a%` (compared or searched for
    /// by the kernel already) and for a pattern with `_` or `\`.
    pub(crate) fn new(pattern: &str) -> Option<Chain> {
        if pattern.contains(['_', '\\']) {
            return None;
        }
        let pieces: Vec<&str> = pattern.split('%').collect();
        let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
        let kernels = match pieces.len() {
            1 => true,
            2 => first.is_empty() || last.is_empty(),
            3 => first.is_empty() && last.is_empty(),
            _ => false,
        };
        if kernels {
            return None;
        }
        let middle = pieces[1..pieces.len() - 1]
            .iter()
            .filter(|piece| !piece.is_empty())
            .map(|piece| Finder::new(piece.as_bytes()).into_owned())
            .collect();
        Some(Chain {
            first: first.as_bytes().to_vec(),
            middle,
            last: last.as_bytes().to_vec(),
        })
    }

    /// Whether `value` matches the pattern. Bytes of UTF-8 match where characters do: a
    /// valid piece found in a valid value starts and ends on character boundaries.
    #[inline]
    pub(crate) fn matches(&self, value: &[u8]) -> bool {
        let Some(end) = value.len().checked_sub(self.last.len()) else {
            return false;
        };
        // An empty end is not compared: a slice comparison is a call to `memcmp` even of no
        // bytes, and glibc's AVX-512 one made two per value a third of q13's CPU (Intel).
        if end < self.first.len()
            || (!self.first.is_empty() && value[..self.first.len()] != self.first)
            || (!self.last.is_empty() && value[end..] != self.last)
        {
            return false;
        }
        let mut at = self.first.len();
        for piece in &self.middle {
            match piece.find(&value[at..end]) {
                Some(found) => at += found + piece.needle().len(),
                None => return false,
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;
    use arrow_array::{BinaryArray, StringArray, StringViewArray};
    use arrow_schema::DataType;
    use arrow_schema::{Field, Schema};
    use datafusion::arrow::compute::kernels::comparison::like;
    use datafusion::common::ScalarValue;
    use datafusion::physical_expr::expressions::{col, lit};

    /// Strings of `a`, `b` and `é`, 0 to 15 characters, from a seeded generator.
    fn strings(seed: u64, count: usize, wildcards: bool) -> Vec<String> {
        let mut state = seed;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let alphabet: &[char] = if wildcards {
            &['a', 'b', 'é', '%', '%']
        } else {
            &['a', 'b', 'é']
        };
        (0..count)
            .map(|_| {
                let len = (next() % 16) as usize;
                (0..len)
                    .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                    .collect()
            })
            .collect()
    }

    #[test]
    fn matches_as_arrow_s_kernel_does() {
        let values = StringArray::from(strings(7, 400, false));
        let mut taken = 0;
        for pattern in strings(11, 600, true) {
            let Some(chain) = Chain::new(&pattern) else {
                continue;
            };
            taken += 1;
            let expected = like(&values, &StringArray::new_scalar(pattern.as_str())).unwrap();
            for (i, value) in values.iter().enumerate() {
                let value = value.unwrap();
                assert_eq!(
                    chain.matches(value.as_bytes()),
                    expected.value(i),
                    "{value:?} LIKE {pattern:?}"
                );
            }
        }
        assert!(taken > 100, "only {taken} patterns taken");
    }

    #[test]
    fn leaves_the_kernel_s_own_shapes_and_other_wildcards() {
        for pattern in [
            "abc", "abc%", "%abc", "%abc%", "%", "%%", "a_c%d", "a\\%b%c",
        ] {
            assert!(Chain::new(pattern).is_none(), "{pattern}");
        }
        for pattern in ["a%b", "%a%b%", "a%b%", "%%a%b", "a%%b%c%d"] {
            assert!(Chain::new(pattern).is_some(), "{pattern}");
        }
    }

    #[test]
    fn keeps_what_the_like_expression_keeps() {
        let mut values: Vec<Option<String>> =
            strings(3, 300, false).into_iter().map(Some).collect();
        values[5] = None;
        values[77] = None;
        // Long values, which views keep in a buffer, with the pieces near both ends.
        values.push(Some("é".repeat(20) + "ab" + &"b".repeat(30)));
        values.push(Some("ab".to_owned() + &"é".repeat(40) + "ba"));
        let field = |ty: DataType| Arc::new(Schema::new(vec![Field::new("s", ty, true)]));
        let batches = [
            RecordBatch::try_new(
                field(DataType::Utf8View),
                vec![Arc::new(StringViewArray::from(values.clone()))],
            )
            .unwrap(),
            RecordBatch::try_new(
                field(DataType::Utf8),
                vec![Arc::new(StringArray::from(values))],
            )
            .unwrap(),
        ];
        for batch in &batches {
            for pattern in ["a%b", "%ab%ba%", "é%b%a", "a%é%a%"] {
                for negated in [false, true] {
                    // The pattern is of the column's type, as DataFusion's planner casts it.
                    let pattern = match batch.column(0).data_type() {
                        DataType::Utf8View => ScalarValue::Utf8View(Some(pattern.to_owned())),
                        _ => ScalarValue::Utf8(Some(pattern.to_owned())),
                    };
                    let expr: Arc<dyn PhysicalExpr> = Arc::new(LikeExpr::new(
                        negated,
                        false,
                        col("s", &batch.schema()).unwrap(),
                        lit(pattern.clone()),
                    ));
                    let got = kept_rows(&expr, batch).expect("taken").unwrap();
                    let result = expr.evaluate(batch).unwrap().into_array(batch.num_rows());
                    let expected =
                        crate::routed_case::kept(result.unwrap().as_ref(), batch.num_rows());
                    assert_eq!(got, expected.unwrap(), "{pattern:?} negated {negated}");
                    assert_eq!(got.null_count(), 0);
                }
            }
        }
        // ILIKE is DataFusion's.
        let ilike: Arc<dyn PhysicalExpr> = Arc::new(LikeExpr::new(
            false,
            true,
            col("s", &batches[0].schema()).unwrap(),
            lit("a%b"),
        ));
        assert!(kept_rows(&ilike, &batches[0]).is_none());
        // So are binary values.
        let binary = RecordBatch::try_new(
            field(DataType::Binary),
            vec![Arc::new(BinaryArray::from_vec(vec![b"ab", b"b"]))],
        )
        .unwrap();
        let like: Arc<dyn PhysicalExpr> = Arc::new(LikeExpr::new(
            false,
            false,
            col("s", &binary.schema()).unwrap(),
            lit("a%b"),
        ));
        assert!(kept_rows(&like, &binary).is_none());
    }
}
