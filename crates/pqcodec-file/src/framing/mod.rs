//! Framing, the bottom of the files layer: Thrift's compact protocol read and written by
//! pqcodec, over byte ranges already read. Reading, the footer is decoded into the parquet
//! crate's metadata (`footer_in`, which says what that view leaves out: encodings it cannot name,
//! such as ALP) and page headers are read (`page_header_in`); [`ChunkPages`] frames a column
//! chunk's pages and decompresses them (SNAPPY by pqcodec's [`snappy`], the other codecs by
//! their crates). Writing, pqcodec frames page headers, the page index and the footer
//! (`page_header_out`, `page_index_out`, `footer_out`, `thrift_out`). Only framing: every
//! value and level is decoded by pqcodec. Of the rest of the crate it uses only the read
//! metrics it adds to; the footer's metadata, the readers and the writer stand on it.
//!
//! Nothing a malformed file claims is trusted: the Thrift is read without recursion (unknown
//! fields skipped with an explicit stack), a schema nested deeper than [`MAX_SCHEMA_DEPTH`] or
//! whose leaves' paths would be out of proportion to the footer is refused before it is built
//! (the parquet crate's types are built recursively, each leaf given a copy of its ancestors'
//! names), each column chunk's byte range is checked against the file, its own physical type
//! against its schema column's, and its page headers (sizes, counts, what the codec can
//! decompress to, the rows the pages can hold) before its pages are read. [`FramingError`]s
//! name what is wrong. To walk a file's pages, see [`ParquetFile`](crate::ParquetFile).

pub(crate) use fetched::Fetched;
pub use pages::ChunkPages;
pub use parquet_types::physical;
pub(crate) use parquet_types::{codec_not_compiled, reason};

pub(crate) mod checks;
mod decompress;
mod fetched;
pub(crate) mod footer_in;
pub(crate) mod footer_out;
pub(crate) mod page_header_in;
pub(crate) mod page_header_out;
pub(crate) mod page_index_out;
mod pages;
pub(crate) mod parquet_types;
pub mod snappy;
pub(crate) mod thrift_in;
pub(crate) mod thrift_out;

/// How many levels below the root a schema may nest its fields. The parquet crate's schema
/// types are built and walked recursively, which would overflow the stack on a schema of
/// thousands of nested groups, so deeper schemas are refused before they are built (arrow-rs
/// and Arrow C++ cap nesting similarly).
pub const MAX_SCHEMA_DEPTH: usize = 256;

/// Why a file could not be framed. Errors of a column's chunk or pages do not name the column:
/// the caller, who asked for it, does.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FramingError {
    /// The footer (the file's metadata) is malformed: pqcodec's reason or the parquet crate's.
    #[error("footer (file metadata): {0}")]
    Footer(String),
    /// A column chunk's metadata disagrees with the file, its schema column or its pages.
    #[error("row group {row_group}, column chunk: {reason}")]
    Chunk {
        /// The row group.
        row_group: usize,
        /// What is wrong.
        reason: String,
    },
    /// A page could not be read: its header is malformed, or its body cannot be decompressed.
    #[error("row group {row_group}, page {page}: {reason}")]
    Page {
        /// The row group.
        row_group: usize,
        /// The page, counted from 0 in the column chunk (dictionary page included).
        page: usize,
        /// What is wrong.
        reason: String,
    },
    /// A column chunk is compressed with a codec this build of pqcodec-file was compiled
    /// without.
    #[error(
        "row group {row_group}: {codec} pages need pqcodec-file's `{feature}` feature, which this build was compiled without"
    )]
    CodecNotCompiled {
        /// The row group.
        row_group: usize,
        /// The chunk's codec.
        codec: &'static str,
        /// The cargo feature that brings it.
        feature: &'static str,
    },
}

#[cfg(test)]
mod tests {
    use parquet::basic::Compression;

    use super::checks::{check_decompressed_size, footer_bytes};
    use super::footer_in::{SchemaElement, check_schema_tree};
    use super::*;

