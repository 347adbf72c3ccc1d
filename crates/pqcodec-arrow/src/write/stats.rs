//! Statistics of what a page or a column chunk holds: the least and greatest value in the
//! column's sort order, and the number of nulls.
//!
//! The Parquet rules: integers compare signed or unsigned as the logical type says; bytes
//! unsigned, byte by byte, except decimals (big-endian two's complement, signed) and Float16
//! (as numbers); NaN is never a bound, and a zero bound is written as `-0.0` for the least and
//! `+0.0` for the greatest, so that either zero passes a filter; a column of undefined order
//! (INT96, intervals) has no bounds.

use std::cmp::Ordering;

use arrow_buffer::i256;
use half::f16;
use pqcodec_encodings::stats;

/// How a column's values are ordered, from its logical type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOrder {
    /// Signed comparison (integers, floats, decimals).
    Signed,
    /// Unsigned comparison (unsigned integers; strings and bytes, lexicographically).
    Unsigned,
    /// No order: no bounds are kept.
    Undefined,
}

/// A least or greatest value, as its physical type.
#[derive(Debug, Clone, PartialEq)]
pub enum Bound {
    /// BOOLEAN.
    Boolean(bool),
    /// INT32.
    Int32(i32),
    /// INT64.
    Int64(i64),
    /// FLOAT.
    Float(f32),
    /// DOUBLE.
    Double(f64),
    /// BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY.
    Bytes(Vec<u8>),
}

impl Bound {
    /// The value's PLAIN bytes (a byte array's without its length), as statistics and the
    /// column index store it.
    pub fn to_plain_bytes(&self) -> Vec<u8> {
        match self {
            Bound::Boolean(v) => vec![u8::from(*v)],
            Bound::Int32(v) => v.to_le_bytes().to_vec(),
            Bound::Int64(v) => v.to_le_bytes().to_vec(),
            Bound::Float(v) => v.to_le_bytes().to_vec(),
            Bound::Double(v) => v.to_le_bytes().to_vec(),
            Bound::Bytes(v) => v.clone(),
        }
    }
}

/// The statistics of a page or a column chunk.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Statistics {
    /// The least value, if the order is defined and a value other than NaN was seen.
    pub min: Option<Bound>,
    /// The greatest value, likewise.
    pub max: Option<Bound>,
    /// Nulls (levels below the maximum definition level, at the leaf).
    pub null_count: u64,
}

/// How the bounds of a column chunk's pages follow each other, as the column index tells
/// readers: ascending if no page's least or greatest value is below the page's before it
/// (pages without values aside), descending the other way round, else unordered. A chunk of
/// one page is ascending.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BoundaryOrder {
    /// Neither ascending nor descending.
    #[default]
    Unordered,
    /// Each page's bounds at or above the previous page's.
    Ascending,
    /// Each page's bounds at or below the previous page's.
    Descending,
}

/// Follows a chunk's page bounds to tell its [`BoundaryOrder`].
#[derive(Debug, Clone)]
pub(crate) struct PageOrder {
    ascending: bool,
    descending: bool,
    last: Option<(Bound, Bound)>,
}

impl Default for PageOrder {
    fn default() -> Self {
        PageOrder {
            ascending: true,
            descending: true,
            last: None,
        }
    }
}

impl PageOrder {
    /// Takes a page's bounds into account; `order` is the column's (any [`Bounds`] of it).
    pub(crate) fn push(&mut self, order: &Bounds, min: Bound, max: Bound) {
        if let Some((lo, hi)) = &self.last {
            let (by_min, by_max) = (order.compare(&min, lo), order.compare(&max, hi));
            self.ascending &= by_min.is_ge() && by_max.is_ge();
            self.descending &= by_min.is_le() && by_max.is_le();
        }
        self.last = Some((min, max));
    }

