//! The checks made before a file's footer and pages are read: what the parquet crate would
//! abort on (negative offsets, a chunk past the file's end) or a codec allocate blindly (the
//! sizes page headers claim) is refused with a [`FramingError`] naming what is wrong. The
//! schema's tree is checked where its elements are read, in `footer_in`.

use parquet::basic::Compression;
use parquet::file::metadata::ColumnChunkMetaData;

use super::FramingError;
use super::page_header_in::{
    self, DATA_PAGE, DATA_PAGE_V2, DICTIONARY_PAGE, INDEX_PAGE, PageHeader,
};

/// The footer's Thrift bytes, found as the parquet crate finds them: the file ends with their
/// length (4 bytes, little-endian) and the magic `PAR1`.
#[cfg(test)]
pub(super) fn footer_bytes(data: &[u8]) -> Result<&[u8], FramingError> {
    let len = footer_len(data, data.len() as u64)?;
    let end = data.len() - 8;
    Ok(&data[end - len as usize..end])
}

/// The length of the footer's Thrift bytes, read from the end of `tail`, the last bytes of a
/// file of `file_size` bytes: the file ends with that length (4 bytes, little-endian) and the
/// magic `PAR1`. Checked against the file's size.
pub(crate) fn footer_len(tail: &[u8], file_size: u64) -> Result<u64, FramingError> {
    let Some(trailer) = tail.len().checked_sub(8).map(|at| &tail[at..]) else {
        return Err(FramingError::Footer(format!(
            "the file is {file_size} bytes, too short to end with a footer's length and magic (8 bytes)"
        )));
    };
    let (len, magic) = trailer.split_at(4);
    match magic {
        b"PAR1" => {}
        b"PARE" => {
            return Err(FramingError::Footer(
                "the footer is encrypted (the file ends with \"PARE\"), which pqcodec does not read"
                    .into(),
            ));
        }
        _ => {
            return Err(FramingError::Footer(format!(
                "the file does not end with the magic \"PAR1\" but with {:?}",
                String::from_utf8_lossy(magic)
            )));
        }
    }
    let len = u64::from(u32::from_le_bytes([len[0], len[1], len[2], len[3]]));
    if len > file_size - 8 {
        return Err(FramingError::Footer(format!(
            "its length, {len} bytes, reaches past the start of the file ({file_size} bytes)"
        )));
    }
    Ok(len)
}

/// Where a column chunk's pages begin: its dictionary page, else its first data page (as
/// claimed: [`chunk_range`] checks it).
pub(crate) fn chunk_start(chunk: &ColumnChunkMetaData) -> i64 {
    chunk
        .dictionary_page_offset()
        .unwrap_or(chunk.data_page_offset())
}

/// The byte range of a column chunk's pages, checked against the file's length (the parquet
/// crate asserts its offset and size are not negative, and reads past the end as an I/O
/// error).
pub(crate) fn chunk_range(
    chunk: &ColumnChunkMetaData,
    file_len: u64,
) -> Result<std::ops::Range<u64>, String> {
    let start = chunk_start(chunk);
    let size = chunk.compressed_size();
    if start < 0 || size < 0 {
        return Err(format!(
            "negative page offset {start} or compressed size {size}"
        ));
    }
    let end = start.checked_add(size).unwrap_or(i64::MAX);
    match (u64::try_from(start), u64::try_from(end)) {
        (Ok(start), Ok(end)) if end <= file_len => Ok(start..end),
        _ => Err(format!(
            "its byte range {start}..{end} (page offset {start}, compressed size {size}) is \
             past the end of the file ({file_len} bytes)"
        )),
    }
}

/// The checks of a column chunk's page headers, made before its pages are read.
pub(crate) struct PageChecks {
    pub(crate) row_group: usize,
    pub(crate) codec: Compression,
}

impl PageChecks {
    /// Walks the page headers of a column chunk (`bytes`) as [`ChunkPages`](super::ChunkPages) will: each
    /// parses, its sizes fit the chunk and its counts are not negative; what it claims to
    /// decompress to is possible for the codec (its decompressor allocates the claim); and the
    /// data pages can hold the row group's `rows` (more values than rows are left to the
    /// decoder, which names the page).
    pub(crate) fn check(&self, bytes: &[u8], rows: i64) -> Result<(), FramingError> {
        let mut at = 0;
        let mut page = 0;
        let mut most_rows = 0i64;
        while at < bytes.len() {
            let page_error = |reason: String| FramingError::Page {
                row_group: self.row_group,
                page,
                reason,
            };
            let header = page_header_in::page_header(&bytes[at..])
                .map_err(|e| page_error(format!("page header: {e}")))?;
            let body = page_body(&header, &bytes[at + header.len..]).map_err(page_error)?;
            at += header.len + body.len();
            if header.page_type == Some(INDEX_PAGE) {
                // Passed over by the page reader, not counted.
                continue;
            }
            let page_rows = self.check_page(&header, body).map_err(page_error)?;
            most_rows = most_rows.saturating_add(page_rows);
            page += 1;
        }
        if most_rows < rows {
            return Err(FramingError::Chunk {
                row_group: self.row_group,
                reason: format!(
                    "the row group has {rows} rows, but the column chunk's pages hold at most {most_rows}"
                ),
            });
        }
        Ok(())
    }

