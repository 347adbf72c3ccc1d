//! [`ReadTimes`]: where a reader's time goes, for an engine's metrics.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The time readers spent decompressing pages and decoding them into Arrow (the row filter's
/// columns and predicates included), summed over the batches read with it
/// ([`ReaderBuilder::with_read_times`](crate::ReaderBuilder::with_read_times)). Clones share
/// the sums. I/O waits are in neither.
///
/// Decoding is timed as the time spent making batches less the decompression timed meanwhile
/// on these sums: give each concurrent reader its own `ReadTimes` for an exact split.
///
/// ```
/// use pqcodec_file::{ReadTimes, ReaderBuilder};
///
/// # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/pyarrow_dict_opt_v1.parquet");
/// let times = ReadTimes::new();
/// let data = bytes::Bytes::from(std::fs::read(path)?);
/// let reader = ReaderBuilder::try_new(data)?.with_read_times(times.clone()).build()?;
/// for batch in reader {
///     batch?;
/// }
/// assert!(times.decode() > std::time::Duration::ZERO);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct ReadTimes(Arc<Sums>);

#[derive(Debug, Default)]
struct Sums {
    decompress: AtomicU64,
    decode: AtomicU64,
}

impl ReadTimes {
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

    /// Runs `f`, a decompression, timed.
    pub(crate) fn decompressing<R>(&self, f: impl FnOnce() -> R) -> R {
        let start = Instant::now();
        let r = f();
        add(&self.0.decompress, start.elapsed());
        r
    }

    /// Runs `f`, which decodes (and decompresses, timed apart), timed.
    pub(crate) fn decoding<R>(&self, f: impl FnOnce() -> R) -> R {
        let before = self.0.decompress.load(Ordering::Relaxed);
        let start = Instant::now();
        let r = f();
        let elapsed = nanos(start.elapsed());
        let decompressed = self.0.decompress.load(Ordering::Relaxed) - before;
        (self.0.decode).fetch_add(elapsed.saturating_sub(decompressed), Ordering::Relaxed);
        r
    }
}

/// Runs `f` under `times`'s [`decoding`](ReadTimes::decoding) timer, if any.
pub(crate) fn decoding<R>(times: Option<&ReadTimes>, f: impl FnOnce() -> R) -> R {
    match times {
        Some(times) => times.decoding(f),
        None => f(),
    }
}

/// Runs `f` under `times`'s [`decompressing`](ReadTimes::decompressing) timer, if any.
pub(crate) fn decompressing<R>(times: Option<&ReadTimes>, f: impl FnOnce() -> R) -> R {
    match times {
        Some(times) => times.decompressing(f),
        None => f(),
    }
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

fn add(sum: &AtomicU64, d: Duration) {
    sum.fetch_add(nanos(d), Ordering::Relaxed);
}
