//! The async reader (feature `object_store`): [`AsyncRangeRead`], a source of byte ranges
//! read asynchronously, [`ObjectStoreSource`] over any `object_store`, and
//! [`BatchStream`], a `Stream` of RecordBatches.

use std::io;
use std::ops::Range;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use bytes::Bytes;
use futures::future::BoxFuture;
use futures::stream::{BoxStream, Stream};
use futures::{FutureExt, StreamExt};
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};

use crate::error::{Error, Result};
use crate::metadata::{FileMetadata, MetadataLoader};
use crate::reader::{ReaderBuilder, ReaderOptions};
use crate::row_groups::{Next, RowGroups};
use crate::source::{DEFAULT_COALESCE_GAP, check_lengths, span};

/// A file's bytes, read by ranges asynchronously: what a [`BatchStream`] reads
/// from. [`ObjectStoreSource`] is one.
pub trait AsyncRangeRead: Send + Sync {
    /// The file's size in bytes.
    fn size(&self) -> BoxFuture<'_, io::Result<u64>>;

    /// The bytes of each of `ranges`, in order.
    fn read_ranges(&self, ranges: Vec<Range<u64>>) -> BoxFuture<'_, io::Result<Vec<Bytes>>>;

    /// How far apart two byte ranges may lie and still be read as one: reading the bytes
    /// between costs less than another request up to about this many.
    fn coalesce_gap(&self) -> u64 {
        DEFAULT_COALESCE_GAP
    }
}

/// An object of an [`ObjectStore`], read by ranges (`get_ranges`, which coalesces them again
/// as the store sees fit).
#[derive(Debug, Clone)]
pub struct ObjectStoreSource {
    store: Arc<dyn ObjectStore>,
    path: Path,
    size: Option<u64>,
}

impl ObjectStoreSource {
    /// The object at `path` of `store`.
    pub fn new(store: Arc<dyn ObjectStore>, path: Path) -> Self {
        ObjectStoreSource {
            store,
            path,
            size: None,
        }
    }

    /// The object's size, when known (from a listing): saves a request for it.
    pub fn with_size(mut self, size: u64) -> Self {
        self.size = Some(size);
        self
    }
}

impl AsyncRangeRead for ObjectStoreSource {
    fn size(&self) -> BoxFuture<'_, io::Result<u64>> {
        async move {
            match self.size {
                Some(size) => Ok(size),
                None => Ok(self
                    .store
                    .head(&self.path)
                    .await
                    .map_err(io::Error::other)?
                    .size),
            }
        }
        .boxed()
    }

    fn read_ranges(&self, ranges: Vec<Range<u64>>) -> BoxFuture<'_, io::Result<Vec<Bytes>>> {
        async move {
            self.store
                .get_ranges(&self.path, &ranges)
                .await
                .map_err(io::Error::other)
        }
        .boxed()
    }
}

pub(crate) async fn read(
    source: &dyn AsyncRangeRead,
    ranges: Vec<Range<u64>>,
) -> Result<Vec<Bytes>> {
    let data = source
        .read_ranges(ranges.clone())
        .await
        .map_err(|e| Error::Read {
            range: span(&ranges),
            source: e,
        })?;
    check_lengths(&ranges, data)
}

impl MetadataLoader {
    /// Reads from `source` what it needs, to the end, asynchronously.
    async fn read_async(mut self, source: &dyn AsyncRangeRead) -> Result<FileMetadata> {
        while let Some(ranges) = self.needs()? {
            let data = read(source, ranges.clone()).await?;
            self.push(ranges, data)?;
        }
        self.finish()
    }
}

impl FileMetadata {
    /// Reads the metadata of `source` (and its page index if `page_index`), asynchronously.
    pub async fn load_async(source: &dyn AsyncRangeRead, page_index: bool) -> Result<Self> {
        let size = source.size().await.map_err(Error::size)?;
        MetadataLoader::new(size, page_index)?
            .read_async(source)
            .await
    }

    /// This metadata with the page index too, read asynchronously: as
    /// [`load_page_index`](Self::load_page_index).
    pub async fn load_page_index_async(
        self: Arc<Self>,
        source: &dyn AsyncRangeRead,
    ) -> Result<Arc<Self>> {
        if self.page_index_read() {
            return Ok(self);
        }
        let loader = MetadataLoader::page_index_of(&self)?;
        Ok(Arc::new(loader.read_async(source).await?))
    }
}

impl<T: AsyncRangeRead + 'static> ReaderBuilder<T> {
    /// A builder over `input`, its footer read asynchronously.
    pub async fn try_new_async(input: T) -> Result<Self> {
        Self::try_new_async_with_options(input, ReaderOptions::new()).await
    }

    /// A builder over `input`, its metadata read asynchronously as `options` say.
    pub async fn try_new_async_with_options(input: T, options: ReaderOptions) -> Result<Self> {
        let metadata = FileMetadata::load_async(&input, options.page_index()).await?;
        Ok(Self::new_with_metadata(input, Arc::new(metadata)))
    }

    /// The stream. Fails if the settings do not fit the file, as
    /// [`build`](ReaderBuilder::build) does.
    pub fn build_stream(mut self) -> Result<BatchStream> {
        let (plan, groups) = self.plan(self.input.coalesce_gap())?;
        let schema = plan.schema.clone();
        let remaining = self.take_remaining();
        let state = StreamState {
            input: Box::new(self.input),
            groups: RowGroups::new(plan, groups, remaining),
        };
        let inner = futures::stream::unfold(state, |mut state| async move {
            // Nothing more is given after an error.
            state.next_batch().await.transpose().map(|b| (b, state))
        })
        .boxed();
        Ok(BatchStream { schema, inner })
    }
}

/// RecordBatches read from an [`AsyncRangeRead`] a row group at a time: the projected column
/// chunks of a row group (or only their selected pages) are fetched in one request of
/// coalesced ranges, then decoded batch by batch as the stream is polled.
pub struct BatchStream {
    schema: SchemaRef,
    inner: BoxStream<'static, Result<RecordBatch>>,
}

impl std::fmt::Debug for BatchStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BatchStream")
            .field("schema", &self.schema)
            .finish_non_exhaustive()
    }
}

impl BatchStream {
    /// The schema of the batches.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

impl Stream for BatchStream {
    type Item = Result<RecordBatch>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.inner.poll_next_unpin(cx)
    }
}

struct StreamState {
    input: Box<dyn AsyncRangeRead>,
    groups: RowGroups,
}

impl StreamState {
    async fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        loop {
            match self.groups.next()? {
                Next::Batch(batch) => return Ok(Some(batch)),
                Next::End => return Ok(None),
                Next::Fetch(fetch) => match read(&*self.input, fetch.ranges.clone()).await {
                    Ok(data) => self.groups.open(fetch, data)?,
                    Err(e) => return Err(self.groups.failed(e)),
                },
            }
        }
    }
}
