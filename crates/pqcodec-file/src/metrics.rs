//! [`ReadMetrics`]: where a reader's time goes, and what its predicate cache served, for an
//! engine's metrics.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The time readers spent decompressing pages, decoding them into Arrow (the row filter's
/// columns included) and evaluating the row filter's predicates, and the records of their
/// predicate caches, summed over
/// the batches read with it
/// ([`ReaderBuilder::with_read_metrics`](crate::ReaderBuilder::with_read_metrics)). Clones share
/// the sums. I/O waits are in neither time.
///
/// Decoding is timed as the time spent making batches less the decompression and predicates
/// timed meanwhile on these sums: give each concurrent reader its own `ReadMetrics` for an
/// exact split.
///
/// ```
/// use pqcodec_file::{ReadMetrics, ReaderBuilder};
///
/// # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/pyarrow_dict_opt_v1.parquet");
/// let metrics = ReadMetrics::new();
/// let data = bytes::Bytes::from(std::fs::read(path)?);
/// let reader = ReaderBuilder::try_new(data)?.with_read_metrics(metrics.clone()).build()?;
/// for batch in reader {
///     batch?;
/// }
/// assert!(metrics.decode() > std::time::Duration::ZERO);
/// assert_eq!(metrics.cache_records(), 0); // no row filter, no cache
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct ReadMetrics(Arc<Sums>);

#[derive(Debug, Default)]
struct Sums {
    decompress: AtomicU64,
    decode: AtomicU64,
    filter: AtomicU64,
    cache_inner: AtomicU64,
    cache: AtomicU64,
}

impl ReadMetrics {
    /// Sums at zero.
    pub fn new() -> Self {
        Self::default()
    }

    /// The time spent decompressing pages.
    pub fn decompress(&self) -> Duration {
        Duration::from_nanos(self.0.decompress.load(Ordering::Relaxed))
    }

    /// The time spent decoding pages into Arrow, decompression not included.
    pub fn decode(&self) -> Duration {
        Duration::from_nanos(self.0.decode.load(Ordering::Relaxed))
    }

    /// The time spent evaluating the row filter's predicates.
    pub fn filter(&self) -> Duration {
        Duration::from_nanos(self.0.filter.load(Ordering::Relaxed))
    }

    /// The records of projected columns that the row filter's predicates decoded and kept
    /// (one a row a column): arrow-rs's `records_read_from_inner`.
    pub fn cache_inner_records(&self) -> u64 {
        self.0.cache_inner.load(Ordering::Relaxed)
    }

    /// The records of projected columns taken from the predicates' batches rather than
    /// decoded again (one a row a column): arrow-rs's `records_read_from_cache`.
    pub fn cache_records(&self) -> u64 {
        self.0.cache.load(Ordering::Relaxed)
    }

    /// Adds to the predicate cache's records: `inner` decoded and kept, `served` taken.
    pub(crate) fn add_cache_records(&self, inner: usize, served: usize) {
        let count = |n: usize| u64::try_from(n).unwrap_or(u64::MAX);
        (self.0.cache_inner).fetch_add(count(inner), Ordering::Relaxed);
        (self.0.cache).fetch_add(count(served), Ordering::Relaxed);
    }

    /// Runs `f`, a decompression, timed.
    pub(crate) fn decompressing<R>(&self, f: impl FnOnce() -> R) -> R {
        let start = Instant::now();
        let r = f();
        add(&self.0.decompress, start.elapsed());
        r
    }

    /// Adds the time spent evaluating a predicate.
    pub(crate) fn add_filter(&self, spent: Duration) {
        add(&self.0.filter, spent);
    }

    /// Runs `f`, which decodes (and decompresses and filters, timed apart), timed.
    pub(crate) fn decoding<R>(&self, f: impl FnOnce() -> R) -> R {
        let apart = || {
            let decompress = self.0.decompress.load(Ordering::Relaxed);
            decompress.wrapping_add(self.0.filter.load(Ordering::Relaxed))
        };
        let before = apart();
        let start = Instant::now();
        let r = f();
        let elapsed = nanos(start.elapsed());
        let timed_apart = apart().wrapping_sub(before);
        (self.0.decode).fetch_add(elapsed.saturating_sub(timed_apart), Ordering::Relaxed);
        r
    }
}

/// Runs `f` under `metrics`'s [`decoding`](ReadMetrics::decoding) timer, if any.
pub(crate) fn decoding<R>(metrics: Option<&ReadMetrics>, f: impl FnOnce() -> R) -> R {
    match metrics {
        Some(metrics) => metrics.decoding(f),
        None => f(),
    }
}

/// Runs `f` under `metrics`'s [`decompressing`](ReadMetrics::decompressing) timer, if any.
pub(crate) fn decompressing<R>(metrics: Option<&ReadMetrics>, f: impl FnOnce() -> R) -> R {
    match metrics {
        Some(metrics) => metrics.decompressing(f),
        None => f(),
    }
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

fn add(sum: &AtomicU64, d: Duration) {
    sum.fetch_add(nanos(d), Ordering::Relaxed);
}
