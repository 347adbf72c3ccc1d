//! Raw Snappy decompression, appended to a `Vec` without zeroing it first.
//!
//! The format (Snappy's `format_description.txt`): a varint of the uncompressed length, then
//! elements, each a tag byte whose low two bits say what follows:
//! - `00`, a literal: its length less one in the tag's upper six bits, or, for 60 to 63 there,
//!   in the next 1 to 4 bytes (little-endian); then that many bytes.
//! - `01`, a copy of 4 to 11 bytes (`(tag >> 2) & 7` plus 4) from up to 2047 bytes back
//!   (`tag >> 5` the offset's high three bits, the next byte its low eight).
//! - `10` and `11`, a copy of 1 to 64 bytes (`tag >> 2` plus 1) from a 16-bit or 32-bit
//!   little-endian offset back.
//!
//! Output is written into the vector's spare capacity, `SLACK` bytes of it past the end, so that
//! short literals and copies move whole 16-byte words; every element is checked against the
//! input's and the output's bounds before it is written, and the output's length is only set
//! once every byte of it is written.

use std::fmt;

/// The spare capacity [`decompress_into`] wants past the output's end, for wide stores that
/// run over (those bytes are never exposed): reserve it with the output to spare a reallocation.
pub const SLACK: usize = 64;

/// The most output one byte of elements can make: 64 bytes from a 3-byte copy, rounded up.
const MAX_RATIO: usize = 22;

/// For each copy tag: its length (bits 0-7) and the high bits of its offset that the tag holds
/// (bits 16-31).
const COPIES: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut tag = 0;
    while tag < 256 {
        let (len, high) = match tag & 3 {
            0 => (0, 0),
            1 => (((tag >> 2) & 7) + 4, (tag >> 5) << 8),
            _ => ((tag >> 2) + 1, 0),
        };
        table[tag] = (len | (high << 16)) as u32;
        tag += 1;
    }
    table
};

/// The bytes each kind of element takes with its tag, a byte per kind: 5, 3 and 2 for the copies
/// of kinds 3, 2 and 1.
const SKIPS: u32 = 0x0503_0200;

/// The offset bytes a copy tag's kind (its low two bits) reads, as a mask of the next four.
const OFFSET_MASKS: [u32; 4] = [0, 0xff, 0xffff, u32::MAX];

/// Why Snappy data could not be decompressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SnappyError {
    /// The data does not start with a varint of at most 32 bits.
    Header,
    /// The header's length is not the length the caller expected.
    Length {
        /// What the data's header says.
        header: usize,
        /// What the caller expected.
        expected: usize,
    },
    /// The header's length is more than the data's elements can make (a copy of 64 bytes from
    /// a 3-byte element is the most any makes).
    Impossible {
        /// What the data's header says.
        header: usize,
        /// The bytes of elements after the header.
        input: usize,
    },
    /// The element at `at` (a byte offset in the input) is cut short by the input's end.
    Truncated {
        /// The element's offset in the input.
        at: usize,
    },
    /// The element at `at` would write past the length the header gives.
    Overflow {
        /// The element's offset in the input.
        at: usize,
    },
    /// The copy at `at` reaches back before the output's start (or has offset 0).
    Offset {
        /// The element's offset in the input.
        at: usize,
        /// The copy's offset.
        offset: usize,
        /// The bytes written before it.
        written: usize,
    },
    /// The input ended with fewer bytes written than the header gives.
    Short {
        /// The bytes written.
        written: usize,
        /// The bytes the header gives.
        header: usize,
    },
}

impl fmt::Display for SnappyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SnappyError::Header => write!(f, "SNAPPY: no length header"),
            SnappyError::Length { header, expected } => write!(
                f,
                "SNAPPY: the data holds {header} bytes, not the {expected} expected"
            ),
            SnappyError::Impossible { header, input } => write!(
                f,
                "SNAPPY: {input} bytes of data cannot make the {header} bytes in its header"
            ),
            SnappyError::Truncated { at } => {
                write!(f, "SNAPPY: the element at byte {at} is cut short")
            }
            SnappyError::Overflow { at } => write!(
                f,
                "SNAPPY: the element at byte {at} writes past the length in the header"
            ),
            SnappyError::Offset {
                at,
                offset,
                written,
            } => write!(
                f,
                "SNAPPY: the copy at byte {at} reaches {offset} bytes back, {written} written"
            ),
            SnappyError::Short { written, header } => write!(
                f,
                "SNAPPY: the data ends after {written} of the {header} bytes in its header"
            ),
        }
    }
}

impl std::error::Error for SnappyError {}

/// The uncompressed length in `src`'s header, and the header's size.
pub fn decompressed_len(src: &[u8]) -> Result<(usize, usize), SnappyError> {
    let mut value = 0u64;
    for (i, &byte) in src.iter().enumerate().take(5) {
        value |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return u32::try_from(value)
                .map(|v| (v as usize, i + 1))
                .map_err(|_| SnappyError::Header);
        }
    }
    Err(SnappyError::Header)
}