    /// A schema of a root, `groups` nested groups of one child and a leaf.
    fn nested(groups: usize) -> Vec<SchemaElement<'static>> {
        let group = SchemaElement {
            name: b"g",
            num_children: Some(1),
            ..Default::default()
        };
        let leaf = SchemaElement {
            name: b"a",
            ..Default::default()
        };
        let mut schema = vec![group; groups + 1];
        schema.push(leaf);
        schema
    }

    #[test]
    fn schemas_nested_past_the_limit_are_refused() {
        assert!(check_schema_tree(&nested(MAX_SCHEMA_DEPTH - 1), 1 << 20).is_ok());
        let e = check_schema_tree(&nested(MAX_SCHEMA_DEPTH), 1 << 20).unwrap_err();
        assert!(e.to_string().contains("the schema nests too deep"), "{e}");
        assert!(check_schema_tree(&nested(100_000), 1 << 20).is_err());
    }

    #[test]
    fn schemas_short_of_their_children_are_refused() {
        let mut schema = nested(2);
        schema[0].num_children = Some(5);
        let e = check_schema_tree(&schema, 1 << 20).unwrap_err().to_string();
        assert!(e.contains("element 0") && e.contains("4 short"), "{e}");
        schema[0].num_children = Some(-1);
        let e = check_schema_tree(&schema, 1 << 20).unwrap_err().to_string();
        assert!(e.contains("num_children -1"), "{e}");
        // Several roots are the parquet crate's to refuse; an empty schema is one element.
        assert!(check_schema_tree(&[nested(0)[1].clone(), nested(0)[1].clone()], 1 << 20).is_ok());
    }

    #[test]
    fn schemas_whose_leaves_would_copy_long_names_many_times_are_refused() {
        // A group of a 1 MiB name above 10,000 leaves: 10 GiB of paths, from 1.05 MiB.
        let long = vec![b'g'; 1 << 20];
        let mut schema = vec![
            SchemaElement {
                name: b"root",
                num_children: Some(1),
                ..Default::default()
            },
            SchemaElement {
                name: &long,
                num_children: Some(10_000),
                ..Default::default()
            },
        ];
        schema.extend((0..10_000).map(|_| SchemaElement {
            name: b"a",
            ..Default::default()
        }));
        let e = check_schema_tree(&schema, (1 << 20) + 50_000).unwrap_err();
        assert!(e.to_string().contains("out of proportion"), "{e}");
        // With a name of 100 bytes, 3 MB of paths: fine.
        schema[1].name = &long[..100];
        assert!(check_schema_tree(&schema, 50_100).is_ok());
    }

    #[test]
    fn footers_past_the_file_are_refused() {
        let message = |data: &[u8]| footer_bytes(data).unwrap_err().to_string();
        assert!(message(b"PAR1").contains("too short"));
        assert!(message(b"PAR1\x00\x00\x00\x00PAR2").contains("magic"));
        assert!(message(b"PAR1\x00\x00\x00\x00PARE").contains("encrypted"));
        assert!(message(b"PAR1\x05\x00\x00\x00PAR1").contains("past the start"));
        assert_eq!(footer_bytes(b"PAR1ab\x02\x00\x00\x00PAR1").unwrap(), b"ab");
    }

    #[test]
    fn claims_a_codec_cannot_decompress_to_are_refused() {
        let snappy = [12, 11 << 2, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0];
        assert!(check_decompressed_size(&Compression::SNAPPY, &snappy, 12).is_ok());
        let e = check_decompressed_size(&Compression::SNAPPY, &snappy, i32::MAX as u64);
        assert!(e.unwrap_err().contains("SNAPPY data holds 12"));
        let gzip = Compression::GZIP(Default::default());
        assert!(check_decompressed_size(&gzip, &[0; 14], 1 << 31).is_err());
        assert!(check_decompressed_size(&gzip, &[0; 1000], 1_000_000).is_ok());
        assert!(check_decompressed_size(&Compression::UNCOMPRESSED, &[], 1 << 31).is_ok());
    }
}
