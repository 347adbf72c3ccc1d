//! [`RowFilter`]: predicates evaluated while reading, before the other columns are decoded
//! (late materialisation). Each predicate reads its own columns, only for the rows still
//! selected. The rows kept, where they lie in runs, are read run by run (whole pages passed
//! over); where they are scattered, each batch is decoded whole and filtered, and batches that
//! keep no row are skipped.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use arrow_array::{Array, BooleanArray, RecordBatch};
use arrow_buffer::BooleanBuffer;
use arrow_buffer::bit_chunk_iterator::BitChunks;
use arrow_schema::ArrowError;

use crate::projection::Projection;
use crate::selection::{RowSelection, RowSelector};

/// A predicate over some columns of a file: given batches of those columns (the file's
/// columns as the reader reads them, projected), which rows to keep. Null is not kept.
pub trait ArrowPredicate: Send + 'static {
    /// The columns it reads.
    fn projection(&self) -> &Projection;

    /// Whether to keep each row of `batch`.
    fn evaluate(&mut self, batch: RecordBatch) -> Result<BooleanArray, ArrowError>;

    /// Whether the rows it drops may be kept: it only saves work, as a dynamic join filter
    /// does (the join drops those rows again). A reader stops evaluating an optional predicate
    /// once it has seen it keep nearly every row. `false` by default.
    fn is_optional(&self) -> bool {
        false
    }

    /// Whether the work a row it drops spares above the reader is this predicate's own
    /// evaluation again, as a hash join's filter on the scan right below the join looks the
    /// row up as the join will. Such an optional predicate is left out unless the rows it drops
    /// spare the decoding of other columns (see [`RowFilter`]). `false` by default: the work
    /// spared above is then taken to be unknown and large.
    fn repeats_the_work_above(&self) -> bool {
        false
    }

    /// A number that changes when what the predicate keeps changes (a dynamic filter made
    /// tighter): what was measured of it before is then forgotten. `0` by default.
    fn generation(&self) -> u64 {
        0
    }
}

/// An [`ArrowPredicate`] from a closure.
///
/// ```
/// use arrow_array::{Int64Array, cast::AsArray, types::Int64Type};
/// use pqcodec_file::{ArrowPredicateFn, Projection, RowFilter};
///
/// let positive = ArrowPredicateFn::new(Projection::paths(["id"]), |batch| {
///     let ids = batch.column(0).as_primitive::<Int64Type>();
///     Ok(ids.iter().map(|id| id.map(|id| id > 0)).collect())
/// });
/// let filter = RowFilter::new(vec![Box::new(positive)]);
/// # let _ = filter;
/// ```
pub struct ArrowPredicateFn<F> {
    projection: Projection,
    f: F,
}

impl<F> ArrowPredicateFn<F>
where
    F: FnMut(RecordBatch) -> Result<BooleanArray, ArrowError> + Send + 'static,
{
    /// The predicate `f` over the columns of `projection`.
    pub fn new(projection: Projection, f: F) -> Self {
        ArrowPredicateFn { projection, f }
    }
}

impl<F> ArrowPredicate for ArrowPredicateFn<F>
where
    F: FnMut(RecordBatch) -> Result<BooleanArray, ArrowError> + Send + 'static,
{
    fn projection(&self) -> &Projection {
        &self.projection
    }

    fn evaluate(&mut self, batch: RecordBatch) -> Result<BooleanArray, ArrowError> {
        (self.f)(batch)
    }
}

/// Predicates a row must pass, all of them, to be read: evaluated in order, each over the
/// rows the ones before kept. An [optional](ArrowPredicate::is_optional) predicate is left
/// out once its [`Selectivity`] has seen it over 64 Ki rows or more and found it not worth
/// evaluating: from the next batch on, in the row group being read too. That is when it keeps
/// at least 95 % of the rows, or, for one that [repeats the work
/// above](ArrowPredicate::repeats_the_work_above), when it costs more than it spares. Such a
/// predicate costs `e` a row; keeping a share `k` of the rows, the rows it drops spare the
/// work above, `(1 - k) * e`, and the decoding of the columns no predicate read yet where the
/// reader skips them, `(1 - k) * r` (`r`: the [`ReadCost`] of a value, measured on the
/// predicates' columns, times those columns, times the share of the dropped rows skipped rather
/// than decoded whole and filtered out). It is left out when `k * e` is more than `(1 - k) * r`.
///
/// On TPC-H, a join's filter over lineitem that drops 99.9 % of the rows saves q17 and q18 half
/// their CPU: an aggregate sits between the scan and the join, so the work it spares is not its
/// own, and it is kept. q05's, right below its join, keeps 15 % of the rows, scattered, so
/// that each batch is decoded whole anyway: left out. So is q04's, which drops 96 % of the rows
/// but spares no column (the join key is all the query reads); evaluated, it doubled q04's CPU
/// at scale factor 10 on 16 partitions.
pub struct RowFilter {
    pub(crate) predicates: Vec<Box<dyn ArrowPredicate>>,
    /// For each predicate, the rows it saw and those it kept.
    selectivity: Vec<Selectivity>,
    read_cost: ReadCost,
}

