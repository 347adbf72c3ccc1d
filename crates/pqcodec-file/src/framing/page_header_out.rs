//! Page headers written by pqcodec: the Thrift compact-protocol `PageHeader` of a data page
//! (v1 or v2) or a dictionary page, without statistics or CRC. Every encoding pqcodec names
//! is written by its id, ALP included.

use pqcodec_core::Encoding;

use super::page_header_in::{DATA_PAGE, DATA_PAGE_V2, DICTIONARY_PAGE};
use super::thrift_out::ThriftOut;

/// What kind of page a header frames, with its counts.
#[derive(Debug, Clone, Copy)]
pub(crate) enum PageKind {
    /// A data page, version 1 (levels RLE).
    DataV1 { num_values: i32, encoding: Encoding },
    /// A data page, version 2.
    DataV2 {
        num_values: i32,
        num_nulls: i32,
        num_rows: i32,
        encoding: Encoding,
        def_levels_byte_len: i32,
        rep_levels_byte_len: i32,
        is_compressed: bool,
    },
    /// A dictionary page (PLAIN).
    Dictionary { num_values: i32 },
}

/// Appends the header of a page of `kind` whose body is `compressed` bytes, `uncompressed`
/// before compression (a v2 page's levels counted in both).
pub(crate) fn write_page_header(
    kind: PageKind,
    uncompressed: i32,
    compressed: i32,
    out: &mut Vec<u8>,
) {
    let mut w = ThriftOut::new(out);
    let page_type = match kind {
        PageKind::DataV1 { .. } => DATA_PAGE,
        PageKind::DataV2 { .. } => DATA_PAGE_V2,
        PageKind::Dictionary { .. } => DICTIONARY_PAGE,
    };
    w.i32(1, page_type).i32(2, uncompressed).i32(3, compressed);
    match kind {
        PageKind::DataV1 {
            num_values,
            encoding,
        } => {
            w.begin(5)
                .i32(1, num_values)
                .i32(2, encoding.id())
                .i32(3, Encoding::Rle.id())
                .i32(4, Encoding::Rle.id())
                .end();
        }
        PageKind::Dictionary { num_values } => {
            w.begin(7)
                .i32(1, num_values)
                .i32(2, Encoding::Plain.id())
                .bool(3, false)
                .end();
        }
        PageKind::DataV2 {
            num_values,
            num_nulls,
            num_rows,
            encoding,
            def_levels_byte_len,
            rep_levels_byte_len,
            is_compressed,
        } => {
            w.begin(8)
                .i32(1, num_values)
                .i32(2, num_nulls)
                .i32(3, num_rows)
                .i32(4, encoding.id())
                .i32(5, def_levels_byte_len)
                .i32(6, rep_levels_byte_len)
                .bool(7, is_compressed)
                .end();
        }
    }
    w.end();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framing::page_header_in;

    #[test]
    fn headers_read_back_as_written() {
        let kinds = [
            PageKind::DataV1 {
                num_values: 1000,
                encoding: Encoding::Alp,
            },
            PageKind::DataV2 {
                num_values: 70_000,
                num_nulls: 3,
                num_rows: 12,
                encoding: Encoding::DeltaByteArray,
                def_levels_byte_len: 17,
                rep_levels_byte_len: 9,
                is_compressed: false,
            },
            PageKind::Dictionary { num_values: 64 },
        ];
        for kind in kinds {
            let mut out = Vec::new();
            write_page_header(kind, 1 << 20, -5, &mut out);
            let n = out.len();
            out.extend([0xEE; 4]);
            let h = page_header_in::page_header(&out).unwrap();
            assert_eq!(h.len, n);
            assert_eq!(
                (h.uncompressed_size, h.compressed_size),
                (Some(1 << 20), Some(-5))
            );
            match kind {
                PageKind::DataV1 { .. } => {
                    let d = h.data.unwrap();
                    assert_eq!(h.page_type, Some(0));
                    assert_eq!(d.num_values, Some(1000));
                    assert_eq!(d.encodings, [Some(10), Some(3), Some(3)]);
                }
                PageKind::DataV2 { .. } => {
                    let v2 = h.data_v2.unwrap();
                    assert_eq!(h.page_type, Some(3));
                    assert_eq!(v2.counts, [Some(70_000), Some(3), Some(12)]);
                    assert_eq!(v2.encoding, Some(7));
                    assert_eq!(v2.level_lens, [Some(17), Some(9)]);
                    assert!(!v2.is_compressed);
                }
                PageKind::Dictionary { .. } => {
                    let d = h.dictionary.unwrap();
                    assert_eq!(h.page_type, Some(2));
                    assert_eq!((d.num_values, d.encoding), (Some(64), Some(0)));
                }
            }
        }
    }
}
