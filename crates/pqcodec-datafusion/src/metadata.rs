//! Files' metadata read by pqcodec, through the object store and DataFusion's file metadata
//! cache: the footer and page index are read once per file and shared by schema inference,
//! statistics, the scans of every partition and later queries, within the cache's limit.

use std::any::Any;
use std::io;
use std::ops::Range;
use std::sync::{Arc, Mutex, PoisonError};

use bytes::Bytes;
use datafusion::common::HashMap;
use datafusion::execution::cache::cache_manager::{
    CachedFileMetadataEntry, FileMetadata as CacheEntry, FileMetadataCache,
};
use datafusion::physical_plan::metrics::{Count, Time};
use futures::FutureExt;
use futures::future::BoxFuture;
use object_store::path::Path;
use object_store::{ObjectMeta, ObjectStore};
use pqcodec_file::{AsyncRangeRead, FileMetadata, ObjectStoreSource};

use crate::error::{Error, Result};

/// pqcodec's metadata of a file as kept in DataFusion's file metadata cache.
struct Cached(Arc<FileMetadata>);

impl CacheEntry for Cached {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn memory_size(&self) -> usize {
        self.0.memory_size()
    }

    fn extra_info(&self) -> HashMap<String, String> {
        HashMap::from([
            ("reader".to_string(), "pqcodec".to_string()),
            (
                "page_index".to_string(),
                self.0.page_index_read().to_string(),
            ),
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

/// Loads of files' metadata, shared by the partitions of a scan (and by a format's schema
/// inference): from DataFusion's file metadata cache when it holds what is asked, else read
/// once however many partitions ask for the same file at the same time, and cached.
#[derive(Debug, Default)]
pub(crate) struct Loads {
    /// A slot per file being loaded: the first to come reads, the others wait on its lock and
    /// take what it read. Removed when the last of them is done.
    slots: Mutex<HashMap<Path, Slot>>,
}

type Slot = Arc<futures::lock::Mutex<Option<Arc<FileMetadata>>>>;

impl Loads {
    /// The metadata of `object`, with its page index if `page_index`: from `cache` if it holds
    /// it, else read from `source` (a footer cached without the page index is completed, not
    /// read again) and cached. `time` (`metadata_load_time`) gets the time spent looking up,
    /// reading and parsing, not the time spent waiting for another partition's load.
    pub(crate) async fn load(
        &self,
        source: &dyn AsyncRangeRead,
        object: &ObjectMeta,
        cache: Option<&Arc<FileMetadataCache>>,
        page_index: bool,
        time: Option<&Time>,
    ) -> Result<Arc<FileMetadata>> {
        let timer = time.map(Time::timer);
        let hit = cache.and_then(|c| cached(c, object));
        if let Some(meta) = hit.as_ref().filter(|m| enough(m, page_index)) {
            return Ok(Arc::clone(meta));
        }
        let slot = SlotGuard::take(self, &object.location);
        drop(timer);
        let mut held = slot.slot.lock().await;
        let _timer = time.map(Time::timer);
        // What another partition loaded while this one waited, or what the cache has now.
        let known = held
            .clone()
            .filter(|m| m.file_size() == object.size)
            .or_else(|| cache.and_then(|c| cached(c, object)))
            .or(hit);
        if let Some(meta) = known.as_ref().filter(|m| enough(m, page_index)) {
            return Ok(Arc::clone(meta));
        }
        let file_error = |source| Error::File {
            path: object.location.to_string(),
            source,
        };
        let meta = match known {
            Some(footer) => footer.load_page_index_async(source).await,
            None => FileMetadata::load_async(source, page_index)
                .await
                .map(Arc::new),
        }
        .map_err(file_error)?;
        *held = Some(Arc::clone(&meta));
        if let Some(cache) = cache {
            let entry = Cached(Arc::clone(&meta));
            cache.put(
                &object.location,
                CachedFileMetadataEntry::new(object.clone(), Arc::new(entry)),
            );
        }
        Ok(meta)
    }
}

/// The metadata `cache` holds for `object`, if it is pqcodec's and still `object`'s.
fn cached(cache: &Arc<FileMetadataCache>, object: &ObjectMeta) -> Option<Arc<FileMetadata>> {
    let entry = cache.get(&object.location)?;
    if !entry.is_valid_for(object) {
        return None;
    }
    let cached = entry.file_metadata.as_any().downcast_ref::<Cached>()?;
    Some(Arc::clone(&cached.0))
}

/// Whether `meta` serves a scan that wants the page index if `page_index`.
fn enough(meta: &FileMetadata, page_index: bool) -> bool {
    meta.page_index_read() || !page_index
}

/// A file's slot in [`Loads`], taken out of the map by the last to let it go (even when its
/// future is dropped).
struct SlotGuard<'a> {
    loads: &'a Loads,
    path: Path,
    slot: Slot,
}

impl<'a> SlotGuard<'a> {
    fn take(loads: &'a Loads, path: &Path) -> Self {
        let mut slots = loads.slots.lock().unwrap_or_else(PoisonError::into_inner);
        let slot = Arc::clone(slots.entry(path.clone()).or_default());
        SlotGuard {
            loads,
            path: path.clone(),
            slot,
        }
    }
}

impl Drop for SlotGuard<'_> {
    fn drop(&mut self) {
        let mut slots = self
            .loads
            .slots
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        // The map's reference and this one: nobody else waits. New takers clone under the
        // map's lock, so the count cannot rise meanwhile.
        if slots
            .get(&self.path)
            .is_some_and(|s| Arc::ptr_eq(s, &self.slot))
            && Arc::strong_count(&self.slot) == 2
        {
            slots.remove(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use datafusion::execution::cache::default_cache::DefaultCache;

    use super::*;

    /// A file in memory whose range reads are counted and wait a turn of the executor, as
    /// real I/O does, so that loads overlap.
    #[derive(Default)]
    struct Slow {
        data: Bytes,
        reads: AtomicUsize,
        /// How long each read blocks its thread.
        delay: Duration,
    }

    impl AsyncRangeRead for Slow {
        fn size(&self) -> BoxFuture<'_, io::Result<u64>> {
            futures::future::ready(Ok(self.data.len() as u64)).boxed()
        }

        fn read_ranges(&self, ranges: Vec<Range<u64>>) -> BoxFuture<'_, io::Result<Vec<Bytes>>> {
            self.reads.fetch_add(1, Ordering::SeqCst);
            async move {
                tokio::task::yield_now().await;
                std::thread::sleep(self.delay);
                let slice = |r: Range<u64>| self.data.slice(r.start as usize..r.end as usize);
                Ok(ranges.into_iter().map(slice).collect())
            }
            .boxed()
        }
    }

    fn sample() -> (Slow, ObjectMeta) {
        let file = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/data/pyarrow_dict_opt_v1.parquet"
        );
        let data = Bytes::from(std::fs::read(file).unwrap());
        let object = ObjectMeta {
            location: Path::from("t.parquet"),
            last_modified: Default::default(),
            size: data.len() as u64,
            e_tag: None,
            version: None,
        };
        let source = Slow {
            data,
            ..Slow::default()
        };
        (source, object)
    }

    /// Partitions opening one file at the same time wait for one load, even without a cache.
    #[tokio::test]
    async fn concurrent_loads_of_a_file_read_it_once() {
        let (source, object) = sample();
        // What one load reads.
        FileMetadata::load_async(&source, true).await.unwrap();
        let one = source.reads.swap(0, Ordering::SeqCst);
        assert!(one >= 1);

        let loads = Loads::default();
        let all = (0..16).map(|_| loads.load(&source, &object, None, true, None));
        let metas = futures::future::try_join_all(all).await.unwrap();
        assert_eq!(source.reads.load(Ordering::SeqCst), one);
        assert!(metas.iter().all(|m| Arc::ptr_eq(m, &metas[0])));
        assert!(loads.slots.lock().unwrap().is_empty(), "slots are let go");
    }

    /// `metadata_load_time` is the load's own time: a partition that waits for another's load
    /// counts none of the wait.
    #[tokio::test]
    async fn a_wait_for_another_partition_s_load_is_not_load_time() {
        let (mut source, object) = sample();
        source.delay = Duration::from_millis(40);
        let loads = Loads::default();
        let (first, second) = (Time::new(), Time::new());
        let (a, b) = futures::join!(
            loads.load(&source, &object, None, true, Some(&first)),
            loads.load(&source, &object, None, true, Some(&second)),
        );
        assert!(Arc::ptr_eq(&a.unwrap(), &b.unwrap()));
        assert!(first.value() >= 40_000_000, "{} ns", first.value());
        assert!(second.value() < 20_000_000, "{} ns", second.value());
    }

    /// A cached footer is completed with the page index (the footer not read again), and what
    /// the cache holds serves later loads without a read.
    #[tokio::test]
    async fn a_cached_footer_is_completed_then_served() {
        let (source, object) = sample();
        let cache: Arc<FileMetadataCache> = Arc::new(DefaultCache::new(1 << 20));
        let loads = Loads::default();
        let footer = loads
            .load(&source, &object, Some(&cache), false, None)
            .await;
        assert!(!footer.unwrap().page_index_read());
        let footer_reads = source.reads.swap(0, Ordering::SeqCst);
        let full = loads.load(&source, &object, Some(&cache), true, None).await;
        assert!(full.unwrap().page_index_read());
        // The file is small: its page index lies in the tail the footer's read took, but that
        // is not kept, so the index takes one read of its own, and no tail read.
        assert!(source.reads.swap(0, Ordering::SeqCst) <= footer_reads);
        for page_index in [false, true] {
            let meta = loads
                .load(&source, &object, Some(&cache), page_index, None)
                .await;
            assert!(meta.unwrap().page_index_read());
        }
        assert_eq!(source.reads.load(Ordering::SeqCst), 0);
        let entries = cache.list_entries();
        let info = entries[&object.location].value.file_metadata.extra_info();
        assert_eq!(info["reader"], "pqcodec");
        assert_eq!(info["page_index"], "true");
    }
}
