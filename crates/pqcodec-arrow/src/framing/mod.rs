//! Parquet files framed by the parquet crate (feature `parquet-framing`): the footer, the page
//! headers, decompression, and the Arrow schema arrow-rs infers (honouring an embedded
//! `ARROW:schema`). Only framing: every value and level is decoded by pqcodec.
//!
//! The parquet crate aborts or allocates what a malformed file claims in a few places, so
//! what it reads is checked first, with [`FramingError`]s naming what is wrong: the footer's
//! Thrift is walked without recursion and a schema nested deeper than [`MAX_SCHEMA_DEPTH`]
//! refused (the crate builds it recursively); each column chunk's byte range is checked against
//! the file, its own physical type against its schema column's, and its page headers (sizes,
//! counts, what the codec can decompress to, the rows the pages can hold) before its pages are
//! read.
//!
//! Shared by the example, the tests and the CLI:
//!
//! ```no_run
//! use pqcodec_arrow::framing::ParquetFile;
//!
//! let file = ParquetFile::open("data.parquet")?;
//! for batch in file.record_batches(8192)? {
//!     println!("{} rows", batch?.num_rows());
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::Path;
use std::sync::Arc;

use arrow_buffer::Buffer;
use arrow_schema::SchemaRef;
use bytes::Bytes;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions};
use parquet::basic::{Encoding as PqEncoding, Type as PqType};
use parquet::column::page::{Page as PqPage, PageReader};
use parquet::errors::ParquetError;
use parquet::file::metadata::{ColumnChunkMetaData, ParquetMetaData};
use parquet::file::serialized_reader::SerializedPageReader;
use pqcodec_core::{Encoding, PhysicalType};

use crate::decoder::{Column, RecordBatchDecoder};
use crate::page::{DataPageV1, DataPageV2, DictionaryPage, Page};
use crate::schema::ColumnDesc;
use checks::{PHYSICAL_TYPES, PageChecks, check_schema_tree, chunk_range, footer_bytes};

mod checks;
mod thrift_walk;

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
    /// The file could not be read.
    #[error("reading the file: {0}")]
    Io(#[from] std::io::Error),
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
}

/// The parquet crate's error without the prefix its variant adds ("Parquet error: ", ...).
fn reason(e: ParquetError) -> String {
    match e {
        ParquetError::General(message) => message,
        ParquetError::External(e) => e.to_string(),
        e => e.to_string(),
    }
}

/// A Parquet file held in memory, its metadata read and its Arrow schema inferred.
#[derive(Debug, Clone)]
pub struct ParquetFile {
    data: Bytes,
    metadata: Arc<ParquetMetaData>,
    schema: SchemaRef,
    /// The column chunks whose own metadata gives another physical type than their schema
    /// column's (the parquet crate keeps only the schema's): (row group, column, type id).
    /// Empty for a sound file, so it costs nothing to hold.
    chunk_type_mismatches: Vec<(usize, usize, i32)>,
}