/// The rows an optional predicate is measured over before it may be left out.
const MEASURED_ROWS: u64 = 1 << 16;

/// An optional predicate keeping at least this share of the rows it saw (in percent) is left
/// out.
const NEARLY_ALL: u64 = 95;

impl RowFilter {
    /// The filter of `predicates`, evaluated in this order, each measured on its own.
    pub fn new(predicates: Vec<Box<dyn ArrowPredicate>>) -> Self {
        let selectivity = predicates.iter().map(|_| Selectivity::new()).collect();
        RowFilter {
            predicates,
            selectivity,
            read_cost: ReadCost::new(),
        }
    }

    /// Measures what reading a value costs with `cost`, which other readers may share (those
    /// of one query's partitions): each then knows it from what all of them read.
    pub fn with_read_cost(mut self, cost: ReadCost) -> Self {
        self.read_cost = cost;
        self
    }

    /// Counts `values` values (rows times columns) decompressed and decoded in `spent`.
    pub(crate) fn count_read(&self, spent: Duration, values: usize) {
        if values > 0 {
            let spent_on = &self.read_cost.0;
            (spent_on.nanos).fetch_add(saturate(spent.as_nanos()), Ordering::Relaxed);
            (spent_on.values).fetch_add(saturate(values as u128), Ordering::Relaxed);
        }
    }

    /// Measures predicate `p` with `selectivity`, which other readers may share (the readers of
    /// one query's partitions, say): an optional predicate is then left out by all of them as
    /// soon as the rows they saw together show it is not worth evaluating. A `p` past the
    /// predicates is ignored.
    pub fn with_selectivity(mut self, p: usize, selectivity: Selectivity) -> Self {
        if let Some(s) = self.selectivity.get_mut(p) {
            *s = selectivity;
        }
        self
    }

    /// Whether predicate `p` is left out (see [`RowFilter`]), a row it drops sparing the
    /// decoding of `spared` leaf columns where the reader skips it.
    pub(crate) fn leaves_out(&self, p: usize, spared: usize) -> bool {
        let predicate = &self.predicates[p];
        if !predicate.is_optional() {
            return false;
        }
        let cost = &self.read_cost;
        let decoding = (predicate.repeats_the_work_above())
            .then(|| {
                cost.nanos_per_value()
                    .map(|r| r * spared as f64 * cost.skipped_share())
            })
            .flatten();
        self.selectivity[p].not_worth(predicate.generation(), decoding)
    }

    /// Counts `dropped` rows the predicates dropped, of which the reader skips `skipped` (the
    /// others decoded and filtered out).
    pub(crate) fn count_dropped(&self, dropped: usize, skipped: usize) {
        let spent = &self.read_cost.0;
        (spent.dropped).fetch_add(saturate(dropped as u128), Ordering::Relaxed);
        (spent.skipped).fetch_add(saturate(skipped as u128), Ordering::Relaxed);
    }

    /// Counts `seen` rows evaluated by predicate `p` in `spent`, of which it kept `kept`.
    pub(crate) fn count(&self, p: usize, seen: usize, kept: usize, spent: Duration) {
        self.selectivity[p].add(seen, kept, spent);
    }
}

/// The rows a predicate was seen to keep, of those it saw, and the time it took: cheap to
/// clone, every clone counting into the same totals.
///
/// ```
/// use pqcodec_file::Selectivity;
///
/// let shared = Selectivity::new();
/// let other = shared.clone();
/// assert_eq!((other.rows_seen(), other.rows_kept()), (0, 0));
/// # let _ = shared;
/// ```
#[derive(Debug, Clone, Default)]
pub struct Selectivity(Arc<Measures>);

#[derive(Debug, Default)]
struct Measures {
    seen: AtomicU64,
    kept: AtomicU64,
    nanos: AtomicU64,
    /// The predicate's generation they were measured at.
    generation: AtomicU64,
}

impl Selectivity {
    /// Nothing seen yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The rows the predicate was evaluated over.
    pub fn rows_seen(&self) -> u64 {
        self.0.seen.load(Ordering::Relaxed)
    }

