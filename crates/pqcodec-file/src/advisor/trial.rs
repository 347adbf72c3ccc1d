//! One candidate tried on a field's sample: written by the writer, read back by the reader.

use std::sync::Arc;
use std::time::Instant;

use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{Schema, SchemaRef};
use bytes::Bytes;
use parquet::schema::types::SchemaDescPtr;
use pqcodec_arrow::ColumnDesc;
use pqcodec_core::Encoding;

use super::Choice;
use crate::error::Result;
use crate::writer::{ColumnSettings, Compression, FileWriter, WriterOptions};
use crate::{FileMetadata, ReaderBuilder};

/// What one candidate made of the sample.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Measured {
    /// Bytes of the leaf's data pages, headers included.
    pub(crate) data_bytes: u64,
    /// Bytes of its dictionary page, header included (0 without one).
    pub(crate) dictionary_bytes: u64,
    /// The leaf's values, and its pages' bytes decompressed.
    pub(crate) values: u64,
    pub(crate) page_bytes: u64,
    /// The fastest of a few reads of the sample (decompressing and decoding); 0 with no read.
    pub(crate) seconds: f64,
}

/// One candidate's sample written, and its reads so far.
pub(crate) struct Written {
    file: Bytes,
    metadata: Arc<FileMetadata>,
    measured: Measured,
}

impl Written {
    /// Its pages' measures, and the fastest of its reads.
    pub(crate) fn measured(&self) -> Measured {
        self.measured
    }

    /// Reads the sample once (decompressing and decoding), keeping the fastest read.
    pub(crate) fn read(&mut self) -> Result<()> {
        let started = Instant::now();
        let mut reader =
            ReaderBuilder::new_with_metadata(self.file.clone(), Arc::clone(&self.metadata))
                .build()?;
        while reader.next_batch()?.is_some() {}
        let took = started.elapsed().as_secs_f64();
        let fastest = &mut self.measured.seconds;
        if *fastest == 0.0 || took < *fastest {
            *fastest = took;
        }
        Ok(())
    }
}

/// A field's sample, ready to be written with each candidate.
pub(crate) struct Bench<'a> {
    schema: SchemaRef,
    descr: SchemaDescPtr,
    batch: RecordBatch,
    base: WriterOptions,
    leaves: &'a [ColumnDesc],
    reads: usize,
}

impl<'a> Bench<'a> {
    pub(crate) fn new(
        sample: &'a super::sample::FieldSample,
        rows: ArrayRef,
        descr: SchemaDescPtr,
        base: &WriterOptions,
        reads: usize,
    ) -> Result<Self> {
        let schema = Arc::new(Schema::new(vec![Arc::clone(&sample.field)]));
        let batch = RecordBatch::try_new(Arc::clone(&schema), vec![rows])?;
        // The sample is one row group, whatever the file's.
        let mut base = base.clone().with_max_row_group_row_count(usize::MAX);
        base.columns.clear();
        Ok(Bench {
            schema,
            descr,
            batch,
            base,
            leaves: &sample.leaves,
            reads,
        })
    }

    /// Rows in the sample.
    pub(crate) fn rows(&self) -> u64 {
        self.batch.num_rows() as u64
    }

    /// How many times each candidate's sample is read.
    pub(crate) fn reads(&self) -> usize {
        self.reads
    }

    /// Writes the sample with `settings` for leaf `leaf` (the others PLAIN, uncompressed) and
    /// measures that leaf's pages; [`Written::read`] then times its reads.
    pub(crate) fn write(&self, leaf: usize, settings: ColumnSettings) -> Result<Written> {
        let mut options = self.base.clone();
        for (i, column) in self.leaves.iter().enumerate() {
            let s = if i == leaf {
                settings.clone()
            } else {
                Choice::new(Encoding::Plain, Compression::Uncompressed).settings()
            };
            options = options.with_column(column.path.clone(), s);
        }
        let mut writer = FileWriter::try_new_with_parquet_schema(
            Vec::new(),
            Arc::clone(&self.schema),
            Arc::clone(&self.descr),
            options,
        )?;
        writer.write(&self.batch)?;
        let file = Bytes::from(writer.into_inner()?);
        let metadata = Arc::new(FileMetadata::load(&file, false)?);
        let (mut data_bytes, mut dictionary_bytes, mut values, mut page_bytes) = (0, 0, 0, 0);
        for group in metadata.metadata().row_groups() {
            let chunk = group.column(leaf);
            values += chunk.num_values() as u64;
            page_bytes += chunk.uncompressed_size() as u64;
            let total = chunk.compressed_size() as u64;
            let dictionary = match chunk.dictionary_page_offset() {
                Some(d) => (chunk.data_page_offset() - d) as u64,
                None => 0,
            };
            dictionary_bytes += dictionary;
            data_bytes += total - dictionary;
        }
        Ok(Written {
            file,
            metadata,
            measured: Measured {
                data_bytes,
                dictionary_bytes,
                values,
                page_bytes,
                seconds: 0.0,
            },
        })
    }
}
