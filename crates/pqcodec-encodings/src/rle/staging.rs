//! Values put together on the stack and handed to a sink in blocks.
//!
//! The hybrid's runs are often a few values long: a sink call per run (a `resize` for an RLE
//! run, a `memcpy` for a bit-packed one) costs more than the values it moves. Decoders stage
//! short runs and unpacked values here and hand them over [`STAGE`] at a time.

use pqcodec_core::Sink;

/// Values a [`Staging`] holds before it hands them over.
pub(crate) const STAGE: usize = 256;

/// RLE runs at least this long go to the sink as one `push_repeated`, past the stage.
const LONG_RUN: usize = 64;

/// A block of values on their way to a sink; [`Staging::flush`] must end its use.
pub(crate) struct Staging<V> {
    buf: [V; STAGE],
    len: usize,
}

impl<V: Copy + Default> Staging<V> {
    pub(crate) fn new() -> Self {
        Staging {
            buf: [V::default(); STAGE],
            len: 0,
        }
    }

    /// The next `n` slots (`n` at most [`STAGE`]) for the caller to fill, after handing what
    /// is staged to `out` if they do not fit.
    #[inline]
    pub(crate) fn slots<S: Sink<V> + ?Sized>(&mut self, out: &mut S, n: usize) -> &mut [V] {
        if self.len + n > STAGE {
            self.flush(out);
        }
        let start = self.len;
        self.len += n;
        &mut self.buf[start..start + n]
    }

    /// Stages `count` copies of `value`, or hands a long run to `out` whole.
    #[inline]
    pub(crate) fn repeat<S: Sink<V> + ?Sized>(&mut self, out: &mut S, value: V, count: usize) {
        if count >= LONG_RUN {
            self.flush(out);
            out.push_repeated(&value, count);
        } else {
            // A fixed-length fill (no loop to mispredict the end of); the slots past `count`
            // are staged values' room, overwritten before they are handed over.
            self.slots(out, LONG_RUN).fill(value);
            self.len -= LONG_RUN - count;
        }
    }

    /// Hands what is staged to `out`.
    #[inline]
    pub(crate) fn flush<S: Sink<V> + ?Sized>(&mut self, out: &mut S) {
        if self.len > 0 {
            out.extend_from_slice(&self.buf[..self.len]);
            self.len = 0;
        }
    }
}
