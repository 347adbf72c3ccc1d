//! A file's metadata: its footer (and page index, when asked), read through a few byte ranges
//! at the end of the file, checked, and the Arrow schema arrow-rs would read it as.
//!
//! [`MetadataLoader`] holds the steps apart from how bytes arrive, so the sync and async
//! readers fetch with their own I/O and share everything else.

use std::ops::Range;
use std::sync::Arc;

use arrow_schema::SchemaRef;
use bytes::Bytes;
use parquet::DecodeResult;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ArrowReaderOptions};
use parquet::basic::Type as PqType;
use parquet::file::metadata::{
    ColumnChunkMetaData, PageIndexPolicy, ParquetMetaData, ParquetMetaDataPushDecoder,
};
use parquet::file::page_index::offset_index::PageLocation;
use pqcodec_arrow::ColumnDesc;

use crate::error::{Error, Result};
use crate::framing::checks::{chunk_range, footer_len};
use crate::framing::footer_in;
use crate::framing::parquet_types::{PHYSICAL_TYPES, footer_column_desc};
use crate::framing::{ChunkPages, Fetched, FramingError, reason};
use crate::layout::Layout;

/// Bytes read from the end of a file in the first request: most footers fit, so most files
/// take one request for their metadata.
const TAIL: u64 = 64 * 1024;

/// A Parquet file's metadata as pqcodec reads it: the parquet crate's [`ParquetMetaData`]
/// (with the page index, if it was asked for and the file has one), the Arrow schema (an
/// embedded `ARROW:schema` honoured) and the leaf columns' descriptions.
///
/// Cheap to share: readers of several row groups or threads can take one
/// `Arc<FileMetadata>` ([`ReaderBuilder::new_with_metadata`](crate::ReaderBuilder::new_with_metadata)).
#[derive(Debug, Clone)]
pub struct FileMetadata {
    metadata: Arc<ParquetMetaData>,
    schema: SchemaRef,
    columns: Vec<ColumnDesc>,
    file_size: u64,
    /// Whether the page index was asked for when this was read (the file may have none).
    page_index: bool,
    /// The column chunks whose own metadata gives another physical type than their schema
    /// column's (the parquet crate keeps only the schema's): (row group, column, type id).
    pub(crate) chunk_type_mismatches: Vec<(usize, usize, i32)>,
    /// The row groups by first page, and the columns' sizes, worked out once.
    layout: Layout,
}

impl FileMetadata {
    /// Reads the metadata of `source` (and its page index if `page_index`).
    pub fn load(source: &dyn crate::RangeRead, page_index: bool) -> Result<Self> {
        let loader = MetadataLoader::new(source.size().map_err(Error::size)?, page_index)?;
        loader.read(source)
    }

    /// This metadata with the page index too: `self` again if it was read with it, else the
    /// index's bytes read from `source` (the footer is not read again).
    pub fn load_page_index(self: Arc<Self>, source: &dyn crate::RangeRead) -> Result<Arc<Self>> {
        if self.page_index {
            return Ok(self);
        }
        Ok(Arc::new(
            MetadataLoader::page_index_of(&self)?.read(source)?,
        ))
    }

    /// Whether the page index was asked for when this was read: if so, the metadata holds it
    /// where the file has one.
    pub fn page_index_read(&self) -> bool {
        self.page_index
    }

    /// The parquet crate's metadata: row groups, column chunks, statistics, the page index.
    pub fn metadata(&self) -> &Arc<ParquetMetaData> {
        &self.metadata
    }

    /// The Arrow schema of the whole file, as arrow-rs reads it.
    pub fn schema(&self) -> SchemaRef {
        Arc::clone(&self.schema)
    }

    /// The leaf columns, in schema order.
    pub fn columns(&self) -> &[ColumnDesc] {
        &self.columns
    }

    /// The file's size in bytes.
    pub fn file_size(&self) -> u64 {
        self.file_size
    }

    /// The number of row groups.
    pub fn num_row_groups(&self) -> usize {
        self.metadata.num_row_groups()
    }

