//! Files' metadata read by pqcodec, through the object store and DataFusion's file metadata
//! cache: the footer is read once per file and shared by schema inference, statistics and the
//! scans of every partition.

use std::any::Any;
use std::io;
use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;
use datafusion::common::HashMap;
use datafusion::execution::cache::cache_manager::{
    CachedFileMetadataEntry, FileMetadata as CacheEntry, FileMetadataCache,
};
use datafusion::physical_plan::metrics::Count;
use futures::FutureExt;
use futures::future::BoxFuture;
use object_store::{ObjectMeta, ObjectStore};
use pqcodec_file::{AsyncRangeRead, FileMetadata, ObjectStoreSource};

use crate::error::{Error, Result};

/// pqcodec's metadata of a file as kept in DataFusion's file metadata cache.
struct Cached {
    meta: Arc<FileMetadata>,
    /// Whether the page index was asked for (a file may have none).
    page_index: bool,
}

impl CacheEntry for Cached {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn memory_size(&self) -> usize {
        self.meta.metadata().memory_size()
    }

    fn extra_info(&self) -> HashMap<String, String> {
        HashMap::from([
            ("reader".to_string(), "pqcodec".to_string()),
            ("page_index".to_string(), self.page_index.to_string()),
        ])
    }
}

/// An object's bytes, the bytes read counted.
#[derive(Debug, Clone)]
pub(crate) struct Source {
    inner: ObjectStoreSource,
    bytes_scanned: Option<Count>,
}

impl Source {
    pub(crate) fn new(
        store: Arc<dyn ObjectStore>,
        object: &ObjectMeta,
        bytes_scanned: Option<Count>,
    ) -> Self {
        let inner = ObjectStoreSource::new(store, object.location.clone()).with_size(object.size);
        Source {
            inner,
            bytes_scanned,
        }
    }
}

impl AsyncRangeRead for Source {
    fn size(&self) -> BoxFuture<'_, io::Result<u64>> {
        self.inner.size()
    }

    fn read_ranges(&self, ranges: Vec<Range<u64>>) -> BoxFuture<'_, io::Result<Vec<Bytes>>> {
        if let Some(count) = &self.bytes_scanned {
            let n: u64 = ranges.iter().map(|r| r.end.saturating_sub(r.start)).sum();
            count.add(usize::try_from(n).unwrap_or(usize::MAX));
        }
        self.inner.read_ranges(ranges).boxed()
    }
}

/// The metadata of `object`, from `cache` if it holds it (with the page index if
/// `page_index`), else read from `source` and cached.
pub(crate) async fn load(
    source: &Source,
    object: &ObjectMeta,
    cache: Option<&Arc<FileMetadataCache>>,
    page_index: bool,
) -> Result<Arc<FileMetadata>> {
    if let Some(entry) = cache.and_then(|c| c.get(&object.location))
        && entry.is_valid_for(object)
        && let Some(cached) = entry.file_metadata.as_any().downcast_ref::<Cached>()
        && (cached.page_index || !page_index)
    {
        return Ok(Arc::clone(&cached.meta));
    }
    let meta = FileMetadata::load_async(source, page_index)
        .await
        .map_err(|source| Error::File {
            path: object.location.to_string(),
            source,
        })?;
    let meta = Arc::new(meta);
    if let Some(cache) = cache {
        let entry = Cached {
            meta: Arc::clone(&meta),
            page_index,
        };
        cache.put(
            &object.location,
            CachedFileMetadataEntry::new(object.clone(), Arc::new(entry)),
        );
    }
    Ok(meta)
}
