//! Framing: the footer read by the parquet crate, page headers read by pqcodec
//! ([`ChunkPages`]) and decompressed (SNAPPY by pqcodec's [`snappy`], the other codecs by the
//! parquet crate's), over byte ranges already
//! read; and [`ParquetFile`], a whole file in memory, for tools that walk its pages. Only
//! framing: every value and level is decoded by pqcodec.
//!
//! The parquet crate aborts or allocates what a malformed file claims in a few places, so
//! what it reads is checked first, with [`FramingError`]s naming what is wrong: the footer's
//! Thrift is walked without recursion and a schema nested deeper than [`MAX_SCHEMA_DEPTH`]
//! refused (the crate builds it recursively); each column chunk's byte range is checked against
//! the file, its own physical type against its schema column's, and its page headers (sizes,
//! counts, what the codec can decompress to, the rows the pages can hold) before its pages are
//! read.
//!
//! ```
//! use bytes::Bytes;
//! use pqcodec_arrow::PageSource;
//! use pqcodec_file::framing::ParquetFile;
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
use parquet::basic::Type as PqType;
use parquet::errors::ParquetError;
use parquet::file::metadata::ParquetMetaData;
use pqcodec_arrow::{ColumnDesc, Page, PageSource, SourceError};
use pqcodec_core::PhysicalType;

use crate::metadata::FileMetadata;
pub(crate) use fetched::Fetched;
pub use pages::ChunkPages;

pub(crate) mod checks;
mod fetched;
mod pages;
pub mod snappy;
pub(crate) mod thrift_walk;

/// How many levels below the root a schema may nest its fields. The parquet crate builds the
/// schema recursively and would overflow the stack on a schema of thousands of nested groups,
/// so deeper schemas are refused before it reads them (arrow-rs and Arrow C++ cap nesting
/// similarly).
pub const MAX_SCHEMA_DEPTH: usize = 256;

/// Why a file could not be framed. Errors of a column's chunk or pages do not name the column:
/// the caller, who asked for it, does.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FramingError {
    /// The footer (the file's metadata) is malformed: pqcodec's reason or the parquet crate's.
    #[error("footer (file metadata): {0}")]
    Footer(String),
    /// A column chunk's metadata disagrees with the file, its schema column or its pages.
    #[error("row group {row_group}, column chunk: {reason}")]
    Chunk {
        /// The row group.
        row_group: usize,
        /// What is wrong.
        reason: String,
    },
    /// A page could not be read: its header is malformed, or its body cannot be decompressed.
    #[error("row group {row_group}, page {page}: {reason}")]
    Page {
        /// The row group.
        row_group: usize,
        /// The page, counted from 0 in the column chunk (dictionary page included).
        page: usize,
        /// What is wrong.
        reason: String,
    },
    /// A column chunk is compressed with a codec this build of pqcodec-file was compiled
    /// without.
    #[error(
        "row group {row_group}: {codec} pages need pqcodec-file's `{feature}` feature, which this build was compiled without"
    )]
    CodecNotCompiled {
        /// The row group.
        row_group: usize,
        /// The chunk's codec.
        codec: &'static str,
        /// The cargo feature that brings it.
        feature: &'static str,
    },
}

/// The name of the codec `codec` and the cargo feature it needs, if this build was compiled
/// without it (reading SNAPPY is pqcodec's own code: always there).
pub(crate) fn codec_not_compiled(
    codec: parquet::basic::Compression,
) -> Option<(&'static str, &'static str)> {
    use parquet::basic::Compression as C;
    let (name, feature, compiled) = match codec {
        C::GZIP(_) => ("GZIP", "flate2", cfg!(feature = "flate2")),
        C::LZ4 => ("LZ4", "lz4", cfg!(feature = "lz4")),
        C::LZ4_RAW => ("LZ4_RAW", "lz4", cfg!(feature = "lz4")),
        C::ZSTD(_) => ("ZSTD", "zstd", cfg!(feature = "zstd")),
        C::BROTLI(_) => ("BROTLI", "brotli", cfg!(feature = "brotli")),
        C::UNCOMPRESSED | C::SNAPPY | C::LZO => return None,
    };
    (!compiled).then_some((name, feature))
}

