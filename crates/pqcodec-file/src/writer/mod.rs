//! Writing Parquet files: RecordBatches in, a file out, every level and value encoded by
//! pqcodec ([`pqcodec_arrow::write`]), and framed by pqcodec too: page headers, the page
//! index and the footer.
//!
//! ```
//! use std::sync::Arc;
//! use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
//! use bytes::Bytes;
//! use pqcodec_file::{Compression, FileWriter, ReaderBuilder, WriterOptions};
//!
//! let batch = RecordBatch::try_from_iter([
//!     ("id", Arc::new(Int64Array::from(vec![1, 2, 3])) as ArrayRef),
//!     ("name", Arc::new(StringArray::from(vec![Some("a"), None, Some("c")])) as ArrayRef),
//! ])?;
//! let options = WriterOptions::new().with_compression(Compression::Zstd(3));
//! let mut writer = FileWriter::try_new(Vec::new(), batch.schema(), options)?;
//! writer.write(&batch)?;
//! let file = Bytes::from(writer.into_inner()?);
//!
//! let read: Vec<_> = ReaderBuilder::try_new(file)?.build()?.collect::<Result<_, _>>()?;
//! assert_eq!(read, [batch]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod chunk;
mod compress;
mod options;
mod truncate;
#[cfg(feature = "object_store")]
mod upload;

use std::io::Write;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::{ArrowSchemaConverter, encode_arrow_schema};
use parquet::basic::ColumnOrder;
use parquet::file::metadata::{
    FileMetaData, KeyValue, ParquetMetaData, ParquetMetaDataBuilder, RowGroupMetaData,
};
use parquet::schema::types::{ColumnDescriptor, SchemaDescPtr, SchemaDescriptor};
use pqcodec_arrow::write::{ColumnOptions, DictionaryLimits, FieldEncoder, Prepared};
use pqcodec_core::Encoding;

pub use crate::compression::Compression;
pub(crate) use options::{Chooser, ColumnChooser};
pub use options::{ColumnSettings, WriterOptions};
pub use pqcodec_arrow::write::PageVersion;
#[cfg(feature = "object_store")]
pub use upload::AsyncFileWriter;

use crate::error::{Error, Result};
use crate::framing::footer_out::{ChunkEncodings, Footer};
use crate::framing::page_index_out::{ColumnIndex, PageLocation, write_offset_index};
use crate::framing::parquet_types::{
    column_desc, parquet_column_index, parquet_offset_index, sort_order,
};

/// What the footer says of the writer: `created_by`.
const CREATED_BY: &str = concat!("pqcodec version ", env!("CARGO_PKG_VERSION"));

/// Writes RecordBatches as a Parquet file to any [`Write`], shaped like arrow-rs's
/// `ArrowWriter`: [`FileWriter::write`] batches, [`FileWriter::flush`] to end a row group
/// early, [`FileWriter::close`] to write the footer.
///
/// A row group's column chunks are held in memory, encoded and compressed, until the row
/// group ends. Nothing that looks like a complete file exists before `close()`: a writer
/// dropped or failed before it leaves no footer. A batch that cannot be written (a schema
/// other than the writer's, a null in a non-nullable field, a dictionary key out of range, a
/// list offset past its child) is refused before any of it is encoded; after an I/O error the
/// writer refuses every call.
pub struct FileWriter<W: Write + Send> {
    out: W,
    /// Bytes written to `out`.
    written: u64,
    /// The row groups written, and of each column chunk what the footer and the page index
    /// say beyond the parquet crate's metadata.
    row_groups: Vec<RowGroupMetaData>,
    chunks_written: Vec<Vec<ChunkWritten>>,
    key_value_metadata: Vec<KeyValue>,
    schema: SchemaRef,
    descr: SchemaDescPtr,
    fields: Vec<FieldEncoder>,
    /// Each leaf column's chunk being framed.
    chunks: Vec<chunk::ChunkWriter>,
    rows_in_group: usize,
    max_group_rows: usize,
    /// With an advisor ([`WriterOptions::with_auto`]): the first row group's batches, held
    /// until it is whole, then advised on.
    first_group: Option<FirstGroup>,
    /// Why the writer refuses further calls.
    failed: Option<String>,
}

/// A column chunk written: its encodings, column index and page locations.
struct ChunkWritten {
    encodings: ChunkEncodings,
    column_index: Option<ColumnIndex>,
    locations: Vec<PageLocation>,
}