    /// The order of the pages pushed so far; starts over.
    pub(crate) fn finish(&mut self) -> BoundaryOrder {
        let order = match (self.ascending, self.descending) {
            (true, _) => BoundaryOrder::Ascending,
            (false, true) => BoundaryOrder::Descending,
            (false, false) => BoundaryOrder::Unordered,
        };
        *self = PageOrder::default();
        order
    }
}

/// How byte values compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BytesOrder {
    /// Byte by byte, unsigned.
    Lexical,
    /// Big-endian two's complement numbers (decimals).
    SignedBigEndian,
    /// Little-endian IEEE half floats.
    Float16,
}

/// Running least and greatest values of one physical type.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Bounds {
    /// No order, or no value yet of a kept type.
    None,
    Boolean(Option<(bool, bool)>),
    Int32(Option<(i32, i32)>, bool),
    Int64(Option<(i64, i64)>, bool),
    Float(Option<(f32, f32)>),
    Double(Option<(f64, f64)>),
    Bytes(Option<(Vec<u8>, Vec<u8>)>, BytesOrder),
}

fn widen<T: Copy>(acc: &mut Option<(T, T)>, min: T, max: T, less: impl Fn(T, T) -> bool) {
    match acc {
        None => *acc = Some((min, max)),
        Some((lo, hi)) => {
            if less(min, *lo) {
                *lo = min;
            }
            if less(*hi, max) {
                *hi = max;
            }
        }
    }
}

fn min_max<T: Copy>(values: &[T], less: impl Fn(T, T) -> bool) -> Option<(T, T)> {
    let (&first, rest) = values.split_first()?;
    let (mut lo, mut hi) = (first, first);
    for &v in rest {
        if less(v, lo) {
            lo = v;
        }
        if less(hi, v) {
            hi = v;
        }
    }
    Some((lo, hi))
}

fn float_less<T: PartialOrd>(a: T, b: T) -> bool {
    a < b
}

impl Bounds {
    pub(crate) fn update_bool(&mut self, values: &[bool]) {
        if let Bounds::Boolean(acc) = self
            && let Some((lo, hi)) = min_max(values, |a, b| !a & b)
        {
            widen(acc, lo, hi, |a, b| !a & b);
        }
    }

    pub(crate) fn update_i32(&mut self, values: &[i32]) {
        if let Bounds::Int32(acc, unsigned) = self
            && let Some((lo, hi)) = stats::min_max_i32(values, *unsigned)
        {
            let flip = if *unsigned { i32::MIN } else { 0 };
            widen(acc, lo, hi, |a, b| (a ^ flip) < (b ^ flip));
        }
    }

    pub(crate) fn update_i64(&mut self, values: &[i64]) {
        if let Bounds::Int64(acc, unsigned) = self
            && let Some((lo, hi)) = stats::min_max_i64(values, *unsigned)
        {
            let flip = if *unsigned { i64::MIN } else { 0 };
            widen(acc, lo, hi, |a, b| (a ^ flip) < (b ^ flip));
        }
    }

    pub(crate) fn update_f32(&mut self, values: &[f32]) {
        if let Bounds::Float(acc) = self
            && let Some((lo, hi)) = stats::min_max_f32(values)
        {
            widen(acc, lo, hi, float_less);
        }
    }

    pub(crate) fn update_f64(&mut self, values: &[f64]) {
        if let Bounds::Double(acc) = self
            && let Some((lo, hi)) = stats::min_max_f64(values)
        {
            widen(acc, lo, hi, float_less);
        }
    }

    /// Takes one byte value into account.
    pub(crate) fn update_bytes(&mut self, value: &[u8]) {
        let Bounds::Bytes(acc, order) = self else {
            return;
        };
        let order = *order;
        if order == BytesOrder::Float16 && f16_of(value).is_none_or(|v| v.is_nan()) {
            return;
        }
        match acc {
            None => *acc = Some((value.to_vec(), value.to_vec())),
            Some((lo, hi)) => {
                if compare_bytes(order, value, lo) == Ordering::Less {
                    lo.clear();
                    lo.extend_from_slice(value);
                }
                if compare_bytes(order, hi, value) == Ordering::Less {
                    hi.clear();
                    hi.extend_from_slice(value);
                }
            }
        }
    }

