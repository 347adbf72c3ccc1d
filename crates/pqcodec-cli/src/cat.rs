//! `pqcodec cat FILE [--columns a,b.c]`: the file's rows as JSON Lines, decoded by pqcodec.

use std::error::Error;
use std::io::{BufWriter, Write};
use std::path::Path;

use arrow_json::writer::{LineDelimited, WriterBuilder};

use crate::file::Selection;

/// Rows a batch holds.
const BATCH_SIZE: usize = 8192;

/// Writes every row of the selected columns of `path` to `out`, one JSON object a line, with
/// explicit nulls.
pub fn cat(path: &Path, columns: Option<&[String]>, out: impl Write) -> Result<(), Box<dyn Error>> {
    let selection = Selection::open(path, columns)?;
    let batches = selection.batches(selection.columns(), BATCH_SIZE)?;
    let mut writer = WriterBuilder::new()
        .with_explicit_nulls(true)
        .build::<_, LineDelimited>(BufWriter::new(out));
    for batch in batches {
        writer.write(&batch?)?;
    }
    writer.finish()?;
    writer.into_inner().flush()?;
    Ok(())
}
