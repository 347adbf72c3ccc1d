//! Where a file's bytes come from: [`RangeRead`], a source of byte ranges that users implement
//! for their own storage, with two of its own, bytes in memory ([`Bytes`]) and a local file
//! read by ranges ([`LocalFile`]); and the coalescing of nearby ranges into fewer reads.

use std::fs::File;
use std::io;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;

use crate::error::{Error, Result};

/// How far apart two byte ranges may lie and still be read as one, for a source that does not
/// say ([`RangeRead::coalesce_gap`]) and a builder not told
/// ([`ReaderBuilder::with_coalesce_gap`](crate::ReaderBuilder::with_coalesce_gap)): 1 MiB, as
/// one request to an object store costs about as much as reading that much more.
pub const DEFAULT_COALESCE_GAP: u64 = 1024 * 1024;

/// A file's bytes, read by ranges: the storage a [`ReaderBuilder`](crate::ReaderBuilder)
/// reads from. The reader asks for the footer, the page index if used, and the column chunks
/// (or only the pages) it decodes, a row group at a time, nearby ranges coalesced.
///
/// ```
/// use std::io;
/// use std::ops::Range;
/// use bytes::Bytes;
/// use pqcodec_file::RangeRead;
///
/// /// A file kept as a vector, counting the bytes read.
/// struct Counted(Vec<u8>, std::sync::atomic::AtomicU64);
///
/// impl RangeRead for Counted {
///     fn size(&self) -> io::Result<u64> {
///         Ok(self.0.len() as u64)
///     }
///     fn read_range(&self, range: Range<u64>) -> io::Result<Bytes> {
///         self.1.fetch_add(range.end - range.start, std::sync::atomic::Ordering::Relaxed);
///         let bytes = self.0.get(range.start as usize..range.end as usize);
///         bytes.map(Bytes::copy_from_slice).ok_or_else(|| io::ErrorKind::UnexpectedEof.into())
///     }
/// }
/// ```
pub trait RangeRead: Send + Sync {
    /// The file's size in bytes.
    fn size(&self) -> io::Result<u64>;

    /// The bytes of `range`, all of them.
    fn read_range(&self, range: Range<u64>) -> io::Result<Bytes>;

    /// The bytes of each of `ranges`, in order. The default reads them one by one; a source
    /// that can read several at once (in parallel, or in one request) does so here.
    fn read_ranges(&self, ranges: &[Range<u64>]) -> io::Result<Vec<Bytes>> {
        ranges.iter().map(|r| self.read_range(r.clone())).collect()
    }

    /// How far apart two byte ranges may lie and still be read as one: reading the bytes
    /// between costs less than another request up to about this many.
    /// [`DEFAULT_COALESCE_GAP`] unless the source says; 0 for memory and local files, where a
    /// request costs next to nothing.
    fn coalesce_gap(&self) -> u64 {
        DEFAULT_COALESCE_GAP
    }
}

impl RangeRead for Bytes {
    fn size(&self) -> io::Result<u64> {
        Ok(self.len() as u64)
    }

    fn coalesce_gap(&self) -> u64 {
        0
    }

    fn read_range(&self, range: Range<u64>) -> io::Result<Bytes> {
        let (start, end) = (usize::try_from(range.start), usize::try_from(range.end));
        match (start, end) {
            (Ok(start), Ok(end)) if start <= end && end <= self.len() => Ok(self.slice(start..end)),
            _ => Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!("bytes {range:?} of {} in memory", self.len()),
            )),
        }
    }
}

impl<T: RangeRead + ?Sized> RangeRead for Arc<T> {
    fn size(&self) -> io::Result<u64> {
        (**self).size()
    }

    fn read_range(&self, range: Range<u64>) -> io::Result<Bytes> {
        (**self).read_range(range)
    }

    fn read_ranges(&self, ranges: &[Range<u64>]) -> io::Result<Vec<Bytes>> {
        (**self).read_ranges(ranges)
    }

    fn coalesce_gap(&self) -> u64 {
        (**self).coalesce_gap()
    }
}

/// A local file, read by positioned reads of the ranges asked for, never whole. Shared by
/// threads without locking.
#[derive(Debug)]
pub struct LocalFile {
    file: File,
    size: u64,
}