impl ParquetFile {
    /// Reads the file at `path` into memory and its footer.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, FramingError> {
        Self::from_bytes(Bytes::from(std::fs::read(path.as_ref())?))
    }

    /// Reads the footer of the file held in `data`. Its Thrift is walked first, without
    /// recursion, to refuse what the parquet crate cannot survive reading (a schema nested
    /// deeper than [`MAX_SCHEMA_DEPTH`]); the parquet crate's errors are wrapped as
    /// [`FramingError::Footer`].
    pub fn from_bytes(data: Bytes) -> Result<Self, FramingError> {
        let walk = thrift_walk::walk_footer(footer_bytes(&data)?);
        match walk.schema {
            Ok(Some(schema)) => check_schema_tree(&schema)?,
            Ok(None) => {}
            // The parquet crate stops there too, or may build a schema the walk did not see.
            Err(e) => return Err(FramingError::Footer(format!("malformed Thrift: {e}"))),
        }
        let meta = ArrowReaderMetadata::load(&data, ArrowReaderOptions::new())
            .map_err(|e| FramingError::Footer(reason(e)))?;
        let metadata = Arc::clone(meta.metadata());
        let chunk_type_mismatches = walk
            .chunk_types
            .filter(|types| types.len() == metadata.num_row_groups())
            .into_iter()
            .flatten()
            .zip(metadata.row_groups())
            .enumerate()
            .filter(|(_, (types, group))| types.len() == group.num_columns())
            .flat_map(|(g, (types, group))| {
                types
                    .into_iter()
                    .zip(group.columns())
                    .enumerate()
                    .filter_map(move |(c, (own, chunk))| {
                        let schema = chunk.column_descr().physical_type() as i32;
                        own.filter(|&id| id != schema).map(|id| (g, c, id))
                    })
            })
            .collect();
        Ok(ParquetFile {
            metadata,
            schema: Arc::clone(meta.schema()),
            data,
            chunk_type_mismatches,
        })
    }

    /// The file's metadata, as the parquet crate reads it.
    pub fn metadata(&self) -> &Arc<ParquetMetaData> {
        &self.metadata
    }

    /// The Arrow schema arrow-rs reads the file as.
    pub fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }

    /// The leaf columns' descriptions, in schema order.
    pub fn column_descs(&self) -> Vec<ColumnDesc> {
        self.metadata
            .file_metadata()
            .schema_descr()
            .columns()
            .iter()
            .map(|c| ColumnDesc {
                path: c.path().string(),
                physical: physical(c.physical_type()),
                type_length: usize::try_from(c.type_length()).unwrap_or(0),
                max_def_level: u16::try_from(c.max_def_level()).unwrap_or(0),
                max_rep_level: u16::try_from(c.max_rep_level()).unwrap_or(0),
            })
            .collect()
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

    /// Every leaf column with its pages.
    pub fn columns(&self) -> Vec<Column> {
        self.column_descs()
            .into_iter()
            .enumerate()
            .map(|(i, desc)| Column::new(desc, self.pages(i)))
            .collect()
    }

    /// A decoder of the whole file into batches of `batch_size` rows.
    pub fn record_batches(&self, batch_size: usize) -> crate::Result<RecordBatchDecoder> {
        RecordBatchDecoder::try_new(self.schema(), self.columns(), batch_size)
    }

    /// The pages of leaf column `column` in row group `row_group`, as the parquet crate reads
    /// them. The chunk is checked first: its bytes lie in the file, its type is its schema
    /// column's, its page headers are sound and its pages can hold the row group's rows.
    pub fn chunk_pages(&self, row_group: usize, column: usize) -> Result<ChunkPages, FramingError> {
        let chunk_error = |reason: String| FramingError::Chunk { row_group, reason };
        let group = self.metadata.row_groups().get(row_group).ok_or_else(|| {
            chunk_error(format!(
                "the file has {} row groups",
                self.metadata.num_row_groups()
            ))
        })?;
        let chunk = group.columns().get(column).ok_or_else(|| {
            chunk_error(format!(
                "the row group has {} column chunks, none for column {column}",
                group.num_columns()
            ))
        })?;
        let range = chunk_range(chunk, self.data.len()).map_err(chunk_error)?;
        self.check_chunk_type(row_group, column, chunk)
            .map_err(chunk_error)?;
        let pages = PageChecks {
            row_group,
            codec: chunk.compression(),
        };
        pages.check(&self.data[range], group.num_rows())?;
        let rows = usize::try_from(group.num_rows()).unwrap_or(0);
        let reader = SerializedPageReader::new(Arc::new(self.data.clone()), chunk, rows, None)
            .map_err(|e| chunk_error(reason(e)))?;
        Ok(ChunkPages {
            reader,
            row_group,
            page: 0,
        })
    }

    /// Whether column chunk `column` of `row_group` has its schema column's physical type.
    fn check_chunk_type(
        &self,
        row_group: usize,
        column: usize,
        chunk: &ColumnChunkMetaData,
    ) -> Result<(), String> {
        let mismatch = self
            .chunk_type_mismatches
            .iter()
            .find(|&&(g, c, _)| (g, c) == (row_group, column));
        match mismatch {
            Some(&(_, _, id)) => {
                let own = usize::try_from(id)
                    .ok()
                    .and_then(|i| PHYSICAL_TYPES.get(i))
                    .map_or(format!("id {id}"), PqType::to_string);
                let schema = chunk.column_descr().physical_type();
                Err(format!(
                    "physical type {own}, but the schema's column is {schema}"
                ))
            }
            None => Ok(()),
        }
    }
}