/// The first row group of a writer whose columns the advisor chooses, before it is chosen.
struct FirstGroup {
    options: WriterOptions,
    /// What the advisor samples, and the same rows checked and shredded for the encoders.
    batches: Vec<RecordBatch>,
    prepared: Vec<Vec<Prepared>>,
    rows: usize,
}

impl<W: Write + Send> std::fmt::Debug for FileWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileWriter")
            .field("schema", &self.schema)
            .field("rows_in_group", &self.rows_in_group)
            .finish_non_exhaustive()
    }
}

impl<W: Write + Send> FileWriter<W> {
    /// A writer of batches of `schema` to `out`, the Parquet schema made from it as arrow-rs
    /// makes it, `ARROW:schema` embedded so that Arrow types read back as written.
    pub fn try_new(out: W, schema: SchemaRef, options: WriterOptions) -> Result<Self> {
        let descr = ArrowSchemaConverter::new()
            .convert(&schema)
            .map_err(|e| Error::Format {
                context: "the schema has no Parquet form".into(),
                source: Box::new(e),
            })?;
        Self::try_new_with_parquet_schema(out, schema, Arc::new(descr), options)
    }

    /// A writer of batches of `schema` to `out` as columns of the given Parquet schema (a
    /// file's own, when rewriting it: names, repetition, logical and converted types and field
    /// ids kept). Fails if the schemas' columns do not line up or an encoding does not apply
    /// to a column's type.
    pub fn try_new_with_parquet_schema(
        out: W,
        schema: SchemaRef,
        descr: SchemaDescPtr,
        options: WriterOptions,
    ) -> Result<Self> {
        if let Some(path) = options.auto_without_advisor() {
            return Err(Error::Request(format!(
                "column {path} is to be chosen (`auto`), but the writer has no advisor \
                 (WriterOptions::with_auto)"
            )));
        }
        let (fields, chunks) = encoders(&schema, &descr, &options)?;
        let mut key_value_metadata = Vec::new();
        if options.arrow_schema {
            key_value_metadata.push(KeyValue::new(
                "ARROW:schema".into(),
                encode_arrow_schema(&schema),
            ));
        }
        for (k, v) in &options.key_value_metadata {
            key_value_metadata.push(KeyValue::new(k.clone(), v.clone()));
        }
        let max_group_rows = options.row_group_rows;
        let first_group = options.any_auto().then(|| FirstGroup {
            options,
            batches: Vec::new(),
            prepared: Vec::new(),
            rows: 0,
        });
        let mut writer = FileWriter {
            out,
            written: 0,
            row_groups: Vec::new(),
            chunks_written: Vec::new(),
            key_value_metadata,
            schema,
            descr,
            fields,
            chunks,
            rows_in_group: 0,
            max_group_rows,
            first_group,
            failed: None,
        };
        writer.write_out(b"PAR1")?;
        Ok(writer)
    }

    /// The Arrow schema batches must have.
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    /// The Parquet schema written.
    pub fn parquet_schema(&self) -> &SchemaDescriptor {
        &self.descr
    }

    /// Rows in the row group not yet written out.
    pub fn in_progress_rows(&self) -> usize {
        self.rows_in_group + self.first_group.as_ref().map_or(0, |f| f.rows)
    }

    /// Bytes written to the output so far.
    pub fn bytes_written(&self) -> usize {
        self.written as usize
    }

    /// The output.
    pub fn inner(&self) -> &W {
        &self.out
    }

    fn write_out(&mut self, bytes: &[u8]) -> Result<()> {
        self.out.write_all(bytes).map_err(Error::Io)?;
        self.written += bytes.len() as u64;
        Ok(())
    }

    fn usable(&self) -> Result<()> {
        match &self.failed {
            Some(why) => Err(Error::Failed(why.clone())),
            None => Ok(()),
        }
    }

    /// Marks the writer failed if `result` is an error.
    fn guard<T>(&mut self, result: Result<T>) -> Result<T> {
        if let Err(e) = &result {
            self.failed = Some(e.to_string());
        }
        result
    }