    /// The row groups whose first page (the first column's dictionary page, else its first data
    /// page) starts in `range`, ordered by that offset: the share of a byte range when a file is
    /// split into ranges, as DataFusion and Spark split it, so that every row group goes to
    /// exactly one range. A binary search over offsets sorted when the footer was read: no walk
    /// of every row group per range.
    ///
    /// ```
    /// # use pqcodec_file::FileMetadata;
    /// # fn shares(meta: &FileMetadata) {
    /// let half = meta.file_size() / 2;
    /// let first: Vec<usize> = meta.row_groups_starting_in(0..half).collect();
    /// let second: Vec<usize> = meta.row_groups_starting_in(half..meta.file_size()).collect();
    /// assert_eq!(first.len() + second.len(), meta.num_row_groups());
    /// # }
    /// ```
    pub fn row_groups_starting_in(&self, range: Range<u64>) -> impl Iterator<Item = usize> + '_ {
        self.layout.row_groups_starting_in(range)
    }

    /// About how many bytes this metadata holds: the parquet crate's metadata (its
    /// [`memory_size`](ParquetMetaData::memory_size)) and pqcodec's own beside it, as a cache
    /// with a memory limit counts it.
    pub fn memory_size(&self) -> usize {
        self.metadata.memory_size()
            + size_of_val(self.columns.as_slice())
            + self.layout.memory_size()
    }

    /// Leaf column `leaf`'s compressed bytes summed over every row group (0 for a leaf the
    /// file lacks), worked out once when the footer was read.
    pub fn column_compressed_size(&self, leaf: usize) -> u64 {
        self.layout.compressed_size(leaf)
    }

    /// Column chunk `column` of `row_group` and its byte range, checked: the range lies in the
    /// file and the chunk has its schema column's physical type.
    pub(crate) fn chunk(
        &self,
        row_group: usize,
        column: usize,
    ) -> Result<(&ColumnChunkMetaData, Range<u64>), FramingError> {
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
        let range = chunk_range(chunk, self.file_size).map_err(chunk_error)?;
        let mismatch = self
            .chunk_type_mismatches
            .iter()
            .find(|&&(g, c, _)| (g, c) == (row_group, column));
        if let Some(&(_, _, id)) = mismatch {
            let own = usize::try_from(id)
                .ok()
                .and_then(|i| PHYSICAL_TYPES.get(i))
                .map_or(format!("id {id}"), PqType::to_string);
            let schema = chunk.column_descr().physical_type();
            return Err(chunk_error(format!(
                "physical type {own}, but the schema's column is {schema}"
            )));
        }
        Ok((chunk, range))
    }

    /// The pages of column chunk `column` of `row_group` in `data`: all of them, or with
    /// `locations` from the offset index, those `data` holds.
    pub(crate) fn chunk_pages(
        &self,
        row_group: usize,
        column: usize,
        data: Arc<Fetched>,
        locations: Option<Vec<PageLocation>>,
    ) -> Result<ChunkPages, FramingError> {
        let (chunk, range) = self.chunk(row_group, column)?;
        let rows = self.metadata.row_group(row_group).num_rows();
        ChunkPages::new(row_group, chunk.compression(), range, rows, data, locations)
    }

    /// The pages of column chunk `column` of `row_group`, the whole chunk read from `source`:
    /// for tools that walk pages (readers fetch a row group's chunks together).
    pub fn read_chunk_pages(
        &self,
        source: &dyn crate::RangeRead,
        row_group: usize,
        column: usize,
    ) -> Result<ChunkPages> {
        let (_, range) = self.chunk(row_group, column)?;
        let ranges = [range];
        let data = crate::source::read_checked(source, &ranges)?;
        let fetched = Arc::new(Fetched::new(&ranges, data));
        Ok(self.chunk_pages(row_group, column, fetched, None)?)
    }

    /// The page locations of column chunk `column` of `row_group` from the offset index, if
    /// the file has one and it was read; checked against the chunk: pages in order inside its
    /// byte range, first rows rising from 0 below the row group's rows.
    pub(crate) fn page_locations(
        &self,
        row_group: usize,
        column: usize,
        chunk_bytes: &Range<u64>,
    ) -> Result<Option<Vec<PageLocation>>> {
        let Some(index) = self
            .metadata
            .offset_index()
            .and_then(|groups| groups.get(row_group))
            .and_then(|columns| columns.get(column))
        else {
            return Ok(None);
        };
        let pages = index.page_locations();
        if pages.is_empty() {
            return Ok(None);
        }
        let rows = self.metadata.row_group(row_group).num_rows();
        let bad = |reason: String| Error::PageIndex {
            row_group,
            column: self.columns[column].path.clone(),
            reason,
        };
        let mut end = chunk_bytes.start;
        let mut next_row = 0;
        for (i, page) in pages.iter().enumerate() {
            let start = u64::try_from(page.offset).ok();
            let size = u64::try_from(page.compressed_page_size)
                .ok()
                .filter(|&s| s > 0);
            let (Some(start), Some(size)) = (start, size) else {
                return Err(bad(format!(
                    "page {i} at offset {} of {} bytes",
                    page.offset, page.compressed_page_size
                )));
            };
            if start < end || start + size > chunk_bytes.end {
                return Err(bad(format!(
                    "page {i} at bytes {start}..{} is outside the column chunk's {:?} or \
                     overlaps the page before",
                    start + size,
                    chunk_bytes
                )));
            }
            let first = page.first_row_index;
            let rising = if i == 0 { first == 0 } else { first > next_row };
            if !rising || first >= rows.max(1) {
                return Err(bad(format!(
                    "page {i} starts at row {first}, after row {next_row} in a row group of \
                     {rows} rows"
                )));
            }
            next_row = first;
            end = start + size;
        }
        Ok(Some(pages.clone()))
    }
}

