use std::fmt::Debug;

use crate::{Data, NativeType};

/// Values chunk-converted on the stack by the default [`Sink::extend_from_le_bytes`].
const CHUNK: usize = 256;

/// The unsized value of the byte-array types: `[u8]`, so that the variable-width methods of
/// [`Sink`] are callable on `Sink<[u8]>` only.
pub trait ByteValue {
    /// `bytes` as the value.
    fn from_bytes(bytes: &[u8]) -> &Self;
}

impl ByteValue for [u8] {
    #[inline]
    fn from_bytes(bytes: &[u8]) -> &[u8] {
        bytes
    }
}

/// The lengths of byte arrays lying back to back ([`Sink::extend_back_to_back`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lengths<'a> {
    /// Value `i` is `lengths[i]` bytes long.
    Each(&'a [u32]),
    /// Every value is this many bytes long (FIXED_LEN_BYTE_ARRAY); 0 gives no value.
    All(usize),
}

impl Lengths<'_> {
    /// The values lying back to back from the start of `data`, up to the first that passes its
    /// end: what [`Sink::extend_back_to_back`] appends.
    ///
    /// ```
    /// use pqcodec_core::Lengths;
    ///
    /// let each: Vec<&[u8]> = Lengths::Each(&[2, 0, 9]).values(b"abcde").collect();
    /// assert_eq!(each, [&b"ab"[..], b""]);
    /// assert_eq!(Lengths::All(2).values(b"abcde").count(), 2);
    /// ```
    pub fn values(self, data: &[u8]) -> impl Iterator<Item = &[u8]> {
        let (mut each, width) = match self {
            Lengths::Each(lengths) => (lengths.iter(), None),
            Lengths::All(width) => ([].iter(), Some(width)),
        };
        let mut rest = data;
        std::iter::from_fn(move || {
            let len = match width {
                Some(0) => return None,
                Some(width) => width,
                None => *each.next()? as usize,
            };
            let (value, tail) = rest.split_at_checked(len)?;
            rest = tail;
            Some(value)
        })
    }

    /// Where each of `lengths`' values ends, counted from the first's start, for the values
    /// that lie back to back within `data_len` bytes: the offsets
    /// [`Sink::extend_back_to_back`] appends, found in one pass.
    ///
    /// ```
    /// use pqcodec_core::Lengths;
    ///
    /// assert_eq!(Lengths::ends_within(&[2, 0, 3, 9], 6).collect::<Vec<_>>(), [2, 2, 5]);
    /// ```
    pub fn ends_within(lengths: &[u32], data_len: usize) -> impl Iterator<Item = usize> + '_ {
        lengths.iter().scan(0usize, move |end, &len| {
            let next = *end + len as usize;
            (next <= data_len).then(|| {
                *end = next;
                next
            })
        })
    }
}

/// Bytes past the values of [`Sink::extend_in_place`] that its writer may overwrite (and the
/// sink then drops): room for a kernel's wide stores.
pub const GROWN_SLACK: usize = 64;

/// Where a decoder appends values: a `Vec`, [`ByteArrays`](crate::ByteArrays), or an Arrow
/// buffer builder in `pqcodec-arrow`.
///
/// The methods follow the memory a sink holds, not an encoding's layout: decoders parse their
/// pages and hand over values as they lie in memory.
/// - One value, or a run of one ([`Sink::push`], [`Sink::push_repeated`]).
/// - Fixed-width values: a slice of them ([`Sink::extend_from_slice`]) or of their
///   little-endian bytes ([`Sink::extend_from_le_bytes`]), an iterator of them
///   ([`Sink::extend_from_iter`]), or slots lent for the caller to write in place
///   ([`Sink::grow_slots`], [`Sink::grow_le_bytes`]).
/// - Byte arrays: at spans of one buffer ([`Sink::extend_from_spans`]), each after its
///   4-byte length ([`Sink::extend_from_prefixed`]), back to back
///   ([`Sink::extend_back_to_back`]), or written in place ([`Sink::extend_in_place`]).
///
/// The methods that take a decoder's bytes take them as [`Data`]: where those lie in the page
/// the decoder owns, a sink may keep the page rather than copy them.
///
/// Every method but [`Sink::push`] has a default, so a sink needs only the ones its memory
/// makes faster.
pub trait Sink<V: ?Sized> {
    /// Hint: about `additional` more values are coming.
    fn reserve(&mut self, additional: usize) {
        let _ = additional;
    }

