//! Whole files: cat_file (the CLI's code path), decompress_snappy and read_file (the reader
//! builder).

use super::*;

thread_local! {
    /// Whether this thread is inside a call into the parquet crate.
    static IN_FRAMING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, a call into the parquet crate (the metadata it builds from pqcodec's footer, the
/// page index); a panic in it is `None`.
///
/// The first call wraps the panic hook (libFuzzer's aborts the process) so that it stays quiet
/// inside framing and is called as before everywhere else.
pub(super) fn framing<R>(f: impl FnOnce() -> R) -> Option<R> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_FRAMING.with(Cell::get) {
                previous(info);
            }
        }));
    });
    IN_FRAMING.with(|c| c.set(true));
    let result = catch_unwind(AssertUnwindSafe(f));
    IN_FRAMING.with(|c| c.set(false));
    result.ok()
}

/// Rows per batch, as `pqcodec cat` reads them.
pub(super) const CAT_BATCH_SIZE: usize = 8192;

/// A whole Parquet file the way `pqcodec cat FILE` reads it: footer and schema from the
/// parquet crate, every column, batches of 8192 rows (up to [`MAX_ROWS`]), each array checked.
pub fn cat_file(data: &[u8]) {
    let bytes = bytes::Bytes::copy_from_slice(data);
    let Some(Ok(file)) = framing(|| ParquetFile::from_bytes(bytes)) else {
        return;
    };
    let Some((schema, descs)) = framing(|| (file.schema(), file.column_descs())) else {
        return;
    };
    let columns = descs
        .into_iter()
        .enumerate()
        .map(|(i, desc)| Column::new(desc, file.pages(i)))
        .collect();
    let Ok(decoder) = RecordBatchDecoder::try_new(schema, columns, CAT_BATCH_SIZE) else {
        return;
    };
    let mut rows = 0;
    for batch in decoder {
        let Ok(batch) = batch else { return };
        check_batch(&batch, CAT_BATCH_SIZE);
        rows += batch.num_rows();
        if rows >= MAX_ROWS {
            return;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// read_file: a file through the reader builder, with a projection, row groups, a row
// selection, an offset, a limit and a batch size chosen by the input.

/// Bytes before the file in a `read_file` input: see [`read_file`].
pub const READ_FILE_PREFIX: usize = 16;

/// pqcodec's SNAPPY decoder against the `snap` crate's. With the first byte even, the rest is
/// SNAPPY data as it comes: both decoders fail, or both give the same bytes (a header claiming
/// more than the data can make is refused before either allocates it). With it odd, the rest is
/// compressed by `snap` and must come back as it was. Either way the output already holds
/// `first >> 5` bytes, which must stay as they were.
pub fn decompress_snappy(data: &[u8]) {
    use pqcodec_file::framing::snappy::{SnappyError, decompress_into, decompressed_len};
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let prefix = vec![mode; usize::from(mode >> 5)];
    if mode & 1 == 1 {
        let compressed = snap::raw::Encoder::new().compress_vec(rest).unwrap();
        let mut out = prefix.clone();
        decompress_into(&compressed, rest.len(), &mut out).unwrap();
        assert_eq!(&out[..prefix.len()], &prefix[..]);
        assert_eq!(&out[prefix.len()..], rest);
        return;
    }
    let len = decompressed_len(rest).map_or(0, |(len, _)| len);
    let mut out = prefix.clone();
    let ours = decompress_into(rest, len, &mut out);
    if let Err(SnappyError::Impossible { .. }) = ours {
        return;
    }
    let theirs = snap::raw::Decoder::new().decompress_vec(rest);
    match (ours, theirs) {
        (Ok(()), Ok(theirs)) => assert_eq!(&out[prefix.len()..], &theirs[..]),
        (Err(_), Err(_)) => assert_eq!(out, prefix, "a failed decompression left bytes"),
        (ours, theirs) => panic!("pqcodec {ours:?}, snap {:?}", theirs.map(|v| v.len())),
    }
}

/// A Parquet file read as an engine reads it: `ReaderBuilder` over the bytes with the page
/// index, what to read chosen by the first [`READ_FILE_PREFIX`] bytes, every batch checked.
///
/// The prefix: flags (bit 0 a projection, by leaf columns, or with bit 1 by top-level fields;
/// bit 2 row groups, bit 3 in reverse order; bit 4 a row selection, its first run skipped if
/// bit 5; bit 6 an offset; bit 7 a limit), the projection's bitmask (u16: column `i` if bit
/// `i % 16`), the row groups' bitmask (u8: row group `g` if bit `g % 8`), three runs of the
/// selection (u16 each, alternately skipped and read), the offset (u16), the limit (u16), the
/// batch size (u16, taken modulo 1024, plus 1). The rest is the file.
///
/// Only the metadata load runs inside [`framing`]: it is the parquet crate's footer and page
/// index decoding, whose panics on malformed footers are the crate's (the CLI catches them at
/// its boundary). The builder's settings and every `next_batch` run bare, although a batch
/// interleaves the parquet crate's page framing with pqcodec's decoding: catching a panic
/// there would hide pqcodec's, and pqcodec-file checks every page header before the parquet
/// crate reads it, promising its callers an error, never a panic.
///
/// Checked: every batch as [`check_batch`] checks it, non-empty, of the reader's schema; and
/// a read that ends without an error gave exactly the rows asked for: the selected rows of
/// the chosen row groups (as their metadata counts them), less the offset, at most the limit.
pub fn read_file(data: &[u8]) {
    let mut input = Input::new(data);
    let flags = input.u8();
    let leaf_mask = input.u16();
    let group_mask = input.u8();
    let runs = [input.u16(), input.u16(), input.u16()];
    let offset = usize::from(input.u16());
    let limit = usize::from(input.u16());
    let batch_word = input.u16();
    let batch_size = usize::from(batch_word % 1024) + 1;
    // The top bit: top-level strings and binaries read as views, as DataFusion reads them.
    let views = batch_word & 0x8000 != 0;
    let file = bytes::Bytes::copy_from_slice(input.rest());
    let options = ReaderOptions::new().with_page_index(true);
    let Some(Ok(mut builder)) = framing(|| ReaderBuilder::try_new_with_options(file, options))
    else {
        return;
    };

    if views && let Ok(schema) = builder.schema() {
        let fields: Vec<Field> = schema
            .fields()
            .iter()
            .map(|f| {
                let viewed = match f.data_type() {
                    DataType::Utf8 | DataType::LargeUtf8 => DataType::Utf8View,
                    DataType::Binary | DataType::LargeBinary => DataType::BinaryView,
                    other => other.clone(),
                };
                f.as_ref().clone().with_data_type(viewed)
            })
            .collect();
        let viewed = Schema::new_with_metadata(fields, schema.metadata().clone());
        builder = builder.with_schema(Arc::new(viewed));
    }
    let meta = builder.metadata().metadata().clone();
    let group_rows = |g: usize| usize::try_from(meta.row_group(g).num_rows()).unwrap_or(0);
    let bit = |mask: u16, i: usize| mask & (1 << (i % 16)) != 0;
    if flags & 1 != 0 {
        let chosen = |n: usize| (0..n).filter(|&i| bit(leaf_mask, i)).collect::<Vec<_>>();
        let projection = match flags & 2 != 0 {
            true => Projection::roots(chosen(builder.metadata().schema().fields().len())),
            false => Projection::leaves(chosen(builder.metadata().columns().len())),
        };
        builder = builder.with_projection(projection);
    }
    let mut groups: Vec<usize> = (0..meta.num_row_groups()).collect();
    if flags & 4 != 0 {
        groups.retain(|&g| bit(u16::from(group_mask), g % 8));
        if flags & 8 != 0 {
            groups.reverse();
        }
        builder = builder.with_row_groups(groups.clone());
    }
    let total: usize = groups
        .iter()
        .map(|&g| group_rows(g))
        .fold(0, usize::saturating_add);
    let mut selected = total;
    if flags & 16 != 0 {
        let first_skipped = flags & 32 != 0;
        let selection: RowSelection = runs
            .iter()
            .enumerate()
            .map(|(i, &n)| match (i % 2 == 0) == first_skipped {
                true => RowSelector::skip(usize::from(n)),
                false => RowSelector::select(usize::from(n)),
            })
            .collect();
        selected = selection.row_count();
        builder = builder.with_row_selection(selection);
    }
    let mut expected = selected;
    if flags & 64 != 0 {
        builder = builder.with_offset(offset);
        expected = expected.saturating_sub(offset);
    }
    if flags & 128 != 0 {
        builder = builder.with_limit(limit);
        expected = expected.min(limit);
    }
    let Ok(mut reader) = builder.with_batch_size(batch_size).build() else {
        return;
    };

    let schema = arrow_array::RecordBatchReader::schema(&reader);
    let mut rows = 0usize;
    loop {
        match reader.next_batch() {
            Ok(Some(batch)) => {
                check_batch(&batch, batch_size);
                assert!(batch.num_rows() > 0, "an empty batch before the end");
                assert_eq!(batch.schema(), schema, "a batch of another schema");
                rows += batch.num_rows();
                assert!(
                    rows <= expected,
                    "{rows} rows read where {expected} were asked"
                );
                if rows >= MAX_ROWS {
                    return;
                }
            }
            Ok(None) => break,
            Err(_) => return,
        }
    }
    assert_eq!(rows, expected, "the reader ended early without an error");
}
