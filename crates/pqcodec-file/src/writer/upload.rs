//! Writing to an object store: the file's bytes streamed to a multipart upload as row groups
//! end, the upload completed only by `close()`.

use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt, WriteMultipart};
use parquet::file::metadata::ParquetMetaData;

use super::{FileWriter, WriterOptions};
use crate::error::{Error, Result};

/// Upload parts in flight at once.
const MAX_CONCURRENT_PARTS: usize = 8;

/// The bytes the file writer has written and the upload has not yet taken.
#[derive(Debug, Clone, Default)]
struct Pending(Arc<Mutex<Vec<u8>>>);

impl Pending {
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl Write for Pending {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A [`FileWriter`] writing to an object in an [`ObjectStore`] by a multipart upload.
///
/// Each row group's bytes are handed to the upload as soon as the row group ends (parts of
/// the store's preferred size, several in flight). The object exists only once
/// [`AsyncFileWriter::close`] completes the upload: a writer dropped or failed before that
/// leaves nothing at the path (call [`AsyncFileWriter::abort`] to also free the parts).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use std::sync::Arc;
/// use arrow_array::{ArrayRef, Int32Array, RecordBatch};
/// use object_store::{memory::InMemory, path::Path, ObjectStore};
/// use pqcodec_file::{writer::AsyncFileWriter, WriterOptions};
///
/// let store: Arc<dyn ObjectStore> = Arc::new(InMemory::new());
/// let batch = RecordBatch::try_from_iter([("a", Arc::new(Int32Array::from(vec![1, 2])) as ArrayRef)])?;
/// let path = Path::from("t/part-0.parquet");
/// let mut writer = AsyncFileWriter::try_new(store, path, batch.schema(), WriterOptions::new()).await?;
/// writer.write(&batch).await?;
/// let metadata = writer.close().await?;
/// assert_eq!(metadata.file_metadata().num_rows(), 2);
/// # Ok(()) }
/// ```
pub struct AsyncFileWriter {
    writer: FileWriter<Pending>,
    pending: Pending,
    upload: WriteMultipart,
}

impl std::fmt::Debug for AsyncFileWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AsyncFileWriter")
            .field("writer", &self.writer)
            .finish_non_exhaustive()
    }
}

fn store_error(e: object_store::Error) -> Error {
    Error::Io(std::io::Error::other(e))
}

impl AsyncFileWriter {
    /// A writer of batches of `schema` to the object at `path` of `store`.
    pub async fn try_new(
        store: Arc<dyn ObjectStore>,
        path: Path,
        schema: SchemaRef,
        options: WriterOptions,
    ) -> Result<Self> {
        let pending = Pending::default();
        let writer = FileWriter::try_new(pending.clone(), schema, options)?;
        let upload = store.put_multipart(&path).await.map_err(store_error)?;
        Ok(AsyncFileWriter {
            writer,
            pending,
            upload: WriteMultipart::new(upload),
        })
    }

    /// The file writer (its schema, the rows in progress).
    pub fn writer(&self) -> &FileWriter<impl Write + Send> {
        &self.writer
    }

    /// Hands the bytes written so far to the upload, waiting while too many parts are in
    /// flight.
    async fn drain(&mut self) -> Result<()> {
        let bytes = self.pending.take();
        if !bytes.is_empty() {
            self.upload
                .wait_for_capacity(MAX_CONCURRENT_PARTS)
                .await
                .map_err(store_error)?;
            self.upload.put(bytes.into());
        }
        Ok(())
    }

    /// Writes `batch` (see [`FileWriter::write`]); the row groups it ends start uploading.
    pub async fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        self.writer.write(batch)?;
        self.drain().await
    }

    /// Ends the row group being written and starts uploading it.
    pub async fn flush(&mut self) -> Result<()> {
        self.writer.flush()?;
        self.drain().await
    }

    /// Writes the footer and completes the upload: only now does the object exist.
    pub async fn close(mut self) -> Result<ParquetMetaData> {
        self.writer.flush()?;
        self.drain().await?;
        let metadata = self.writer.close()?;
        let rest = self.pending.take();
        self.upload.put(rest.into());
        self.upload.finish().await.map_err(store_error)?;
        Ok(metadata)
    }

    /// Gives up: the upload's parts are freed and no object is written.
    pub async fn abort(self) -> Result<()> {
        self.upload.abort().await.map_err(store_error)
    }
}
