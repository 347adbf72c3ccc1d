//! A decoder kept together with the page bytes (and dictionary) it borrows.
//!
//! The codec core's decoders borrow their input (`Decoder<'a>` over `&'a [u8]`), but a column
//! reader reads a page across several batches, so it must own the page and its decoder side by
//! side. [`Pinned`] does that: the bytes live in an Arrow [`Buffer`] (reference counted, so its
//! heap address never moves), the dictionary in an [`Arc`], and the decoder is only reachable
//! through [`Pinned::with_mut`], whose closure cannot let the borrowed lifetime escape.

use std::sync::Arc;

use arrow_buffer::Buffer;

/// A type constructor over a lifetime: `Of<'a>` is the decoder borrowing `'a` data.
pub(crate) trait Family: 'static {
    /// The type borrowing data of lifetime `'a`.
    type Of<'a>;
}

/// A `F::Of<'_>` borrowing `bytes` and `extra`, which it keeps alive.
pub(crate) struct Pinned<F: Family, X: Send + Sync + 'static = ()> {
    // Declared first: dropped before the data it borrows.
    value: F::Of<'static>,
    _bytes: Buffer,
    _extra: Option<Arc<X>>,
}

impl<F: Family, X: Send + Sync + 'static> Pinned<F, X> {
    /// Builds the value from `bytes` and `extra`, keeping both alive as long as it lives.
    pub(crate) fn try_new<E>(
        bytes: Buffer,
        extra: Option<Arc<X>>,
        build: impl for<'a> FnOnce(&'a [u8], Option<&'a X>) -> Result<F::Of<'a>, E>,
    ) -> Result<Self, E> {
        // SAFETY: `bytes` points into the heap allocation of a reference-counted `Buffer` that
        // this struct owns and never mutates or releases before `value` is dropped (fields drop
        // in declaration order, `value` first); moving the struct does not move the heap bytes.
        // The same holds for `extra`, behind an `Arc` that is never mutated. The closure is
        // generic over `'a`, so it cannot store the references anywhere but in its result, and
        // the result is only reachable through `with_mut`, which hands it out at a lifetime
        // bounded by the borrow of `self`.
        let slice: &'static [u8] =
            unsafe { std::slice::from_raw_parts(bytes.as_ptr(), bytes.len()) };
        // SAFETY: as above, the `Arc` keeps the value at a stable address for as long as `self`.
        let extra_ref: Option<&'static X> = extra.as_ref().map(|x| unsafe { &*Arc::as_ptr(x) });
        let value = build(slice, extra_ref)?;
        Ok(Pinned {
            value,
            _bytes: bytes,
            _extra: extra,
        })
    }

    /// Runs `f` on the value, at a lifetime that cannot outlive this borrow.
    pub(crate) fn with_mut<R>(&mut self, f: impl for<'a> FnOnce(&'a mut F::Of<'a>) -> R) -> R {
        let value: *mut F::Of<'static> = &mut self.value;
        // SAFETY: only the lifetime parameter changes, to one the closure cannot name outside
        // its own body (it is higher-ranked and `R` cannot mention it), so nothing borrowing the
        // pinned data can escape; the data outlives the call because `self` is borrowed for it.
        f(unsafe { &mut *value.cast::<F::Of<'_>>() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct SliceFamily;
    impl Family for SliceFamily {
        type Of<'a> = (&'a [u8], usize);
    }

    #[test]
    fn keeps_bytes_alive_across_moves() {
        let buffer = Buffer::from_vec(vec![1u8, 2, 3, 4]);
        let pinned: Pinned<SliceFamily, Vec<u8>> =
            Pinned::try_new::<()>(buffer, Some(Arc::new(vec![9])), |bytes, extra| {
                Ok((bytes, extra.map_or(0, |e| e.len())))
            })
            .unwrap();
        let mut moved = Box::new(pinned);
        let sum = moved.with_mut(|(bytes, n)| {
            let s: u32 = bytes.iter().map(|&b| u32::from(b)).sum();
            *bytes = &bytes[1..];
            s + *n as u32
        });
        assert_eq!(sum, 11);
        assert_eq!(moved.with_mut(|(bytes, _)| bytes.len()), 3);
    }
}