    /// The rows it kept of those.
    pub fn rows_kept(&self) -> u64 {
        self.0.kept.load(Ordering::Relaxed)
    }

    /// The time it took to evaluate them.
    pub fn time(&self) -> Duration {
        Duration::from_nanos(self.0.nanos.load(Ordering::Relaxed))
    }

    fn add(&self, seen: usize, kept: usize, spent: Duration) {
        let m = &self.0;
        m.seen.fetch_add(saturate(seen as u128), Ordering::Relaxed);
        m.kept.fetch_add(saturate(kept as u128), Ordering::Relaxed);
        let nanos = saturate(spent.as_nanos());
        m.nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    /// Whether, over 64 Ki rows or more, the predicate was found not worth evaluating (see
    /// [`RowFilter`]): keeping nearly every row or, where a row it drops spares `decoding`
    /// nanoseconds of decoding (and its own cost above the reader), costing more than it
    /// spares. Measured at the predicate's `generation`: what an earlier one did is forgotten.
    fn not_worth(&self, generation: u64, decoding: Option<f64>) -> bool {
        let m = &self.0;
        if m.generation.swap(generation, Ordering::Relaxed) != generation {
            for measure in [&m.seen, &m.kept, &m.nanos] {
                measure.store(0, Ordering::Relaxed);
            }
            return false;
        }
        // Kept first: a reader adding in between makes kept / seen smaller, never larger.
        let kept = self.rows_kept();
        let seen = self.rows_seen();
        if seen < MEASURED_ROWS {
            return false;
        }
        let nearly_all = kept.saturating_mul(100) >= seen.saturating_mul(NEARLY_ALL);
        let cost = m.nanos.load(Ordering::Relaxed) as f64 / seen as f64;
        let kept = kept as f64 / seen as f64;
        let too_dear = |spared: f64| kept * cost > (1.0 - kept) * spared;
        nearly_all || decoding.is_some_and(too_dear)
    }
}

/// `n`, or `u64::MAX` if it is larger.
fn saturate(n: u128) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

/// What reading costs, measured by readers with a row filter: the time they spent
/// decompressing and decoding their predicates' columns over the values (rows times columns)
/// read, and the share of the rows their predicates dropped that they skip rather than decode
/// and filter out. Cheap to clone, every clone adding to the same totals: the readers of a
/// query's partitions share one.
///
/// ```
/// use pqcodec_file::ReadCost;
///
/// let cost = ReadCost::new();
/// assert_eq!((cost.per_value(), cost.dropped_rows_skipped()), (None, None)); // nothing read yet
/// ```
#[derive(Debug, Clone, Default)]
pub struct ReadCost(Arc<Spent>);

#[derive(Debug, Default)]
struct Spent {
    nanos: AtomicU64,
    values: AtomicU64,
    dropped: AtomicU64,
    skipped: AtomicU64,
}

impl ReadCost {
    /// Nothing read yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The time a value took, once one was read.
    pub fn per_value(&self) -> Option<Duration> {
        (self.nanos_per_value()).map(|n| Duration::from_secs_f64(n / 1e9))
    }

    fn nanos_per_value(&self) -> Option<f64> {
        ratio(&self.0.nanos, &self.0.values)
    }

    /// The share of the rows predicates dropped that readers skipped rather than decoded,
    /// once some were dropped.
    pub fn dropped_rows_skipped(&self) -> Option<f64> {
        ratio(&self.0.skipped, &self.0.dropped)
    }

    /// The share of dropped rows skipped, 1 before any was dropped.
    fn skipped_share(&self) -> f64 {
        self.dropped_rows_skipped().unwrap_or(1.0)
    }
}

/// `n / d`, once `d` is not 0.
fn ratio(n: &AtomicU64, d: &AtomicU64) -> Option<f64> {
    let d = d.load(Ordering::Relaxed);
    (d > 0).then(|| n.load(Ordering::Relaxed) as f64 / d as f64)
}

impl std::fmt::Debug for RowFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowFilter")
            .field("predicates", &self.predicates.len())
            .finish()
    }
}

/// The rows of `selection` that `kept` keeps: `kept` holds one boolean (or null) for each
/// row `selection` selects, in order.
pub(crate) fn refine(selection: &RowSelection, kept: &BooleanBuffer) -> RowSelection {
    let mut out = Vec::new();
    let mut at = 0;
    for run in selection.selectors() {
        if run.skip {
            out.push(*run);
            continue;
        }
        let part = kept.slice(at, run.row_count);
        let mut done = 0;
        for (start, end) in part.set_slices() {
            out.push(RowSelector::skip(start - done));
            out.push(RowSelector::select(end - start));
            done = end;
        }
        out.push(RowSelector::skip(run.row_count - done));
        at += run.row_count;
    }
    out.into()
}

