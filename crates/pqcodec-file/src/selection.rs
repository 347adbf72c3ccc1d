//! Which rows to read: [`RowSelection`], runs of rows to read and to skip over the row groups
//! a reader reads, and how it meets an offset, a limit and the row groups' bounds.

use std::ops::Range;

use crate::error::{Error, Result};

/// A run of rows to read or to skip.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowSelector {
    /// The number of rows.
    pub row_count: usize,
    /// Whether they are skipped.
    pub skip: bool,
}

impl RowSelector {
    /// A run of `row_count` rows to read.
    pub fn select(row_count: usize) -> Self {
        RowSelector {
            row_count,
            skip: false,
        }
    }

    /// A run of `row_count` rows to skip.
    pub fn skip(row_count: usize) -> Self {
        RowSelector {
            row_count,
            skip: true,
        }
    }
}

/// Runs of rows to read and to skip, counted over the rows of the row groups read, one after
/// the other. Rows after its last run are skipped; a selection of more rows than the row
/// groups hold is an error.
///
/// ```
/// use pqcodec_file::{RowSelection, RowSelector};
///
/// let selection = RowSelection::from_consecutive_ranges([2..4, 4..5, 9..10].into_iter(), 12);
/// assert_eq!(
///     selection.selectors(),
///     [
///         RowSelector::skip(2),
///         RowSelector::select(3),
///         RowSelector::skip(4),
///         RowSelector::select(1),
///         RowSelector::skip(2),
///     ]
/// );
/// assert_eq!(selection.row_count(), 4);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RowSelection {
    selectors: Vec<RowSelector>,
}

impl RowSelection {
    /// The rows of `ranges`, which are in order and do not overlap, out of `total_rows`.
    pub fn from_consecutive_ranges(
        ranges: impl Iterator<Item = Range<usize>>,
        total_rows: usize,
    ) -> Self {
        let mut selectors = Vec::new();
        let mut at = 0;
        for range in ranges.filter(|r| r.start < r.end) {
            let start = range.start.max(at);
            if start > at {
                selectors.push(RowSelector::skip(start - at));
            }
            if range.end > start {
                selectors.push(RowSelector::select(range.end - start));
                at = range.end;
            }
        }
        if total_rows > at {
            selectors.push(RowSelector::skip(total_rows - at));
        }
        selectors.into_iter().collect()
    }

    /// The runs, adjacent runs of the same kind merged and empty ones dropped.
    pub fn selectors(&self) -> &[RowSelector] {
        &self.selectors
    }

    /// The number of rows read.
    pub fn row_count(&self) -> usize {
        self.selectors
            .iter()
            .filter(|s| !s.skip)
            .map(|s| s.row_count)
            .sum()
    }

    /// The number of rows covered, read or skipped.
    pub fn covered_rows(&self) -> usize {
        self.selectors.iter().map(|s| s.row_count).sum()
    }

    /// The ranges of rows read.
    pub(crate) fn ranges(&self) -> Vec<Range<usize>> {
        let mut at = 0;
        let mut out = Vec::new();
        for s in &self.selectors {
            if !s.skip {
                out.push(at..at + s.row_count);
            }
            at += s.row_count;
        }
        out
    }

    /// The selection over `total_rows` rows, with the first `offset` rows it reads skipped and
    /// at most `limit` read; what it does not cover is skipped. An error if it covers more
    /// than `total_rows`.
    pub(crate) fn resolve(
        selection: Option<&RowSelection>,
        total_rows: usize,
        offset: usize,
        limit: Option<usize>,
    ) -> Result<RowSelection> {
        let runs = match selection {
            Some(s) if s.covered_rows() > total_rows => {
                return Err(Error::Request(format!(
                    "the row selection covers {} rows, but the row groups read hold {total_rows}",
                    s.covered_rows()
                )));
            }
            Some(s) => s.selectors.clone(),
            None => vec![RowSelector::select(total_rows)],
        };
        let mut offset_left = offset;
        let mut limit_left = limit.unwrap_or(usize::MAX);
        let mut out = RowSelection::default();
        for run in runs {
            if run.skip {
                out.push(run);
                continue;
            }
            let dropped = run.row_count.min(offset_left);
            offset_left -= dropped;
            let kept = (run.row_count - dropped).min(limit_left);
            limit_left -= kept;
            out.push(RowSelector::skip(dropped));
            out.push(RowSelector::select(kept));
            out.push(RowSelector::skip(run.row_count - dropped - kept));
        }
        let covered = out.covered_rows();
        if covered < total_rows {
            out.push(RowSelector::skip(total_rows - covered));
        }
        Ok(out)
    }

    /// Splits off the runs of the first `rows` rows.
    pub(crate) fn split_off_front(&mut self, rows: usize) -> RowSelection {
        let mut front = RowSelection::default();
        let mut left = rows;
        let mut taken = 0;
        for s in &mut self.selectors {
            if left == 0 {
                break;
            }
            let n = s.row_count.min(left);
            front.push(RowSelector {
                row_count: n,
                skip: s.skip,
            });
            left -= n;
            s.row_count -= n;
            if s.row_count == 0 {
                taken += 1;
            }
        }
        self.selectors.drain(..taken);
        front
    }

    fn push(&mut self, s: RowSelector) {
        if s.row_count == 0 {
            return;
        }
        match self.selectors.last_mut() {
            Some(last) if last.skip == s.skip => last.row_count += s.row_count,
            _ => self.selectors.push(s),
        }
    }
}

impl FromIterator<RowSelector> for RowSelection {
    fn from_iter<I: IntoIterator<Item = RowSelector>>(iter: I) -> Self {
        let mut out = RowSelection::default();
        for s in iter {
            out.push(s);
        }
        out
    }
}

impl From<Vec<RowSelector>> for RowSelection {
    fn from(selectors: Vec<RowSelector>) -> Self {
        selectors.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offset_and_limit_apply_to_the_rows_read() {
        let selection: RowSelection = vec![
            RowSelector::skip(3),
            RowSelector::select(4),
            RowSelector::skip(2),
            RowSelector::select(5),
        ]
        .into();
        let resolved = RowSelection::resolve(Some(&selection), 20, 2, Some(3)).unwrap();
        assert_eq!(resolved.ranges(), [5..7, 9..10]);
        assert_eq!(resolved.covered_rows(), 20);
        let all = RowSelection::resolve(None, 10, 8, None).unwrap();
        assert_eq!(all.ranges(), [8..10]);
        let e = RowSelection::resolve(Some(&selection), 13, 0, None).unwrap_err();
        assert!(e.to_string().contains("covers 14 rows"), "{e}");
    }

    #[test]
    fn split_off_front_cuts_runs_at_row_group_bounds() {
        let mut selection: RowSelection =
            vec![RowSelector::select(5), RowSelector::skip(10)].into();
        let first = selection.split_off_front(7);
        assert_eq!(
            first.selectors(),
            [RowSelector::select(5), RowSelector::skip(2)]
        );
        assert_eq!(selection.selectors(), [RowSelector::skip(8)]);
        assert_eq!(selection.split_off_front(8).covered_rows(), 8);
        assert!(selection.selectors().is_empty());
    }
}
