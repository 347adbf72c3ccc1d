//! The scan's own metrics beside DataFusion's Parquet ones (`bytes_scanned`,
//! `metadata_load_time`...): `elapsed_compute`, the time spent making the batches (decoding,
//! decompressing, adapting to the table's schema; not waiting for I/O), and of it pqcodec's
//! `decode_time` and `decompress_time`, per file, and DataFusion's `row_pushdown_eval_time`
//! (the row filter's predicates); and DataFusion's predicate cache gauges
//! (`predicate_cache_inner_records`, `predicate_cache_records`) from pqcodec's.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use arrow_array::RecordBatch;
use datafusion::datasource::physical_plan::parquet::ParquetFileMetrics;
use datafusion::error::Result;
use datafusion::physical_plan::metrics::{ExecutionPlanMetricsSet, Gauge, MetricBuilder, Time};
use futures::Stream;
use futures::stream::BoxStream;
use pqcodec_file::ReadMetrics;

/// Where one file's scan adds its times and predicate cache records.
pub(crate) struct ScanMetrics {
    elapsed_compute: Time,
    decode: Time,
    decompress: Time,
    filter: Time,
    cache_inner: Gauge,
    cache: Gauge,
}

impl ScanMetrics {
    pub(crate) fn new(
        metrics: &ExecutionPlanMetricsSet,
        partition: usize,
        path: &str,
        file: &ParquetFileMetrics,
    ) -> Self {
        let per_file = |name: &'static str| {
            MetricBuilder::new(metrics)
                .with_new_label("filename", path.to_string())
                .subset_time(name, partition)
        };
        ScanMetrics {
            elapsed_compute: MetricBuilder::new(metrics).elapsed_compute(partition),
            decode: per_file("decode_time"),
            decompress: per_file("decompress_time"),
            filter: file.row_pushdown_eval_time.clone(),
            cache_inner: file.predicate_cache_inner_records.clone(),
            cache: file.predicate_cache_records.clone(),
        }
    }

    /// `batches` (pqcodec's reader's, adapted), their polls timed and `read` (the reader's
    /// metrics) added to the scan's as they grow.
    pub(crate) fn timed(
        self,
        batches: BoxStream<'static, Result<RecordBatch>>,
        read: ReadMetrics,
    ) -> Timed {
        Timed {
            batches,
            read,
            metrics: self,
            added: [Duration::ZERO; 3],
        }
    }
}

/// A stream of a file's batches whose time is added to the scan's metrics.
pub(crate) struct Timed {
    batches: BoxStream<'static, Result<RecordBatch>>,
    read: ReadMetrics,
    metrics: ScanMetrics,
    /// The reader's decode, decompression and filter times already added.
    added: [Duration; 3],
}

impl Stream for Timed {
    type Item = Result<RecordBatch>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let start = Instant::now();
        let poll = self.batches.as_mut().poll_next(cx);
        self.metrics.elapsed_compute.add_elapsed(start);
        let read = &self.read;
        let now = [read.decode(), read.decompress(), read.filter()];
        let metrics = &self.metrics;
        let times = [&metrics.decode, &metrics.decompress, &metrics.filter];
        for ((time, now), added) in times.into_iter().zip(now).zip(self.added) {
            time.add_duration(now.saturating_sub(added));
        }
        self.added = now;
        let records = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        (self.metrics.cache_inner).set(records(self.read.cache_inner_records()));
        (self.metrics.cache).set(records(self.read.cache_records()));
        poll
    }
}