impl LocalFile {
    /// Opens the file at `path`.
    pub fn open(path: impl AsRef<Path>) -> io::Result<Self> {
        let file = File::open(path)?;
        let size = file.metadata()?.len();
        Ok(LocalFile { file, size })
    }
}

impl RangeRead for LocalFile {
    fn size(&self) -> io::Result<u64> {
        Ok(self.size)
    }

    fn coalesce_gap(&self) -> u64 {
        0
    }

    fn read_range(&self, range: Range<u64>) -> io::Result<Bytes> {
        let len = range
            .end
            .checked_sub(range.start)
            .and_then(|n| usize::try_from(n).ok())
            .filter(|_| range.end <= self.size)
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!("bytes {range:?} of a file of {} bytes", self.size),
                )
            })?;
        let mut buf = vec![0; len];
        read_at(&self.file, &mut buf, range.start)?;
        Ok(Bytes::from(buf))
    }
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(windows)]
fn read_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, offset)? {
            0 => return Err(io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

/// Reads `ranges` from `source`, checking that each came whole.
pub(crate) fn read_checked(source: &dyn RangeRead, ranges: &[Range<u64>]) -> Result<Vec<Bytes>> {
    let data = source.read_ranges(ranges).map_err(|e| Error::Read {
        range: span(ranges),
        source: e,
    })?;
    check_lengths(ranges, data)
}

/// `data` if it holds one buffer of the right length for each of `ranges`.
pub(crate) fn check_lengths(ranges: &[Range<u64>], data: Vec<Bytes>) -> Result<Vec<Bytes>> {
    if data.len() != ranges.len() {
        return Err(Error::Read {
            range: span(ranges),
            source: io::Error::other(format!(
                "{} ranges asked for, {} given",
                ranges.len(),
                data.len()
            )),
        });
    }
    for (range, bytes) in ranges.iter().zip(&data) {
        if bytes.len() as u64 != range.end - range.start {
            return Err(Error::Read {
                range: range.clone(),
                source: io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!("{} bytes given", bytes.len()),
                ),
            });
        }
    }
    Ok(data)
}

/// The range from the first start to the last end, for errors.
pub(crate) fn span(ranges: &[Range<u64>]) -> Range<u64> {
    let start = ranges.iter().map(|r| r.start).min().unwrap_or(0);
    let end = ranges.iter().map(|r| r.end).max().unwrap_or(0);
    start..end
}

/// `ranges` sorted and merged where they overlap or lie at most `gap` bytes apart.
pub(crate) fn coalesce(mut ranges: Vec<Range<u64>>, gap: u64) -> Vec<Range<u64>> {
    ranges.sort_by_key(|r| r.start);
    let mut out: Vec<Range<u64>> = Vec::with_capacity(ranges.len());
    for r in ranges.into_iter().filter(|r| r.start < r.end) {
        match out.last_mut() {
            Some(last) if r.start <= last.end.saturating_add(gap) => last.end = last.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearby_ranges_are_merged() {
        let merged = coalesce(vec![10..20, 0..5, 22..30, 100..110, 18..19, 7..7], 2);
        assert_eq!(merged, [0..5, 10..30, 100..110]);
        assert_eq!(coalesce(vec![0..5, 6..8], 0), [0..5, 6..8]);
        assert_eq!(coalesce(vec![0..5, 5..8], 0), [0..8]);
    }

    #[test]
    fn short_reads_are_errors() {
        let e = check_lengths(&[0..4], vec![Bytes::from_static(b"abc")]).unwrap_err();
        assert!(e.to_string().contains("bytes 0..4"), "{e}");
        let bytes = Bytes::from_static(b"abcdef");
        assert_eq!(bytes.read_range(1..3).unwrap(), "bc");
        assert!(bytes.read_range(4..9).is_err());
    }

    #[test]
    fn a_local_file_is_read_by_ranges() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"0123456789").unwrap();
        let file = LocalFile::open(&path).unwrap();
        assert_eq!(file.size().unwrap(), 10);
        assert_eq!(file.read_ranges(&[2..4, 8..10]).unwrap(), ["23", "89"]);
        assert!(file.read_range(8..11).is_err());
    }
}
