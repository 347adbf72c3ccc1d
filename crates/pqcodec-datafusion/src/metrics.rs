//! The scan's own metrics beside DataFusion's Parquet ones (`bytes_scanned`,
//! `metadata_load_time`...): `elapsed_compute`, the time spent making the batches (decoding,
//! decompressing, adapting to the table's schema; not waiting for I/O), and of it pqcodec's
//! `decode_time` and `decompress_time`, per file.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use arrow_array::RecordBatch;
use datafusion::error::Result;
use datafusion::physical_plan::metrics::{ExecutionPlanMetricsSet, MetricBuilder, Time};
use futures::Stream;
use futures::stream::BoxStream;
use pqcodec_file::ReadTimes;

/// Where one file's scan adds its times.
pub(crate) struct ScanTimes {
    elapsed_compute: Time,
    decode: Time,
    decompress: Time,
}

impl ScanTimes {
    pub(crate) fn new(metrics: &ExecutionPlanMetricsSet, partition: usize, path: &str) -> Self {
        let per_file = |name: &'static str| {
            MetricBuilder::new(metrics)
                .with_new_label("filename", path.to_string())
                .subset_time(name, partition)
        };
        ScanTimes {
            elapsed_compute: MetricBuilder::new(metrics).elapsed_compute(partition),
            decode: per_file("decode_time"),
            decompress: per_file("decompress_time"),
        }
    }

    /// `batches` (pqcodec's reader's, adapted), their polls timed and `times` (the reader's)
    /// added to the metrics as they grow.
    pub(crate) fn timed(
        self,
        batches: BoxStream<'static, Result<RecordBatch>>,
        times: ReadTimes,
    ) -> Timed {
        Timed {
            batches,
            times,
            metrics: self,
            added: (Duration::ZERO, Duration::ZERO),
        }
    }
}

/// A stream of a file's batches whose time is added to the scan's metrics.
pub(crate) struct Timed {
    batches: BoxStream<'static, Result<RecordBatch>>,
    times: ReadTimes,
    metrics: ScanTimes,
    /// The reader's decode and decompression times already added.
    added: (Duration, Duration),
}

impl Stream for Timed {
    type Item = Result<RecordBatch>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let start = Instant::now();
        let poll = self.batches.as_mut().poll_next(cx);
        self.metrics.elapsed_compute.add_elapsed(start);
        let (decode, decompress) = (self.times.decode(), self.times.decompress());
        let (added_decode, added_decompress) = self.added;
        self.metrics.decode.add_duration(decode - added_decode);
        (self.metrics.decompress).add_duration(decompress - added_decompress);
        self.added = (decode, decompress);
        poll
    }
}
