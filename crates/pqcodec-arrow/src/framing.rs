//! Parquet files framed by the parquet crate (feature `parquet-framing`): the footer, the page
//! headers, decompression, and the Arrow schema arrow-rs infers (honouring an embedded
//! `ARROW:schema`). Only framing: every value and level is decoded by pqcodec.
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
use parquet::file::metadata::ParquetMetaData;
use parquet::file::serialized_reader::SerializedPageReader;
use pqcodec_core::{Encoding, PhysicalType};

use crate::decoder::{Column, RecordBatchDecoder};
use crate::page::{DataPageV1, DataPageV2, DictionaryPage, Page};
use crate::schema::ColumnDesc;

/// A Parquet file held in memory, its metadata read and its Arrow schema inferred.
#[derive(Debug, Clone)]
pub struct ParquetFile {
    data: Bytes,
    metadata: Arc<ParquetMetaData>,
    schema: SchemaRef,
}

impl ParquetFile {
    /// Reads the file at `path` into memory and its footer.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, ParquetError> {
        let data = std::fs::read(path.as_ref()).map_err(|e| ParquetError::External(Box::new(e)))?;
        Self::from_bytes(Bytes::from(data))
    }

    /// Reads the footer of the file held in `data`.
    pub fn from_bytes(data: Bytes) -> Result<Self, ParquetError> {
        let meta = ArrowReaderMetadata::load(&data, ArrowReaderOptions::new())?;
        Ok(ParquetFile {
            metadata: Arc::clone(meta.metadata()),
            schema: Arc::clone(meta.schema()),
            data,
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
            data: Arc::new(self.data.clone()),
            metadata: Arc::clone(&self.metadata),
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

fn encoding(e: PqEncoding) -> Result<Encoding, ParquetError> {
    #[allow(deprecated)]
    Ok(match e {
        PqEncoding::PLAIN => Encoding::Plain,
        PqEncoding::PLAIN_DICTIONARY => Encoding::PlainDictionary,
        PqEncoding::RLE => Encoding::Rle,
        PqEncoding::BIT_PACKED => Encoding::BitPacked,
        PqEncoding::DELTA_BINARY_PACKED => Encoding::DeltaBinaryPacked,
        PqEncoding::DELTA_LENGTH_BYTE_ARRAY => Encoding::DeltaLengthByteArray,
        PqEncoding::DELTA_BYTE_ARRAY => Encoding::DeltaByteArray,
        PqEncoding::RLE_DICTIONARY => Encoding::RleDictionary,
        PqEncoding::BYTE_STREAM_SPLIT => Encoding::ByteStreamSplit,
        other => {
            return Err(ParquetError::NYI(format!(
                "encoding {other} is not supported by pqcodec"
            )));
        }
    })
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
            encoding: encoding(e)?,
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
            encoding: encoding(e)?,
            def_level_encoding: encoding(def_level_encoding)?,
            rep_level_encoding: encoding(rep_level_encoding)?,
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
            encoding: encoding(e)?,
            def_levels_byte_len: count(def_levels_byte_len),
            rep_levels_byte_len: count(rep_levels_byte_len),
        }),
    })
}

/// The pages of one leaf column over every row group of a file, decompressed.
pub struct FilePages {
    data: Arc<Bytes>,
    metadata: Arc<ParquetMetaData>,
    column: usize,
    row_group: usize,
    current: Option<SerializedPageReader<Bytes>>,
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
    fn next_page(&mut self) -> Result<Option<Page>, ParquetError> {
        loop {
            if let Some(reader) = self.current.as_mut() {
                match reader.get_next_page()? {
                    Some(page) => return convert_page(page).map(Some),
                    None => self.current = None,
                }
            }
            let Some(row_group) = self.metadata.row_groups().get(self.row_group) else {
                return Ok(None);
            };
            self.row_group += 1;
            let chunk = row_group.columns().get(self.column).ok_or_else(|| {
                ParquetError::General(format!("row group has no column {}", self.column))
            })?;
            // The parquet crate asserts on these (ColumnChunkMetaData::byte_range): check
            // them first so a corrupt footer is an error, not a panic.
            let start = chunk
                .dictionary_page_offset()
                .unwrap_or(chunk.data_page_offset());
            if start < 0 || chunk.compressed_size() < 0 {
                return Err(ParquetError::General(format!(
                    "column {} of row group {}: negative page offset {start} or compressed size {}",
                    self.column,
                    self.row_group - 1,
                    chunk.compressed_size()
                )));
            }
            let rows = usize::try_from(row_group.num_rows()).unwrap_or(0);
            let bytes = Arc::new((*self.data).clone());
            self.current = Some(SerializedPageReader::new(bytes, chunk, rows, None)?);
        }
    }
}

impl Iterator for FilePages {
    type Item = Result<Page, ParquetError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_page().transpose()
    }
}

#[cfg(test)]
mod tests {
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
}
