//! The public readers: [`ArrayDecoder`] (one Arrow field over its leaf columns) and
//! [`RecordBatchDecoder`] (a schema over all its columns), both reading a batch size the
//! caller picks and skipping rows without decoding them into arrays.

use arrow_array::{ArrayRef, RecordBatch, RecordBatchOptions};
use arrow_schema::{FieldRef, SchemaRef};

use crate::error::{Error, Result, collect_exact};
use crate::leaf::LeafReader;
use crate::nested::assemble;
use crate::page::PageSource;
use crate::schema::{ColumnDesc, Kind, Node, leaf_count};

/// A leaf column and where its pages come from.
pub struct Column {
    /// What the column's pages hold.
    pub desc: ColumnDesc,
    /// Its pages, in order: for each row group, an optional dictionary page then data pages.
    pub pages: Box<dyn PageSource>,
}

impl Column {
    /// A column of `desc` reading `pages`.
    pub fn new(desc: ColumnDesc, pages: impl PageSource + 'static) -> Self {
        Column {
            desc,
            pages: Box::new(pages),
        }
    }
}

impl std::fmt::Debug for Column {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Column")
            .field("desc", &self.desc)
            .finish_non_exhaustive()
    }
}

/// Decodes one Arrow field (a flat column, or a struct / list / map over several leaf
/// columns) into arrays of a chosen number of rows.
pub struct ArrayDecoder {
    node: Node,
    leaves: Vec<LeafReader>,
}

impl std::fmt::Debug for ArrayDecoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArrayDecoder")
            .field("field", &self.node.field)
            .finish_non_exhaustive()
    }
}

impl ArrayDecoder {
    /// A decoder of `field` whose leaves, in depth-first order, are `columns`.
    ///
    /// Fails if the columns' levels do not fit the field's nesting and nullability, or if a
    /// column's physical type cannot be decoded into its leaf's Arrow type.
    pub fn try_new(field: FieldRef, columns: Vec<Column>) -> Result<Self> {
        let descs: Vec<ColumnDesc> = columns.iter().map(|c| c.desc.clone()).collect();
        let node = Node::build(&field, &descs)?;
        let top_level = matches!(node.kind, Kind::Leaf { .. });
        let leaf_nodes = node.leaves();
        let leaves =
            collect_exact(columns.into_iter().zip(leaf_nodes).map(|(column, leaf)| {
                LeafReader::new(column.desc, leaf, column.pages, top_level)
            }))?;
        Ok(ArrayDecoder { node, leaves })
    }

    /// The field decoded.
    pub fn field(&self) -> &FieldRef {
        &self.node.field
    }

    /// Decodes the next `rows` rows (fewer at the end of the columns; an empty array once
    /// they are exhausted).
    pub fn read(&mut self, rows: usize) -> Result<ArrayRef> {
        self.read_records(rows)?;
        self.consume_batch()
    }

    /// Decodes the next `rows` rows into the batch being built, after what earlier calls read
    /// (rows skipped in between are left out); returns how many (fewer only at the end).
    pub fn read_records(&mut self, rows: usize) -> Result<usize> {
        let mut read = None;
        for leaf in &mut self.leaves {
            let n = leaf.read(rows)?;
            match read {
                None => read = Some(n),
                Some(m) if m != n => return Err(self.disagree(m, n)),
                Some(_) => {}
            }
        }
        Ok(read.unwrap_or(0))
    }

    /// Continues with other pages for each leaf column, in order (the next row group's
    /// column chunks): the rest of the current pages is dropped, the batch being built is
    /// kept, and so is what the decoder allocated.
    ///
    /// Fails unless there is one page source per leaf column, or if what was read of a current
    /// page is invalid (a string that is not UTF-8).
    pub fn set_pages(&mut self, pages: Vec<Box<dyn PageSource>>) -> Result<()> {
        if pages.len() != self.leaves.len() {
            return Err(self.wrong_count(pages.len()));
        }
        for (leaf, pages) in self.leaves.iter_mut().zip(pages) {
            leaf.set_pages(pages)?;
        }
        Ok(())
    }

    fn wrong_count(&self, given: usize) -> Error {
        Error::Schema(format!(
            "field {:?} reads {} columns, {given} page sources given",
            self.node.field.name(),
            self.leaves.len()
        ))
    }

    /// The rows read since the last batch, as an array; starts the next batch.
    pub fn consume_batch(&mut self) -> Result<ArrayRef> {
        let batches = collect_exact(self.leaves.iter_mut().map(LeafReader::finish))?;
        assemble(&self.node, &batches)
    }

    /// Skips the next `rows` rows; returns how many were skipped (fewer only at the end).
    pub fn skip(&mut self, rows: usize) -> Result<usize> {
        let mut skipped = None;
        for leaf in &mut self.leaves {
            let n = leaf.skip(rows)?;
            match skipped {
                None => skipped = Some(n),
                Some(m) if m != n => return Err(self.disagree(m, n)),
                Some(_) => {}
            }
        }
        Ok(skipped.unwrap_or(0))
    }

    fn disagree(&self, a: usize, b: usize) -> Error {
        Error::Schema(format!(
            "the columns of field {:?} hold different numbers of rows ({a} and {b})",
            self.node.field.name()
        ))
    }
}