fn physical(t: PqType) -> PhysicalType {
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

/// A page's encoding as pqcodec names it. The parquet crate's enum names no encoding pqcodec
/// lacks (parquet 59 has no ALP: its pages are refused as an unknown encoding when the header is
/// read).
fn encoding(e: PqEncoding) -> Encoding {
    #[allow(deprecated)]
    match e {
        PqEncoding::PLAIN => Encoding::Plain,
        PqEncoding::PLAIN_DICTIONARY => Encoding::PlainDictionary,
        PqEncoding::RLE => Encoding::Rle,
        PqEncoding::BIT_PACKED => Encoding::BitPacked,
        PqEncoding::DELTA_BINARY_PACKED => Encoding::DeltaBinaryPacked,
        PqEncoding::DELTA_LENGTH_BYTE_ARRAY => Encoding::DeltaLengthByteArray,
        PqEncoding::DELTA_BYTE_ARRAY => Encoding::DeltaByteArray,
        PqEncoding::RLE_DICTIONARY => Encoding::RleDictionary,
        PqEncoding::BYTE_STREAM_SPLIT => Encoding::ByteStreamSplit,
    }
}

/// A page of the parquet crate as a pqcodec page.
pub fn convert_page(page: PqPage) -> Result<Page, ParquetError> {
    let count = |n: u32| usize::try_from(n).unwrap_or(usize::MAX);
    Ok(match page {
        PqPage::DictionaryPage {
            buf,
            num_values,
            encoding: e,
            ..
        } => Page::Dictionary(DictionaryPage {
            data: Buffer::from(buf),
            num_values: count(num_values),
            encoding: encoding(e),
        }),
        PqPage::DataPage {
            buf,
            num_values,
            encoding: e,
            def_level_encoding,
            rep_level_encoding,
            ..
        } => Page::DataV1(DataPageV1 {
            data: Buffer::from(buf),
            num_values: count(num_values),
            encoding: encoding(e),
            def_level_encoding: encoding(def_level_encoding),
            rep_level_encoding: encoding(rep_level_encoding),
        }),
        PqPage::DataPageV2 {
            buf,
            num_values,
            encoding: e,
            num_nulls,
            num_rows,
            def_levels_byte_len,
            rep_levels_byte_len,
            ..
        } => Page::DataV2(DataPageV2 {
            data: Buffer::from(buf),
            num_values: count(num_values),
            num_nulls: count(num_nulls),
            num_rows: count(num_rows),
            encoding: encoding(e),
            def_levels_byte_len: count(def_levels_byte_len),
            rep_levels_byte_len: count(rep_levels_byte_len),
        }),
    })
}

/// The pages of one column chunk as the parquet crate reads them (decompressed), from
/// [`ParquetFile::chunk_pages`].
pub struct ChunkPages {
    reader: SerializedPageReader<Bytes>,
    row_group: usize,
    page: usize,
}

impl std::fmt::Debug for ChunkPages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChunkPages")
            .field("row_group", &self.row_group)
            .field("page", &self.page)
            .finish_non_exhaustive()
    }
}

impl ChunkPages {
    /// An error of the page about to be read.
    fn error(&self, e: ParquetError) -> FramingError {
        FramingError::Page {
            row_group: self.row_group,
            page: self.page,
            reason: reason(e),
        }
    }

    /// The next page, converted by `convert`.
    fn next_with<T>(
        &mut self,
        convert: impl FnOnce(PqPage) -> Result<T, ParquetError>,
    ) -> Option<Result<T, FramingError>> {
        let page = self
            .reader
            .get_next_page()
            .and_then(|p| p.map(convert).transpose());
        let page = page.map_err(|e| self.error(e)).transpose()?;
        self.page += 1;
        Some(page)
    }
}

impl Iterator for ChunkPages {
    type Item = Result<PqPage, FramingError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_with(Ok)
    }
}

/// The pages of one leaf column over every row group of a file, decompressed.
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
    fn next_page(&mut self) -> Result<Option<Page>, FramingError> {
        loop {
            if let Some(pages) = self.current.as_mut() {
                match pages.next_with(convert_page) {
                    Some(page) => return page.map(Some),
                    None => self.current = None,
                }
            }
            if self.row_group >= self.file.metadata.num_row_groups() {
                return Ok(None);
            }
            self.row_group += 1;
            self.current = Some(self.file.chunk_pages(self.row_group - 1, self.column)?);
        }
    }
}

impl Iterator for FilePages {
    type Item = Result<Page, FramingError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_page().transpose()
    }
}

#[cfg(test)]
mod tests {
    use parquet::basic::Compression;

    use super::checks::check_decompressed_size;
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
        assert!(file.chunk_type_mismatches.is_empty());
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
        assert_eq!(file.chunk_type_mismatches, [(0, 0, 2)]);
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
