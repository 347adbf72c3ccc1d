//! The byte ranges of a file read so far, which column chunks' pages are read from.

use std::ops::Range;

use bytes::Bytes;

/// Byte ranges of a file, read: sorted by their start, not overlapping. Reading outside them
/// is an error naming the bytes (a page index that disagrees with the pages would ask).
#[derive(Debug, Clone)]
pub(crate) struct Fetched {
    ranges: Vec<(u64, Bytes)>,
}

impl Fetched {
    /// The whole file.
    pub(crate) fn whole(data: Bytes) -> Self {
        Fetched {
            ranges: vec![(0, data)],
        }
    }

    /// `data`, the bytes of `ranges` (sorted, not overlapping) of a file.
    pub(crate) fn new(ranges: &[Range<u64>], data: Vec<Bytes>) -> Self {
        let ranges = ranges.iter().map(|r| r.start).zip(data).collect();
        Fetched { ranges }
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_only_inside_the_ranges_read() {
        let fetched = Fetched::new(
            &[10..14, 50..52],
            vec![Bytes::from_static(b"abcd"), Bytes::from_static(b"xy")],
        );
        assert_eq!(fetched.get(&(11..13)).unwrap(), "bc");
        assert_eq!(fetched.get(&(50..52)).unwrap(), "xy");
        assert_eq!(fetched.get(&(12..14)).unwrap(), "cd");
        assert!(fetched.get(&(12..16)).is_none());
        assert!(fetched.get(&(0..1)).is_none());
        assert!(fetched.get(&(52..53)).is_none());
        assert!(fetched.get(&(14..15)).is_none());
    }
}
