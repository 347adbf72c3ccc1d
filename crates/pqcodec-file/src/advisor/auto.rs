//! The advisor as the writer's chooser of `auto` columns ([`WriterOptions::with_auto`]).

use std::sync::Arc;

use arrow_array::RecordBatch;
use parquet::schema::types::TypePtr;

use super::Advisor;
use crate::error::Result;
use crate::writer::{Chooser, ColumnChooser, ColumnSettings, WriterOptions};

impl ColumnChooser for Advisor {
    fn choose(
        &self,
        batches: &[RecordBatch],
        roots: &[TypePtr],
        options: &WriterOptions,
    ) -> Result<Vec<(String, ColumnSettings)>> {
        let advisor = self.clone().with_writer_options(options.clone());
        let advice = advisor.advise_as(batches, roots)?;
        let columns = advice.columns.iter();
        Ok(columns.map(|c| (c.path.clone(), c.settings())).collect())
    }
}

impl WriterOptions {
    /// Each column's encoding and codec chosen by `advisor` (see [`crate::advisor`]) from
    /// the first row group's rows, for the whole file; a column given an encoding or a codec
    /// of its own keeps it, unless its settings say `auto` (those saying `auto` need an
    /// advisor). The first row group's batches are checked as they are given (a bad one is
    /// refused then, as always) and held until the row group is whole (or flushed, or the file
    /// closed); then the advisor chooses and they are encoded.
    pub fn with_auto(mut self, advisor: Advisor) -> Self {
        self.auto = Some(Chooser(Arc::new(advisor)));
        self
    }
}
