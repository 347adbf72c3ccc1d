//! Writing Parquet files: RecordBatches in, a file out, every level and value encoded by
//! pqcodec ([`pqcodec_arrow::write`]); page headers written by pqcodec, the footer by the
//! parquet crate.
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
mod footer;
mod options;
mod page_header;
mod truncate;
#[cfg(feature = "object_store")]
mod upload;

use std::io::Write;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::{ArrowSchemaConverter, encode_arrow_schema};
use parquet::file::metadata::{KeyValue, ParquetMetaData};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::{ColumnDescriptor, SchemaDescPtr, SchemaDescriptor};
use pqcodec_arrow::write::{ColumnOptions, DictionaryLimits, FieldEncoder, Prepared};
use pqcodec_core::{Encoding, PhysicalType};

pub use crate::compression::Compression;
pub(crate) use options::{Chooser, ColumnChooser};
pub use options::{ColumnSettings, WriterOptions};
pub use pqcodec_arrow::write::PageVersion;
#[cfg(feature = "object_store")]
pub use upload::AsyncFileWriter;

use crate::error::{Error, Result};
use crate::framing::parquet_types::{column_desc, sort_order};
use footer::Output;

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
    inner: SerializedFileWriter<Output<W>>,
    /// Whether a column may be ALP: the footer is then patched.
    alp: bool,
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
        let (fields, chunks, alp) = encoders(&schema, &descr, &options)?;
        let properties = WriterProperties::builder()
            .set_created_by(concat!("pqcodec version ", env!("CARGO_PKG_VERSION")).into())
            .build();
        let out = Output::new(out);
        let mut inner =
            SerializedFileWriter::new(out, descr.root_schema_ptr(), Arc::new(properties))
                .map_err(|e| chunk::frame_error("(file)", e))?;
        if options.arrow_schema {
            inner.append_key_value_metadata(KeyValue::new(
                "ARROW:schema".into(),
                encode_arrow_schema(&schema),
            ));
        }
        for (k, v) in &options.key_value_metadata {
            inner.append_key_value_metadata(KeyValue::new(k.clone(), v.clone()));
        }
        let max_group_rows = options.row_group_rows;
        let first_group = options.any_auto().then(|| FirstGroup {
            options,
            batches: Vec::new(),
            prepared: Vec::new(),
            rows: 0,
        });
        Ok(FileWriter {
            inner,
            alp,
            schema,
            descr,
            fields,
            chunks,
            rows_in_group: 0,
            max_group_rows,
            first_group,
            failed: None,
        })
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
        self.inner.bytes_written()
    }

    /// The output.
    pub fn inner(&self) -> &W {
        self.inner.inner().get_ref()
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
        let (fields, chunks, alp) = encoders(&self.schema, &self.descr, &options)?;
        self.fields = fields;
        self.chunks = chunks;
        self.alp = alp;
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
        let rows = self.rows_in_group as u64;
        let mut group = self
            .inner
            .next_row_group()
            .map_err(|e| chunk::frame_error("(row group)", e))?;
        let mut leaf = 0;
        for field in &mut self.fields {
            let chunks = field.finish_chunks().map_err(Error::Encode)?;
            for encoded in chunks {
                let writer = &mut self.chunks[leaf];
                for page in &encoded.pages {
                    writer.push(page)?;
                }
                let framed = writer.finish(&encoded, rows)?;
                group
                    .append_column(&framed.bytes, framed.close)
                    .map_err(|e| chunk::frame_error("(row group)", e))?;
                leaf += 1;
            }
        }
        group
            .close()
            .map_err(|e| chunk::frame_error("(row group)", e))?;
        self.rows_in_group = 0;
        Ok(())
    }

    /// Ends the last row group and writes the footer; returns the file's metadata (as the
    /// parquet crate of this build knows it: an ALP column chunk's encodings list BIT_PACKED
    /// in ALP's place there, ALP in the file).
    pub fn close(mut self) -> Result<ParquetMetaData> {
        self.flush()?;
        if self.alp {
            self.inner.inner_mut().hold();
        }
        let metadata = self
            .inner
            .finish()
            .map_err(|e| chunk::frame_error("(footer)", e))?;
        self.inner
            .inner_mut()
            .release_patched()
            .map_err(Error::Io)?;
        Ok(metadata)
    }

    /// Closes the file and gives back the output.
    pub fn into_inner(mut self) -> Result<W> {
        self.flush()?;
        if self.alp {
            self.inner.inner_mut().hold();
        }
        let mut out = self
            .inner
            .into_inner()
            .map_err(|e| chunk::frame_error("(footer)", e))?;
        out.release_patched().map_err(Error::Io)?;
        Ok(out.into_inner())
    }
}

/// The encoders of each field and the framing of each leaf column, as `options` say; whether
/// a column may be ALP.
#[allow(clippy::type_complexity)]
fn encoders(
    schema: &SchemaRef,
    descr: &SchemaDescPtr,
    options: &WriterOptions,
) -> Result<(Vec<FieldEncoder>, Vec<chunk::ChunkWriter>, bool)> {
    let mut fields = Vec::with_capacity(schema.fields().len());
    let mut chunks = Vec::with_capacity(descr.num_columns());
    let mut next = 0;
    let mut alp = false;
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
            let desc = column_desc(leaf);
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
            chunk::listed_encoding(&desc.path, column_options.encoding)?;
            alp |= column_options.encoding == Encoding::Alp;
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
    Ok((fields, chunks, alp))
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
                && column_desc(leaf).physical != PhysicalType::Int96,
        )
        .with_sort_order(sort_order(leaf.sort_order()));
    (column, settings.compression.unwrap_or(options.compression))
}
