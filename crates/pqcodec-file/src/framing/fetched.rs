//! The byte ranges of a file read so far, as the parquet crate's page reader reads them.

use std::ops::Range;

use bytes::{Buf, Bytes};
use parquet::errors::{ParquetError, Result as PqResult};
use parquet::file::reader::{ChunkReader, Length};

/// Byte ranges of a file, read: sorted by their start, not overlapping. Reading outside them
/// is an error naming the bytes (a page index that disagrees with the pages would ask).
#[derive(Debug, Clone)]
pub(crate) struct Fetched {
    file_size: u64,
    ranges: Vec<(u64, Bytes)>,
}

impl Fetched {
    /// The whole file.
    pub(crate) fn whole(data: Bytes) -> Self {
        Fetched {
            file_size: data.len() as u64,
            ranges: vec![(0, data)],
        }
    }

    /// `data`, the bytes of `ranges` (sorted, not overlapping) of a file of `file_size` bytes.
    pub(crate) fn new(file_size: u64, ranges: &[Range<u64>], data: Vec<Bytes>) -> Self {
        let ranges = ranges.iter().map(|r| r.start).zip(data).collect();
        Fetched { file_size, ranges }
    }

    /// The range read that holds `start`: its start and bytes.
    fn holding(&self, start: u64) -> Option<&(u64, Bytes)> {
        let i = self.ranges.partition_point(|(s, _)| *s <= start);
        let held = self.ranges.get(i.checked_sub(1)?)?;
        (start < held.0 + held.1.len() as u64).then_some(held)
    }

    /// The bytes of `range`, if they were read.
    pub(crate) fn get(&self, range: &Range<u64>) -> Option<Bytes> {
        if range.is_empty() {
            return Some(Bytes::new());
        }
        let (s, bytes) = self.holding(range.start)?;
        let from = usize::try_from(range.start - s).ok()?;
        let to = usize::try_from(range.end.checked_sub(*s)?).ok()?;
        (from <= to && to <= bytes.len()).then(|| bytes.slice(from..to))
    }

    fn not_read(&self, range: Range<u64>) -> ParquetError {
        ParquetError::General(format!(
            "bytes {range:?} of the file were not read (the offset index and the pages disagree?)"
        ))
    }
}

impl Length for Fetched {
    fn len(&self) -> u64 {
        self.file_size
    }
}

impl ChunkReader for Fetched {
    type T = bytes::buf::Reader<Bytes>;

    fn get_read(&self, start: u64) -> PqResult<Self::T> {
        let (s, bytes) = self
            .holding(start)
            .ok_or_else(|| self.not_read(start..start + 1))?;
        Ok(bytes.slice((start - s) as usize..).reader())
    }

    fn get_bytes(&self, start: u64, length: usize) -> PqResult<Bytes> {
        let range = start..start.saturating_add(length as u64);
        self.get(&range).ok_or_else(|| self.not_read(range))
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    #[test]
    fn reads_only_inside_the_ranges_read() {
        let fetched = Fetched::new(
            100,
            &[10..14, 50..52],
            vec![Bytes::from_static(b"abcd"), Bytes::from_static(b"xy")],
        );
        assert_eq!(fetched.get_bytes(11, 2).unwrap(), "bc");
        assert_eq!(fetched.get_bytes(50, 2).unwrap(), "xy");
        assert!(fetched.get_bytes(12, 4).is_err());
        assert!(fetched.get_bytes(0, 1).is_err());
        assert!(fetched.get_bytes(52, 1).is_err());
        let mut rest = String::new();
        fetched
            .get_read(12)
            .unwrap()
            .read_to_string(&mut rest)
            .unwrap();
        assert_eq!(rest, "cd");
        assert!(fetched.get_read(14).is_err());
    }
}
