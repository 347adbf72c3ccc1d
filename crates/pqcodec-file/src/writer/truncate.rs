//! String and binary bounds cut to a length, for statistics and the column index: a least
//! value cut stays at or below every value; a greatest value cut is incremented to stay at or
//! above every value.

use parquet::basic::{ConvertedType, LogicalType, Type as PqType};
use parquet::schema::types::ColumnDescriptor;

/// How a column's bounds are cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Truncate {
    /// Bytes kept at most.
    len: usize,
    /// Whether values are UTF-8 (cut at character boundaries).
    utf8: bool,
}

impl Truncate {
    /// The cut for a column's bounds: byte arrays and fixed-length ones compared byte by
    /// byte, not numbers held as bytes (decimals, Float16, intervals).
    pub(crate) fn for_column(descr: &ColumnDescriptor, len: Option<usize>) -> Option<Truncate> {
        let len = len?;
        if !matches!(
            descr.physical_type(),
            PqType::BYTE_ARRAY | PqType::FIXED_LEN_BYTE_ARRAY
        ) {
            return None;
        }
        let numeric = matches!(
            descr.logical_type_ref(),
            Some(LogicalType::Decimal { .. } | LogicalType::Float16)
        ) || matches!(
            descr.converted_type(),
            ConvertedType::DECIMAL | ConvertedType::INTERVAL
        );
        if numeric {
            return None;
        }
        let utf8 = matches!(
            descr.logical_type_ref(),
            Some(LogicalType::String | LogicalType::Enum | LogicalType::Json)
        ) || matches!(
            descr.converted_type(),
            ConvertedType::UTF8 | ConvertedType::ENUM | ConvertedType::JSON
        );
        Some(Truncate { len, utf8 })
    }

    /// `value`'s first bytes, a lower bound of it, if it is longer than the cut.
    pub(crate) fn min(&self, value: &[u8]) -> Option<Vec<u8>> {
        if value.len() <= self.len {
            return None;
        }
        let end = match self.text(value) {
            Some(text) => (1..=self.len).rev().find(|&i| text.is_char_boundary(i))?,
            None => self.len,
        };
        Some(value[..end].to_vec())
    }

    /// A value at most the cut long and above `value`, if `value` is longer than the cut and
    /// such a value exists.
    pub(crate) fn max(&self, value: &[u8]) -> Option<Vec<u8>> {
        if value.len() <= self.len {
            return None;
        }
        match self.text(value) {
            Some(text) => {
                let end = (1..=self.len).rev().find(|&i| text.is_char_boundary(i))?;
                next_text(&text[..end])
            }
            None => next_bytes(&value[..self.len]),
        }
    }

    fn text<'a>(&self, value: &'a [u8]) -> Option<&'a str> {
        if self.utf8 {
            std::str::from_utf8(value).ok()
        } else {
            None
        }
    }
}

/// The least string of `prefix`'s length or shorter above every string starting with
/// `prefix`, or near it: the last character that can be incremented without changing its
/// width is, and the characters after it dropped.
fn next_text(prefix: &str) -> Option<Vec<u8>> {
    prefix.char_indices().rev().find_map(|(at, c)| {
        let next = char::from_u32(c as u32 + 1).filter(|n| n.len_utf8() == c.len_utf8())?;
        let mut out = prefix.as_bytes()[..at].to_vec();
        let mut buf = [0; 4];
        out.extend_from_slice(next.encode_utf8(&mut buf).as_bytes());
        Some(out)
    })
}

/// `prefix` plus one, as a big-endian number of its length; `None` if it is all `0xff`.
fn next_bytes(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut out = prefix.to_vec();
    for b in out.iter_mut().rev() {
        let (next, carry) = b.overflowing_add(1);
        *b = next;
        if !carry {
            return Some(out);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(len: usize, utf8: bool) -> Truncate {
        Truncate { len, utf8 }
    }

    #[test]
    fn short_values_are_kept_whole() {
        let t = cut(4, true);
        assert_eq!(t.min(b"abcd"), None);
        assert_eq!(t.max(b"abcd"), None);
    }

    #[test]
    fn bytes_are_cut_and_the_greatest_carried_up() {
        let t = cut(3, false);
        assert_eq!(t.min(b"abcdef").as_deref(), Some(&b"abc"[..]));
        assert_eq!(t.max(b"abcdef").as_deref(), Some(&b"abd"[..]));
        assert_eq!(t.max(&[1, 0xff, 0xff, 7]).as_deref(), Some(&[2, 0, 0][..]));
        // Nothing of three bytes is above 0xffffff...
        assert_eq!(t.max(&[0xff, 0xff, 0xff, 0]), None);
    }

    #[test]
    fn strings_are_cut_at_characters() {
        // "aé" is 3 bytes; "aéb" cut to 2 keeps "a" only.
        let t = cut(2, true);
        assert_eq!(t.min("aéb".as_bytes()).as_deref(), Some(&b"a"[..]));
        assert_eq!(t.max("aéb".as_bytes()).as_deref(), Some(&b"b"[..]));
        // The greatest 1-byte character is not made a 2-byte one: the one before it goes up.
        let t = cut(2, true);
        assert_eq!(t.max("a\u{7f}z".as_bytes()).as_deref(), Some(&b"b"[..]));
        // Bytes that are not UTF-8 are cut as bytes.
        assert_eq!(
            t.max(&[0x61, 0xff, 0x62]).as_deref(),
            Some(&[0x62, 0x00][..])
        );
    }

    #[test]
    fn cut_bounds_still_bound_the_value() {
        let values = [
            "zebra",
            "zz\u{10ffff}q",
            "ab\u{7ff}\u{7ff}c",
            "\u{ffff}\u{ffff}x",
        ];
        for len in 1..6 {
            let t = cut(len, true);
            for v in values {
                if let Some(lo) = t.min(v.as_bytes()) {
                    assert!(
                        lo.as_slice() <= v.as_bytes() && lo.len() <= len,
                        "{v:?} {len}"
                    );
                    assert!(std::str::from_utf8(&lo).is_ok());
                }
                if let Some(hi) = t.max(v.as_bytes()) {
                    assert!(
                        hi.as_slice() > v.as_bytes() && hi.len() <= len,
                        "{v:?} {len}"
                    );
                    assert!(std::str::from_utf8(&hi).is_ok());
                }
            }
        }
    }
}
