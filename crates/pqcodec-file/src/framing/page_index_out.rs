//! The page index, written by pqcodec: each column chunk's `ColumnIndex` (its pages' bounds
//! and null counts) and `OffsetIndex` (where its data pages lie), ahead of the footer.

use super::thrift_out::{BINARY, BOOL, I64, STRUCT, ThriftOut};

/// A column chunk's `ColumnIndex`: each page's bounds, whether it holds only nulls, and its
/// null count.
#[derive(Debug, Clone, Default)]
pub(crate) struct ColumnIndex {
    pub null_pages: Vec<bool>,
    pub min: Vec<Vec<u8>>,
    pub max: Vec<Vec<u8>>,
    /// `BoundaryOrder`'s Thrift id.
    pub boundary_order: i32,
    pub null_counts: Vec<i64>,
}

impl ColumnIndex {
    /// Appends the index's Thrift to `out`.
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        let mut w = ThriftOut::new(out);
        w.list(1, BOOL, self.null_pages.len());
        for &null in &self.null_pages {
            w.elem_bool(null);
        }
        for (id, bounds) in [(2, &self.min), (3, &self.max)] {
            w.list(id, BINARY, bounds.len());
            for b in bounds {
                w.elem_binary(b);
            }
        }
        w.i32(4, self.boundary_order);
        w.list(5, I64, self.null_counts.len());
        for &n in &self.null_counts {
            w.elem_i64(n);
        }
        w.end();
    }
}

/// Where a data page lies in the file, and the index of its first row in the row group.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PageLocation {
    pub offset: i64,
    pub size: i32,
    pub first_row: i64,
}

/// Appends the Thrift of the `OffsetIndex` of a column chunk whose data pages are `pages`.
pub(crate) fn write_offset_index(pages: &[PageLocation], out: &mut Vec<u8>) {
    let mut w = ThriftOut::new(out);
    w.list(1, STRUCT, pages.len());
    for p in pages {
        w.element()
            .i64(1, p.offset)
            .i32(2, p.size)
            .i64(3, p.first_row)
            .end();
    }
    w.end();
}