    /// Checks one page's header against its `body`; the most rows the page can hold (a v1
    /// page's `num_values` counts levels, which are rows unless the column is repeated).
    fn check_page(&self, h: &PageHeader, body: &[u8]) -> Result<i64, String> {
        let uncompressed = required(h.uncompressed_size, "uncompressed_page_size")?;
        let (levels, rows, compressed) = match h.page_type {
            Some(DATA_PAGE) => {
                let header = h
                    .data
                    .ok_or("page header: a data page without its data_page_header")?;
                (0, count(header.num_values, "num_values")?, true)
            }
            Some(DICTIONARY_PAGE) => {
                let header = h
                    .dictionary
                    .ok_or("page header: a dictionary page without its dictionary_page_header")?;
                count(header.num_values, "num_values")?;
                (0, 0, true)
            }
            Some(DATA_PAGE_V2) => {
                let v2 = h
                    .data_v2
                    .as_ref()
                    .ok_or("page header: a data page v2 without its data_page_header_v2")?;
                count(v2.counts[0], "num_values")?;
                count(v2.counts[1], "num_nulls")?;
                let rows = count(v2.counts[2], "num_rows")?;
                let def = count(v2.level_lens[0], "definition_levels_byte_length")?;
                let rep = count(v2.level_lens[1], "repetition_levels_byte_length")?;
                let levels = def + rep;
                if levels > body.len() as i64 || levels > i64::from(uncompressed) {
                    return Err(format!(
                        "page header: level lengths {def} + {rep} are more than the page's \
                         {} bytes ({uncompressed} uncompressed)",
                        body.len()
                    ));
                }
                (levels as usize, rows, v2.is_compressed)
            }
            Some(t) => return Err(format!("page header: unknown page type {t}")),
            None => return Err("page header: no page type".into()),
        };
        if compressed {
            let size = u64::try_from(i64::from(uncompressed) - levels as i64).unwrap_or(0);
            check_decompressed_size(&self.codec, &body[levels..], size)?;
        }
        Ok(rows)
    }
}

/// A page's body, after its header: `compressed_page_size` bytes of `rest`, the chunk's bytes
/// after the header.
pub(super) fn page_body<'a>(h: &PageHeader, rest: &'a [u8]) -> Result<&'a [u8], String> {
    let size = required(h.compressed_size, "compressed_page_size")?;
    let uncompressed = required(h.uncompressed_size, "uncompressed_page_size")?;
    if size < 0 || uncompressed < 0 {
        let (name, n) = if size < 0 {
            ("compressed_page_size", size)
        } else {
            ("uncompressed_page_size", uncompressed)
        };
        return Err(format!("page header: {name} is {n}"));
    }
    rest.get(..size as usize).ok_or_else(|| {
        format!(
            "page header: compressed_page_size {size} is past the end of the column chunk \
             ({} bytes left)",
            rest.len()
        )
    })
}

fn required(field: Option<i32>, name: &str) -> Result<i32, String> {
    field.ok_or_else(|| format!("page header: no {name}"))
}

/// A count of a page header, not negative.
fn count(field: Option<i32>, name: &str) -> Result<i64, String> {
    match required(field, name)? {
        n if n < 0 => Err(format!("page header: {name} is {n}")),
        n => Ok(i64::from(n)),
    }
}

/// Whether `compressed` (a page's compressed bytes) can decompress to `size` bytes: the codecs
/// allocate `size` bytes before decompressing, so a claim of gigabytes from a few bytes
/// is refused here. SNAPPY data starts with its uncompressed length; GZIP, LZ4 and ZSTD expand
/// at most about 1032, 255 and 32768 times; BROTLI has no useful bound.
pub(super) fn check_decompressed_size(
    codec: &Compression,
    compressed: &[u8],
    size: u64,
) -> Result<(), String> {
    /// Room for the codecs' headers on small pages.
    const SLACK: u64 = 4096;
    let (name, ratio) = match codec {
        Compression::SNAPPY => return check_snappy_size(compressed, size),
        Compression::GZIP(_) => ("GZIP", 1032),
        Compression::LZ4 => ("LZ4", 255),
        Compression::LZ4_RAW => ("LZ4_RAW", 255),
        Compression::ZSTD(_) => ("ZSTD", 32768),
        _ => return Ok(()),
    };
    let most = (compressed.len() as u64)
        .saturating_mul(ratio)
        .saturating_add(SLACK);
    if size > most {
        return Err(format!(
            "page header: {size} bytes uncompressed from {} bytes of {name}, which can give at \
             most {most}",
            compressed.len()
        ));
    }
    Ok(())
}

/// SNAPPY data starts with its uncompressed length (a varint); it must be the header's.
fn check_snappy_size(compressed: &[u8], size: u64) -> Result<(), String> {
    if size == 0 {
        // An empty page is not decompressed.
        return Ok(());
    }
    let mut claimed = 0u64;
    for (i, &b) in compressed.iter().take(5).enumerate() {
        claimed |= u64::from(b & 0x7F) << (7 * i);
        if b & 0x80 == 0 {
            if claimed != size {
                return Err(format!(
                    "page header: {size} bytes uncompressed, but the SNAPPY data holds {claimed}"
                ));
            }
            return Ok(());
        }
    }
    Err("the SNAPPY data does not start with its length".into())
}
