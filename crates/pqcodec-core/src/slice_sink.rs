use crate::{Data, NativeType, Sink};

/// A [`Sink`] writing into a slice the caller holds, front to back: decoding into memory
/// allocated (and initialised) once, with no growth or zeroing per read. See
/// [`Decoder::read_into`](crate::Decoder::read_into).
///
/// Values past the end of the slice are not stored; [`SliceSink::overflowed`] tells whether
/// any came.
#[derive(Debug)]
pub struct SliceSink<'a, V> {
    slots: &'a mut [V],
    len: usize,
    overflowed: bool,
}

impl<'a, V: Copy> SliceSink<'a, V> {
    /// A sink filling `slots` from the start.
    pub fn new(slots: &'a mut [V]) -> Self {
        SliceSink {
            slots,
            len: 0,
            overflowed: false,
        }
    }

    /// Number of values written.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no value has been written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether values came after the slice was full (and were dropped).
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// The next `count` free slots, or as many as are left (noting the overflow), now
    /// counted as written.
    #[inline]
    fn take(&mut self, count: usize) -> &mut [V] {
        let free = self.slots.len() - self.len;
        if count > free {
            self.overflowed = true;
        }
        let start = self.len;
        self.len += count.min(free);
        &mut self.slots[start..self.len]
    }
}

impl<V: Copy> Sink<V> for SliceSink<'_, V> {
    #[inline]
    fn push(&mut self, value: &V) {
        if let Some(slot) = self.take(1).first_mut() {
            *slot = *value;
        }
    }

    #[inline]
    fn push_repeated(&mut self, value: &V, count: usize) {
        self.take(count).fill(*value);
    }

    #[inline]
    fn extend_from_slice(&mut self, values: &[V]) {
        let slots = self.take(values.len());
        let n = slots.len();
        slots.copy_from_slice(&values[..n]);
    }

    #[inline]
    fn extend_from_le_bytes(&mut self, bytes: Data<'_>)
    where
        V: NativeType,
    {
        let slots = self.take(bytes.len() / V::SIZE);
        let n = slots.len();
        match V::le_bytes_of_mut(slots) {
            Some(dst) => dst.copy_from_slice(&bytes[..n * V::SIZE]),
            None => {
                for (slot, value) in slots.iter_mut().zip(bytes.chunks_exact(V::SIZE)) {
                    *slot = V::from_le_slice(value);
                }
            }
        }
    }

    fn extend_from_iter<I>(&mut self, values: I)
    where
        V: NativeType,
        I: IntoIterator<Item = V>,
    {
        let mut values = values.into_iter();
        let free = &mut self.slots[self.len..];
        if let (count, Some(most)) = values.size_hint()
            && count == most
            && count <= free.len()
        {
            // An exact count that fits: zipped by value, a slice's iterator and the values'
            // make one counted loop.
            for (slot, value) in free[..count].iter_mut().zip(values) {
                *slot = value;
            }
            self.len += count;
            return;
        }
        let mut filled = 0;
        for slot in free.iter_mut() {
            let Some(value) = values.next() else {
                break;
            };
            *slot = value;
            filled += 1;
        }
        self.len += filled;
        self.overflowed |= values.next().is_some();
    }

    #[inline]
    fn grow_le_bytes(&mut self, count: usize) -> Option<&mut [u8]>
    where
        V: NativeType,
    {
        // Only whole requests: a caller writes `count` values into what this returns.
        if count > self.slots.len() - self.len || V::le_bytes_of_mut(&mut []).is_none() {
            return None;
        }
        V::le_bytes_of_mut(self.take(count))
    }

    #[inline]
    fn grow_slots(&mut self, count: usize) -> Option<&mut [V]>
    where
        V: NativeType,
    {
        // Only whole requests, as for `grow_le_bytes`.
        if count > self.slots.len() - self.len {
            return None;
        }
        Some(self.take(count))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_front_to_back_and_drops_what_does_not_fit() {
        let mut slots = [0i32; 6];
        let mut sink = SliceSink::new(&mut slots);
        sink.push(&1);
        sink.push_repeated(&2, 2);
        sink.extend_from_slice(&[3, 4]);
        assert_eq!((sink.len(), sink.overflowed()), (5, false));
        sink.extend_from_le_bytes((&[5, 0, 0, 0, 6, 0, 0, 0]).into());
        assert_eq!((sink.len(), sink.overflowed()), (6, true));
        sink.push(&7);
        assert_eq!(sink.len(), 6);
        assert_eq!(slots, [1, 2, 2, 3, 4, 5]);
    }

    #[test]
    fn grows_in_place_only_by_whole_requests() {
        let mut slots = [0i64; 3];
        let mut sink = SliceSink::new(&mut slots);
        assert!(sink.grow_le_bytes(4).is_none());
        assert!(!sink.overflowed() && sink.is_empty());
        sink.grow_le_bytes(2).unwrap()[8] = 9;
        assert_eq!(sink.len(), 2);
        assert_eq!(slots, [0, 9, 0]);
    }

    #[test]
    fn takes_an_iterator_up_to_the_end_of_either() {
        let mut slots = [0i32; 4];
        let mut sink = SliceSink::new(&mut slots);
        sink.extend_from_iter([1, 2]);
        sink.extend_from_iter([3, 4]);
        assert_eq!((sink.len(), sink.overflowed()), (4, false));
        sink.extend_from_iter(std::iter::empty());
        assert!(!sink.overflowed());
        sink.extend_from_iter([5]);
        assert_eq!((sink.len(), sink.overflowed()), (4, true));
        assert_eq!(slots, [1, 2, 3, 4]);
    }

    #[test]
    fn lends_slots_only_for_whole_requests() {
        let mut slots = [0i64; 3];
        let mut sink = SliceSink::new(&mut slots);
        assert!(sink.grow_slots(0).is_some_and(|s| s.is_empty()));
        assert!(sink.grow_slots(4).is_none());
        assert!(!sink.overflowed() && sink.is_empty());
        sink.push(&1);
        sink.grow_slots(2).unwrap().copy_from_slice(&[2, 3]);
        assert!(sink.grow_slots(1).is_none());
        assert_eq!(slots, [1, 2, 3]);
    }
}