    /// Writes `batch`, ending row groups as they fill.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<()> {
        self.usable()?;
        if batch.schema().fields() != self.schema.fields() {
            return Err(Error::Request(format!(
                "the batch's schema {:?} is not the writer's {:?}",
                batch.schema().fields(),
                self.schema.fields()
            )));
        }
        let mut offset = 0;
        while offset < batch.num_rows() {
            let held = self.first_group.as_ref().map_or(0, |f| f.rows);
            let room = self.max_group_rows - self.rows_in_group - held;
            let n = room.min(batch.num_rows() - offset);
            let part = batch.slice(offset, n);
            let mut prepared = Vec::with_capacity(self.fields.len());
            for (field, column) in self.fields.iter().zip(part.columns()) {
                prepared.push(field.prepare(column).map_err(Error::Encode)?);
            }
            offset += n;
            if let Some(first) = &mut self.first_group {
                // Checked now, encoded once the advisor has chosen.
                first.batches.push(part);
                first.prepared.push(prepared);
                first.rows += n;
                if first.rows < self.max_group_rows {
                    continue;
                }
                let chosen = self.choose();
                self.guard(chosen)?;
            } else {
                let written = self.write_prepared(prepared);
                self.guard(written)?;
                self.rows_in_group += n;
            }
            if self.rows_in_group >= self.max_group_rows {
                self.flush()?;
            }
        }
        Ok(())
    }

    /// Chooses the columns' encodings and codecs from the first row group's batches, then
    /// encodes them.
    fn choose(&mut self) -> Result<()> {
        let Some(first) = self.first_group.take() else {
            return Ok(());
        };
        if first.rows == 0 {
            return Ok(());
        }
        let asked = first.options;
        let mut options = asked.clone();
        if let Some(chooser) = options.auto.take() {
            let roots = self.descr.root_schema().get_fields();
            let chosen = chooser.0.choose(&first.batches, roots, &options)?;
            for (path, settings) in chosen.iter().filter(|(path, _)| asked.is_auto(path)) {
                options.choose_column(path.clone(), settings);
            }
        }
        let (fields, chunks) = encoders(&self.schema, &self.descr, &options)?;
        self.fields = fields;
        self.chunks = chunks;
        for prepared in first.prepared {
            self.write_prepared(prepared)?;
        }
        self.rows_in_group = first.rows;
        Ok(())
    }

    /// Ends the row group being written, if it has rows.
    pub fn flush(&mut self) -> Result<()> {
        self.usable()?;
        if self.first_group.is_some() {
            let chosen = self.choose();
            self.guard(chosen)?;
        }
        if self.rows_in_group == 0 {
            return Ok(());
        }
        let result = self.write_row_group();
        self.guard(result)
    }

    /// Encodes checked arrays, and compresses and frames the pages they finish.
    fn write_prepared(&mut self, prepared: Vec<Prepared>) -> Result<()> {
        let mut leaf = 0;
        for (field, p) in self.fields.iter_mut().zip(prepared) {
            field.write_prepared(p).map_err(Error::Encode)?;
            for column in field.columns_mut() {
                for page in column.take_pages() {
                    self.chunks[leaf].push(&page)?;
                }
                leaf += 1;
            }
        }
        Ok(())
    }

    fn write_row_group(&mut self) -> Result<()> {
        let rows = self.rows_in_group as i64;
        let ordinal = i16::try_from(self.row_groups.len()).map_err(|_| Error::TooLarge {
            what: format!("row group {}", self.row_groups.len() + 1),
            limit: "32767 row groups a file",
        })?;
        let start = self.written as i64;
        let mut columns = Vec::with_capacity(self.chunks.len());
        let mut written = Vec::with_capacity(self.chunks.len());
        let mut total_uncompressed = 0;
        let mut leaf = 0;
        for field in 0..self.fields.len() {
            let chunks = self.fields[field].finish_chunks().map_err(Error::Encode)?;
            for encoded in chunks {
                let writer = &mut self.chunks[leaf];
                for page in &encoded.pages {
                    writer.push(page)?;
                }
                let framed = writer.finish(&encoded)?;
                // Offsets so far count from the chunk's start.
                let at = self.written as i64;
                let metadata = framed.metadata;
                let metadata = (metadata.clone().into_builder())
                    .set_data_page_offset(metadata.data_page_offset() + at)
                    .set_dictionary_page_offset(metadata.dictionary_page_offset().map(|o| o + at))
                    .build()
                    .map_err(|e| chunk::frame_error("(row group)", e))?;
                for page in &framed.pages {
                    self.write_out(page)?;
                }
                total_uncompressed += metadata.uncompressed_size();
                columns.push(metadata);
                let mut locations = framed.locations;
                for l in &mut locations {
                    l.offset += at;
                }
                written.push(ChunkWritten {
                    encodings: framed.encodings,
                    column_index: framed.column_index,
                    locations,
                });
                leaf += 1;
            }
        }
        let group = RowGroupMetaData::builder(self.descr.clone())
            .set_column_metadata(columns)
            .set_total_byte_size(total_uncompressed)
            .set_num_rows(rows)
            .set_ordinal(ordinal)
            .set_file_offset(start)
            .build()
            .map_err(|e| chunk::frame_error("(row group)", e))?;
        self.row_groups.push(group);
        self.chunks_written.push(written);
        self.rows_in_group = 0;
        Ok(())
    }

    /// Ends the last row group and writes the page index and the footer; returns the file's
    /// metadata, page index included, as the parquet crate of this build knows it (it has no
    /// name for ALP: a chunk's encodings list ALP in the file, not there).
    pub fn close(mut self) -> Result<ParquetMetaData> {
        self.finish()
    }

    /// Closes the file and gives back the output.
    pub fn into_inner(mut self) -> Result<W> {
        self.finish()?;
        Ok(self.out)
    }

    fn finish(&mut self) -> Result<ParquetMetaData> {
        self.flush()?;
        let finished = self.write_index_and_footer();
        self.guard(finished)
    }

    /// Writes the column indexes, then the offset indexes (each chunk's after the last row
    /// group, as arrow-rs places them), then the footer.
    fn write_index_and_footer(&mut self) -> Result<ParquetMetaData> {
        let physical: Vec<_> = (self.descr.columns().iter())
            .map(|c| c.physical_type())
            .collect();
        let mut groups = std::mem::take(&mut self.row_groups);
        let mut buf = Vec::new();
        let mut column_indexes = Vec::with_capacity(groups.len());
        let mut offset_indexes = Vec::with_capacity(groups.len());
        for written in &self.chunks_written {
            let mut row = Vec::with_capacity(written.len());
            for chunk in written {
                row.push(chunk.column_index.as_ref().map(|index| {
                    let at = self.written as usize + buf.len();
                    index.write(&mut buf);
                    (at, buf.len() + self.written as usize - at)
                }));
            }
            column_indexes.push(row);
        }
        for written in &self.chunks_written {
            let mut row = Vec::with_capacity(written.len());
            for chunk in written {
                let at = self.written as usize + buf.len();
                write_offset_index(&chunk.locations, &mut buf);
                row.push((at, buf.len() + self.written as usize - at));
            }
            offset_indexes.push(row);
        }
        let too_far = |_| Error::TooLarge {
            what: "a column chunk's page index".into(),
            limit: "2 GiB",
        };
        for (g, group) in groups.iter_mut().enumerate() {
            let mut columns = Vec::with_capacity(group.num_columns());
            for (c, chunk) in group.columns().iter().enumerate() {
                let column = column_indexes[g][c];
                let (offset_at, offset_len) = offset_indexes[g][c];
                let mut builder = (chunk.clone().into_builder())
                    .set_offset_index_offset(Some(offset_at as i64))
                    .set_offset_index_length(Some(i32::try_from(offset_len).map_err(too_far)?));
                if let Some((at, len)) = column {
                    builder = builder
                        .set_column_index_offset(Some(at as i64))
                        .set_column_index_length(Some(i32::try_from(len).map_err(too_far)?));
                }
                columns.push(
                    builder
                        .build()
                        .map_err(|e| chunk::frame_error("(footer)", e))?,
                );
            }
            *group = (group.clone().into_builder())
                .set_column_metadata(columns)
                .build()
                .map_err(|e| chunk::frame_error("(footer)", e))?;
        }
        let encodings: Vec<Vec<ChunkEncodings>> = (self.chunks_written.iter())
            .map(|w| w.iter().map(|c| c.encodings.clone()).collect())
            .collect();
        let footer_at = buf.len();
        Footer {
            schema: &self.descr,
            row_groups: &groups,
            encodings: &encodings,
            key_value_metadata: &self.key_value_metadata,
            created_by: CREATED_BY,
        }
        .write(&mut buf);
        let footer_len = u32::try_from(buf.len() - footer_at).map_err(|_| Error::TooLarge {
            what: "the footer".into(),
            limit: "4 GiB",
        })?;
        buf.extend_from_slice(&footer_len.to_le_bytes());
        buf.extend_from_slice(b"PAR1");
        self.write_out(&buf)?;
        self.out.flush().map_err(Error::Io)?;

        let num_rows = groups.iter().map(|g| g.num_rows()).sum();
        let column_orders = (self.descr.columns().iter())
            .map(|c| ColumnOrder::TYPE_DEFINED_ORDER(c.sort_order()))
            .collect();
        let kv = (!self.key_value_metadata.is_empty()).then(|| self.key_value_metadata.clone());
        let file = FileMetaData::new(
            1,
            num_rows,
            Some(CREATED_BY.into()),
            kv,
            self.descr.clone(),
            Some(column_orders),
        );
        let mut column_index = Vec::with_capacity(groups.len());
        let mut offset_index = Vec::with_capacity(groups.len());
        for written in &self.chunks_written {
            let mut columns = Vec::with_capacity(written.len());
            let mut offsets = Vec::with_capacity(written.len());
            for (chunk, &physical) in written.iter().zip(&physical) {
                let index = parquet_column_index(physical, chunk.column_index.as_ref());
                columns.push(index.map_err(|e| chunk::frame_error("(page index)", e))?);
                offsets.push(parquet_offset_index(&chunk.locations));
            }
            column_index.push(columns);
            offset_index.push(offsets);
        }
        let any_column_index =
            (self.chunks_written.iter()).any(|w| w.iter().any(|c| c.column_index.is_some()));
        let mut builder = ParquetMetaDataBuilder::new(file).set_row_groups(groups);
        if any_column_index {
            builder = builder.set_column_index(Some(column_index));
        }
        if !offset_index.is_empty() {
            builder = builder.set_offset_index(Some(offset_index));
        }
        Ok(builder.build())
    }
}

