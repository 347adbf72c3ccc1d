//! [`ParquetFile`]: a whole Parquet file held in memory, its footer read, for tools that walk
//! its pages (`pqcodec inspect`, the fuzz targets); [`FilePages`], a column's pages over every
//! row group.
//!
//! ```
//! use bytes::Bytes;
//! use pqcodec_arrow::PageSource;
//! use pqcodec_file::ParquetFile;
//!
//! let data = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/pyarrow_plain_opt_v1.parquet"))?;
//! let file = ParquetFile::from_bytes(Bytes::from(data))?;
//! let mut pages = file.chunk_pages(0, 0)?;
//! while let Some(page) = pages.next_page()? {
//!     println!("{} page of {} values", page.encoding(), page.num_values());
//! }
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```

use std::sync::Arc;

use arrow_schema::SchemaRef;
use bytes::Bytes;
use parquet::file::metadata::ParquetMetaData;
use pqcodec_arrow::{ColumnDesc, Page, PageSource, SourceError};

use crate::error::Result;
use crate::framing::{ChunkPages, Fetched, FramingError};
use crate::metadata::FileMetadata;

/// A Parquet file held in memory, its metadata read and its Arrow schema inferred: for tools
/// that walk a file's pages (`pqcodec inspect`, the fuzz targets). Readers of RecordBatches
/// use [`ReaderBuilder`](crate::ReaderBuilder), over these same bytes or any other source.
#[derive(Debug, Clone)]
pub struct ParquetFile {
    data: Arc<Fetched>,
    meta: Arc<FileMetadata>,
}

impl ParquetFile {
    /// Reads the footer of the file held in `data` (its page index too, if it has one).
    pub fn from_bytes(data: Bytes) -> Result<Self> {
        let meta = FileMetadata::load(&data, true)?;
        Ok(ParquetFile {
            data: Arc::new(Fetched::whole(data)),
            meta: Arc::new(meta),
        })
    }

    /// The file's metadata.
    pub fn file_metadata(&self) -> &Arc<FileMetadata> {
        &self.meta
    }

    /// The parquet crate's metadata.
    pub fn metadata(&self) -> &Arc<ParquetMetaData> {
        self.meta.metadata()
    }

    /// The Arrow schema arrow-rs reads the file as.
    pub fn schema(&self) -> SchemaRef {
        self.meta.schema()
    }

    /// The leaf columns' descriptions, in schema order.
    pub fn column_descs(&self) -> Vec<ColumnDesc> {
        self.meta.columns().to_vec()
    }

    /// The pages of leaf column `column` over every row group, in order.
    pub fn pages(&self, column: usize) -> FilePages {
        FilePages {
            file: self.clone(),
            column,
            row_group: 0,
            current: None,
        }
    }

    /// The pages of leaf column `column` in row group `row_group`. The chunk is checked first:
    /// its bytes lie in the file, its type is its schema column's, its page headers are sound
    /// and its pages can hold the row group's rows.
    pub fn chunk_pages(&self, row_group: usize, column: usize) -> Result<ChunkPages, FramingError> {
        (self.meta).chunk_pages(row_group, column, Arc::clone(&self.data), None)
    }
}

/// The pages of one leaf column over every row group of a [`ParquetFile`], decompressed.
pub struct FilePages {
    file: ParquetFile,
    column: usize,
    /// The next row group.
    row_group: usize,
    current: Option<ChunkPages>,
}

impl std::fmt::Debug for FilePages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FilePages")
            .field("column", &self.column)
            .field("row_group", &self.row_group)
            .finish_non_exhaustive()
    }
}

impl FilePages {
    fn next_page(&mut self) -> Result<Option<Page>, SourceError> {
        loop {
            if let Some(pages) = self.current.as_mut() {
                match PageSource::next_page(pages)? {
                    Some(page) => return Ok(Some(page)),
                    None => self.current = None,
                }
            }
            if self.row_group >= self.file.metadata().num_row_groups() {
                return Ok(None);
            }
            self.row_group += 1;
            self.current = Some(self.file.chunk_pages(self.row_group - 1, self.column)?);
        }
    }
}

impl Iterator for FilePages {
    type Item = Result<Page, SourceError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_page().transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framing::footer_in;

    #[test]
    fn negative_chunk_offset_is_an_error_not_a_panic() {
        // Two flipped bits in the footer (found by fuzzing `pqcodec cat`) make a column chunk's
        // page offset or size negative; the parquet crate asserts on them.
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/data/pyarrow_plain_allnull_v2.parquet"
        );
        let mut bytes = std::fs::read(path).unwrap();
        assert_eq!((bytes[1265], bytes[4135]), (0x3c, 0x41));
        bytes[1265] = 0x3d;
        bytes[4135] = 0x43;
        let file = ParquetFile::from_bytes(Bytes::from(bytes)).unwrap();
        let errors: Vec<String> = (0..file.column_descs().len())
            .filter_map(|c| file.pages(c).find_map(|p| p.err()))
            .map(|e| e.to_string())
            .collect();
        assert!(
            errors.iter().any(|e| e.contains("negative page offset")),
            "{errors:?}"
        );
    }

    #[test]
    fn a_chunk_of_another_type_than_its_column_is_an_error() {
        let batch = arrow_array::RecordBatch::try_from_iter([(
            "a",
            Arc::new(arrow_array::Int32Array::from(vec![1, 2, 3])) as arrow_array::ArrayRef,
        )])
        .unwrap();
        let mut bytes = Vec::new();
        let mut writer =
            parquet::arrow::ArrowWriter::try_new(&mut bytes, batch.schema(), None).unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();
        let file = ParquetFile::from_bytes(Bytes::from(bytes.clone())).unwrap();
        assert!(file.meta.chunk_type_mismatches.is_empty());
        assert!(file.pages(0).all(|p| p.is_ok()));
        // The chunk's metadata (field 3 of ColumnChunk, a struct) opens with its type (field 1,
        // an i32): INT32, zigzag 2, made INT64.
        let footer = bytes.len()
            - 8
            - u32::from_le_bytes(bytes[bytes.len() - 8..][..4].try_into().unwrap()) as usize;
        let at = footer
            + bytes[footer..]
                .windows(3)
                .position(|w| w == [0x1C, 0x15, 0x02])
                .unwrap();
        bytes[at + 2] = 0x04;
        let file = ParquetFile::from_bytes(Bytes::from(bytes)).unwrap();
        assert_eq!(file.meta.chunk_type_mismatches, [(0, 0, 2)]);
        let e = file.pages(0).find_map(|p| p.err()).unwrap().to_string();
        assert!(
            e.contains("physical type INT64, but the schema's column is INT32"),
            "{e}"
        );
    }

    #[test]
    fn a_file_of_a_schema_nested_100000_deep_is_an_error_not_an_abort() {
        let footer = footer_in::tests::nested_footer(100_000);
        let mut file = b"PAR1".to_vec();
        file.extend_from_slice(&footer);
        file.extend_from_slice(&(footer.len() as u32).to_le_bytes());
        file.extend_from_slice(b"PAR1");
        let e = ParquetFile::from_bytes(Bytes::from(file)).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("footer (file metadata): the schema nests too deep")
        );
    }
}