    /// Takes into account one value given by its PLAIN bytes (a byte array's without its
    /// length; BOOLEAN as one byte).
    pub(crate) fn update_plain(&mut self, bytes: &[u8]) {
        fn array<const N: usize>(bytes: &[u8]) -> Option<[u8; N]> {
            bytes.try_into().ok()
        }
        match self {
            Bounds::None => {}
            Bounds::Boolean(_) => {
                if let Some(&b) = bytes.first() {
                    self.update_bool(&[b != 0]);
                }
            }
            Bounds::Int32(..) => {
                if let Some(b) = array::<4>(bytes) {
                    self.update_i32(&[i32::from_le_bytes(b)]);
                }
            }
            Bounds::Int64(..) => {
                if let Some(b) = array::<8>(bytes) {
                    self.update_i64(&[i64::from_le_bytes(b)]);
                }
            }
            Bounds::Float(_) => {
                if let Some(b) = array::<4>(bytes) {
                    self.update_f32(&[f32::from_le_bytes(b)]);
                }
            }
            Bounds::Double(_) => {
                if let Some(b) = array::<8>(bytes) {
                    self.update_f64(&[f64::from_le_bytes(b)]);
                }
            }
            Bounds::Bytes(..) => self.update_bytes(bytes),
        }
    }