/// The encoders of each field and the framing of each leaf column, as `options` say.
fn encoders(
    schema: &SchemaRef,
    descr: &SchemaDescPtr,
    options: &WriterOptions,
) -> Result<(Vec<FieldEncoder>, Vec<chunk::ChunkWriter>)> {
    let mut fields = Vec::with_capacity(schema.fields().len());
    let mut chunks = Vec::with_capacity(descr.num_columns());
    let mut next = 0;
    for field in schema.fields() {
        let n = pqcodec_arrow::leaf_count(field);
        let leaves = descr.columns().get(next..next + n).ok_or_else(|| {
            Error::Request(format!(
                "field {:?} needs {n} Parquet columns from column {next}; the schema has {}",
                field.name(),
                descr.num_columns()
            ))
        })?;
        next += n;
        let mut columns = Vec::with_capacity(n);
        for leaf in leaves {
            let desc = column_desc(leaf).map_err(Error::Request)?;
            let (column_options, codec) = column_options(options, leaf, &desc.path);
            if let Some(feature) = options::missing_feature(codec) {
                return Err(Error::CodecNotCompiled {
                    codec: codec.name(),
                    feature,
                });
            }
            chunks.push(chunk::ChunkWriter::new(
                Arc::clone(leaf),
                codec,
                options.truncate_bounds,
            ));
            chunk::check_written(&desc.path, column_options.encoding)?;
            columns.push((desc, column_options));
        }
        fields.push(FieldEncoder::try_new(field.clone(), columns).map_err(Error::Encode)?);
    }
    if next != descr.num_columns() {
        return Err(Error::Request(format!(
            "the Arrow schema has {next} leaf columns but the Parquet schema {}",
            descr.num_columns()
        )));
    }
    Ok((fields, chunks))
}