/// The parquet crate's error without the prefix its variant adds ("Parquet error: ", ...).
pub(crate) fn reason(e: ParquetError) -> String {
    match e {
        ParquetError::General(message) => message,
        ParquetError::External(e) => e.to_string(),
        e => e.to_string(),
    }
}

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
    pub fn from_bytes(data: Bytes) -> Result<Self, crate::Error> {
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
        ChunkPages::new(&self.meta, row_group, column, Arc::clone(&self.data), None)
    }
}

/// The physical type as pqcodec names it.
pub fn physical(t: PqType) -> PhysicalType {
    match t {
        PqType::BOOLEAN => PhysicalType::Boolean,
        PqType::INT32 => PhysicalType::Int32,
        PqType::INT64 => PhysicalType::Int64,
        PqType::INT96 => PhysicalType::Int96,
        PqType::FLOAT => PhysicalType::Float,
        PqType::DOUBLE => PhysicalType::Double,
        PqType::BYTE_ARRAY => PhysicalType::ByteArray,
        PqType::FIXED_LEN_BYTE_ARRAY => PhysicalType::FixedLenByteArray,
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
    use parquet::basic::Compression;

    use super::checks::{check_decompressed_size, check_schema_tree, footer_bytes};
    use super::thrift_walk::SchemaElement;
    use super::*;

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

    /// A schema of a root, `groups` nested groups of one child and a leaf.
    fn nested(groups: usize) -> Vec<SchemaElement<'static>> {
        let group = SchemaElement {
            name: b"g",
            num_children: Some(1),
        };
        let leaf = SchemaElement {
            name: b"a",
            num_children: None,
        };
        let mut schema = vec![group; groups + 1];
        schema.push(leaf);
        schema
    }

    #[test]
    fn schemas_nested_past_the_limit_are_refused() {
        assert!(check_schema_tree(&nested(MAX_SCHEMA_DEPTH - 1)).is_ok());
        let e = check_schema_tree(&nested(MAX_SCHEMA_DEPTH)).unwrap_err();
        assert!(e.to_string().contains("the schema nests too deep"), "{e}");
        assert!(check_schema_tree(&nested(100_000)).is_err());
    }

    #[test]
    fn a_file_of_a_schema_nested_100000_deep_is_an_error_not_an_abort() {
        let footer = thrift_walk::tests::nested_footer(100_000);
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

    #[test]
    fn schemas_short_of_their_children_are_refused() {
        let mut schema = nested(2);
        schema[0].num_children = Some(5);
        let e = check_schema_tree(&schema).unwrap_err().to_string();
        assert!(e.contains("element 0") && e.contains("4 short"), "{e}");
        schema[0].num_children = Some(-1);
        let e = check_schema_tree(&schema).unwrap_err().to_string();
        assert!(e.contains("num_children -1"), "{e}");
        // Several roots are the parquet crate's to refuse; an empty schema is one element.
        assert!(check_schema_tree(&[nested(0)[1], nested(0)[1]]).is_ok());
    }

    #[test]
    fn footers_past_the_file_are_refused() {
        let message = |data: &[u8]| footer_bytes(data).unwrap_err().to_string();
        assert!(message(b"PAR1").contains("too short"));
        assert!(message(b"PAR1\x00\x00\x00\x00PAR2").contains("magic"));
        assert!(message(b"PAR1\x00\x00\x00\x00PARE").contains("encrypted"));
        assert!(message(b"PAR1\x05\x00\x00\x00PAR1").contains("past the start"));
        assert_eq!(footer_bytes(b"PAR1ab\x02\x00\x00\x00PAR1").unwrap(), b"ab");
    }

    #[test]
    fn claims_a_codec_cannot_decompress_to_are_refused() {
        let snappy = [12, 11 << 2, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0];
        assert!(check_decompressed_size(&Compression::SNAPPY, &snappy, 12).is_ok());
        let e = check_decompressed_size(&Compression::SNAPPY, &snappy, i32::MAX as u64);
        assert!(e.unwrap_err().contains("SNAPPY data holds 12"));
        let gzip = Compression::GZIP(Default::default());
        assert!(check_decompressed_size(&gzip, &[0; 14], 1 << 31).is_err());
        assert!(check_decompressed_size(&gzip, &[0; 1000], 1_000_000).is_ok());
        assert!(check_decompressed_size(&Compression::UNCOMPRESSED, &[], 1 << 31).is_ok());
    }
}
