use std::fmt::Debug;

use crate::NativeType;

/// Values chunk-converted on the stack by the default [`Sink::extend_from_le_bytes`].
const CHUNK: usize = 256;

/// The unsized value of the byte-array types: `[u8]`, so that [`Sink::extend_from_lengths`]
/// is callable on `Sink<[u8]>` only.
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

/// Where a decoder appends values: a `Vec`, [`ByteArrays`](crate::ByteArrays), or an Arrow
/// buffer builder in `pqcodec-arrow`.
///
/// Runs reach the sink as runs ([`Sink::push_repeated`]) and fixed-width values as slices
/// ([`Sink::extend_from_slice`]), so a sink can store both without a per-value call.
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

    /// Appends the fixed-width values whose little-endian bytes are `bytes` (a whole number
    /// of values; a trailing partial value is ignored).
    fn extend_from_le_bytes(&mut self, bytes: &[u8])
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

    /// Appends `dictionary[i]` for each `i` of `indices`, an index past the end of `dictionary`
    /// (which is not empty) looking up its last value; returns whether any index was past the
    /// end. One pass, no branch per index. The default writes into [`Sink::grow_slots`] where
    /// the sink lends them, value by value otherwise.
    fn extend_from_lookup(&mut self, dictionary: &[V], indices: &[u32]) -> bool
    where
        V: NativeType,
    {
        if let Some(slots) = self.grow_slots(indices.len()) {
            return look_up(dictionary, indices, slots);
        }
        let last = dictionary.len() - 1;
        let mut past = false;
        for &index in indices {
            past |= index as usize > last;
            self.push(&dictionary[(index as usize).min(last)]);
        }
        past
    }

    /// Appends byte arrays stored back to back in `data`, value `i` being `lengths[i]`
    /// bytes long. Callers pass lengths summing to `data.len()`; a length past the end of
    /// `data` stops the append there.
    fn extend_from_lengths(&mut self, lengths: &[u32], data: &[u8])
    where
        V: ByteValue,
    {
        self.reserve(lengths.len());
        self.reserve_bytes(data.len());
        let mut rest = data;
        for &len in lengths {
            let Some((value, tail)) = rest.split_at_checked(len as usize) else {
                return;
            };
            self.push(V::from_bytes(value));
            rest = tail;
        }
    }

    /// Appends the byte arrays `data[start..end]` for each `(start, end)` of `spans`, in
    /// order; a span outside `data` stops the append there. Bytes of `data` past a span may
    /// be read (never appended): a sink may copy whole words.
    fn extend_from_spans(&mut self, data: &[u8], spans: &[(usize, usize)])
    where
        V: ByteValue,
    {
        let (spans, bytes) = spans_within(data, spans);
        self.reserve(spans.len());
        self.reserve_bytes(bytes);
        for &(start, end) in spans {
            self.push(V::from_bytes(&data[start..end]));
        }
    }

    /// Appends the `n` byte arrays at the start of `data`, each after its 4-byte little-endian
    /// length (PLAIN's layout), and returns the bytes they take; `None`, appending nothing, if
    /// `data` does not hold `n` of them.
    fn extend_from_prefixed(&mut self, data: &[u8], n: usize) -> Option<usize>
    where
        V: ByteValue,
    {
        push_prefixed(self, data, n)
    }

    /// Appends the byte arrays of `width` bytes each lying back to back in `data`
    /// (FIXED_LEN_BYTE_ARRAY's PLAIN layout); a trailing partial value is ignored, and so is
    /// `data` if `width` is 0.
    fn extend_from_fixed(&mut self, data: &[u8], width: usize)
    where
        V: ByteValue,
    {
        if width == 0 {
            return;
        }
        self.reserve(data.len() / width);
        self.reserve_bytes(data.len() / width * width);
        for value in data.chunks_exact(width) {
            self.push(V::from_bytes(value));
        }
    }

    /// Appends DELTA_BYTE_ARRAY's values: value `i` is the first `prefixes[i]` bytes of the
    /// value before it (`previous` for the first) followed by its suffix, the next
    /// `lengths[i]` bytes of `data` (the first from `start`); leaves the last value appended
    /// in `previous`. Bytes of `data` before `start` and past the suffixes may be read, never
    /// appended. Callers check that each prefix is at most the length of the value before it
    /// and that `data` holds the suffixes; what is appended otherwise is unspecified, but
    /// nothing panics.
    fn extend_from_deltas(
        &mut self,
        previous: &mut Vec<u8>,
        prefixes: &[u32],
        lengths: &[u32],
        data: &[u8],
        start: usize,
    ) where
        V: ByteValue,
    {
        push_deltas(
            self,
            previous,
            prefixes,
            lengths,
            data.get(start..).unwrap_or_default(),
        );
    }
}

/// Writes `dictionary[i]` for each `i` of `indices` to `slots`, as
/// [`Sink::extend_from_lookup`] appends them: an index past the end of `dictionary` (not empty)
/// looks up its last value; returns whether any index was past the end.
#[inline]
pub fn look_up<V: Copy>(dictionary: &[V], indices: &[u32], slots: &mut [V]) -> bool {
    let last = dictionary.len() - 1;
    let mut past = false;
    for (slot, &index) in slots.iter_mut().zip(indices) {
        past |= index as usize > last;
        *slot = dictionary[(index as usize).min(last)];
    }
    past
}

