//! The objectives' rules: which candidate a column gets.

use std::fmt;
use std::str::FromStr;

use super::{ByteSize, Estimate};

/// What the advisor optimises for.
///
/// The rules are for the file as a whole: the columns' picks together.
/// - `Size`: each column's fewest bytes (ties: the fastest to decode).
/// - `Balanced` (the default): the least decode time for a file within 25 % of the
///   smallest.
/// - `Speed`: the least decode time for a file no larger than the input (the file as it is,
///   or, for batches, what the writer's default settings would make of them); the smallest
///   if no choice is that small.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Objective {
    /// The smallest.
    Size,
    /// The fastest to decode within 25 % of the smallest file.
    #[default]
    Balanced,
    /// The fastest to decode, no larger than the input file.
    Speed,
}

/// How much larger than the smallest a `Balanced` file may be.
const BALANCED_SLACK: f64 = 1.25;

/// The share of a budget a plan may fill: its bytes are estimates from a sample, within about
/// half a per cent of what the writer then writes, so the file it writes keeps to the budget.
const ESTIMATE_MARGIN: f64 = 0.99;

/// Decode times this close are one: measured on a sample, a difference of a few per cent is
/// noise, and the smaller candidate is taken.
const SAME_TIME: f64 = 1.05;

impl fmt::Display for Objective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Objective::Size => "size",
            Objective::Balanced => "balanced",
            Objective::Speed => "speed",
        })
    }
}

impl FromStr for Objective {
    type Err = String;

    /// `size`, `balanced` or `speed`, case-insensitive.
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "size" => Ok(Objective::Size),
            "balanced" => Ok(Objective::Balanced),
            "speed" => Ok(Objective::Speed),
            _ => Err(format!(
                "unknown objective {s:?} (expected size, balanced or speed)"
            )),
        }
    }
}

/// One candidate a column, as `objective` picks them for the file: `candidates` per column
/// (none empty), `inputs` the bytes of each column as it is now. Returns each column's pick
/// and why.
///
/// `Size` takes each column's smallest. `Balanced` and `Speed` give the file a budget of
/// bytes (1.25 times the sum of the smallest; the sum of the inputs) and take the plan of least
/// decode time within [`ESTIMATE_MARGIN`] of it ([`fastest_within`]). When no plan but the
/// smallest fits, or not even it, the smallest it is.
pub(crate) fn plan(
    objective: Objective,
    candidates: &[Vec<Estimate>],
    inputs: &[u64],
) -> Vec<(usize, String)> {
    let smallest: Vec<usize> = candidates
        .iter()
        .map(|c| index_of_min(c, |_| true, |e| (e.bytes as f64, e.decode_seconds)))
        .collect();
    let least: u64 = smallest
        .iter()
        .zip(candidates)
        .map(|(&i, c)| c[i].bytes)
        .sum();
    let budget = match objective {
        Objective::Size => {
            return smallest
                .into_iter()
                .map(|i| (i, "the smallest".to_owned()))
                .collect();
        }
        Objective::Balanced => (least as f64 * BALANCED_SLACK) as u64,
        Objective::Speed => inputs.iter().sum(),
    };
    if least > budget {
        let why = format!(
            "the smallest: no choice keeps the file within {}",
            ByteSize(budget)
        );
        return smallest.into_iter().map(|i| (i, why.clone())).collect();
    }
    // The smallest plan fits; the search, which keeps a margin and counts in steps, may miss it.
    let seconds = |picks: &[usize]| totals(candidates, picks).1;
    let picks = fastest_within(candidates, (budget as f64 * ESTIMATE_MARGIN) as u64)
        .filter(|picks| seconds(picks) <= seconds(&smallest))
        .unwrap_or_else(|| smallest.clone());
    let limit = match objective {
        Objective::Balanced => format!(
            "with the file within 25 % of its smallest ({})",
            ByteSize(budget)
        ),
        _ => format!(
            "with the file no larger than its input ({})",
            ByteSize(budget)
        ),
    };
    picks
        .into_iter()
        .zip(&smallest)
        .zip(candidates)
        .map(|((i, &small), c)| {
            let why = if i == fastest(c, |_| true) {
                format!("the fastest to decode, {limit}")
            } else if i == small {
                format!("the smallest, {limit}")
            } else {
                format!("faster to decode than the smaller candidates, {limit}")
            };
            (i, why)
        })
        .collect()
}

