//! `pqcodec cat FILE [--columns a,b.c] [--row-groups 0,2] [--offset N] [--limit N]`: the
//! file's rows as JSON Lines, decoded by pqcodec, the file read by ranges.

use std::error::Error;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use arrow_json::writer::{LineDelimited, WriterBuilder};
use pqcodec_file::{LocalFile, ReaderBuilder};

use crate::file::ReadArgs;

/// Rows a batch holds.
const BATCH_SIZE: usize = 8192;

/// Writes the rows `args` selects of `path` to `out`, one JSON object a line, with explicit
/// nulls. A reader that stops reading (a closed pipe) ends the command quietly.
pub fn cat(path: &Path, args: &ReadArgs, out: impl Write) -> Result<(), Box<dyn Error>> {
    let in_file = |e: pqcodec_file::Error| format!("{}: {e}", path.display());
    let source = LocalFile::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let builder = ReaderBuilder::try_new_with_options(source, args.options()).map_err(in_file)?;
    let reader = args
        .apply(builder)
        .with_batch_size(BATCH_SIZE)
        .build()
        .map_err(in_file)?;
    let mut out = PipeWriter {
        inner: out,
        closed: false,
    };
    let result = write_json(reader, &mut out, in_file);
    match result {
        Err(_) if out.closed => Ok(()),
        result => result,
    }
}

fn write_json(
    mut reader: pqcodec_file::BatchReader,
    out: &mut impl Write,
    in_file: impl Fn(pqcodec_file::Error) -> String,
) -> Result<(), Box<dyn Error>> {
    let mut writer = WriterBuilder::new()
        .with_explicit_nulls(true)
        .build::<_, LineDelimited>(BufWriter::new(out));
    while let Some(batch) = reader.next_batch().map_err(&in_file)? {
        writer.write(&batch)?;
    }
    writer.finish()?;
    writer.into_inner().flush()?;
    Ok(())
}

/// A writer that remembers whether its reader went away (a broken pipe), however the error
/// is wrapped on its way up.
struct PipeWriter<W> {
    inner: W,
    closed: bool,
}

impl<W: Write> PipeWriter<W> {
    fn track<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        if let Err(e) = &result {
            self.closed |= e.kind() == io::ErrorKind::BrokenPipe;
        }
        result
    }
}

impl<W: Write> Write for PipeWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let result = self.inner.write(buf);
        self.track(result)
    }

    fn flush(&mut self) -> io::Result<()> {
        let result = self.inner.flush();
        self.track(result)
    }
}