/// [`Sink::extend_from_deltas`] by [`Sink::push`]es, each value rebuilt in `previous`: what a
/// sink without a faster way does.
pub fn push_deltas<V, S>(
    sink: &mut S,
    previous: &mut Vec<u8>,
    prefixes: &[u32],
    lengths: &[u32],
    suffixes: &[u8],
) where
    V: ByteValue + ?Sized,
    S: Sink<V> + ?Sized,
{
    sink.reserve(prefixes.len().min(lengths.len()));
    let mut rest = suffixes;
    for (&prefix, &len) in prefixes.iter().zip(lengths) {
        let (suffix, tail) = rest.split_at_checked(len as usize).unwrap_or((rest, &[]));
        rest = tail;
        previous.truncate(prefix as usize);
        previous.extend_from_slice(suffix);
        sink.push(V::from_bytes(previous));
    }
}

/// [`Sink::extend_from_prefixed`] by [`Sink::push`]es, once every length is checked: what a
/// sink without a faster way does.
pub fn push_prefixed<V, S>(sink: &mut S, data: &[u8], n: usize) -> Option<usize>
where
    V: ByteValue + ?Sized,
    S: Sink<V> + ?Sized,
{
    let mut at = 0;
    for _ in 0..n {
        (_, at) = prefixed_value(data, at)?;
    }
    sink.reserve(n);
    sink.reserve_bytes(at - 4 * n);
    let mut at = 0;
    for _ in 0..n {
        let (start, end) = prefixed_value(data, at)?;
        sink.push(V::from_bytes(&data[start..end]));
        at = end;
    }
    Some(at)
}

/// The span `(start, end)` in `data` of the byte array whose 4-byte little-endian length is at
/// `at` (PLAIN's layout), or `None` if the length or the bytes it counts pass the end of `data`.
#[inline(always)]
pub fn prefixed_value(data: &[u8], at: usize) -> Option<(usize, usize)> {
    let start = at.checked_add(4)?;
    let &[a, b, c, d] = data.get(at..start)? else {
        return None;
    };
    let end = start.checked_add(u32::from_le_bytes([a, b, c, d]) as usize)?;
    (end <= data.len()).then_some((start, end))
}

/// The spans of `spans` up to the first outside `data` (as [`Sink::extend_from_spans`] appends
/// them), and how many bytes they cover.
pub fn spans_within<'s>(data: &[u8], spans: &'s [(usize, usize)]) -> (&'s [(usize, usize)], usize) {
    let mut bytes = 0usize;
    let mut count = 0;
    for &(start, end) in spans {
        if start > end || end > data.len() {
            break;
        }
        bytes += end - start;
        count += 1;
    }
    (&spans[..count], bytes)
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
    fn extend_from_le_bytes(&mut self, bytes: &[u8])
    where
        V: NativeType,
    {
        V::extend_from_le(bytes, self);
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
    #[inline]
    fn extend_from_lookup(&mut self, dictionary: &[V], indices: &[u32]) -> bool
    where
        V: NativeType,
    {
        // Extending by a mapped slice iterator writes each value once (no zeroed slots first).
        let last = dictionary.len() - 1;
        let mut past = false;
        self.extend(indices.iter().map(|&index| {
            past |= index as usize > last;
            dictionary[(index as usize).min(last)]
        }));
        past
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
    fn extend_from_le_bytes(&mut self, bytes: &[u8])
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
    fn extend_from_lookup(&mut self, dictionary: &[V], indices: &[u32]) -> bool
    where
        V: NativeType,
    {
        (**self).extend_from_lookup(dictionary, indices)
    }
    fn extend_from_lengths(&mut self, lengths: &[u32], data: &[u8])
    where
        V: ByteValue,
    {
        (**self).extend_from_lengths(lengths, data);
    }
    fn extend_from_spans(&mut self, data: &[u8], spans: &[(usize, usize)])
    where
        V: ByteValue,
    {
        (**self).extend_from_spans(data, spans);
    }
    fn extend_from_prefixed(&mut self, data: &[u8], n: usize) -> Option<usize>
    where
        V: ByteValue,
    {
        (**self).extend_from_prefixed(data, n)
    }
    fn extend_from_fixed(&mut self, data: &[u8], width: usize)
    where
        V: ByteValue,
    {
        (**self).extend_from_fixed(data, width);
    }
    fn extend_from_deltas(
        &mut self,
        previous: &mut Vec<u8>,
        prefixes: &[u32],
        lengths: &[u32],
        data: &[u8],
        start: usize,
    ) where
        V: ByteValue,
    {
        (**self).extend_from_deltas(previous, prefixes, lengths, data, start);
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
    use crate::SliceSink;

    /// A sink that neither lends slots nor overrides the look-up: the default, value by value.
    struct Pushed(Vec<i64>);

    impl Sink<i64> for Pushed {
        fn push(&mut self, value: &i64) {
            self.0.push(*value);
        }
    }

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

    #[test]
    fn look_ups_agree_whatever_the_sink() {
        let dictionary = [10i64, 20, 30];
        for (indices, past) in [(&[2u32, 0, 1, 1][..], false), (&[1, 7, 0][..], true)] {
            let want: Vec<i64> = indices
                .iter()
                .map(|&i| dictionary[(i as usize).min(2)])
                .collect();

            let mut vec = vec![5];
            assert_eq!(vec.extend_from_lookup(&dictionary, indices), past);
            assert_eq!(vec[1..], want);

            let mut pushed = Pushed(Vec::new());
            assert_eq!(pushed.extend_from_lookup(&dictionary, indices), past);
            assert_eq!(pushed.0, want);

            let mut slots = [0i64; 4];
            let mut lent = SliceSink::new(&mut slots);
            assert_eq!(lent.extend_from_lookup(&dictionary, indices), past);
            assert_eq!(lent.len(), indices.len());
            assert_eq!(slots[..indices.len()], want);
        }
    }
}