/// Runs of kept rows shorter than this on average are read as a mask (each batch decoded whole
/// and filtered) rather than as a selection (each run read, each gap skipped): a read and a
/// skip in every column cost about as much as decoding and filtering this many rows. (At 32,
/// TPC-H q01's filter, which keeps 98 % of the rows in runs of about 60, cost 16-26 % more
/// CPU: BENCHMARKS.md. Few rows kept in short runs are read as a mask too: read as a
/// selection, q06's 2 % cost 35 % more.)
const SHORTEST_RUNS: usize = 128;

/// The rows of `selection` that `kept` keeps (a bit a selected row), as a selection when they
/// lie in long runs, else as `selection` and the mask.
pub(crate) fn as_selection_or_mask(
    selection: RowSelection,
    kept: BooleanBuffer,
) -> (RowSelection, Option<BooleanBuffer>) {
    let rows = kept.count_set_bits();
    let runs = count_runs(&kept);
    match rows == 0 || rows >= runs * SHORTEST_RUNS {
        true => (refine(&selection, &kept), None),
        false => (selection, Some(kept)),
    }
}

/// The rows a reader decodes under `mask` (a bit a row), in batches of `batch_size`: all of
/// each batch that keeps a row.
pub(crate) fn rows_decoded(mask: &BooleanBuffer, batch_size: usize) -> usize {
    (0..mask.len())
        .step_by(batch_size.max(1))
        .map(|at| mask.slice(at, batch_size.min(mask.len() - at)))
        .filter(|batch| batch.count_set_bits() > 0)
        .map(|batch| batch.len())
        .sum()
}

/// The runs of set bits in `bits`: a run starts at each set bit whose previous bit is unset.
fn count_runs(bits: &BooleanBuffer) -> usize {
    let mut previous = 0u64;
    let mut runs = 0;
    for word in bits.bit_chunks().iter_padded() {
        runs += (word & !((word << 1) | previous)).count_ones() as usize;
        previous = word >> 63;
    }
    runs
}

/// `results`, one bit for each set bit of `mask`, spread over `mask`'s positions: 64 bits of
/// the mask at a time, each taking as many bits of `results` as it has set.
pub(crate) fn spread(mask: &BooleanBuffer, results: &BooleanBuffer) -> BooleanBuffer {
    let mut words = Vec::with_capacity(mask.len().div_ceil(64));
    let mut taken = 0;
    for mut word in mask.bit_chunks().iter_padded() {
        let n = word.count_ones() as usize;
        let mut bits = next_bits(results, taken, n);
        taken += n;
        // All of the word's rows kept, or none: no bit to move.
        if bits == u64::MAX >> (64 - n.max(1)) || bits == 0 {
            words.push(if bits == 0 { 0 } else { word });
            continue;
        }
        let mut out = 0u64;
        while word != 0 {
            if bits & 1 == 1 {
                out |= word & word.wrapping_neg();
            }
            bits >>= 1;
            word &= word - 1;
        }
        words.push(out);
    }
    let buffer = arrow_buffer::Buffer::from_vec(words);
    BooleanBuffer::new(buffer, 0, mask.len())
}

/// Bits `at..at + n` of `bits` (`n` at most 64), the first in the lowest; bits past the end
/// are 0.
fn next_bits(bits: &BooleanBuffer, at: usize, n: usize) -> u64 {
    let n = n.min(bits.len().saturating_sub(at));
    if n == 0 {
        return 0;
    }
    let chunks = BitChunks::new(bits.values(), bits.offset() + at, n);
    chunks.iter_padded().next().unwrap_or(0)
}