    /// Takes many byte values into account: their least and greatest found by reference,
    /// then copied once.
    pub(crate) fn update_bytes_all<'a>(&mut self, values: impl IntoIterator<Item = &'a [u8]>) {
        let Bounds::Bytes(_, order) = self else {
            return;
        };
        let order = *order;
        let mut values = values
            .into_iter()
            .filter(|v| order != BytesOrder::Float16 || f16_of(v).is_some_and(|v| !v.is_nan()));
        let Some(first) = values.next() else {
            return;
        };
        let (mut lo, mut hi) = (first, first);
        for v in values {
            if compare_bytes(order, v, lo) == Ordering::Less {
                lo = v;
            } else if compare_bytes(order, hi, v) == Ordering::Less {
                hi = v;
            }
        }
        self.update_bytes(lo);
        self.update_bytes(hi);
    }

    /// Widens these bounds by `other`'s (of the same column).
    pub(crate) fn merge(&mut self, other: &Bounds) {
        match (self, other) {
            (Bounds::Boolean(acc), Bounds::Boolean(Some((lo, hi)))) => {
                widen(acc, *lo, *hi, |a, b| !a & b)
            }
            (Bounds::Int32(acc, u), Bounds::Int32(Some((lo, hi)), _)) => {
                let (lo, hi) = (*lo, *hi);
                if *u {
                    widen(acc, lo, hi, |a, b| (a as u32) < (b as u32))
                } else {
                    widen(acc, lo, hi, |a, b| a < b)
                }
            }
            (Bounds::Int64(acc, u), Bounds::Int64(Some((lo, hi)), _)) => {
                let (lo, hi) = (*lo, *hi);
                if *u {
                    widen(acc, lo, hi, |a, b| (a as u64) < (b as u64))
                } else {
                    widen(acc, lo, hi, |a, b| a < b)
                }
            }
            (Bounds::Float(acc), Bounds::Float(Some((lo, hi)))) => widen(acc, *lo, *hi, float_less),
            (Bounds::Double(acc), Bounds::Double(Some((lo, hi)))) => {
                widen(acc, *lo, *hi, float_less)
            }
            (this @ Bounds::Bytes(..), Bounds::Bytes(Some((lo, hi)), _)) => {
                this.update_bytes(lo);
                this.update_bytes(hi);
            }
            _ => {}
        }
    }

    /// The bounds as statistics values, zeros signed as the spec asks.
    pub(crate) fn finish(&self) -> (Option<Bound>, Option<Bound>) {
        let pair = |lo, hi| (Some(lo), Some(hi));
        match self {
            Bounds::Boolean(Some((lo, hi))) => pair(Bound::Boolean(*lo), Bound::Boolean(*hi)),
            Bounds::Int32(Some((lo, hi)), _) => pair(Bound::Int32(*lo), Bound::Int32(*hi)),
            Bounds::Int64(Some((lo, hi)), _) => pair(Bound::Int64(*lo), Bound::Int64(*hi)),
            Bounds::Float(Some((lo, hi))) => {
                let lo = if *lo == 0.0 { -0.0 } else { *lo };
                let hi = if *hi == 0.0 { 0.0 } else { *hi };
                pair(Bound::Float(lo), Bound::Float(hi))
            }
            Bounds::Double(Some((lo, hi))) => {
                let lo = if *lo == 0.0 { -0.0 } else { *lo };
                let hi = if *hi == 0.0 { 0.0 } else { *hi };
                pair(Bound::Double(lo), Bound::Double(hi))
            }
            Bounds::Bytes(Some((lo, hi)), order) => {
                let (mut lo, mut hi) = (lo.clone(), hi.clone());
                if *order == BytesOrder::Float16 {
                    if f16_of(&lo) == Some(f16::ZERO) {
                        lo = f16::NEG_ZERO.to_le_bytes().to_vec();
                    }
                    if f16_of(&hi) == Some(f16::ZERO) {
                        hi = f16::ZERO.to_le_bytes().to_vec();
                    }
                }
                pair(Bound::Bytes(lo), Bound::Bytes(hi))
            }
            _ => (None, None),
        }
    }

    /// Empty bounds of the same kind.
    /// Compares two bounds in the column's order (`Equal` for bounds of another type).
    pub(crate) fn compare(&self, a: &Bound, b: &Bound) -> Ordering {
        match (self, a, b) {
            (Bounds::Boolean(_), Bound::Boolean(a), Bound::Boolean(b)) => a.cmp(b),
            (Bounds::Int32(_, true), Bound::Int32(a), Bound::Int32(b)) => {
                (*a as u32).cmp(&(*b as u32))
            }
            (Bounds::Int32(..), Bound::Int32(a), Bound::Int32(b)) => a.cmp(b),
            (Bounds::Int64(_, true), Bound::Int64(a), Bound::Int64(b)) => {
                (*a as u64).cmp(&(*b as u64))
            }
            (Bounds::Int64(..), Bound::Int64(a), Bound::Int64(b)) => a.cmp(b),
            (Bounds::Float(_), Bound::Float(a), Bound::Float(b)) => {
                a.partial_cmp(b).unwrap_or(Ordering::Equal)
            }
            (Bounds::Double(_), Bound::Double(a), Bound::Double(b)) => {
                a.partial_cmp(b).unwrap_or(Ordering::Equal)
            }
            (Bounds::Bytes(_, order), Bound::Bytes(a), Bound::Bytes(b)) => {
                compare_bytes(*order, a, b)
            }
            _ => Ordering::Equal,
        }
    }

    pub(crate) fn cleared(&self) -> Bounds {
        match self {
            Bounds::None => Bounds::None,
            Bounds::Boolean(_) => Bounds::Boolean(None),
            Bounds::Int32(_, u) => Bounds::Int32(None, *u),
            Bounds::Int64(_, u) => Bounds::Int64(None, *u),
            Bounds::Float(_) => Bounds::Float(None),
            Bounds::Double(_) => Bounds::Double(None),
            Bounds::Bytes(_, o) => Bounds::Bytes(None, *o),
        }
    }
}

fn f16_of(bytes: &[u8]) -> Option<f16> {
    Some(f16::from_le_bytes(bytes.try_into().ok()?))
}