/// Options and codec of the leaf column `leaf` at `path`.
fn column_options(
    options: &WriterOptions,
    leaf: &ColumnDescriptor,
    path: &str,
) -> (ColumnOptions, Compression) {
    let settings = options.columns.get(path).cloned().unwrap_or_default();
    let boolean = leaf.physical_type() == parquet::basic::Type::BOOLEAN;
    // An encoding asked for is used from the start, unless the column asks for a dictionary
    // first too; else a dictionary first (never for booleans unless asked), then PLAIN.
    let (dictionary, encoding) = match settings.encoding.or(options.encoding) {
        Some(Encoding::RleDictionary | Encoding::PlainDictionary) => (true, Encoding::Plain),
        Some(e) => (settings.dictionary == Some(true), e),
        None => (
            settings
                .dictionary
                .unwrap_or(options.dictionary && !boolean),
            Encoding::Plain,
        ),
    };
    let limits =
        DictionaryLimits::default().with_max_dictionary_bytes(options.dictionary_page_bytes);
    let column = ColumnOptions::default()
        .with_encoding(encoding)
        .with_dictionary(dictionary.then_some(limits))
        .with_page_version(options.page_version)
        .with_page_bytes(options.page_bytes)
        .with_page_rows(options.page_rows)
        .with_statistics(
            settings.statistics.unwrap_or(options.statistics)
                && leaf.physical_type() != parquet::basic::Type::INT96,
        )
        .with_sort_order(sort_order(leaf.sort_order()));
    (column, settings.compression.unwrap_or(options.compression))
}
