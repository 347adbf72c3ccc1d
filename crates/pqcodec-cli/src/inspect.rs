//! `pqcodec inspect FILE`: row groups, column chunks and pages, as the file's framing says,
//! with each page's first row and whether the chunk has an offset index and a column index.

use std::error::Error;
use std::fmt::Write as _;
use std::path::Path;

use parquet::basic::Type;
use parquet::file::metadata::ColumnChunkMetaData;
use pqcodec_arrow::{Page, PageSource};
use pqcodec_file::{FileMetadata, LocalFile};

/// Describes every row group, column chunk and page of the file at `path`, read by ranges.
/// Each chunk is checked as the reader checks it; errors name the file and the column being
/// read.
pub fn inspect(path: &Path) -> Result<String, Box<dyn Error>> {
    let in_file = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let source = LocalFile::open(path).map_err(|e| in_file(&e))?;
    let file = FileMetadata::load(&source, true).map_err(|e| in_file(&e))?;
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
            let offset_index = meta
                .offset_index()
                .and_then(|o| o.get(g)?.get(c))
                .filter(|o| !o.page_locations().is_empty());
            let has_column_index = meta
                .column_index()
                .and_then(|i| i.get(g)?.get(c))
                .is_some_and(|i| {
                    !matches!(
                        i,
                        parquet::file::page_index::column_index::ColumnIndexMetaData::NONE
                    )
                });
            let yes = |b: bool| if b { "yes" } else { "no" };
            writeln!(
                out,
                "  column {c} {}, offset index {}, column index {}",
                describe_chunk(chunk),
                yes(offset_index.is_some()),
                yes(has_column_index)
            )?;
            let in_column = |e: &dyn std::fmt::Display| {
                let column = chunk.column_descr().path().string();
                format!("{}: column {column:?}: {e}", path.display())
            };
            let mut pages = file
                .read_chunk_pages(&source, g, c)
                .map_err(|e| in_column(&e))?;
            let repeated = chunk.column_descr().max_rep_level() > 0;
            // The rows before each data page: from the offset index, else counted (unknown
            // after a v1 page of a repeated column, whose rows only its levels tell).
            let mut counted = Some(0i64);
            let mut data_page = 0;
            let mut p = 0;
            while let Some(page) = pages.next_page().map_err(|e| in_column(&e))? {
                let rows = match &page {
                    Page::Dictionary(_) => None,
                    Page::DataV2(p) => Some(p.num_rows as i64),
                    Page::DataV1(p) if !repeated => Some(p.num_values as i64),
                    Page::DataV1(_) => None,
                };
                let first = match &page {
                    Page::Dictionary(_) => None,
                    _ => offset_index
                        .and_then(|o| o.page_locations().get(data_page))
                        .map(|l| l.first_row_index)
                        .or(counted),
                };
                if !matches!(page, Page::Dictionary(_)) {
                    counted = first.zip(rows).map(|(f, r)| f + r);
                    data_page += 1;
                }
                let at = first.map_or(String::new(), |r| format!("first row {r}, "));
                writeln!(out, "    page {p}: {at}{}", describe_page(&page))?;
                p += 1;
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

/// A page's kind, encodings, counts and size (decompressed).
fn describe_page(page: &Page) -> String {
    match page {
        Page::Dictionary(p) => format!(
            "dictionary, {}, {} values, {} bytes",
            p.encoding,
            p.num_values,
            p.data.len()
        ),
        Page::DataV1(p) => format!(
            "data v1, {}, {} values, {} bytes, levels def {} rep {}",
            p.encoding,
            p.num_values,
            p.data.len(),
            p.def_level_encoding,
            p.rep_level_encoding
        ),
        Page::DataV2(p) => format!(
            "data v2, {}, {} values, {} nulls, {} rows, {} bytes",
            p.encoding,
            p.num_values,
            p.num_nulls,
            p.num_rows,
            p.data.len()
        ),
    }
}
