//! Where a file's row groups and columns lie, worked out once when its footer is read: the row
//! groups by the offset of their first page, and each leaf column's compressed bytes. Engines
//! that split a file into byte ranges (one per partition) then find a range's row groups by a
//! binary search, not by walking every row group of the footer for every range.

use std::ops::Range;

use parquet::file::metadata::{ParquetMetaData, RowGroupMetaData};

use crate::framing::checks::chunk_start;

/// Row groups sorted by their first page's offset, and the columns' compressed sizes.
#[derive(Debug, Clone)]
pub(crate) struct Layout {
    /// (offset of the first page, row group), sorted.
    starts: Vec<(i64, usize)>,
    /// Each leaf column's compressed bytes, summed over the row groups.
    compressed: Vec<u64>,
}

/// Where row group `group` starts: its first column's dictionary page, else its first data
/// page, as DataFusion and Spark assign row groups to byte ranges. A row group without columns
/// starts at 0, so that the first range reads it.
fn first_page(group: &RowGroupMetaData) -> i64 {
    group.columns().first().map_or(0, chunk_start)
}

impl Layout {
    pub(crate) fn new(metadata: &ParquetMetaData) -> Self {
        let groups = metadata.row_groups();
        let mut starts: Vec<(i64, usize)> = (groups.iter().map(first_page)).zip(0..).collect();
        starts.sort_unstable();
        let leaves = metadata.file_metadata().schema_descr().num_columns();
        let mut compressed = vec![0u64; leaves];
        for group in groups {
            for (total, chunk) in compressed.iter_mut().zip(group.columns()) {
                let size = u64::try_from(chunk.compressed_size()).unwrap_or(0);
                *total = total.saturating_add(size);
            }
        }
        Layout { starts, compressed }
    }

    /// The row groups whose first page starts in `range`, by offset.
    pub(crate) fn row_groups_starting_in(
        &self,
        range: Range<u64>,
    ) -> impl Iterator<Item = usize> + '_ {
        let bound = |offset: u64| i64::try_from(offset).unwrap_or(i64::MAX);
        let (start, end) = (bound(range.start), bound(range.end));
        let from = self.starts.partition_point(|&(o, _)| o < start);
        let to = from + self.starts[from..].partition_point(|&(o, _)| o < end);
        self.starts[from..to].iter().map(|&(_, g)| g)
    }

    /// The heap bytes this holds.
    pub(crate) fn memory_size(&self) -> usize {
        size_of_val(self.starts.as_slice()) + size_of_val(self.compressed.as_slice())
    }

    /// Leaf column `leaf`'s compressed bytes in the whole file (0 past the last leaf).
    pub(crate) fn compressed_size(&self, leaf: usize) -> u64 {
        self.compressed.get(leaf).copied().unwrap_or(0)
    }
}
