//! `pqcodec inspect FILE`: row groups, column chunks and pages, as the file's framing says.

use std::error::Error;
use std::fmt::Write as _;
use std::path::Path;

use parquet::basic::Type;
use parquet::column::page::Page;
use parquet::file::metadata::ColumnChunkMetaData;
use pqcodec_arrow::framing::ParquetFile;

/// Describes every row group, column chunk and page of the file at `path`. The file is
/// framed as `cat` and `scan` frame it, its footer and each chunk checked first; errors name
/// the file and the column being read.
pub fn inspect(path: &Path) -> Result<String, Box<dyn Error>> {
    let file = ParquetFile::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let meta = file.metadata();
    let file_meta = meta.file_metadata();
    let mut out = String::new();
    writeln!(
        out,
        "{}: {} rows, {} row groups, version {}, created by {}",
        path.display(),
        file_meta.num_rows(),
        meta.num_row_groups(),
        file_meta.version(),
        file_meta.created_by().unwrap_or("unknown")
    )?;
    for (g, group) in meta.row_groups().iter().enumerate() {
        writeln!(
            out,
            "row group {g}: {} rows, {} bytes",
            group.num_rows(),
            group.total_byte_size()
        )?;
        for (c, chunk) in group.columns().iter().enumerate() {
            writeln!(out, "  column {c} {}", describe_chunk(chunk))?;
            let in_column = |e| {
                let column = chunk.column_descr().path().string();
                format!("{}: column {column:?}: {e}", path.display())
            };
            for (p, page) in file.chunk_pages(g, c).map_err(in_column)?.enumerate() {
                writeln!(
                    out,
                    "    page {p}: {}",
                    describe_page(&page.map_err(in_column)?)
                )?;
            }
        }
    }
    Ok(out)
}

/// A column chunk's path, type, levels, codec, values and sizes.
fn describe_chunk(chunk: &ColumnChunkMetaData) -> String {
    let descr = chunk.column_descr();
    let length = match descr.type_length() {
        n if n > 0 && descr.physical_type() == Type::FIXED_LEN_BYTE_ARRAY => format!("({n})"),
        _ => String::new(),
    };
    format!(
        "{}: {}{length}, max def {}, max rep {}, codec {}, {} values, {} bytes compressed, {} uncompressed",
        descr.path().string(),
        descr.physical_type(),
        descr.max_def_level(),
        descr.max_rep_level(),
        chunk.compression(),
        chunk.num_values(),
        chunk.compressed_size(),
        chunk.uncompressed_size(),
    )
}

/// A page's kind, encodings, counts and size.
fn describe_page(page: &Page) -> String {
    match page {
        Page::DictionaryPage {
            buf,
            num_values,
            encoding,
            ..
        } => format!(
            "dictionary, {encoding}, {num_values} values, {} bytes",
            buf.len()
        ),
        Page::DataPage {
            buf,
            num_values,
            encoding,
            def_level_encoding,
            rep_level_encoding,
            ..
        } => format!(
            "data v1, {encoding}, {num_values} values, {} bytes, levels def {def_level_encoding} rep {rep_level_encoding}",
            buf.len()
        ),
        Page::DataPageV2 {
            buf,
            num_values,
            encoding,
            num_nulls,
            num_rows,
            ..
        } => format!(
            "data v2, {encoding}, {num_values} values, {num_nulls} nulls, {num_rows} rows, {} bytes",
            buf.len()
        ),
    }
}