/// The steps of reading a file's metadata, apart from the I/O: [`needs`](Self::needs) says
/// which byte ranges to read next, [`push`](Self::push) takes them.
pub(crate) struct MetadataLoader {
    file_size: u64,
    page_index: bool,
    state: State,
}

enum State {
    /// The file's last bytes are needed.
    Tail,
    /// The footer and the file's last 8 bytes are needed: the footer is longer than the tail
    /// read.
    Footer(Range<u64>),
    /// The page index is needed.
    Index {
        decoder: Box<ParquetMetaDataPushDecoder>,
        needs: Vec<Range<u64>>,
        partial: Box<FileMetadata>,
    },
    Done(Box<FileMetadata>),
    Failed,
}

impl MetadataLoader {
    /// A loader of the metadata of a file of `file_size` bytes.
    pub(crate) fn new(file_size: u64, page_index: bool) -> Result<Self> {
        if file_size < 8 {
            footer_len(&[], file_size)?;
        }
        Ok(MetadataLoader {
            file_size,
            page_index,
            state: State::Tail,
        })
    }

    /// The byte ranges to read next, or `None` once the metadata is read.
    pub(crate) fn needs(&self) -> Result<Option<Vec<Range<u64>>>> {
        let size = self.file_size;
        Ok(match &self.state {
            State::Tail => Some(vec![size - size.min(TAIL)..size]),
            State::Footer(range) => Some(vec![range.clone()]),
            State::Index { needs, .. } => Some(needs.clone()),
            State::Done(_) => None,
            State::Failed => return Err(Error::Request("the metadata loader failed".into())),
        })
    }

    /// Takes `data`, the bytes of `ranges` (what [`needs`](Self::needs) asked for).
    pub(crate) fn push(&mut self, ranges: Vec<Range<u64>>, data: Vec<Bytes>) -> Result<()> {
        match std::mem::replace(&mut self.state, State::Failed) {
            State::Tail => {
                let tail = data.into_iter().next().unwrap_or_default();
                let len = footer_len(&tail, self.file_size)?;
                let start = self.file_size - 8 - len;
                let tail_start = self.file_size - tail.len() as u64;
                if start < tail_start {
                    // Rare: a footer longer than the tail, read again whole.
                    self.state = State::Footer(start..self.file_size);
                    return Ok(());
                }
                let footer = tail.slice((start - tail_start) as usize..tail.len() - 8);
                let meta = self.decode(&footer)?;
                self.after_footer(meta, tail_start..self.file_size, tail)
            }
            State::Footer(_) => {
                let (range, tail) = ranges.into_iter().zip(data).next().unwrap_or_default();
                let footer = tail.slice(..tail.len().saturating_sub(8));
                let meta = self.decode(&footer)?;
                self.after_footer(meta, range, tail)
            }
            State::Index {
                mut decoder,
                partial,
                ..
            } => {
                decoder
                    .push_ranges(ranges, data)
                    .map_err(|e| FramingError::Footer(format!("page index: {}", reason(e))))?;
                self.decode_index(decoder, partial)
            }
            done @ State::Done(_) => {
                self.state = done;
                Ok(())
            }
            State::Failed => Err(Error::Request("the metadata loader failed".into())),
        }
    }

