//! The scan's own metrics beside DataFusion's Parquet ones (`bytes_scanned`,
//! `metadata_load_time`...): `elapsed_compute`, the time spent making the batches (decoding,
//! decompressing, adapting to the table's schema; not waiting for I/O), and of it pqcodec's
//! `decode_time` and `decompress_time`, per file; and DataFusion's predicate cache gauges
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
            added: (Duration::ZERO, Duration::ZERO),
        }
    }
}

/// A stream of a file's batches whose time is added to the scan's metrics.
pub(crate) struct Timed {
    batches: BoxStream<'static, Result<RecordBatch>>,
    read: ReadMetrics,
    metrics: ScanMetrics,
    /// The reader's decode and decompression times already added.
    added: (Duration, Duration),
}

impl Stream for Timed {
    type Item = Result<RecordBatch>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let start = Instant::now();
        let poll = self.batches.as_mut().poll_next(cx);
        self.metrics.elapsed_compute.add_elapsed(start);
        let (decode, decompress) = (self.read.decode(), self.read.decompress());
        let (added_decode, added_decompress) = self.added;
        self.metrics.decode.add_duration(decode - added_decode);
        (self.metrics.decompress).add_duration(decompress - added_decompress);
        self.added = (decode, decompress);
        let records = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        (self.metrics.cache_inner).set(records(self.read.cache_inner_records()));
        (self.metrics.cache).set(records(self.read.cache_records()));
        poll
    }
}