    /// Hint: about `additional` more bytes of variable-length values are coming.
    fn reserve_bytes(&mut self, additional: usize) {
        let _ = additional;
    }

    /// Appends one value.
    fn push(&mut self, value: &V);

    /// Appends `count` copies of `value`.
    fn push_repeated(&mut self, value: &V, count: usize) {
        for _ in 0..count {
            self.push(value);
        }
    }

    /// Appends values of a fixed-width type.
    fn extend_from_slice(&mut self, values: &[V])
    where
        V: Sized,
    {
        for v in values {
            self.push(v);
        }
    }

    /// Appends the fixed-width values `values` yields, in order: values made as the sink takes
    /// them (looked up, converted). A sink holding a `Vec` writes each once, where
    /// [`Sink::grow_slots`] would zero its slots first.
    fn extend_from_iter<I>(&mut self, values: I)
    where
        V: NativeType,
        I: IntoIterator<Item = V>,
    {
        let values = values.into_iter();
        self.reserve(values.size_hint().0);
        for v in values {
            self.push(&v);
        }
    }

    /// Appends the fixed-width values whose little-endian bytes are `bytes` (a whole number
    /// of values; a trailing partial value is ignored). A sink may keep the buffer `bytes`
    /// lies in ([`Data::buffer`]) rather than copy them.
    fn extend_from_le_bytes(&mut self, bytes: Data<'_>)
    where
        V: NativeType,
    {
        self.reserve(bytes.len() / V::SIZE);
        let mut buf = [V::default(); CHUNK];
        for chunk in bytes.chunks(CHUNK * V::SIZE) {
            let mut count = 0;
            for (slot, value) in buf.iter_mut().zip(chunk.chunks_exact(V::SIZE)) {
                *slot = V::from_le_slice(value);
                count += 1;
            }
            self.extend_from_slice(&buf[..count]);
        }
    }

    /// Grows the sink by `count` values (of unspecified content) and returns their memory as
    /// little-endian bytes for the caller to overwrite, where the sink holds its values that
    /// way; otherwise `None`, appending nothing (callers then use
    /// [`Sink::extend_from_le_bytes`]). Lets a kernel write values in place, without a copy.
    fn grow_le_bytes(&mut self, count: usize) -> Option<&mut [u8]>
    where
        V: NativeType,
    {
        let _ = count;
        None
    }

    /// Grows the sink by `count` values (of unspecified content) and returns them for the
    /// caller to overwrite, where the sink holds its values as a slice of `V`; otherwise
    /// `None`, appending nothing. `grow_slots(0)` tells whether the sink lends its slots.
    /// Lets a decoder gather values in place, without staging them.
    fn grow_slots(&mut self, count: usize) -> Option<&mut [V]>
    where
        V: NativeType,
    {
        let _ = count;
        None
    }

    /// Appends the byte arrays `data[start..end]` for each `(start, end)` that `spans` gives,
    /// in order, up to the first outside `data`: a sink takes every span up to there. Bytes
    /// of `data` past a span may be read (never appended): a sink may copy whole words.
    ///
    /// A decoder may parse its page as the sink takes the spans (PLAIN's length prefixes, a
    /// dictionary's look-ups), so that finding a value overlaps copying the one before.
    fn extend_from_spans<I>(&mut self, data: Data<'_>, spans: I)
    where
        V: ByteValue,
        I: IntoIterator<Item = (usize, usize)>,
    {
        let data = data.bytes();
        let spans = spans.into_iter();
        self.reserve(spans.size_hint().0);
        for (start, end) in spans {
            let Some(value) = data.get(start..end) else {
                return;
            };
            self.push(V::from_bytes(value));
        }
    }

    /// Appends the `n` byte arrays at the start of `data` that lie each right after its 4-byte
    /// little-endian length (PLAIN's layout) and returns the bytes they take; `None` if
    /// `data` does not hold `n` of them, the values before the first it lacks perhaps
    /// appended. The default takes them as spans ([`Sink::extend_from_spans`]), each length
    /// read as the value before is taken; a sink whose values are made from those bytes as
    /// they lie (Arrow's views: a length and 12 bytes) may make them in one load each.
    fn extend_from_prefixed(&mut self, data: Data<'_>, n: usize) -> Option<usize>
    where
        V: ByteValue,
    {
        let mut values = LengthPrefixed::new(data.bytes(), n);
        self.extend_from_spans(data, &mut values);
        (values.left() == 0).then_some(values.position())
    }

    /// Appends the byte arrays lying back to back from the start of `data`, of the given
    /// `lengths`; a value past the end of `data` stops the append there. A sink may keep
    /// the buffer `data` lies in ([`Data::buffer`]) rather than copy it.
    fn extend_back_to_back(&mut self, data: Data<'_>, lengths: Lengths<'_>)
    where
        V: ByteValue,
    {
        let data = data.bytes();
        self.reserve(match lengths {
            Lengths::Each(lengths) => lengths.len(),
            Lengths::All(width) => data.len().checked_div(width).unwrap_or(0),
        });
        self.reserve_bytes(data.len());
        for value in lengths.values(data) {
            self.push(V::from_bytes(value));
        }
    }

    /// Appends byte arrays of the given `lengths`, their bytes written in place by `write`:
    /// it is given them back to back, followed by [`GROWN_SLACK`] bytes more that it may
    /// overwrite, and what it leaves there is the values. Where the sink does not hold its
    /// values that way it appends nothing and gives `write` back (callers then build the
    /// values elsewhere and use [`Sink::extend_back_to_back`]). Lets a decoder build values
    /// where they end up, without a copy.
    fn extend_in_place<F: FnOnce(&mut [u8])>(&mut self, lengths: &[u32], write: F) -> Result<(), F>
    where
        V: ByteValue,
    {
        let _ = lengths;
        Err(write)
    }
}

/// The span `(start, end)` in `data` of the byte array whose 4-byte little-endian length is at
/// `at` (PLAIN's layout), or `None` if the length or the bytes it counts pass the end of `data`.
#[inline(always)]
pub(crate) fn prefixed_value(data: &[u8], at: usize) -> Option<(usize, usize)> {
    let start = at.checked_add(4)?;
    let &[a, b, c, d] = data.get(at..start)? else {
        return None;
    };
    let end = start.checked_add(u32::from_le_bytes([a, b, c, d]) as usize)?;
    (end <= data.len()).then_some((start, end))
}

/// The spans of byte arrays lying each right after its 4-byte little-endian length (PLAIN's
/// layout), found as they are taken: up to `n` of them from the start of `data`, ending at
/// one that passes the end of `data`.
///
/// ```
/// use pqcodec_core::LengthPrefixed;
///
/// let data = [2, 0, 0, 0, b'h', b'i', 0, 0, 0, 0, 9, 0];
/// let mut values = LengthPrefixed::new(&data, 3);
/// assert_eq!(values.by_ref().collect::<Vec<_>>(), [(4, 6), (10, 10)]);
/// assert_eq!((values.left(), values.position()), (1, 10));
/// ```
#[derive(Debug, Clone)]
pub struct LengthPrefixed<'d> {
    data: &'d [u8],
    at: usize,
    left: usize,
}

impl<'d> LengthPrefixed<'d> {
    /// The first `n` byte arrays of `data`.
    pub fn new(data: &'d [u8], n: usize) -> Self {
        LengthPrefixed {
            data,
            at: 0,
            left: n,
        }
    }

    /// The bytes taken so far, lengths included: where the next length is.
    pub fn position(&self) -> usize {
        self.at
    }

    /// The byte arrays not taken yet, counting one that passes the end of the data.
    pub fn left(&self) -> usize {
        self.left
    }
}

impl Iterator for LengthPrefixed<'_> {
    type Item = (usize, usize);

    #[inline(always)]
    fn next(&mut self) -> Option<(usize, usize)> {
        if self.left == 0 {
            return None;
        }
        let span = prefixed_value(self.data, self.at)?;
        self.left -= 1;
        self.at = span.1;
        Some(span)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.left))
    }
}