/// What a predicate's result keeps: its true values, nulls not.
pub(crate) fn kept(result: &BooleanArray) -> BooleanBuffer {
    match result.nulls() {
        Some(nulls) => result.values() & nulls.inner(),
        None => result.values().clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_optional_predicate_is_worth_what_its_dropped_rows_save() {
        // Over 100 000 rows, keeping `kept` of them at `cost` a row, a dropped row sparing
        // `spared` of decoding (in nanoseconds) and, if `spared` is known (the predicate
        // repeats the work above), its own cost above the reader.
        let worth = |kept: usize, cost: f64, spared: Option<f64>| {
            let s = Selectivity::new();
            s.add(100_000, kept, Duration::from_nanos((cost * 1e5) as u64));
            !s.not_worth(0, spared)
        };
        // Dropping 99.9 %, however dear, while sparing some decoding: its kept rows cost 0.1 %
        // of it, its dropped rows save the decoding and what the join would pay again.
        assert!(worth(100, 15.0, Some(10.0)));
        assert!(worth(100, 300.0, Some(10.0)));
        // Sparing no decoding, it only does the join's work before the join: left out.
        assert!(!worth(100, 15.0, Some(0.0)));
        // Keeping half: worth while it costs less than the decoding it spares.
        assert!(worth(50_000, 9.0, Some(10.0)));
        assert!(!worth(50_000, 11.0, Some(10.0)));
        // Keeping 80 %: its kept rows cost 0.8 of it, its dropped rows spare 0.2 of 10 ns.
        assert!(worth(80_000, 2.4, Some(10.0)));
        assert!(!worth(80_000, 2.6, Some(10.0)));
        // Keeping 95 %, however cheap.
        assert!(!worth(95_000, 0.1, Some(10.0)));
        // The work spared above not known (or the read cost not yet): evaluated however dear,
        // unless it keeps 95 % of the rows.
        assert!(worth(50_000, 300.0, None));
        assert!(worth(94_000, 300.0, None));
        assert!(!worth(95_000, 0.1, None));
        // Not yet measured over 64 Ki rows: evaluated.
        let s = Selectivity::new();
        s.add(60_000, 60_000, Duration::from_secs(1));
        assert!(!s.not_worth(0, Some(10.0)));
    }

    #[test]
    fn the_rows_decoded_under_a_mask_are_its_batches_that_keep_a_row() {
        let batch = 100;
        let mask = BooleanBuffer::from_iter((0..1050).map(|i| i == 150 || i == 160 || i >= 1049));
        // Batches 100..200 and 1000..1050 keep a row; the others are skipped.
        assert_eq!(rows_decoded(&mask, batch), 150);
        assert_eq!(rows_decoded(&BooleanBuffer::new_unset(1050), batch), 0);
        assert_eq!(rows_decoded(&BooleanBuffer::new_set(1050), batch), 1050);
    }

    #[test]
    fn scattered_rows_stay_a_mask_runs_become_a_selection() {
        let selection: RowSelection = vec![RowSelector::skip(10), RowSelector::select(200)].into();
        let scattered = BooleanBuffer::from_iter((0..200).map(|i| i % 3 == 0));
        let (s, mask) = as_selection_or_mask(selection.clone(), scattered.clone());
        assert_eq!((s, mask), (selection.clone(), Some(scattered)));
        let runs = BooleanBuffer::from_iter((0..200).map(|i| i >= 60));
        let (s, mask) = as_selection_or_mask(selection.clone(), runs);
        assert_eq!((s.ranges(), mask), (vec![70..210], None));
        let none = BooleanBuffer::new_unset(200);
        assert_eq!(as_selection_or_mask(selection, none).0.row_count(), 0);
        // Runs counted word by word, across words, from an offset.
        let bits = BooleanBuffer::from_iter((0..1000).map(|i| (i / 7) % 3 == 0 || i % 11 == 0));
        for at in [0, 1, 63, 64, 65] {
            let bits = bits.slice(at, 1000 - at - 3);
            assert_eq!(count_runs(&bits), bits.set_slices().count());
        }
        let mask = BooleanBuffer::from_iter([true, false, true, true]);
        let results = BooleanBuffer::from_iter([false, true, true]);
        assert_eq!(
            spread(&mask, &results),
            BooleanBuffer::from_iter([false, false, true, true])
        );
        // Over several words, from an offset, against the bit by bit spread.
        let mask = BooleanBuffer::from_iter((0..1000).map(|i| i % 3 != 0 || i % 7 == 0));
        let mask = mask.slice(5, 990);
        let results = BooleanBuffer::from_iter((0..mask.count_set_bits()).map(|i| i % 5 < 2));
        let mut want = vec![false; mask.len()];
        for (i, at) in mask.set_indices().enumerate() {
            want[at] = results.value(i);
        }
        assert_eq!(spread(&mask, &results), BooleanBuffer::from_iter(want));
    }

    #[test]
    fn refining_keeps_the_rows_the_predicate_keeps() {
        let selection: RowSelection = vec![
            RowSelector::skip(2),
            RowSelector::select(4),
            RowSelector::skip(3),
            RowSelector::select(3),
        ]
        .into();
        let result = BooleanArray::from(vec![
            Some(true),
            Some(false),
            None,
            Some(true),
            Some(true),
            Some(true),
            Some(false),
        ]);
        let refined = refine(&selection, &kept(&result));
        assert_eq!(refined.ranges(), [2..3, 5..6, 9..11]);
        assert_eq!(refined.covered_rows(), 12);
    }
}