/// Steps the budget is cut into for [`fastest_within`].
const BUDGET_STEPS: u64 = 4096;

/// The cells (columns times steps) a search starts with, at most: files of more than 2,048
/// columns are searched in fewer, coarser steps. A search keeps two bytes a cell, and may
/// grow to twice its steps: at most 32 MiB.
const SEARCH_CELLS: u64 = 1 << 23;

/// Searches [`fastest_within`] makes, each with the room the one before left or overran.
const SEARCHES: usize = 4;

/// The plan of least total decode time whose bytes are within `budget`: each column's pick,
/// or `None` if the search finds none.
///
/// A column's candidates are first cut to those that decode faster than every smaller one by
/// more than [`SAME_TIME`] (so the smaller of two near-equal candidates is taken). The choice
/// is then a knapsack with one item per column, solved exactly over bytes counted in steps of
/// `budget / BUDGET_STEPS` (fewer for thousands of columns): unlike a greedy descent, it can
/// spend the budget on one large column made fast (a text column in LZ4_RAW, the rest at their
/// smallest) when that saves more time than many small columns made fast. Bytes are rounded to
/// the nearest step, so each plan's exact bytes are checked, and the search is made again with
/// the room the plan left, or less by what it overran.
fn fastest_within(candidates: &[Vec<Estimate>], budget: u64) -> Option<Vec<usize>> {
    let steps = (SEARCH_CELLS / candidates.len().max(1) as u64).clamp(1, BUDGET_STEPS);
    let step = budget.div_ceil(steps).max(1);
    // Each column's frontier, with its candidates' steps and times.
    let options: Vec<Vec<Weighed>> = candidates
        .iter()
        .map(|c| {
            frontier(c)
                .into_iter()
                .map(|i| Weighed {
                    index: i,
                    steps: c[i].bytes.saturating_add(step / 2) / step,
                    seconds: c[i].decode_seconds,
                })
                .collect()
        })
        .collect();
    let mut capacity = budget / step;
    let mut best: Option<(f64, Vec<usize>)> = None;
    for _ in 0..SEARCHES {
        let Some(picks) = knapsack(&options, capacity as usize) else {
            break;
        };
        let (bytes, seconds) = totals(candidates, &picks);
        let next = if bytes <= budget {
            if best.as_ref().is_none_or(|(t, _)| seconds < *t) {
                best = Some((seconds, picks));
            }
            (capacity + (budget - bytes) / step).min(2 * steps)
        } else {
            capacity.checked_sub((bytes - budget).div_ceil(step))?
        };
        if next == capacity {
            break;
        }
        capacity = next;
    }
    best.map(|(_, picks)| picks)
}

/// A candidate as [`knapsack`] weighs it.
#[derive(Debug, Clone, Copy)]
struct Weighed {
    /// Its index among the column's candidates.
    index: usize,
    /// Its bytes, in steps of the budget.
    steps: u64,
    seconds: f64,
}