/// The first 8 bytes of `v` as a big-endian number, zero-padded: two values whose prefixes
/// differ compare as their prefixes do.
#[inline(always)]
fn prefix(v: &[u8]) -> u64 {
    match v.first_chunk::<8>() {
        Some(head) => u64::from_be_bytes(*head),
        None => {
            let mut head = [0u8; 8];
            for (h, b) in head.iter_mut().zip(v) {
                *h = *b;
            }
            u64::from_be_bytes(head)
        }
    }
}

#[inline]
fn compare_bytes(order: BytesOrder, a: &[u8], b: &[u8]) -> Ordering {
    match order {
        BytesOrder::Lexical => match prefix(a).cmp(&prefix(b)) {
            Ordering::Equal => a.cmp(b),
            decided => decided,
        },
        BytesOrder::Float16 => match (f16_of(a), f16_of(b)) {
            (Some(a), Some(b)) => a.partial_cmp(&b).unwrap_or(Ordering::Equal),
            _ => a.cmp(b),
        },
        BytesOrder::SignedBigEndian => compare_signed_be(a, b),
    }
}

/// Compares two big-endian two's complement numbers of any widths.
fn compare_signed_be(a: &[u8], b: &[u8]) -> Ordering {
    if a.len() <= 16 && b.len() <= 16 {
        return i128_of(a).cmp(&i128_of(b));
    }
    if a.len() <= 32 && b.len() <= 32 {
        return i256_of(a).cmp(&i256_of(b));
    }
    let neg = |v: &[u8]| v.first().is_some_and(|b| b & 0x80 != 0);
    match (neg(a), neg(b)) {
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        _ => a.len().cmp(&b.len()).then_with(|| a.cmp(b)),
    }
}

fn i128_of(bytes: &[u8]) -> i128 {
    let fill = if bytes.first().is_some_and(|b| b & 0x80 != 0) {
        0xff
    } else {
        0
    };
    let mut be = [fill; 16];
    be[16 - bytes.len()..].copy_from_slice(bytes);
    i128::from_be_bytes(be)
}