    /// A loader of the page index of a file whose footer is `meta`, read without it.
    pub(crate) fn page_index_of(meta: &FileMetadata) -> Result<Self> {
        let mut partial = meta.clone();
        partial.page_index = true;
        let mut loader = MetadataLoader {
            file_size: meta.file_size,
            page_index: true,
            state: State::Failed,
        };
        let decoder = loader.index_decoder(&partial)?;
        loader.decode_index(decoder, Box::new(partial))?;
        Ok(loader)
    }

    /// Reads from `source` what it needs, to the end.
    fn read(mut self, source: &dyn crate::RangeRead) -> Result<FileMetadata> {
        while let Some(ranges) = self.needs()? {
            let data = crate::source::read_checked(source, &ranges)?;
            self.push(ranges, data)?;
        }
        self.finish()
    }

    /// The metadata read.
    pub(crate) fn finish(self) -> Result<FileMetadata> {
        match self.state {
            State::Done(meta) => Ok(*meta),
            _ => Err(Error::Request(
                "the metadata was not read to the end".into(),
            )),
        }
    }

    /// Decodes the footer's Thrift bytes (pqcodec's decoder: [`footer_in`]).
    fn decode(&self, footer: &[u8]) -> Result<FileMetadata, FramingError> {
        let decoded = footer_in::decode_footer(footer)?;
        FileMetadata::new(
            Arc::new(decoded.metadata),
            self.file_size,
            self.page_index,
            decoded.chunk_type_mismatches,
        )
    }

    /// After the footer: done, or the page index to read (the bytes already read offered to
    /// it first).
    fn after_footer(&mut self, meta: FileMetadata, read: Range<u64>, bytes: Bytes) -> Result<()> {
        if !self.page_index {
            self.state = State::Done(Box::new(meta));
            return Ok(());
        }
        let mut decoder = self.index_decoder(&meta)?;
        decoder
            .push_range(read, bytes)
            .map_err(|e| FramingError::Footer(format!("page index: {}", reason(e))))?;
        self.decode_index(decoder, Box::new(meta))
    }

    /// The parquet crate's decoder of the page index of the file whose footer is `meta`.
    fn index_decoder(&self, meta: &FileMetadata) -> Result<Box<ParquetMetaDataPushDecoder>> {
        let index_error = |e| FramingError::Footer(format!("page index: {}", reason(e)));
        let decoder = ParquetMetaDataPushDecoder::try_new_with_metadata(
            self.file_size,
            ParquetMetaData::clone(&meta.metadata),
        )
        .map_err(index_error)?
        .with_page_index_policy(PageIndexPolicy::Optional);
        Ok(Box::new(decoder))
    }

    fn decode_index(
        &mut self,
        mut decoder: Box<ParquetMetaDataPushDecoder>,
        partial: Box<FileMetadata>,
    ) -> Result<()> {
        let index_error = |e| FramingError::Footer(format!("page index: {}", reason(e)));
        match decoder.try_decode().map_err(index_error)? {
            DecodeResult::NeedsData(needs) => {
                if let Some(bad) = needs
                    .iter()
                    .find(|r| r.end > self.file_size || r.start > r.end)
                {
                    return Err(FramingError::Footer(format!(
                        "page index: its bytes {bad:?} are not in the file ({} bytes)",
                        self.file_size
                    ))
                    .into());
                }
                self.state = State::Index {
                    decoder,
                    needs,
                    partial,
                };
            }
            DecodeResult::Data(metadata) => {
                let mut meta = *partial;
                meta.metadata = Arc::new(metadata);
                self.state = State::Done(Box::new(meta));
            }
            DecodeResult::Finished => {
                self.state = State::Done(partial);
            }
        }
        Ok(())
    }
}

impl FileMetadata {
    fn new(
        metadata: Arc<ParquetMetaData>,
        file_size: u64,
        page_index: bool,
        chunk_type_mismatches: Vec<(usize, usize, i32)>,
    ) -> Result<Self, FramingError> {
        let arrow = ArrowReaderMetadata::try_new(Arc::clone(&metadata), ArrowReaderOptions::new())
            .map_err(|e| FramingError::Footer(reason(e)))?;
        let columns = metadata
            .file_metadata()
            .schema_descr()
            .columns()
            .iter()
            .map(|c| footer_column_desc(c))
            .collect::<Result<_, _>>()?;
        Ok(FileMetadata {
            schema: Arc::clone(arrow.schema()),
            layout: Layout::new(&metadata),
            metadata,
            columns,
            file_size,
            page_index,
            chunk_type_mismatches,
        })
    }
}