impl<V: Copy> Sink<V> for Vec<V> {
    #[inline]
    fn reserve(&mut self, additional: usize) {
        Vec::reserve(self, additional);
    }
    #[inline]
    fn push(&mut self, value: &V) {
        Vec::push(self, *value);
    }
    #[inline]
    fn push_repeated(&mut self, value: &V, count: usize) {
        self.resize(self.len() + count, *value);
    }
    #[inline]
    fn extend_from_slice(&mut self, values: &[V]) {
        Vec::extend_from_slice(self, values);
    }
    #[inline]
    fn extend_from_iter<I>(&mut self, values: I)
    where
        V: NativeType,
        I: IntoIterator<Item = V>,
    {
        Vec::extend(self, values);
    }
    #[inline]
    fn extend_from_le_bytes(&mut self, bytes: Data<'_>)
    where
        V: NativeType,
    {
        V::extend_from_le(&bytes, self);
    }
    #[inline]
    fn grow_le_bytes(&mut self, count: usize) -> Option<&mut [u8]>
    where
        V: NativeType,
    {
        V::grow_le(self, count)
    }
    #[inline]
    fn grow_slots(&mut self, count: usize) -> Option<&mut [V]>
    where
        V: NativeType,
    {
        let len = self.len();
        self.resize(len.checked_add(count)?, V::default());
        Some(&mut self[len..])
    }
}

impl Sink<[u8]> for Vec<Vec<u8>> {
    fn reserve(&mut self, additional: usize) {
        Vec::reserve(self, additional);
    }
    fn push(&mut self, value: &[u8]) {
        Vec::push(self, value.to_vec());
    }
}

impl<V: ?Sized, S: Sink<V> + ?Sized> Sink<V> for &mut S {
    fn reserve(&mut self, additional: usize) {
        (**self).reserve(additional);
    }
    fn reserve_bytes(&mut self, additional: usize) {
        (**self).reserve_bytes(additional);
    }
    fn push(&mut self, value: &V) {
        (**self).push(value);
    }
    fn push_repeated(&mut self, value: &V, count: usize) {
        (**self).push_repeated(value, count);
    }
    fn extend_from_slice(&mut self, values: &[V])
    where
        V: Sized,
    {
        (**self).extend_from_slice(values);
    }
    fn extend_from_iter<I>(&mut self, values: I)
    where
        V: NativeType,
        I: IntoIterator<Item = V>,
    {
        (**self).extend_from_iter(values);
    }
    fn extend_from_le_bytes(&mut self, bytes: Data<'_>)
    where
        V: NativeType,
    {
        (**self).extend_from_le_bytes(bytes);
    }
    fn grow_le_bytes(&mut self, count: usize) -> Option<&mut [u8]>
    where
        V: NativeType,
    {
        (**self).grow_le_bytes(count)
    }
    fn grow_slots(&mut self, count: usize) -> Option<&mut [V]>
    where
        V: NativeType,
    {
        (**self).grow_slots(count)
    }
    fn extend_from_spans<I>(&mut self, data: Data<'_>, spans: I)
    where
        V: ByteValue,
        I: IntoIterator<Item = (usize, usize)>,
    {
        (**self).extend_from_spans(data, spans);
    }
    fn extend_from_prefixed(&mut self, data: Data<'_>, n: usize) -> Option<usize>
    where
        V: ByteValue,
    {
        (**self).extend_from_prefixed(data, n)
    }
    fn extend_back_to_back(&mut self, data: Data<'_>, lengths: Lengths<'_>)
    where
        V: ByteValue,
    {
        (**self).extend_back_to_back(data, lengths);
    }
    fn extend_in_place<F: FnOnce(&mut [u8])>(&mut self, lengths: &[u32], write: F) -> Result<(), F>
    where
        V: ByteValue,
    {
        (**self).extend_in_place(lengths, write)
    }
}

/// An owned, growable, indexable run of values of one physical type: `Vec<i32>`, `Vec<bool>`,
/// [`ByteArrays`](crate::ByteArrays)...
pub trait ValueBuffer<V: ?Sized>: Sink<V> + Default + Clone + Debug + Send + Sync {
    /// Number of values.
    fn len(&self) -> usize;
    /// Whether there are no values.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The value at `index`.
    fn get(&self, index: usize) -> Option<&V>;
    /// The values in order.
    fn values<'s>(&'s self) -> impl Iterator<Item = &'s V>
    where
        V: 's;
    /// Removes every value, keeping the allocation.
    fn clear(&mut self);
    /// Removes every value and makes room for exactly `values` values of `bytes` bytes in all
    /// (variable-width values; fixed-width ones ignore it), keeping an allocation of about
    /// that size: a buffer reused for values of about one size neither grows past them nor
    /// stays at the largest size it ever held.
    fn reset(&mut self, values: usize, bytes: usize);
}

/// Empties `v` and gives it room for exactly `n` items: its allocation kept unless too small,
/// or a quarter larger than `n` (then replaced, not kept at the largest size ever needed).
pub(crate) fn reset_vec<T>(v: &mut Vec<T>, n: usize) {
    v.clear();
    if v.capacity() > n.saturating_add(n / 4) {
        *v = Vec::with_capacity(n);
    } else {
        v.reserve_exact(n);
    }
}

impl<V: Copy + Debug + Send + Sync> ValueBuffer<V> for Vec<V> {
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn get(&self, index: usize) -> Option<&V> {
        <[V]>::get(self, index)
    }
    fn values<'s>(&'s self) -> impl Iterator<Item = &'s V>
    where
        V: 's,
    {
        self.iter()
    }
    fn clear(&mut self) {
        Vec::clear(self);
    }
    fn reset(&mut self, values: usize, _: usize) {
        reset_vec(self, values);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reused buffer is emptied and sized to what comes: kept when about right, grown
    /// exactly, let go when far too large.
    #[test]
    fn reset_sizes_the_buffer_to_what_comes() {
        let mut v: Vec<u64> = (0..1000).collect();
        let kept = v.as_ptr();
        ValueBuffer::reset(&mut v, 900, 0);
        assert!(v.is_empty());
        assert_eq!((v.as_ptr(), v.capacity()), (kept, 1000));
        ValueBuffer::reset(&mut v, 1500, 0);
        assert_eq!(v.capacity(), 1500);
        ValueBuffer::reset(&mut v, 100, 0);
        assert_eq!(v.capacity(), 100);

        let mut b = crate::ByteArrays::new();
        b.push(b"abc");
        ValueBuffer::reset(&mut b, 2, 10);
        assert!(ValueBuffer::is_empty(&b));
        b.push(b"de");
        assert_eq!(b.get(0), Some(&b"de"[..]));
    }

    /// A sink with only `push`: what the defaults append.
    #[derive(Default)]
    struct Pushed(Vec<Vec<u8>>);

    impl Sink<[u8]> for Pushed {
        fn push(&mut self, value: &[u8]) {
            self.0.push(value.to_vec());
        }
    }

    #[test]
    fn byte_arrays_by_default_stop_at_the_first_value_outside_the_data() {
        let data = b"abcdefg";
        let mut spans = Pushed::default();
        spans.extend_from_spans(data.into(), [(1, 3), (0, 0), (5, 9), (0, 1)]);
        assert_eq!(spans.0, [&b"bc"[..], b""]);

        let mut each = Pushed::default();
        each.extend_back_to_back(data.into(), Lengths::Each(&[2, 0, 4, 2]));
        assert_eq!(each.0, [&b"ab"[..], b"", b"cdef"]);

        let mut all = Pushed::default();
        all.extend_back_to_back(data.into(), Lengths::All(3));
        assert_eq!(all.0, [&b"abc"[..], b"def"]);
        all.extend_back_to_back(data.into(), Lengths::All(0));
        assert_eq!(all.0.len(), 2);
        assert!(all.extend_in_place(&[1], |_| {}).is_err());
    }
}
