//! `pqcodec inspect FILE`: row groups, column chunks and pages, as the file's framing says.

use std::error::Error;
use std::fmt::Write as _;
use std::fs::File;
use std::path::Path;

use parquet::column::page::Page;
use parquet::file::reader::{FileReader, SerializedFileReader};

/// Describes every row group, column chunk and page of the file at `path`.
pub fn inspect(path: &Path) -> Result<String, Box<dyn Error>> {
    let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let reader = SerializedFileReader::new(file)?;
    let meta = reader.metadata();
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
        let row_group = reader.get_row_group(g)?;
        for (c, column) in group.columns().iter().enumerate() {
            let descr = column.column_descr();
            writeln!(
                out,
                "  column {c} {}: {}{}, max def {}, max rep {}, codec {}, {} values, {} bytes compressed, {} uncompressed",
                descr.path().string(),
                descr.physical_type(),
                match descr.type_length() {
                    n if n > 0
                        && descr.physical_type() == parquet::basic::Type::FIXED_LEN_BYTE_ARRAY =>
                        format!("({n})"),
                    _ => String::new(),
                },
                descr.max_def_level(),
                descr.max_rep_level(),
                column.compression(),
                column.num_values(),
                column.compressed_size(),
                column.uncompressed_size(),
            )?;
            // The parquet crate asserts on these (ColumnChunkMetaData::byte_range).
            let start = column
                .dictionary_page_offset()
                .unwrap_or(column.data_page_offset());
            if start < 0 || column.compressed_size() < 0 {
                return Err(format!(
                    "row group {g} column {c}: negative page offset {start} or compressed size {}",
                    column.compressed_size()
                )
                .into());
            }
            for (p, page) in row_group.get_column_page_reader(c)?.enumerate() {
                let page = page?;
                let line = match &page {
                    Page::DictionaryPage {
                        buf,
                        num_values,
                        encoding,
                        ..
                    } => {
                        format!(
                            "dictionary, {encoding}, {num_values} values, {} bytes",
                            buf.len()
                        )
                    }
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
                };
                writeln!(out, "    page {p}: {line}")?;
            }
        }
    }
    Ok(out)
}