/// The candidates' indices of least total time whose steps sum to at most `capacity`, each
/// column taking one of its `options`; `None` if none fits.
fn knapsack(options: &[Vec<Weighed>], capacity: usize) -> Option<Vec<usize>> {
    // least[w]: the least time of the columns so far within `w` steps.
    let mut least = vec![0.0f64; capacity + 1];
    // took[col][w]: the option column `col` took within `w` steps (`u16::MAX`: none fits).
    let mut took: Vec<Vec<u16>> = Vec::with_capacity(options.len());
    for column in options {
        let mut next = vec![f64::INFINITY; capacity + 1];
        let mut chose = vec![u16::MAX; capacity + 1];
        for (k, o) in column.iter().enumerate() {
            let Ok(weight) = usize::try_from(o.steps) else {
                continue;
            };
            // Each width `w` that holds this option, against what the columns before left.
            let fits = next.iter_mut().zip(chose.iter_mut()).skip(weight);
            for ((slot, pick), before) in fits.zip(&least) {
                let total = before + o.seconds;
                if total < *slot {
                    *slot = total;
                    *pick = k as u16;
                }
            }
        }
        least = next;
        took.push(chose);
    }
    if !least.last()?.is_finite() {
        return None;
    }
    let mut w = capacity;
    let mut picks = vec![0; options.len()];
    for (col, chose) in took.iter().enumerate().rev() {
        let o = options[col].get(usize::from(chose[w]))?;
        picks[col] = o.index;
        w = w.checked_sub(usize::try_from(o.steps).ok()?)?;
    }
    Some(picks)
}

/// A plan's bytes and decode seconds.
fn totals(candidates: &[Vec<Estimate>], picks: &[usize]) -> (u64, f64) {
    picks
        .iter()
        .zip(candidates)
        .fold((0, 0.0), |(b, t), (&i, c)| {
            (b + c[i].bytes, t + c[i].decode_seconds)
        })
}

