//! The async writer over object stores.

use std::sync::Arc;

use pqcodec_file::WriterOptions;

use super::*;

/// The async writer over object stores (in memory and local files): the file reads back
/// equal, and the object appears only when `close()` completes the upload.
#[tokio::test]
async fn object_stores_get_the_file_only_on_close() {
    use object_store::{ObjectStore, ObjectStoreExt, path::Path};
    use pqcodec_file::AsyncFileWriter;

    let dir = tempfile::tempdir().unwrap();
    let stores: [Arc<dyn ObjectStore>; 2] = [
        Arc::new(object_store::memory::InMemory::new()),
        Arc::new(object_store::local::LocalFileSystem::new_with_prefix(dir.path()).unwrap()),
    ];
    let input = batches(nested_columns);
    let want = expected(&input);
    for store in stores {
        let path = Path::from("t/part-0.parquet");
        let options = WriterOptions::new().with_max_row_group_row_count(700);
        let mut writer =
            AsyncFileWriter::try_new(store.clone(), path.clone(), input[0].schema(), options)
                .await
                .unwrap();
        for b in &input {
            writer.write(b).await.unwrap();
        }
        assert!(
            store.head(&path).await.is_err(),
            "{store}: the object before close"
        );
        let metadata = writer.close().await.unwrap();
        assert_eq!(
            metadata.file_metadata().num_rows() as usize,
            want.num_rows()
        );
        let bytes = store.get(&path).await.unwrap().bytes().await.unwrap();
        assert_same(&read_arrow_rs(bytes), &want, &format!("{store}"));

        let dropped = Path::from("t/dropped.parquet");
        let mut writer = AsyncFileWriter::try_new(
            store.clone(),
            dropped.clone(),
            input[0].schema(),
            WriterOptions::new().with_max_row_group_row_count(500),
        )
        .await
        .unwrap();
        writer.write(&input[0]).await.unwrap();
        drop(writer);
        assert!(
            store.head(&dropped).await.is_err(),
            "{store}: a dropped writer's object"
        );
    }
}