/// Decompresses `src` onto the end of `out`, which grows by exactly `expected` bytes (the
/// length the data's header must give). Copies reach back only into this data's own output.
///
/// ```
/// # use pqcodec_file::framing::snappy::decompress_into;
/// // "abcabcabca": a literal of 3, then a copy of 7 from 3 back.
/// let data = [10, 2 << 2, b'a', b'b', b'c', 0b001 | (3 << 2), 3];
/// let mut out = b"xy".to_vec();
/// decompress_into(&data, 10, &mut out)?;
/// assert_eq!(out, b"xyabcabcabca");
/// # Ok::<(), pqcodec_file::framing::snappy::SnappyError>(())
/// ```
pub fn decompress_into(src: &[u8], expected: usize, out: &mut Vec<u8>) -> Result<(), SnappyError> {
    let (len, header) = decompressed_len(src)?;
    if len != expected {
        return Err(SnappyError::Length {
            header: len,
            expected,
        });
    }
    let input = src.len() - header;
    if len > input.saturating_mul(MAX_RATIO) {
        return Err(SnappyError::Impossible { header: len, input });
    }
    out.reserve(len + SLACK);
    let start = out.len();
    // SAFETY: `out` has room for `len + SLACK` bytes past `start` (reserved above), all that
    // `decompress_raw` writes to; it returns `Ok` only once the `len` bytes are all written.
    unsafe {
        let dst = out.as_mut_ptr().add(start);
        decompress_raw(src, header, dst, len)?;
        out.set_len(start + len);
    }
    Ok(())
}

/// Decompresses `src[s..]` into `dst`, which has room for `len + SLACK` bytes: on success,
/// every one of the first `len` is written.
///
/// # Safety
/// `dst` must be valid for writes (and reads of what was written) of `len + SLACK` bytes.
unsafe fn decompress_raw(
    src: &[u8],
    mut s: usize,
    dst: *mut u8,
    len: usize,
) -> Result<(), SnappyError> {
    let mut d = 0usize;
    let end = src.len();
    let srcp = src.as_ptr();
    // The fast loop: while 21 input bytes remain (a tag, up to four length or offset bytes and
    // a 16-byte literal word), no element reads past the input unchecked. `tag` is `src[s]`:
    // a copy takes it from the bytes it loaded with its own tag, so that the next element need
    // not wait for a load from the position the copy's length gives.
    let mut tag = src.get(s).copied().unwrap_or(0);
    while s + 21 <= end {
        if tag & 3 == 0 {
            let code = (tag >> 2) as usize;
            if code < 16 {
                let l = code + 1;
                if d + l > len {
                    return Err(SnappyError::Overflow { at: s });
                }
                // SAFETY: 16 bytes from `s + 1` are in `src` (loop condition); 16 bytes
                // from `d <= len` are within `len + SLACK`.
                unsafe { std::ptr::copy_nonoverlapping(srcp.add(s + 1), dst.add(d), 16) };
                s += 1 + l;
                d += l;
                // SAFETY: `s` moved 17 bytes at most, so it is below `end`.
                tag = unsafe { *srcp.add(s) };
                continue;
            }
            if code < 60 && s + 65 <= end {
                // 17 to 60 bytes, by four 16-byte moves rather than a call to `memcpy`.
                let l = code + 1;
                if d + l > len {
                    return Err(SnappyError::Overflow { at: s });
                }
                // SAFETY: 64 bytes from `s + 1` are in `src` (checked above); 64 bytes
                // from `d <= len` are within `len + SLACK`.
                unsafe {
                    for i in (0..64).step_by(16) {
                        std::ptr::copy_nonoverlapping(srcp.add(s + 1 + i), dst.add(d + i), 16);
                    }
                }
                s += 1 + l;
                d += l;
                // SAFETY: `s` moved 61 bytes at most, so it is below `end`.
                tag = unsafe { *srcp.add(s) };
                continue;
            }
            let (l, skip) = if code < 60 {
                (code + 1, 1)
            } else {
                let n = code - 59;
                // SAFETY: 4 bytes from `s + 1` are in `src` (loop condition).
                let word = unsafe { (srcp.add(s + 1) as *const u32).read_unaligned() };
                let mask = u32::MAX >> (32 - 8 * n);
                // (Saturating: on 32-bit targets a 4-byte length may be `usize::MAX`.)
                (
                    ((u32::from_le(word) & mask) as usize).saturating_add(1),
                    1 + n,
                )
            };
            let at = s;
            s += skip;
            if l > end - s {
                return Err(SnappyError::Truncated { at });
            }
            if l > len - d {
                return Err(SnappyError::Overflow { at });
            }
            // SAFETY: `src[s..s + l]` and `d + l <= len` checked above.
            unsafe { std::ptr::copy_nonoverlapping(srcp.add(s), dst.add(d), l) };
            s += l;
            d += l;
            tag = src.get(s).copied().unwrap_or(0);
        } else {
            // SAFETY: 8 bytes from `s` are in `src` (loop condition): the tag, its offset's
            // bytes and the next element's tag.
            let bytes = u64::from_le(unsafe { (srcp.add(s) as *const u64).read_unaligned() });
            let word = (bytes >> 8) as u32;
            // The three kinds of copy from one table, without branching on the kind.
            let entry = COPIES[tag as usize];
            let l = (entry & 0xff) as usize;
            // The bytes it takes, 2, 3 or 5 for kinds 1 to 3, by shifts rather than from the
            // table, and the next tag from `bytes`: the next element waits on these alone.
            let skip = ((SKIPS >> ((tag & 3) * 8)) & 0xff) as usize;
            let next = (bytes >> (skip * 8)) as u8;
            let offset = ((word & OFFSET_MASKS[(tag & 3) as usize]) + (entry >> 16)) as usize;
            if offset.wrapping_sub(1) >= d {
                return Err(SnappyError::Offset {
                    at: s,
                    offset,
                    written: d,
                });
            }
            if l > len - d {
                return Err(SnappyError::Overflow { at: s });
            }
            // SAFETY: `0 < offset <= d` and `d + l <= len`, checked above.
            unsafe { copy_back(dst, d, offset, l) };
            s += skip;
            d += l;
            tag = next;
        }
    }
    // The last elements, each checked byte by byte.
    while s < end {
        let at = s;
        let tag = src[s];
        s += 1;
        let (l, offset) = match tag & 3 {
            0 => {
                let code = (tag >> 2) as usize;
                let l = if code < 60 {
                    code + 1
                } else {
                    let n = code - 59;
                    let bytes = src.get(s..s + n).ok_or(SnappyError::Truncated { at })?;
                    s += n;
                    bytes
                        .iter()
                        .rev()
                        .fold(0usize, |v, &b| (v << 8) | b as usize)
                        .saturating_add(1)
                };
                let bytes = src
                    .get(s..s.saturating_add(l))
                    .ok_or(SnappyError::Truncated { at })?;
                if l > len - d {
                    return Err(SnappyError::Overflow { at });
                }
                // SAFETY: `d + l <= len`, checked above.
                unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst.add(d), l) };
                s += l;
                d += l;
                continue;
            }
            1 => {
                let low = *src.get(s).ok_or(SnappyError::Truncated { at })?;
                s += 1;
                (
                    ((tag >> 2) & 7) as usize + 4,
                    ((tag as usize >> 5) << 8) | low as usize,
                )
            }
            kind => {
                let n = if kind == 2 { 2 } else { 4 };
                let bytes = src.get(s..s + n).ok_or(SnappyError::Truncated { at })?;
                s += n;
                let offset = bytes
                    .iter()
                    .rev()
                    .fold(0usize, |v, &b| (v << 8) | b as usize);
                ((tag >> 2) as usize + 1, offset)
            }
        };
        if offset.wrapping_sub(1) >= d {
            return Err(SnappyError::Offset {
                at,
                offset,
                written: d,
            });
        }
        if l > len - d {
            return Err(SnappyError::Overflow { at });
        }
        // SAFETY: `0 < offset <= d` and `d + l <= len`, checked above.
        unsafe { copy_back(dst, d, offset, l) };
        d += l;
    }
    if d != len {
        return Err(SnappyError::Short {
            written: d,
            header: len,
        });
    }
    Ok(())
}