/// The candidates worth a byte more: from the smallest up, each that decodes faster than every
/// smaller one by more than [`SAME_TIME`].
fn frontier(candidates: &[Estimate]) -> Vec<usize> {
    let mut by_size: Vec<usize> = (0..candidates.len()).collect();
    by_size.sort_by(|&a, &b| {
        let key = |e: &Estimate| (e.bytes, e.decode_seconds);
        key(&candidates[a])
            .partial_cmp(&key(&candidates[b]))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut kept = Vec::new();
    let mut best = f64::INFINITY;
    for i in by_size {
        let time = candidates[i].decode_seconds;
        if time * SAME_TIME < best {
            kept.push(i);
            best = time;
        }
    }
    kept
}

/// The fastest candidate that passes `keep`: the smallest of those within [`SAME_TIME`] of
/// the least decode time.
fn fastest(candidates: &[Estimate], keep: impl Fn(&Estimate) -> bool) -> usize {
    let least = candidates
        .iter()
        .filter(|e| keep(e))
        .map(|e| e.decode_seconds)
        .fold(f64::INFINITY, f64::min);
    index_of_min(
        candidates,
        |e| keep(e) && e.decode_seconds <= least * SAME_TIME,
        |e| (e.bytes as f64, e.decode_seconds),
    )
}

/// The index of the least `key` among candidates that pass `keep` (the first on a tie).
fn index_of_min(
    candidates: &[Estimate],
    keep: impl Fn(&Estimate) -> bool,
    key: impl Fn(&Estimate) -> (f64, f64),
) -> usize {
    let mut best: Option<(usize, (f64, f64))> = None;
    for (i, e) in candidates.iter().enumerate() {
        if !keep(e) {
            continue;
        }
        let k = key(e);
        if best.is_none_or(|(_, b)| k.partial_cmp(&b) == Some(std::cmp::Ordering::Less)) {
            best = Some((i, k));
        }
    }
    best.map_or(0, |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use pqcodec_core::Encoding;

    use super::*;
    use crate::compression::Compression;

    fn estimate(bytes: u64, decode_seconds: f64) -> Estimate {
        Estimate {
            encoding: Encoding::Plain,
            compression: Compression::Uncompressed,
            bytes,
            decode_seconds,
        }
    }

    fn plan_totals(candidates: &[Vec<Estimate>], picks: &[(usize, String)]) -> (u64, f64) {
        let picks: Vec<usize> = picks.iter().map(|(i, _)| *i).collect();
        totals(candidates, &picks)
    }

    /// Ten bytes too many: a greedy descent by time per byte saved takes the text column's big
    /// step (0.033 s a byte, 30 bytes); one small column's step (0.04 s a byte, 10 bytes) is
    /// enough, and costs less time in all.
    #[test]
    fn one_small_step_beats_a_cheaper_big_one() {
        let text = vec![estimate(80, 1.0), estimate(50, 2.0)];
        let small = vec![estimate(20, 0.1), estimate(10, 0.5)];
        let mut candidates = vec![text];
        candidates.extend(std::iter::repeat_n(small, 4));
        // 150 bytes fit in 99 % of 152.
        let picks = plan(Objective::Speed, &candidates, &[152]);
        assert_eq!(picks[0].0, 0, "{picks:?}");
        assert_eq!(picks[1..].iter().filter(|(i, _)| *i == 1).count(), 1);
        let (bytes, seconds) = plan_totals(&candidates, &picks);
        assert_eq!(bytes, 150);
        assert!((seconds - 1.8).abs() < 1e-9, "{seconds}");
    }

    /// A thousand columns of equal candidates (rounding errs the same way in each): the plan
    /// still fills its budget, and twenty thousand are planned within it.
    #[test]
    fn wide_files_are_planned_within_budget() {
        for columns in [1_000u64, 20_000] {
            let candidates =
                vec![vec![estimate(2_000, 0.1), estimate(1_000, 0.5)]; columns as usize];
            let budget = columns * 1_500;
            let picks = plan(Objective::Speed, &candidates, &[budget]);
            let (bytes, seconds) = plan_totals(&candidates, &picks);
            assert!(bytes <= budget, "{bytes} > {budget}");
            if columns == 1_000 {
                // The best: 485 columns fast (99 % of the budget), 0.306 s a column.
                assert!(seconds < columns as f64 * 0.31, "{seconds}");
            }
        }
    }

    /// Against every plan of small files: within the budget, and as fast as the fastest plan
    /// within 99 % of it but for the 5 % that near-equal candidates may give up for bytes.
    #[test]
    fn plans_are_within_budget_and_as_fast_as_any() {
        let mut rng = pqcodec_testkit::Rng::new(0x9e37_79b9_7f4a_7c15);
        let mut next = |n: u64| rng.next_u64() % n;
        for _ in 0..300 {
            let columns = 1 + next(4) as usize;
            let candidates: Vec<Vec<Estimate>> = (0..columns)
                .map(|_| {
                    (0..1 + next(4))
                        .map(|_| estimate(1 + next(200), (1 + next(1000)) as f64 / 1000.0))
                        .collect()
                })
                .collect();
            let inputs = [candidates.iter().map(|c| c[0].bytes).sum::<u64>() + next(50)];
            for objective in [Objective::Balanced, Objective::Speed] {
                let least: u64 = candidates
                    .iter()
                    .map(|c| c.iter().map(|e| e.bytes).min().unwrap())
                    .sum();
                let budget = match objective {
                    Objective::Balanced => (least as f64 * BALANCED_SLACK) as u64,
                    _ => inputs[0],
                };
                let (bytes, seconds) =
                    plan_totals(&candidates, &plan(objective, &candidates, &inputs));
                assert!(
                    bytes <= budget.max(least),
                    "{bytes} > {budget}: {candidates:?}"
                );
                let budget = (budget as f64 * ESTIMATE_MARGIN) as u64;
                // Every plan within the search's budget, by brute force.
                let mut best = f64::INFINITY;
                let plans: usize = candidates.iter().map(Vec::len).product();
                for mut n in 0..plans {
                    let (mut b, mut t) = (0, 0.0);
                    for c in &candidates {
                        let e = c[n % c.len()];
                        n /= c.len();
                        b += e.bytes;
                        t += e.decode_seconds;
                    }
                    if b <= budget {
                        best = best.min(t);
                    }
                }
                if best.is_finite() {
                    assert!(
                        seconds <= best * SAME_TIME + 1e-9,
                        "{seconds} > {best}: {candidates:?}"
                    );
                } else {
                    assert_eq!(bytes, least);
                }
            }
        }
    }
}