/// Decodes a schema's columns into [`RecordBatch`]es of a chosen size.
///
/// Also an [`Iterator`] of batches of [`RecordBatchDecoder::batch_size`] rows.
pub struct RecordBatchDecoder {
    schema: SchemaRef,
    fields: Vec<ArrayDecoder>,
    batch_size: usize,
}

impl std::fmt::Debug for RecordBatchDecoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecordBatchDecoder")
            .field("schema", &self.schema)
            .field("batch_size", &self.batch_size)
            .finish_non_exhaustive()
    }
}

impl RecordBatchDecoder {
    /// A decoder of `schema` whose leaf columns, in depth-first order of its fields, are
    /// `columns`; the iterator yields batches of `batch_size` rows (at least 1).
    pub fn try_new(schema: SchemaRef, columns: Vec<Column>, batch_size: usize) -> Result<Self> {
        let mut columns = columns.into_iter();
        let mut fields = Vec::with_capacity(schema.fields().len());
        for field in schema.fields() {
            let count = leaf_count(field);
            let mine: Vec<Column> = columns.by_ref().take(count).collect();
            if mine.len() != count {
                return Err(Error::Schema(format!(
                    "field {:?} needs {count} columns, {} are left",
                    field.name(),
                    mine.len()
                )));
            }
            fields.push(ArrayDecoder::try_new(field.clone(), mine)?);
        }
        let extra = columns.count();
        if extra > 0 {
            return Err(Error::Schema(format!(
                "{extra} columns more than the schema's fields hold"
            )));
        }
        Ok(RecordBatchDecoder {
            schema,
            fields,
            batch_size: batch_size.max(1),
        })
    }

    /// The schema of the batches.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// The number of rows the iterator reads per batch.
    pub fn batch_size(&self) -> usize {
        self.batch_size
    }

    /// Decodes the next `rows` rows, or `None` once the columns are exhausted.
    pub fn read(&mut self, rows: usize) -> Result<Option<RecordBatch>> {
        self.read_records(rows)?;
        self.consume_batch()
    }

    /// Decodes the next `rows` rows into the batch being built, after what earlier calls read
    /// (rows [skipped](Self::skip) in between are left out); returns how many (fewer only at
    /// the end of the columns).
    pub fn read_records(&mut self, rows: usize) -> Result<usize> {
        let mut read = None;
        for field in &mut self.fields {
            let n = field.read_records(rows)?;
            match read {
                None => read = Some(n),
                Some(m) if m != n => {
                    return Err(Error::Schema(format!(
                        "columns hold different numbers of rows ({m} and {n})"
                    )));
                }
                Some(_) => {}
            }
        }
        Ok(read.unwrap_or(0))
    }

    /// Continues with other pages for each leaf column, in the order of
    /// [`try_new`](Self::try_new)'s columns: the next row group's column chunks, read by the
    /// decoders (and into the buffers) of the last. The rest of the current pages is dropped;
    /// the batch being built is kept.
    ///
    /// Fails unless there is one page source per leaf column, or if what was read of a current
    /// page is invalid (a string that is not UTF-8).
    pub fn set_pages(&mut self, pages: Vec<Box<dyn PageSource>>) -> Result<()> {
        let leaves: usize = self.fields.iter().map(|f| f.leaves.len()).sum();
        if pages.len() != leaves {
            return Err(Error::Schema(format!(
                "the schema reads {leaves} columns, {} page sources given",
                pages.len()
            )));
        }
        let mut pages = pages.into_iter();
        for field in &mut self.fields {
            let count = field.leaves.len();
            field.set_pages(pages.by_ref().take(count).collect())?;
        }
        Ok(())
    }

    /// The rows read since the last batch, or `None` if there are none; starts the next batch.
    pub fn consume_batch(&mut self) -> Result<Option<RecordBatch>> {
        let columns = collect_exact(self.fields.iter_mut().map(ArrayDecoder::consume_batch))?;
        let len = columns.first().map_or(0, |c| c.len());
        if let Some(bad) = columns.iter().find(|c| c.len() != len) {
            return Err(Error::Schema(format!(
                "columns hold different numbers of rows ({len} and {})",
                bad.len()
            )));
        }
        if len == 0 {
            return Ok(None);
        }
        let options = RecordBatchOptions::new().with_row_count(Some(len));
        RecordBatch::try_new_with_options(self.schema.clone(), columns, &options)
            .map(Some)
            .map_err(|e| Error::Schema(e.to_string()))
    }

    /// Skips the next `rows` rows; returns how many were skipped.
    pub fn skip(&mut self, rows: usize) -> Result<usize> {
        let mut skipped = None;
        for field in &mut self.fields {
            let n = field.skip(rows)?;
            match skipped {
                None => skipped = Some(n),
                Some(m) if m != n => {
                    return Err(Error::Schema(format!(
                        "columns hold different numbers of rows ({m} and {n})"
                    )));
                }
                Some(_) => {}
            }
        }
        Ok(skipped.unwrap_or(0))
    }
}

impl Iterator for RecordBatchDecoder {
    type Item = Result<RecordBatch>;

    fn next(&mut self) -> Option<Self::Item> {
        self.read(self.batch_size).transpose()
    }
}
