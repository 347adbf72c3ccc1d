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
/// bytes (1.25 times the sum of the smallest; the sum of the inputs) and spend it where it
/// saves the most decode time: every column starts at its fastest candidate, and while the
/// file is over budget, the column whose next smaller candidate costs the least time per
/// byte saved takes it. Then any column that can be faster within what is left of the
/// budget is. Should that end slower than every column's smallest (which fits the budget
/// whenever any plan does), the smallest are taken.
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
    let mut picks: Vec<usize> = candidates.iter().map(|c| fastest(c, |_| true)).collect();
    let total =
        |picks: &[usize]| -> u64 { picks.iter().zip(candidates).map(|(&i, c)| c[i].bytes).sum() };
    let mut bytes = total(&picks);
    while bytes > budget {
        // The smaller candidate that costs the least time per byte saved, over all columns.
        let mut best: Option<(usize, usize, f64)> = None;
        for (col, c) in candidates.iter().enumerate() {
            let now = &c[picks[col]];
            for (i, e) in c.iter().enumerate() {
                if e.bytes >= now.bytes {
                    continue;
                }
                let cost = (e.decode_seconds - now.decode_seconds) / (now.bytes - e.bytes) as f64;
                if best.is_none_or(|(_, _, b)| cost < b) {
                    best = Some((col, i, cost));
                }
            }
        }
        let Some((col, i, _)) = best else { break };
        bytes = bytes - candidates[col][picks[col]].bytes + candidates[col][i].bytes;
        picks[col] = i;
    }
    // What is left of the budget: a column may be faster with it.
    for (col, c) in candidates.iter().enumerate() {
        let now = c[picks[col]];
        let room = budget.saturating_sub(bytes) + now.bytes;
        let i = fastest(c, |e| e.bytes <= room);
        if i != picks[col] && c[i].decode_seconds * SAME_TIME < now.decode_seconds {
            bytes = bytes - now.bytes + c[i].bytes;
            picks[col] = i;
        }
    }
    // The greedy descent can end slower than the smallest plan when that fits the budget too:
    // then the smallest it is.
    let seconds = |picks: &[usize]| -> f64 {
        picks
            .iter()
            .zip(candidates)
            .map(|(&i, c)| c[i].decode_seconds)
            .sum()
    };
    if seconds(&smallest) < seconds(&picks) {
        picks.clone_from(&smallest);
    }
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