/// Copies `l` (at most 64) bytes from `offset` back, at `d`: an overlapping copy repeats the
/// last `offset` bytes. Writes up to `SLACK` bytes past `d + l`, which later elements overwrite.
///
/// # Safety
/// `0 < offset <= d`, `l <= 64`, and `dst` valid for `d + l + SLACK` bytes of which the first
/// `d` are written.
#[inline(always)]
unsafe fn copy_back(dst: *mut u8, d: usize, offset: usize, l: usize) {
    // SAFETY: the caller's bounds; every read is of bytes below the write it feeds, so of
    // bytes written (by an earlier element or by an earlier step of this one).
    unsafe {
        let out = dst.add(d);
        let from = out.sub(offset);
        if offset >= 8 && l <= 16 {
            // Two 8-byte moves, the second reading at most what the first wrote: narrower
            // than one 16-byte move, whose load would straddle the last element's stores.
            std::ptr::copy_nonoverlapping(from, out, 8);
            std::ptr::copy_nonoverlapping(from.add(8), out.add(8), 8);
            return;
        }
        if offset >= 16 {
            std::ptr::copy_nonoverlapping(from, out, 16);
            if l > 16 {
                std::ptr::copy_nonoverlapping(from.add(16), out.add(16), 16);
                if l > 32 {
                    std::ptr::copy_nonoverlapping(from.add(32), out.add(32), 16);
                    std::ptr::copy_nonoverlapping(from.add(48), out.add(48), 16);
                }
            }
            return;
        }
        // A pattern shorter than 16 bytes: its first 16 bytes one by one (each read is of a
        // byte already written), then 8 at a time from the largest whole number of periods
        // that fits in 16 bytes back (8 to 16 bytes, so the 8-byte moves never overlap).
        for i in 0..16 {
            *out.add(i) = *from.add(i);
        }
        let back = 16 / offset * offset;
        let mut i = 16;
        while i < l {
            std::ptr::copy_nonoverlapping(out.add(i - back), out.add(i), 8);
            i += 8;
        }
    }
}

#[cfg(test)]
mod tests;