fn i256_of(bytes: &[u8]) -> i256 {
    let fill = if bytes.first().is_some_and(|b| b & 0x80 != 0) {
        0xff
    } else {
        0
    };
    let mut be = [fill; 32];
    be[32 - bytes.len()..].copy_from_slice(bytes);
    be.reverse();
    i256::from_le_bytes(be)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_skip_nan_and_sign_zero_bounds() {
        let mut b = Bounds::Double(None);
        b.update_f64(&[f64::NAN, 0.0, -0.0, f64::NAN]);
        let (lo, hi) = b.finish();
        assert!(matches!(lo, Some(Bound::Double(v)) if v == 0.0 && v.is_sign_negative()));
        assert!(matches!(hi, Some(Bound::Double(v)) if v == 0.0 && v.is_sign_positive()));
        let mut only_nan = Bounds::Float(None);
        only_nan.update_f32(&[f32::NAN]);
        assert_eq!(only_nan.finish(), (None, None));
    }

    #[test]
    fn many_byte_values_at_once_match_one_by_one() {
        let values: Vec<Vec<u8>> = (0..200u32)
            .map(|i| (i * 7919 % 251).to_be_bytes()[1..].to_vec())
            .collect();
        for order in [
            BytesOrder::Lexical,
            BytesOrder::SignedBigEndian,
            BytesOrder::Float16,
        ] {
            let mut one = Bounds::Bytes(None, order);
            let mut all = Bounds::Bytes(None, order);
            for v in &values {
                let v = if order == BytesOrder::Float16 {
                    &v[..2]
                } else {
                    &v[..]
                };
                one.update_bytes(v);
            }
            all.update_bytes_all(values.iter().map(|v| {
                if order == BytesOrder::Float16 {
                    &v[..2]
                } else {
                    &v[..]
                }
            }));
            assert_eq!(one, all, "{order:?}");
        }
    }

    #[test]
    fn lexical_order_by_prefix_is_byte_order() {
        let values: [&[u8]; 9] = [
            b"",
            b"\0",
            b"a",
            b"a\0",
            b"a\0b",
            b"ab",
            b"abcdefgh",
            b"abcdefgh\0",
            b"abcdefghi",
        ];
        for a in values {
            for b in values {
                assert_eq!(
                    compare_bytes(BytesOrder::Lexical, a, b),
                    a.cmp(b),
                    "{a:?} {b:?}"
                );
            }
        }
    }

    #[test]
    fn integer_bounds_signed_and_unsigned() {
        let values = [3i64, -7, i64::MAX, 0, i64::MIN + 1];
        let mut signed = Bounds::Int64(None, false);
        signed.update_i64(&values);
        assert_eq!(
            signed.finish(),
            (
                Some(Bound::Int64(i64::MIN + 1)),
                Some(Bound::Int64(i64::MAX))
            )
        );
        let mut unsigned = Bounds::Int64(None, true);
        unsigned.update_i64(&values[..2]);
        unsigned.update_i64(&values[2..]);
        assert_eq!(
            unsigned.finish(),
            (Some(Bound::Int64(0)), Some(Bound::Int64(-7)))
        );
        let mut narrow = Bounds::Int32(None, false);
        narrow.update_i32(&[5, -2, 9]);
        assert_eq!(
            narrow.finish(),
            (Some(Bound::Int32(-2)), Some(Bound::Int32(9)))
        );
    }

    #[test]
    fn unsigned_and_decimal_orders() {
        let mut u = Bounds::Int32(None, true);
        u.update_i32(&[-1, 5, 0]);
        assert_eq!(u.finish(), (Some(Bound::Int32(0)), Some(Bound::Int32(-1))));
        let mut d = Bounds::Bytes(None, BytesOrder::SignedBigEndian);
        for v in [[0x00, 0x05], [0xff, 0xfe], [0x01, 0x00]] {
            d.update_bytes(&v);
        }
        assert_eq!(
            d.finish(),
            (
                Some(Bound::Bytes(vec![0xff, 0xfe])),
                Some(Bound::Bytes(vec![0x01, 0x00]))
            )
        );
        let mut s = Bounds::Bytes(None, BytesOrder::Lexical);
        for v in [&b"b"[..], b"\xff", b"a"] {
            s.update_bytes(v);
        }
        assert_eq!(
            s.finish(),
            (
                Some(Bound::Bytes(b"a".to_vec())),
                Some(Bound::Bytes(vec![0xff]))
            )
        );
    }

    #[test]
    fn page_order_follows_the_column_order() {
        let order = |bounds: Bounds, pages: &[(i64, i64)]| {
            let mut o = PageOrder::default();
            for &(lo, hi) in pages {
                o.push(&bounds, Bound::Int64(lo), Bound::Int64(hi));
            }
            o.finish()
        };
        let signed = Bounds::Int64(None, false);
        assert_eq!(order(signed.clone(), &[(5, 9)]), BoundaryOrder::Ascending);
        assert_eq!(
            order(signed.clone(), &[(1, 3), (1, 3), (2, 8)]),
            BoundaryOrder::Ascending
        );
        assert_eq!(
            order(signed.clone(), &[(2, 8), (1, 8)]),
            BoundaryOrder::Descending
        );
        assert_eq!(
            order(signed.clone(), &[(1, 8), (2, 7)]),
            BoundaryOrder::Unordered
        );
        // -1 is the greatest unsigned value.
        assert_eq!(
            order(signed, &[(0, 5), (-1, -1)]),
            BoundaryOrder::Descending
        );
        let unsigned = Bounds::Int64(None, true);
        assert_eq!(
            order(unsigned, &[(0, 5), (-1, -1)]),
            BoundaryOrder::Ascending
        );
        let unsigned = Bounds::Int64(None, true);
        assert_eq!(
            order(unsigned, &[(-1, -1), (0, 5)]),
            BoundaryOrder::Descending
        );
        let signed = Bounds::Int64(None, false);
        assert_eq!(order(signed, &[(-1, -1), (0, 5)]), BoundaryOrder::Ascending);
    }
}
