//! Opening a Parquet file for the file commands: its footer and pages framed by the parquet
//! crate, the columns a `--columns` list selects, and the Arrow schema arrow-rs would give them.

use std::error::Error;
use std::path::Path;

use parquet::arrow::{ProjectionMask, parquet_to_arrow_schema_by_columns};
use pqcodec_arrow::framing::ParquetFile;
use pqcodec_arrow::{Column, RecordBatchDecoder};

/// A file in memory and the leaf columns a command reads.
pub struct Selection {
    file: ParquetFile,
    schema: arrow_schema::SchemaRef,
    leaves: Vec<usize>,
}

impl Selection {
    /// Opens `path` and selects the columns named in `columns` (dotted paths; a name selects
    /// every leaf below it), or every column.
    pub fn open(path: &Path, columns: Option<&[String]>) -> Result<Self, Box<dyn Error>> {
        let file = ParquetFile::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let descr = file.metadata().file_metadata().schema_descr_ptr();
        let Some(names) = columns else {
            let leaves = (0..descr.num_columns()).collect();
            let schema = file.schema();
            return Ok(Selection {
                file,
                schema,
                leaves,
            });
        };
        for name in names {
            let found = descr.columns().iter().any(|c| {
                let path = c.path().string();
                path == *name || path.starts_with(&format!("{name}."))
            });
            if !found {
                return Err(format!("{}: no column {name:?}", path.display()).into());
            }
        }
        let mask = ProjectionMask::columns(&descr, names.iter().map(String::as_str));
        let leaves = (0..descr.num_columns())
            .filter(|&i| mask.leaf_included(i))
            .collect();
        let schema = parquet_to_arrow_schema_by_columns(
            &descr,
            mask,
            file.metadata().file_metadata().key_value_metadata(),
        )?;
        Ok(Selection {
            file,
            schema: schema.into(),
            leaves,
        })
    }

    /// The selected columns, reading their pages from the file.
    pub fn columns(&self) -> Vec<Column> {
        let descs = self.file.column_descs();
        self.leaves
            .iter()
            .map(|&i| Column::new(descs[i].clone(), self.file.pages(i)))
            .collect()
    }

    /// A decoder of `columns` into batches of `batch_size` rows.
    pub fn batches(
        &self,
        columns: Vec<Column>,
        batch_size: usize,
    ) -> Result<RecordBatchDecoder, Box<dyn Error>> {
        Ok(RecordBatchDecoder::try_new(
            self.schema.clone(),
            columns,
            batch_size,
        )?)
    }
}
